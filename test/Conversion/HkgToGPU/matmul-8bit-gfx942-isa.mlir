// 8-bit matmuls on gfx942 (CDNA3) with their default schedules: the FNUZ fp8
// formats on v_mfma_f32_16x16x32_fp8_fp8 / _bf8_bf8, i8 on
// v_mfma_i32_16x16x32_i8; no scratch or spills.
// REQUIRES: rocdl-toolkit
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %mm_gfx942_isa | FileCheck %s

func.func @fp8_scaled(%a: tensor<128x512xf8E4M3FNUZ>, %b: tensor<256x512xf8E4M3FNUZ>, %s: tensor<f32>, %sa: tensor<128x1xf32>, %sb: tensor<256xf32>) -> tensor<128x256xbf16> {
  %0 = hkg.matmul %a, %b epilogue(%s, %sa, %sb : tensor<f32>, tensor<128x1xf32>, tensor<256xf32>) {transpose_b}
      : tensor<128x512xf8E4M3FNUZ>, tensor<256x512xf8E4M3FNUZ> -> tensor<128x256xbf16> {
  ^bb0(%acc: f32, %t: f32, %x: f32, %w: f32):
    %s0 = arith.mulf %x, %w : f32
    %s1 = arith.mulf %s0, %t : f32
    %v = arith.mulf %acc, %s1 : f32
    %r = arith.truncf %v : f32 to bf16
    hkg.yield %r : bf16
  }
  return %0 : tensor<128x256xbf16>
}
func.func @e5m2(%a: tensor<128x512xf8E5M2FNUZ>, %b: tensor<512x256xf8E5M2FNUZ>) -> tensor<128x256xf32> {
  %0 = hkg.matmul %a, %b : tensor<128x512xf8E5M2FNUZ>, tensor<512x256xf8E5M2FNUZ> -> tensor<128x256xf32>
  return %0 : tensor<128x256xf32>
}
func.func @i8(%a: tensor<128x512xi8>, %b: tensor<256x512xi8>) -> tensor<128x256xi32> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<128x512xi8>, tensor<256x512xi8> -> tensor<128x256xi32>
  return %0 : tensor<128x256xi32>
}

// e4m3fnuz (B as [N, K]) with per-tensor, per-row and per-column scales,
// written as bf16.
// CHECK-LABEL: gpu.binary @hkg_matmul_0
// CHECK: global_load_dwordx4
// CHECK: ds_read_b64
// CHECK: v_mfma_f32_16x16x32_fp8_fp8
// CHECK: .private_segment_fixed_size: 0
// CHECK: .vgpr_spill_count: 0
// e5m2fnuz, B as [K, N], to f32.
// CHECK-LABEL: gpu.binary @hkg_matmul_1
// CHECK: v_mfma_f32_16x16x32_bf8_bf8
// CHECK: .private_segment_fixed_size: 0
// CHECK: .vgpr_spill_count: 0
// i8 to i32.
// CHECK-LABEL: gpu.binary @hkg_matmul_2
// CHECK: v_mfma_i32_16x16x32_i8
// CHECK: .private_segment_fixed_size: 0
// CHECK: .vgpr_spill_count: 0
