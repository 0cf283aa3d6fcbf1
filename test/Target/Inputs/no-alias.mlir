// An rmsnorm with plain pointers (the default), and one marked hkg.no_alias
// (llvm.noalias / llvm.readonly pointers), for the NVVM no-alias test; both
// with plain loads (hkg.load_eviction = "normal"), whose form the pointers
// decide (the default evict-last loads are inline PTX, which .nc is not).
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @norms(%x: tensor<256x8192xbf16>, %w: tensor<8192xbf16>)
      -> (tensor<256x8192xbf16>, tensor<256x8192xbf16>) {
    %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {hkg.load_eviction = "normal"} : tensor<256x8192xbf16> -> tensor<256x8192xbf16>
    %1 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {hkg.no_alias, hkg.load_eviction = "normal"} : tensor<256x8192xbf16> -> tensor<256x8192xbf16>
    return %0, %1 : tensor<256x8192xbf16>, tensor<256x8192xbf16>
  }
}
