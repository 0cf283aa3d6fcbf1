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

// sm_80 has 163 KiB of shared memory per block, but kernels use static
// shared memory, limited to 48 KiB: 3 stages of 128 x 128 x 32 f16 fit
// exactly.
func.func @shared_memory_fits(%a: tensor<512x512xf16>, %b: tensor<512x512xf16>) -> tensor<512x512xf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mma_16x8x16, stages = 3, tile_m = 128, tile_n = 128, tile_k = 32, lds_pad = 0, lds_swizzle = 1, waves_m = 2, waves_n = 2>} : tensor<512x512xf16>, tensor<512x512xf16> -> tensor<512x512xf16>
  return %0 : tensor<512x512xf16>
}

// -----

// One more stage needs 64 KiB: legal (dynamic shared memory above 48 KiB).
func.func @dynamic_shared_memory(%a: tensor<512x512xf16>, %b: tensor<512x512xf16>) -> tensor<512x512xf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mma_16x8x16, stages = 4, tile_m = 128, tile_n = 128, tile_k = 32, lds_pad = 0, lds_swizzle = 1, waves_m = 2, waves_n = 2>} : tensor<512x512xf16>, tensor<512x512xf16> -> tensor<512x512xf16>
  return %0 : tensor<512x512xf16>
}

// -----

// 4 stages of 256 x 128 x 64 need 192 KiB: over sm_80's 163 KiB per workgroup.
func.func @shared_memory(%a: tensor<512x512xf16>, %b: tensor<512x512xf16>) -> tensor<512x512xf16> {
  // expected-error @below {{schedule needs 196608 bytes of LDS (stages x (tile_m + tile_n) x (tile_k + lds_pad) x 2 bytes); sm_80 allows 166912 bytes of shared memory (above 49152 as dynamic shared memory) per workgroup}}
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mma_16x8x16, stages = 4, tile_m = 256, tile_n = 128, tile_k = 64, lds_pad = 0, lds_swizzle = 1, waves_m = 4, waves_n = 2>} : tensor<512x512xf16>, tensor<512x512xf16> -> tensor<512x512xf16>
  return %0 : tensor<512x512xf16>
}
