// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx950 | FileCheck %s --check-prefix=GFX950
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1201 | FileCheck %s --check-prefix=GFX1201
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx90a | FileCheck %s --check-prefix=GFX90A
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx950 --hkg-verify-schedule="chip=gfx950 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1201 --hkg-verify-schedule="chip=gfx1201 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-verify-schedule="chip=sm_90 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx90a --hkg-verify-schedule="chip=gfx90a require-schedule" -o /dev/null

// Default schedules of 8-bit matmuls (OCP fp8 and i8; gfx942's FNUZ fp8 in
// default-schedule-matmul-8bit-gfx942.mlir): the chip's 8-bit instruction
// (gfx950: the double-rate v_mfma_f32_16x16x128_f8f6f4 for fp8, K steps of
// 128, v_mfma_i32_16x16x64_i8 for i8; gfx1201:
// wmma_16x16x16; sm_90: wgmma_64x128x32, and for large problems the 16-bit
// wide default's 128 x 256 tiles of wgmma_64x256x32 over 4 stages with
// wgmma_pending = 1, the LDS epilogue for f32 accumulators only) over
// 64-byte K rows (128 with wgmma), 16-byte (16-element) loads; FMAs where
// the chip has no 8-bit instruction (gfx90a) or wgmma cannot read B (as
// [K, N]: sm_90 takes 8-bit operands K-major only) and for matrix-vector
// shapes on sm_90. An i8 matrix-vector product does not split K (i32
// partial sums have no split-K reduction); an fp8 one does (f32 partials).

func.func @fp8_e4m3(%a: tensor<4096x4096xf8E4M3FN>, %b: tensor<4096x4096xf8E4M3FN>) -> tensor<4096x4096xbf16> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<4096x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN> -> tensor<4096x4096xbf16>
  return %0 : tensor<4096x4096xbf16>
}
func.func @fp8_e5m2(%a: tensor<4096x4096xf8E5M2>, %b: tensor<4096x4096xf8E5M2>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b : tensor<4096x4096xf8E5M2>, tensor<4096x4096xf8E5M2> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
func.func @i8(%a: tensor<4096x4096xi8>, %b: tensor<4096x4096xi8>) -> tensor<4096x4096xi32> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<4096x4096xi8>, tensor<4096x4096xi8> -> tensor<4096x4096xi32>
  return %0 : tensor<4096x4096xi32>
}
func.func @i8_decode(%a: tensor<16x4096xi8>, %b: tensor<4096x4096xi8>) -> tensor<16x4096xi32> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<16x4096xi8>, tensor<4096x4096xi8> -> tensor<16x4096xi32>
  return %0 : tensor<16x4096xi32>
}
func.func @fp8_decode(%a: tensor<16x4096xf8E4M3FN>, %b: tensor<4096x4096xf8E4M3FN>) -> tensor<16x4096xbf16> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<16x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN> -> tensor<16x4096xbf16>
  return %0 : tensor<16x4096xbf16>
}

