// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s
// Running the pass twice changes nothing more than running it once.
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 > %t.once.mlir
// RUN: hkg-opt %t.once.mlir --hkg-default-schedule=chip=gfx942 > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// An op that already carries a (legal) schedule keeps it as written: the
// pass does not fill in the missing knobs.
// CHECK-LABEL: func.func @partial_schedule
// CHECK: hkg.softmax %{{.*}} axis(1) {schedule = #hkg.schedule<threads = 128>} :
func.func @partial_schedule(%x: tensor<64x8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<threads = 128>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}

// An empty schedule means "all defaults" and is kept too.
// CHECK-LABEL: func.func @empty_schedule
// CHECK: hkg.reduce sum %{{.*}} axes = [1] {schedule = #hkg.schedule<>} :
func.func @empty_schedule(%x: tensor<64x4096xf32>) -> tensor<64xf32> {
  %0 = hkg.reduce sum %x axes = [1] {schedule = #hkg.schedule<>} : tensor<64x4096xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// Ops of other dialects are left alone.
// CHECK-LABEL: func.func @not_hkg
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK-NOT: schedule
func.func @not_hkg(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
