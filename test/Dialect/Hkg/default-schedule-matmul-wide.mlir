// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-verify-schedule="chip=sm_90 require-schedule" -o /dev/null

// On sm_90 a problem with a 128 x 256 tile for every SM (132) defaults to
// those tiles (wgmma_64x256x16 per warpgroup) over 4 stages with one MMA
// group in flight and its results staged in LDS (epilogue_lds: the f32 tile,
// 128 KiB, fits B's 4 stages); a smaller one keeps 128 x 128 tiles of
// wgmma_64x128x16 without.

// 2048 x 4096: 16 x 16 = 256 tiles of 128 x 256.
// SM90-LABEL: func.func @wide
// SM90: #hkg.schedule<epilogue_lds = 1, {{.*}}mma = wgmma_64x256x16, {{.*}}stages = 4, {{.*}}tile_m = 128, tile_n = 256, {{.*}}waves_m = 2, waves_n = 1, wgmma_pending = 1
func.func @wide(%a: tensor<2048x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<2048x4096xbf16> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<2048x4096xbf16>, tensor<4096x4096xbf16> -> tensor<2048x4096xbf16>
  return %0 : tensor<2048x4096xbf16>
}

// 1024 x 4096: 8 x 16 = 128 tiles of 128 x 256, fewer than the SMs.
// SM90-LABEL: func.func @narrow
// SM90: #hkg.schedule<epilogue_lds = 0, {{.*}}mma = wgmma_64x128x16, {{.*}}stages = 3, {{.*}}tile_m = 128, tile_n = 128, {{.*}}wgmma_pending = 0
func.func @narrow(%a: tensor<1024x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<1024x4096xbf16> {
  %0 = hkg.matmul %a, %b : tensor<1024x4096xbf16>, tensor<4096x4096xbf16> -> tensor<1024x4096xbf16>
  return %0 : tensor<1024x4096xbf16>
}

// A partial schedule falls back to the space's defaults, not to the wide
// default's coupled knobs: with mma.sync it keeps wgmma_pending = 0.
// SM90-LABEL: func.func @partial
// SM90: #hkg.schedule<mma = mma_16x8x16, stages = 4, tile_k = 32, tile_m = 256, tile_n = 128, waves_m = 4, waves_n = 2>
func.func @partial(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mma_16x8x16, tile_k = 32, waves_m = 4, waves_n = 2, tile_m = 256, tile_n = 128, stages = 4>} : tensor<4096x4096xf16>, tensor<4096x4096xf16> -> tensor<4096x4096xf16>
  return %0 : tensor<4096x4096xf16>
}
