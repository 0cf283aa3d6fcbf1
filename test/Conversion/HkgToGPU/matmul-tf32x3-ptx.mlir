// f32 matmuls through 3xTF32 (a schedule that asks for it: 128 x 128 x 16
// tiles, 3 stages) to PTX: tf32 mma.sync, cvt.rna.tf32.f32 splits (or the add-and-mask of
// tf32_split = fast), 16-byte cp.async into 3 x 24 KiB of shared memory,
// with B as [K, N] and as [N, K].
// REQUIRES: libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %mm_sm90_ptx | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_80 --hkg-lower-to-gpu=chip=sm_80 | hkg-opt %mm_sm80_ptx | FileCheck %s --check-prefixes=CHECK,SM80

// CHECK: gpu.binary @hkg_matmul_0
// SM90-SAME: .target sm_90
// SM80-SAME: .target sm_80
// CHECK: .shared .align 16 .b8 __wg_hkg_matmul_0_0[24576]
// CHECK: .shared .align 16 .b8 __wg_hkg_matmul_0_1[24576]
// CHECK: cp.async.cg.shared.global [{{[^]]*}}], [{{[^]]*}}], 16;
// CHECK: cp.async.wait_group \091;
// CHECK: ld.shared.{{b32|f32}}
// CHECK: cvt.rna.tf32.f32
// CHECK: sub.{{rn.f32|f32}}
// CHECK: cvt.rna.tf32.f32
// CHECK: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-NOT: mma.sync.aligned.m16n8k16
// CHECK: gpu.binary @hkg_matmul_1
func.func @kn(%a: tensor<4096x64xf32>, %b: tensor<64x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mma_16x8x8_tf32x3, tile_m = 128, tile_n = 128, tile_k = 16, waves_n = 4, stages = 3, lds_pad = 0, lds_swizzle = 1>} : tensor<4096x64xf32>, tensor<64x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// B as [N, K].
// CHECK: .shared .align 16 .b8 __wg_hkg_matmul_1_0[24576]
// CHECK: cvt.rna.tf32.f32
// CHECK: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK: gpu.binary @hkg_matmul_2
func.func @nk(%a: tensor<4096x64xf32>, %b: tensor<4096x64xf32>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = mma_16x8x8_tf32x3, tile_m = 128, tile_n = 128, tile_k = 16, waves_n = 4, stages = 3, lds_pad = 0, lds_swizzle = 1>} : tensor<4096x64xf32>, tensor<4096x64xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// tf32_split = fast: no cvt, the low 13 bits cleared (0xffffe000 = -8192).
// CHECK-NOT: cvt.rna.tf32.f32
// CHECK: and.b32 \09{{%r[0-9]+}}, {{%r[0-9]+}}, -8192;
// CHECK-NOT: cvt.rna.tf32.f32
// CHECK: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-NOT: cvt.rna.tf32.f32
func.func @kn_fast(%a: tensor<4096x64xf32>, %b: tensor<64x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mma_16x8x8_tf32x3, tile_m = 128, tile_n = 128, tile_k = 16, waves_n = 4, stages = 3, lds_pad = 0, lds_swizzle = 1, tf32_split = fast>} : tensor<4096x64xf32>, tensor<64x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
