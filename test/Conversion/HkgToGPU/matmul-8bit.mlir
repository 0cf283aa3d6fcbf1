// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | FileCheck %s

// The 8-bit matmul kernels as hkg-lower-to-gpu builds them: fp8 fragments
// of 8 elements per lane into amdgpu.mfma 16x16x32 with f32 accumulators;
// i8 fragments into i32 accumulators, converted to an f32 result at the
// store; the FMA kernel on i8 sign-extends and multiplies and adds in i32.

func.func @fp8(%a: tensor<128x256xf8E4M3FNUZ>, %b: tensor<128x256xf8E4M3FNUZ>) -> tensor<128x128xbf16> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<128x256xf8E4M3FNUZ>, tensor<128x256xf8E4M3FNUZ> -> tensor<128x128xbf16>
  return %0 : tensor<128x128xbf16>
}
func.func @i8_to_f32(%a: tensor<128x256xi8>, %b: tensor<128x256xi8>) -> tensor<128x128xf32> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<128x256xi8>, tensor<128x256xi8> -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}
func.func @i8_fma(%a: tensor<64x64xi8>, %b: tensor<64x64xi8>) -> tensor<64x64xi32> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = none>} : tensor<64x64xi8>, tensor<64x64xi8> -> tensor<64x64xi32>
  return %0 : tensor<64x64xi32>
}

// CHECK-LABEL: gpu.func @hkg_matmul_0(
// CHECK-SAME: memref<128x256xf8E4M3FNUZ>
// CHECK: vector.load {{.*}} : memref<2x128x64xf8E4M3FNUZ, #gpu.address_space<workgroup>>, vector<8xf8E4M3FNUZ>
// CHECK: amdgpu.mfma 16x16x32 {{.*}} : vector<8xf8E4M3FNUZ>, vector<8xf8E4M3FNUZ>, vector<4xf32>
// CHECK: arith.truncf {{.*}} : f32 to bf16

// CHECK-LABEL: gpu.func @hkg_matmul_1(
// CHECK: arith.constant dense<0> : vector<4xi32>
// CHECK: amdgpu.mfma 16x16x32 {{.*}} : vector<8xi8>, vector<8xi8>, vector<4xi32>
// CHECK: arith.sitofp {{.*}} : i32 to f32
// CHECK-NOT: arith.truncf

// CHECK-LABEL: gpu.func @hkg_matmul_2(
// CHECK: arith.extsi {{.*}} : vector<4xi8> to vector<4xi32>
// CHECK: arith.extsi {{.*}} : i8 to i32
// CHECK: arith.muli {{.*}} : vector<4xi32>
// CHECK: arith.addi {{.*}} : vector<4xi32>
// CHECK-NOT: vector.fma
