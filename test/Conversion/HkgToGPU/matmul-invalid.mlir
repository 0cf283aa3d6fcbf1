// Matmul schedules hkg-lower-to-gpu refuses, with the knob and legal range.
// RUN: hkg-opt %s --split-input-file --verify-diagnostics --hkg-lower-to-gpu=chip=sm_90

// Above 48 KiB the kernel takes dynamic shared memory, up to the chip's
// 232448 bytes per workgroup: 4 stages of 256 x 256 x 64 need 262144.
func.func @shared_memory_limit(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule needs 262144 bytes of LDS (stages x (tile_m + tile_n) x (tile_k + lds_pad) x 2 bytes); sm_90 allows 232448 bytes of shared memory (above 49152 as dynamic shared memory) per workgroup}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<stages = 4, tile_m = 256, tile_n = 256, tile_k = 64, waves_m = 4, waves_n = 2>} : tensor<512x512xbf16>, tensor<512x512xbf16> -> tensor<512x512xbf16>
  return %c : tensor<512x512xbf16>
}

// -----

func.func @vector_width_vs_shape(%a: tensor<128x100xbf16>, %b: tensor<100x128xbf16>) -> tensor<128x128xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'vector_width' = 8 must divide the contiguous dims of lhs and rhs (expected at most 4)}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<vector_width = 8>} : tensor<128x100xbf16>, tensor<100x128xbf16> -> tensor<128x128xbf16>
  return %c : tensor<128x128xbf16>
}

// -----

// f32 takes FMAs or the tensor cores through 3xTF32 (sm_80+).
func.func @mma_needs_halves(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>) -> tensor<128x128xf32> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'mma' = mma_16x8x16 needs f16 or bf16 operands, got 'f32'; expected mma = none or mma_16x8x8_tf32x3}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mma_16x8x16>} : tensor<128x128xf32>, tensor<128x128xf32> -> tensor<128x128xf32>
  return %c : tensor<128x128xf32>
}

// -----

// 3xTF32 splits f32 operands; 16-bit ones have their own instructions.
func.func @tf32x3_needs_f32(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'mma' = mma_16x8x8_tf32x3 needs f32 operands (each split into two tf32 terms), got 'bf16'; expected mma = none or an instruction on 16-bit operands}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mma_16x8x8_tf32x3, tile_k = 32, waves_m = 2, waves_n = 2>} : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}

// -----

func.func @tf32x3_needs_f32_f16(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'mma' = mma_16x8x8_tf32x3 needs f32 operands (each split into two tf32 terms), got 'f16'}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mma_16x8x8_tf32x3, tile_k = 32, waves_m = 2, waves_n = 2>} : tensor<256x256xf16>, tensor<256x256xf16> -> tensor<256x256xf16>
  return %c : tensor<256x256xf16>
}

// -----

// The split knob is 3xTF32's, and only f32 operands have it.
func.func @tf32_split_needs_tf32x3(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>) -> tensor<128x128xf32> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'tf32_split' = fast needs mma = mma_16x8x8_tf32x3 or wgmma_64x128x8_tf32x3, got mma = none; expected tf32_split = rna}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = none, tf32_split = fast>} : tensor<128x128xf32>, tensor<128x128xf32> -> tensor<128x128xf32>
  return %c : tensor<128x128xf32>
}

// -----

func.func @tf32_split_on_bf16(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'tf32_split' is not available for hkg.matmul on sm_90: 3xTF32 takes f32 operands on NVIDIA sm_80+}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<tf32_split = rna>} : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}

// -----

func.func @warp_tile(%a: tensor<128x128xbf16>, %b: tensor<128x128xbf16>) -> tensor<128x128xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'tile_n' = 32 must be a multiple of waves_n x the mma N (8 x 8)}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mma_16x8x16, tile_n = 32, waves_n = 8, waves_m = 1>} : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xbf16>
  return %c : tensor<128x128xbf16>
}

// -----

func.func @epilogue_capture(%a: tensor<128x128xbf16>, %b: tensor<128x128xbf16>, %t: tensor<f32>) -> tensor<128x128xf32> {
  %s = tensor.extract %t[] : tensor<f32>
  // expected-error @below {{'hkg.matmul' op epilogue captures a non-constant value defined outside it; expected epilogue operands instead}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<>} : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32> {
  ^bb0(%acc: f32):
    %r = arith.addf %acc, %s : f32
    hkg.yield %r : f32
  }
  return %c : tensor<128x128xf32>
}

// -----

// wgmma reads A K-major from LDS: A must be [M, K].
func.func @wgmma_needs_kmajor_a(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  // expected-error @below {{schedule knob 'mma' = wgmma_64x128x16 needs K contiguous in A (transpose_a = false)}}
  %c = hkg.matmul %a, %b {transpose_a, schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_m = 128, tile_n = 128, tile_k = 64, waves_m = 2, waves_n = 1, stages = 3>} : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}

