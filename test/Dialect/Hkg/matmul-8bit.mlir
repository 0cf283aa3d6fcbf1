// hkg.matmul over 8-bit operands parses, verifies and prints back: fp8 in
// each format to floats (the accumulator f32), i8 to its exact i32 sums or,
// through the epilogue (the accumulator i32), to floats; scales per tensor,
// per row of A and per column of B are epilogue operands.
// RUN: hkg-opt %s | hkg-opt | FileCheck %s

// CHECK-LABEL: func.func @fp8_scaled(
// CHECK: hkg.matmul %{{.*}}, %{{.*}} epilogue(%{{.*}}, %{{.*}}, %{{.*}} : tensor<f32>, tensor<128x1xf32>, tensor<256xf32>) {transpose_b} : tensor<128x512xf8E4M3FN>, tensor<256x512xf8E4M3FN> -> tensor<128x256xbf16>
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
func.func @fp8_scaled(%a: tensor<128x512xf8E4M3FN>, %b: tensor<256x512xf8E4M3FN>, %s: tensor<f32>, %sa: tensor<128x1xf32>, %sb: tensor<256xf32>) -> tensor<128x256xbf16> {
  %0 = hkg.matmul %a, %b epilogue(%s, %sa, %sb : tensor<f32>, tensor<128x1xf32>, tensor<256xf32>) {transpose_b}
      : tensor<128x512xf8E4M3FN>, tensor<256x512xf8E4M3FN> -> tensor<128x256xbf16> {
  ^bb0(%acc: f32, %t: f32, %x: f32, %w: f32):
    %s0 = arith.mulf %x, %w : f32
    %s1 = arith.mulf %s0, %t : f32
    %v = arith.mulf %acc, %s1 : f32
    %r = arith.truncf %v : f32 to bf16
    hkg.yield %r : bf16
  }
  return %0 : tensor<128x256xbf16>
}

// CHECK-LABEL: func.func @fp8_formats(
// CHECK: -> tensor<64x64xf16>
// CHECK: -> tensor<64x64xf32>
// CHECK: -> tensor<64x64xbf16>
func.func @fp8_formats(%a: tensor<64x64xf8E5M2>, %b: tensor<64x64xf8E4M3FNUZ>, %c: tensor<64x64xf8E5M2FNUZ>) -> (tensor<64x64xf16>, tensor<64x64xf32>, tensor<64x64xbf16>) {
  %0 = hkg.matmul %a, %a : tensor<64x64xf8E5M2>, tensor<64x64xf8E5M2> -> tensor<64x64xf16>
  %1 = hkg.matmul %b, %b : tensor<64x64xf8E4M3FNUZ>, tensor<64x64xf8E4M3FNUZ> -> tensor<64x64xf32>
  %2 = hkg.matmul %c, %c : tensor<64x64xf8E5M2FNUZ>, tensor<64x64xf8E5M2FNUZ> -> tensor<64x64xbf16>
  return %0, %1, %2 : tensor<64x64xf16>, tensor<64x64xf32>, tensor<64x64xbf16>
}

// CHECK-LABEL: func.func @int8(
// CHECK: hkg.matmul {{.*}} : tensor<64x128xi8>, tensor<128x64xi8> -> tensor<64x64xi32>
// CHECK: hkg.matmul {{.*}} : tensor<64x128xi8>, tensor<128x64xi8> -> tensor<64x64xf32>
// CHECK: hkg.matmul {{.*}} epilogue(%{{.*}} : tensor<64xf32>) {indexing_maps = [#map]} : tensor<64x128xi8>, tensor<128x64xi8> -> tensor<64x64xbf16>
// CHECK: ^bb0(%{{.*}}: i32, %{{.*}}: f32):
func.func @int8(%a: tensor<64x128xi8>, %b: tensor<128x64xi8>, %s: tensor<64xf32>) -> (tensor<64x64xi32>, tensor<64x64xf32>, tensor<64x64xbf16>) {
  %0 = hkg.matmul %a, %b : tensor<64x128xi8>, tensor<128x64xi8> -> tensor<64x64xi32>
  %1 = hkg.matmul %a, %b : tensor<64x128xi8>, tensor<128x64xi8> -> tensor<64x64xf32>
  %2 = hkg.matmul %a, %b epilogue(%s : tensor<64xf32>) {indexing_maps = [affine_map<(d0, d1) -> (d1)>]}
      : tensor<64x128xi8>, tensor<128x64xi8> -> tensor<64x64xbf16> {
  ^bb0(%acc: i32, %w: f32):
    %f = arith.sitofp %acc : i32 to f32
    %v = arith.mulf %f, %w : f32
    %r = arith.truncf %v : f32 to bf16
    hkg.yield %r : bf16
  }
  return %0, %1, %2 : tensor<64x64xi32>, tensor<64x64xf32>, tensor<64x64xbf16>
}
