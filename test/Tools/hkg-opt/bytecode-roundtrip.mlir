// RUN: hkg-opt %s --emit-bytecode | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --emit-bytecode | hkg-opt --hkg-verify-schedule --emit-bytecode | hkg-opt | FileCheck %s

// hkg ops, #hkg.schedule and #hkg.target survive MLIR bytecode unchanged.

// CHECK: module attributes {hkg.target = #hkg.target<chip = "gfx1201">}
// CHECK-LABEL: func.func @kernels
// CHECK: hkg.matmul %{{.*}}, %{{.*}} epilogue(%{{.*}} : tensor<1x64xbf16>) {schedule = #hkg.schedule<mma = wmma_16x16x16, tile_m = 64, tile_n = 64>, transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xbf16> {
// CHECK: hkg.yield %{{.*}} : bf16
// CHECK: hkg.softmax %{{.*}} axis(1) {schedule = #hkg.schedule<row_cache = lds, threads = 32>} : tensor<64x64xbf16> -> tensor<64x64xbf16>
// CHECK: hkg.top_p_sample %{{.*}} p(5.000000e-01) temperature(1.000000e+00) seed(3) : tensor<64x64xbf16> -> tensor<64xi32>
module attributes {hkg.target = #hkg.target<chip = "gfx1201">} {
  func.func @kernels(%x: tensor<64x32xbf16>, %w: tensor<64x32xbf16>, %b: tensor<1x64xbf16>) -> tensor<64xi32> {
    %0 = hkg.matmul %x, %w epilogue(%b : tensor<1x64xbf16>) {transpose_b, schedule = #hkg.schedule<tile_m = 64, tile_n = 64, mma = wmma_16x16x16>}
        : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xbf16> {
    ^bb0(%acc: f32, %bv: bf16):
      %bf = arith.extf %bv : bf16 to f32
      %s = arith.addf %acc, %bf : f32
      %r = arith.truncf %s : f32 to bf16
      hkg.yield %r : bf16
    }
    %1 = hkg.softmax %0 axis(1) {schedule = #hkg.schedule<threads = 32, row_cache = lds>} : tensor<64x64xbf16> -> tensor<64x64xbf16>
    %2 = hkg.top_p_sample %1 p(0.5) temperature(1.0) seed(3) : tensor<64x64xbf16> -> tensor<64xi32>
    return %2 : tensor<64xi32>
  }
}
