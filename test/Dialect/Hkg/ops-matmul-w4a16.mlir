// RUN: hkg-opt %s | hkg-opt | FileCheck %s

// CHECK-LABEL: func.func @decode
// CHECK: hkg.matmul_w4a16 %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} group_size(128) : tensor<16x4096xbf16>, tensor<4096x2048xi8>, tensor<4096x32xbf16>, tensor<4096x32xi8> -> tensor<16x4096xbf16>
func.func @decode(%x: tensor<16x4096xbf16>, %w: tensor<4096x2048xi8>, %s: tensor<4096x32xbf16>, %z: tensor<4096x32xi8>) -> tensor<16x4096xbf16> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128)
      : tensor<16x4096xbf16>, tensor<4096x2048xi8>, tensor<4096x32xbf16>, tensor<4096x32xi8> -> tensor<16x4096xbf16>
  return %y : tensor<16x4096xbf16>
}

// CHECK-LABEL: func.func @f16_groups32_f32_result
// CHECK: hkg.matmul_w4a16 {{.*}} group_size(32) {schedule = #hkg.schedule<tile_m = 4>} : tensor<3x64xf16>, tensor<5x32xi8>, tensor<5x2xf16>, tensor<5x2xi8> -> tensor<3x5xf32>
func.func @f16_groups32_f32_result(%x: tensor<3x64xf16>, %w: tensor<5x32xi8>, %s: tensor<5x2xf16>, %z: tensor<5x2xi8>) -> tensor<3x5xf32> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<tile_m = 4>}
      : tensor<3x64xf16>, tensor<5x32xi8>, tensor<5x2xf16>, tensor<5x2xi8> -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}
