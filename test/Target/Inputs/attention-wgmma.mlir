// Attention prefill shapes whose sm_90 default is warpgroup MMA, for
// test/Target/NVVM/attention-wgmma.test: causal D 128 (GQA), 64 and 256;
// non-causal D 128; ragged lengths in the bshd layout; wgmma_overlap = 1
// (causal D 128, D 256); wgmma_pipeline = 1 (causal D 128, non-causal
// D 256).
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @causal_d128(%q: tensor<2x8x512x128xbf16>, %k: tensor<2x2x512x128xbf16>, %v: tensor<2x2x512x128xbf16>) -> tensor<2x8x512x128xbf16> {
    %0 = hkg.attention %q, %k, %v causal : tensor<2x8x512x128xbf16>, tensor<2x2x512x128xbf16>, tensor<2x2x512x128xbf16> -> tensor<2x8x512x128xbf16>
    return %0 : tensor<2x8x512x128xbf16>
  }
  func.func @causal_d64(%q: tensor<1x4x512x64xbf16>, %k: tensor<1x4x512x64xbf16>, %v: tensor<1x4x512x64xbf16>) -> tensor<1x4x512x64xbf16> {
    %0 = hkg.attention %q, %k, %v causal : tensor<1x4x512x64xbf16>, tensor<1x4x512x64xbf16>, tensor<1x4x512x64xbf16> -> tensor<1x4x512x64xbf16>
    return %0 : tensor<1x4x512x64xbf16>
  }
  func.func @causal_d256(%q: tensor<1x4x512x256xbf16>, %k: tensor<1x4x512x256xbf16>, %v: tensor<1x4x512x256xbf16>) -> tensor<1x4x512x256xbf16> {
    %0 = hkg.attention %q, %k, %v causal : tensor<1x4x512x256xbf16>, tensor<1x4x512x256xbf16>, tensor<1x4x512x256xbf16> -> tensor<1x4x512x256xbf16>
    return %0 : tensor<1x4x512x256xbf16>
  }
  func.func @noncausal_d128(%q: tensor<1x4x512x128xbf16>, %k: tensor<1x4x512x128xbf16>, %v: tensor<1x4x512x128xbf16>) -> tensor<1x4x512x128xbf16> {
    %0 = hkg.attention %q, %k, %v : tensor<1x4x512x128xbf16>, tensor<1x4x512x128xbf16>, tensor<1x4x512x128xbf16> -> tensor<1x4x512x128xbf16>
    return %0 : tensor<1x4x512x128xbf16>
  }
  func.func @ragged_bshd(%q: tensor<1x200x4x128xbf16>, %k: tensor<1x333x2x128xbf16>, %v: tensor<1x333x2x128xbf16>) -> tensor<1x200x4x128xbf16> {
    %0 = hkg.attention %q, %k, %v causal layout(bshd) : tensor<1x200x4x128xbf16>, tensor<1x333x2x128xbf16>, tensor<1x333x2x128xbf16> -> tensor<1x200x4x128xbf16>
    return %0 : tensor<1x200x4x128xbf16>
  }
  func.func @overlap_d128(%q: tensor<2x8x512x128xbf16>, %k: tensor<2x2x512x128xbf16>, %v: tensor<2x2x512x128xbf16>) -> tensor<2x8x512x128xbf16> {
    %0 = hkg.attention %q, %k, %v causal {schedule = #hkg.schedule<kv_split = 1, mma = wgmma_64x128x16, pack_gqa = 0, stages = 2, tile_kv = 128, tile_q = 128, waves = 8, wgmma_overlap = 1>} : tensor<2x8x512x128xbf16>, tensor<2x2x512x128xbf16>, tensor<2x2x512x128xbf16> -> tensor<2x8x512x128xbf16>
    return %0 : tensor<2x8x512x128xbf16>
  }
  func.func @overlap_d256(%q: tensor<1x4x512x256xbf16>) -> tensor<1x4x512x256xbf16> {
    %0 = hkg.attention %q, %q, %q causal {schedule = #hkg.schedule<kv_split = 1, mma = wgmma_64x128x16, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 128, waves = 8, wgmma_overlap = 1>} : tensor<1x4x512x256xbf16>, tensor<1x4x512x256xbf16>, tensor<1x4x512x256xbf16> -> tensor<1x4x512x256xbf16>
    return %0 : tensor<1x4x512x256xbf16>
  }
  func.func @pipeline_d128(%q: tensor<2x8x512x128xbf16>, %k: tensor<2x2x512x128xbf16>, %v: tensor<2x2x512x128xbf16>) -> tensor<2x8x512x128xbf16> {
    %0 = hkg.attention %q, %k, %v causal {schedule = #hkg.schedule<kv_split = 1, mma = wgmma_64x128x16, pack_gqa = 0, stages = 2, tile_kv = 128, tile_q = 128, waves = 8, wgmma_pipeline = 1>} : tensor<2x8x512x128xbf16>, tensor<2x2x512x128xbf16>, tensor<2x2x512x128xbf16> -> tensor<2x8x512x128xbf16>
    return %0 : tensor<2x8x512x128xbf16>
  }
  func.func @pipeline_d256(%q: tensor<1x4x512x256xbf16>) -> tensor<1x4x512x256xbf16> {
    %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<kv_split = 1, mma = wgmma_64x128x16, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 128, waves = 8, wgmma_pipeline = 1>} : tensor<1x4x512x256xbf16>, tensor<1x4x512x256xbf16>, tensor<1x4x512x256xbf16> -> tensor<1x4x512x256xbf16>
    return %0 : tensor<1x4x512x256xbf16>
  }
}
