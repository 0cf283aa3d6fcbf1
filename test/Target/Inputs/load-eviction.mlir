// Row and element streams under each load cache policy, for the NVVM and
// ROCDL load-eviction tests: the default (evict-last on NVIDIA, plain on
// AMD), "normal", and a row read twice (row_cache = none) under "first"
// (its output pass only) and "last" (both passes); an elementwise op with a
// broadcast bias (not a stream) under the default.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @streams(%x: tensor<256x8192xbf16>, %w: tensor<8192xbf16>)
      -> (tensor<256x8192xbf16>, tensor<256x8192xbf16>, tensor<256x8192xbf16>,
          tensor<256x8192xbf16>, tensor<256x8192xbf16>) {
    %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) : tensor<256x8192xbf16> -> tensor<256x8192xbf16>
    %1 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {hkg.load_eviction = "normal"} : tensor<256x8192xbf16> -> tensor<256x8192xbf16>
    %2 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {hkg.load_eviction = "first", schedule = #hkg.schedule<row_cache = none, rows_per_block = 1, threads = 512, unroll = 1, vector_width = 8>} : tensor<256x8192xbf16> -> tensor<256x8192xbf16>
    %3 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {hkg.load_eviction = "last", schedule = #hkg.schedule<row_cache = none, rows_per_block = 1, threads = 512, unroll = 1, vector_width = 8>} : tensor<256x8192xbf16> -> tensor<256x8192xbf16>
    %4 = hkg.elementwise %x, %w : tensor<256x8192xbf16>, tensor<8192xbf16> -> tensor<256x8192xbf16> {
    ^bb0(%a: bf16, %c: bf16):
      %af = arith.extf %a : bf16 to f32
      %cf = arith.extf %c : bf16 to f32
      %s = arith.addf %af, %cf : f32
      %o = arith.truncf %s : f32 to bf16
      hkg.yield %o : bf16
    }
    return %0, %1, %2, %3, %4 : tensor<256x8192xbf16>, tensor<256x8192xbf16>, tensor<256x8192xbf16>, tensor<256x8192xbf16>, tensor<256x8192xbf16>
  }
}
