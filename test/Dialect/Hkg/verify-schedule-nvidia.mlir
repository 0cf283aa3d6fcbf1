// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule=chip=sm_80 --verify-diagnostics

// Matmul constraints with NVIDIA's m16n8k16: N steps by 8, warps of 32.

// 2 x 8 divides 16: legal.
func.func @narrow_n(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mma_16x8x16, tile_m = 32, tile_n = 16, tile_k = 16, waves_m = 2, waves_n = 2, vector_width = 2>} : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf16>
  return %0 : tensor<64x64xf16>
}

// -----

func.func @n_vs_waves(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf16> {
  // expected-error @below {{schedule knob 'tile_n' = 16 must be a multiple of waves_n x the mma N (4 x 8)}}
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mma_16x8x16, tile_m = 32, tile_n = 16, waves_m = 2, waves_n = 4>} : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf16>
  return %0 : tensor<64x64xf16>
}

// -----

// 163 KiB of shared memory per block on sm_80.
func.func @shared_memory(%a: tensor<512x512xf16>, %b: tensor<512x512xf16>) -> tensor<512x512xf16> {
  // expected-error @below {{schedule needs 278528 bytes of LDS (stages x (tile_m + tile_n) x (tile_k + lds_pad) x 2 bytes); sm_80 has 166912}}
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<stages = 4, tile_m = 256, tile_n = 256, tile_k = 64, lds_pad = 4, waves_m = 4, waves_n = 4>} : tensor<512x512xf16>, tensor<512x512xf16> -> tensor<512x512xf16>
  return %0 : tensor<512x512xf16>
}