// GFX950-LABEL: func.func @fp8_e4m3(
// GFX950: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = mfma_16x16x128, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 128, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 16, waves_m = 2, waves_n = 2, wgmma_pending = 0>
// GFX950-LABEL: func.func @fp8_e5m2(
// GFX950: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = mfma_16x16x128, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 128, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 16, waves_m = 2, waves_n = 2, wgmma_pending = 0>
// GFX950-LABEL: func.func @i8(
// GFX950: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = mfma_16x16x64, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 64, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 16, waves_m = 2, waves_n = 2, wgmma_pending = 0>
// GFX950-LABEL: func.func @i8_decode(
// GFX950: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = mfma_16x16x64, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 128, tile_m = 16, tile_n = 64, unroll = 1, vector_width = 16, waves_m = 1, waves_n = 4, wgmma_pending = 0>
// GFX950-LABEL: func.func @fp8_decode(
// GFX950: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = mfma_16x16x128, persistent = 0, split_k = 4, split_k_reduce = workspace, stages = 2, tile_k = 128, tile_m = 16, tile_n = 64, unroll = 1, vector_width = 16, waves_m = 1, waves_n = 4, wgmma_pending = 0>
// GFX1201-LABEL: func.func @fp8_e4m3(
// GFX1201: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = wmma_16x16x16, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 64, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 16, waves_m = 2, waves_n = 4, wgmma_pending = 0>
// GFX1201-LABEL: func.func @fp8_e5m2(
// GFX1201: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = wmma_16x16x16, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 64, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 16, waves_m = 2, waves_n = 4, wgmma_pending = 0>
// GFX1201-LABEL: func.func @i8(
// GFX1201: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = wmma_16x16x16, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 64, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 16, waves_m = 2, waves_n = 4, wgmma_pending = 0>
// GFX1201-LABEL: func.func @i8_decode(
// GFX1201: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = wmma_16x16x16, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 128, tile_m = 16, tile_n = 64, unroll = 1, vector_width = 16, waves_m = 1, waves_n = 4, wgmma_pending = 0>
// GFX1201-LABEL: func.func @fp8_decode(
// GFX1201: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = wmma_16x16x16, persistent = 0, split_k = 4, split_k_reduce = workspace, stages = 2, tile_k = 128, tile_m = 16, tile_n = 64, unroll = 1, vector_width = 16, waves_m = 1, waves_n = 4, wgmma_pending = 0>
// SM90-LABEL: func.func @fp8_e4m3(
// SM90: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 1, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = wgmma_64x256x32, persistent = 0, split_k = 1, split_k_reduce = cluster, stages = 4, tile_k = 128, tile_m = 128, tile_n = 256, unroll = 1, vector_width = 16, waves_m = 2, waves_n = 1, wgmma_pending = 1, wgmma_promote = 0>
// SM90-LABEL: func.func @fp8_e5m2(
// SM90: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 16, lds_swizzle = 0, mma = none, persistent = 0, split_k = 1, split_k_reduce = cluster, stages = 2, tile_k = 16, tile_m = 64, tile_n = 64, unroll = 1, vector_width = 16, waves_m = 2, waves_n = 2, wgmma_pending = 0, wgmma_promote = 0>
// SM90-LABEL: func.func @i8(
// SM90: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = wgmma_64x256x32, persistent = 0, split_k = 1, split_k_reduce = cluster, stages = 4, tile_k = 128, tile_m = 128, tile_n = 256, unroll = 1, vector_width = 16, waves_m = 2, waves_n = 1, wgmma_pending = 1>
// SM90-LABEL: func.func @i8_decode(
// SM90: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 16, lds_swizzle = 0, mma = none, persistent = 0, split_k = 1, split_k_reduce = cluster, stages = 2, tile_k = 32, tile_m = 16, tile_n = 64, unroll = 1, vector_width = 16, waves_m = 1, waves_n = 4, wgmma_pending = 0>
// SM90-LABEL: func.func @fp8_decode(
// SM90: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 16, lds_swizzle = 0, mma = none, persistent = 0, split_k = 16, split_k_reduce = workspace, stages = 2, tile_k = 32, tile_m = 16, tile_n = 64, unroll = 1, vector_width = 16, waves_m = 1, waves_n = 4, wgmma_pending = 0, wgmma_promote = 0>
// GFX90A-LABEL: func.func @fp8_e4m3(
// GFX90A: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 16, lds_swizzle = 0, mma = none, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 16, tile_m = 64, tile_n = 64, unroll = 1, vector_width = 16, waves_m = 2, waves_n = 2, wgmma_pending = 0>
// GFX90A-LABEL: func.func @fp8_e5m2(
// GFX90A: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 16, lds_swizzle = 0, mma = none, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 16, tile_m = 64, tile_n = 64, unroll = 1, vector_width = 16, waves_m = 2, waves_n = 2, wgmma_pending = 0>
// GFX90A-LABEL: func.func @i8(
// GFX90A: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 16, lds_swizzle = 0, mma = none, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 16, tile_m = 64, tile_n = 64, unroll = 1, vector_width = 16, waves_m = 2, waves_n = 2, wgmma_pending = 0>
// GFX90A-LABEL: func.func @i8_decode(
// GFX90A: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 16, lds_swizzle = 0, mma = none, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 32, tile_m = 16, tile_n = 64, unroll = 1, vector_width = 16, waves_m = 1, waves_n = 4, wgmma_pending = 0>
// GFX90A-LABEL: func.func @fp8_decode(
// GFX90A: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 16, lds_swizzle = 0, mma = none, persistent = 0, split_k = 16, split_k_reduce = workspace, stages = 2, tile_k = 32, tile_m = 16, tile_n = 64, unroll = 1, vector_width = 16, waves_m = 1, waves_n = 4, wgmma_pending = 0>
