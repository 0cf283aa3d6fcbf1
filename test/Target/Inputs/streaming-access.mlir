// An rmsnorm and a bias + GELU with the experimental hkg.streaming_access
// (nontemporal row / element streams), and a plain rmsnorm, for the NVVM and
// ROCDL streaming-access tests.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @streams(%x: tensor<256x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>)
      -> (tensor<256x8192xbf16>, tensor<256x8192xbf16>, tensor<256x8192xbf16>) {
    %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {hkg.streaming_access} : tensor<256x8192xbf16> -> tensor<256x8192xbf16>
    %1 = hkg.elementwise %x, %b {hkg.streaming_access} : tensor<256x8192xbf16>, tensor<8192xbf16> -> tensor<256x8192xbf16> {
    ^bb0(%a: bf16, %c: bf16):
      %af = arith.extf %a : bf16 to f32
      %cf = arith.extf %c : bf16 to f32
      %s = arith.addf %af, %cf : f32
      %e = math.exp %s : f32
      %o = arith.truncf %e : f32 to bf16
      hkg.yield %o : bf16
    }
    %2 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) : tensor<256x8192xbf16> -> tensor<256x8192xbf16>
    return %0, %1, %2 : tensor<256x8192xbf16>, tensor<256x8192xbf16>, tensor<256x8192xbf16>
  }
}
