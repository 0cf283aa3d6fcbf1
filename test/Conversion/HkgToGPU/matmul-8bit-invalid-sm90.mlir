// 8-bit matmul schedules hkg-lower-to-gpu refuses on sm_90.
// RUN: hkg-opt %s --split-input-file --verify-diagnostics --hkg-lower-to-gpu=chip=sm_90

// sm_90's fp8 is OCP (e4m3, e5m2), not gfx942's FNUZ formats.
func.func @fnuz_fp8(%a: tensor<128x128xf8E5M2FNUZ>, %b: tensor<128x128xf8E5M2FNUZ>) -> tensor<128x128xbf16> {
  // expected-error @below {{'hkg.matmul' op 'f8E5M2FNUZ' operands are FNUZ fp8, which sm_90 does not multiply; its fp8 is OCP (f8E4M3FN, f8E5M2): expected operands of those types}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = none>} : tensor<128x128xf8E5M2FNUZ>, tensor<128x128xf8E5M2FNUZ> -> tensor<128x128xbf16>
  return %c : tensor<128x128xbf16>
}

// -----

// The 16-bit warpgroup MMAs step K by 16; the 8-bit ones by 32.
func.func @fp8_wgmma_shape(%a: tensor<128x128xf8E4M3FN>, %b: tensor<128x128xf8E4M3FN>) -> tensor<128x128xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'mma' = wgmma_64x128x16 is not legal for hkg.matmul on sm_90; expected one of: none, wgmma_64x128x32, wgmma_64x256x32}}
  %c = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = wgmma_64x128x16>} : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN> -> tensor<128x128xbf16>
  return %c : tensor<128x128xbf16>
}

// -----

// PTX's 8-bit wgmma reads B K-major only: B as [K, N] is refused (its
// default schedule is the FMA kernel).
func.func @fp8_wgmma_b_kn(%a: tensor<256x256xf8E4M3FN>, %b: tensor<256x256xf8E4M3FN>) -> tensor<256x256xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'mma' = wgmma_64x128x32 needs K contiguous in B for 'f8E4M3FN' operands (wgmma reads 8-bit operands K-major only), got B as [K, N]; expected the weights as [N, K] with transpose_b, or mma = none}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = wgmma_64x128x32, tile_m = 128, tile_n = 128, tile_k = 128, waves_m = 2, waves_n = 1, stages = 3, lds_pad = 0, lds_swizzle = 1>} : tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN> -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}

// -----

// The LDS epilogue stages f32 tiles; i8's sums are i32.
func.func @i8_epilogue_lds(%a: tensor<256x256xi8>, %b: tensor<256x256xi8>) -> tensor<256x256xi32> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'epilogue_lds' = 1 needs f32 accumulators (it stages f32 tiles), got 'i32' for 'i8' operands}}
  %c = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = wgmma_64x128x32, tile_m = 128, tile_n = 128, tile_k = 128, waves_m = 2, waves_n = 1, stages = 3, lds_pad = 0, lds_swizzle = 1, epilogue_lds = 1>} : tensor<256x256xi8>, tensor<256x256xi8> -> tensor<256x256xi32>
  return %c : tensor<256x256xi32>
}

// -----

// A promoted step's sum is added in the K loop: not in the persistent one.
func.func @fp8_promote_persistent(%a: tensor<256x256xf8E4M3FN>, %b: tensor<256x256xf8E4M3FN>) -> tensor<256x256xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'wgmma_promote' = 1 needs persistent = 0, got persistent = 1}}
  %c = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = wgmma_64x128x32, tile_m = 128, tile_n = 128, tile_k = 128, waves_m = 2, waves_n = 1, stages = 3, lds_pad = 0, lds_swizzle = 1, wgmma_pending = 1, wgmma_promote = 1, persistent = 1>} : tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN> -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}

// -----

// With wgmma_pending = 1 three sets (running, in flight, being added):
// 128 x 256 tiles over two warpgroups do not fit.
func.func @fp8_promote_pending_registers(%a: tensor<256x256xf8E4M3FN>, %b: tensor<256x256xf8E4M3FN>) -> tensor<256x256xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'mma' = wgmma_64x256x32 needs 410 registers per thread (384 accumulators live at once and 26 more); 256 threads have at most 255}}
  %c = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = wgmma_64x256x32, tile_m = 128, tile_n = 256, tile_k = 128, waves_m = 2, waves_n = 1, stages = 4, lds_pad = 0, lds_swizzle = 1, wgmma_pending = 1, wgmma_promote = 1, unroll = 2>} : tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN> -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}

// -----

// Promoted with a step in flight: each unrolled trip's last step waits for
// all, so a K loop not unrolled would never leave one in flight.
func.func @fp8_promote_pending_unroll(%a: tensor<256x256xf8E4M3FN>, %b: tensor<256x256xf8E4M3FN>) -> tensor<256x256xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'wgmma_promote' = 1 with wgmma_pending = 1 needs unroll >= 2 (each unrolled trip's last step waits for all its MMAs), got unroll = 1}}
  %c = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = wgmma_64x128x32, tile_m = 128, tile_n = 128, tile_k = 128, waves_m = 2, waves_n = 1, stages = 4, lds_pad = 0, lds_swizzle = 1, wgmma_pending = 1, wgmma_promote = 1, unroll = 1>} : tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN> -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}

// -----

// Twice the accumulators: 128 x 256 tiles over two warpgroups do not fit.
func.func @fp8_promote_registers(%a: tensor<256x256xf8E4M3FN>, %b: tensor<256x256xf8E4M3FN>) -> tensor<256x256xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'mma' = wgmma_64x256x32 needs 282 registers per thread (256 accumulators live at once and 26 more); 256 threads have at most 255}}
  %c = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = wgmma_64x256x32, tile_m = 128, tile_n = 256, tile_k = 128, waves_m = 2, waves_n = 1, stages = 4, lds_pad = 0, lds_swizzle = 1, wgmma_pending = 0, wgmma_promote = 1>} : tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN> -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}

// -----

// i8 sums are exact in s32: there is nothing to promote.
func.func @i8_promote(%a: tensor<256x256xi8>, %b: tensor<256x256xi8>) -> tensor<256x256xi32> {
  // expected-error @below {{'hkg.matmul' op unknown schedule knob 'wgmma_promote' for hkg.matmul; expected one of: tile_m, tile_n, tile_k, waves_m, waves_n, mma, stages, vector_width, lds_pad, lds_swizzle, unroll, group_m, wgmma_pending, persistent, epilogue_lds, split_k, split_k_reduce}}
  %c = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = wgmma_64x128x32, wgmma_promote = 1>} : tensor<256x256xi8>, tensor<256x256xi8> -> tensor<256x256xi32>
  return %c : tensor<256x256xi32>
}