// -----

func.func @wgmma_tile_k(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  // expected-error @below {{schedule knob 'mma' = wgmma_64x128x16 needs tile_k x element bytes = 128 (tile_k = 64), got tile_k = 32}}
  %c = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_m = 128, tile_n = 128, tile_k = 32, waves_m = 2, waves_n = 1, stages = 3>} : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}

// -----

// A wgmma's accumulators are live at once: 256 x 256 over 4 warpgroups of
// wgmma_64x256x16 is 128 per thread, and 512 threads get 128 registers.
func.func @wgmma_registers(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xbf16> {
  // expected-error @below {{schedule knob 'mma' = wgmma_64x256x16 needs 154 registers per thread (128 accumulators live at once and 26 more); 512 threads have at most 128}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = wgmma_64x256x16, tile_m = 256, tile_n = 256, tile_k = 64, waves_m = 4, waves_n = 1, stages = 3, vector_width = 8, lds_pad = 0, lds_swizzle = 1>} : tensor<512x512xbf16>, tensor<512x512xbf16> -> tensor<512x512xbf16>
  return %c : tensor<512x512xbf16>
}

// -----

func.func @wgmma_tile_n(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  // expected-error @below {{schedule knob 'mma' = wgmma_64x128x16 needs tile_n = waves_n x 128 (one wgmma N per warpgroup), got 256}}
  %c = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_m = 128, tile_n = 256, tile_k = 64, waves_m = 2, waves_n = 1, stages = 3>} : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}

// -----

func.func @wgmma_layout(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  // expected-error @below {{schedule knob 'mma' = wgmma_64x128x16 needs lds_swizzle = 1, lds_pad = 0, stages >= 2 and 16-byte vectors (vector_width = 8)}}
  %c = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_m = 128, tile_n = 128, tile_k = 64, waves_m = 2, waves_n = 1, stages = 3, lds_swizzle = 0, lds_pad = 8>} : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}

// -----

// Found by hkg-tune on the H200 (two warpgroups over 256 rows computed
// wrong results before the verifier refused them).
func.func @wgmma_tile_m(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  // expected-error @below {{schedule knob 'mma' = wgmma_64x128x16 needs tile_m = waves_m x 64 (one wgmma M per warpgroup), got 256}}
  %c = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_m = 256, tile_n = 128, tile_k = 64, waves_m = 2, waves_n = 1, stages = 3>} : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}

// -----

// split_k: clusters of mma.sync or FMA workgroups only.
func.func @split_k_wgmma(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'split_k' = 2 is not implemented with mma = wgmma_64x128x16; expected split_k = 1}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<split_k = 2>} : tensor<512x512xbf16>, tensor<512x512xbf16> -> tensor<512x512xbf16>
  return %c : tensor<512x512xbf16>
}

// -----

// split_k workgroups take equal shares of the K steps.
func.func @split_k_steps(%a: tensor<16x384xbf16>, %b: tensor<4096x384xbf16>) -> tensor<16x4096xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'split_k' = 2 must divide the K steps (ceil(K / tile_k) = 3)}}
  %c = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<split_k = 2>} : tensor<16x384xbf16>, tensor<4096x384xbf16> -> tensor<16x4096xbf16>
  return %c : tensor<16x4096xbf16>
}

// -----

// The partial sums need tile_m x tile_n x 4 bytes of LDS besides the pipeline.
func.func @split_k_lds(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule needs 278528 bytes of LDS (the K pipeline's 147456 and tile_m x tile_n x 4 for split_k's partial sums); sm_90 allows 232448 per workgroup}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<split_k = 2, mma = mma_16x8x16, tile_m = 256, tile_n = 128, tile_k = 64, waves_m = 4, waves_n = 2, stages = 3>} : tensor<512x512xbf16>, tensor<512x512xbf16> -> tensor<512x512xbf16>
  return %c : tensor<512x512xbf16>
}

// -----

// wgmma_pending keeps warpgroup MMAs in flight: only wgmma has them.
func.func @wgmma_pending_needs_wgmma(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'wgmma_pending' = 1 needs mma = wgmma_*, got mma = mma_16x8x16; expected wgmma_pending = 0}}
  %c = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = mma_16x8x16, tile_k = 32, waves_m = 2, waves_n = 2, wgmma_pending = 1>} : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}

// -----

// The stage of the MMAs in flight cannot be refilled: a third stage is needed.
func.func @wgmma_pending_needs_three_stages(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'wgmma_pending' = 1 needs stages >= 3 (a stage for the MMAs in flight), got stages = 2}}
  %c = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<stages = 2, wgmma_pending = 1>} : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}
