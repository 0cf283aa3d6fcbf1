// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-verify-schedule="chip=gfx942 require-schedule" -o /dev/null

// gfx942 multiplies the FNUZ fp8 formats (v_mfma_f32_16x16x32_fp8_fp8 /
// _bf8_bf8) and i8 (v_mfma_i32_16x16x32_i8): mfma_16x16x32 over 128 x 128
// tiles with 64-byte K rows. An i8 matrix-vector product does not split K.

func.func @fp8_e4m3(%a: tensor<4096x4096xf8E4M3FNUZ>, %b: tensor<4096x4096xf8E4M3FNUZ>) -> tensor<4096x4096xbf16> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<4096x4096xf8E4M3FNUZ>, tensor<4096x4096xf8E4M3FNUZ> -> tensor<4096x4096xbf16>
  return %0 : tensor<4096x4096xbf16>
}
func.func @fp8_e5m2(%a: tensor<4096x4096xf8E5M2FNUZ>, %b: tensor<4096x4096xf8E5M2FNUZ>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b : tensor<4096x4096xf8E5M2FNUZ>, tensor<4096x4096xf8E5M2FNUZ> -> tensor<4096x4096xf32>
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
func.func @fp8_decode(%a: tensor<16x4096xf8E4M3FNUZ>, %b: tensor<4096x4096xf8E4M3FNUZ>) -> tensor<16x4096xbf16> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<16x4096xf8E4M3FNUZ>, tensor<4096x4096xf8E4M3FNUZ> -> tensor<16x4096xbf16>
  return %0 : tensor<16x4096xbf16>
}

// CHECK-LABEL: func.func @fp8_e4m3(
// CHECK: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = mfma_16x16x32, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 64, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 16, waves_m = 2, waves_n = 2, wgmma_pending = 0>
// CHECK-LABEL: func.func @fp8_e5m2(
// CHECK: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = mfma_16x16x32, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 64, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 16, waves_m = 2, waves_n = 2, wgmma_pending = 0>
// CHECK-LABEL: func.func @i8(
// CHECK: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = mfma_16x16x32, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 64, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 16, waves_m = 2, waves_n = 2, wgmma_pending = 0>
// CHECK-LABEL: func.func @i8_decode(
// CHECK: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = mfma_16x16x32, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 128, tile_m = 16, tile_n = 64, unroll = 1, vector_width = 16, waves_m = 1, waves_n = 4, wgmma_pending = 0>
// CHECK-LABEL: func.func @fp8_decode(
// CHECK: hkg.matmul {{.*}}schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = mfma_16x16x32, persistent = 0, split_k = 4, split_k_reduce = workspace, stages = 2, tile_k = 128, tile_m = 16, tile_n = 64, unroll = 1, vector_width = 16, waves_m = 1, waves_n = 4, wgmma_pending = 0>
