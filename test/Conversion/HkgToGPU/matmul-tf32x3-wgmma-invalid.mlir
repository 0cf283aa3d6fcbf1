// RUN: hkg-opt %s --split-input-file --verify-diagnostics --hkg-lower-to-gpu=chip=sm_90

// wgmma's 3xTF32 reads its big terms from the staged tiles, which the
// tensor cores truncate: only the truncating split describes it.
func.func @split_fast(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'mma' = wgmma_64x128x8_tf32x3 needs tf32_split = trunc (its big terms are the staged f32 tiles, truncated by the tensor cores), got tf32_split = fast}}
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = wgmma_64x128x8_tf32x3, tile_m = 128, tile_n = 128, tile_k = 32, waves_m = 2, waves_n = 1, stages = 3, lds_pad = 0, lds_swizzle = 1, vector_width = 4, tf32_split = fast>} : tensor<512x512xf32>, tensor<512x512xf32> -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

func.func @persistent(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'mma' = wgmma_64x128x8_tf32x3 is not implemented with persistent = 1; expected persistent = 0}}
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = wgmma_64x128x8_tf32x3, tile_m = 128, tile_n = 128, tile_k = 32, waves_m = 2, waves_n = 1, stages = 3, lds_pad = 0, lds_swizzle = 1, vector_width = 4, tf32_split = trunc, persistent = 1>} : tensor<512x512xf32>, tensor<512x512xf32> -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

// Summed on the tensor cores across K steps, the small terms fall to their
// truncated additions (12x cuBLAS FP32's error measured): each step is
// summed apart and added in f32.
func.func @unpromoted(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'mma' = wgmma_64x128x8_tf32x3 needs wgmma_promote = 1 (the tensor cores' truncated sums across K steps lose the small terms), got wgmma_promote = 0}}
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = wgmma_64x128x8_tf32x3, tile_m = 128, tile_n = 128, tile_k = 32, waves_m = 2, waves_n = 1, stages = 3, lds_pad = 0, lds_swizzle = 1, vector_width = 4, tf32_split = trunc, wgmma_promote = 0>} : tensor<512x512xf32>, tensor<512x512xf32> -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

// The split tiles count against the LDS: 3 stages of 48 KiB and 160 KiB of
// small and big tiles (128 x 256, B as [K, N]).
func.func @lds(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
  // expected-error @below {{'hkg.matmul' op schedule needs 311296 bytes of LDS (stages x (tile_m + tile_n) x (tile_k + lds_pad) x 4 bytes, and 163840 for 3xTF32's split tiles); sm_90 allows 232448 bytes of shared memory (above 49152 as dynamic shared memory) per workgroup}}
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = wgmma_64x128x8_tf32x3, tile_m = 128, tile_n = 256, tile_k = 32, waves_m = 2, waves_n = 2, stages = 3, lds_pad = 0, lds_swizzle = 1, vector_width = 4, tf32_split = trunc, wgmma_promote = 1>} : tensor<512x512xf32>, tensor<512x512xf32> -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

func.func @bf16(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xf32> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'mma' = wgmma_64x128x8_tf32x3 needs f32 operands (each split into two tf32 terms), got 'bf16'; expected mma = none or an instruction on 16-bit operands}}
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = wgmma_64x128x8_tf32x3, tile_m = 128, tile_n = 128, tile_k = 64, waves_m = 2, waves_n = 1, stages = 3, lds_pad = 0, lds_swizzle = 1>} : tensor<512x512xbf16>, tensor<512x512xbf16> -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

func.func @split_without_tf32x3(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'tf32_split' = trunc needs mma = mma_16x8x8_tf32x3 or wgmma_64x128x8_tf32x3, got mma = none; expected tf32_split = rna}}
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = none, tf32_split = trunc>} : tensor<512x512xf32>, tensor<512x512xf32> -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}
