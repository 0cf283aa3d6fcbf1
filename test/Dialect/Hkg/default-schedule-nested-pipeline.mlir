// RUN: hkg-opt %s --pass-pipeline='builtin.module(func.func(hkg-default-schedule{chip=gfx1100}))' | FileCheck %s
// RUN: hkg-opt %s --pass-pipeline='builtin.module(func.func(hkg-default-schedule{chip=gfx1100}), hkg-verify-schedule{chip=gfx1100 require-schedule})' | FileCheck %s
// RUN: hkg-opt %s --pass-pipeline='builtin.module(func.func(hkg-default-schedule))' | FileCheck %s --check-prefix=ATTR

// Both passes run on any op (they are not anchored): nested on functions,
// on the module, or mixed in one pipeline. Nested on a function, the
// target is still found on the enclosing module.

// CHECK-LABEL: func.func @first
// CHECK: hkg.softmax {{.*}}schedule = #hkg.schedule<{{.*}}threads = 32
// CHECK-LABEL: func.func @second
// CHECK: hkg.reduce {{.*}}schedule = #hkg.schedule<{{.*}}threads = 256
// ATTR-LABEL: func.func @first
// ATTR: hkg.softmax {{.*}}schedule = #hkg.schedule<{{.*}}threads = 64
module attributes {hkg.target = #hkg.target<chip = "gfx90a">} {
  func.func @first(%x: tensor<1024x8xf32>) -> tensor<1024x8xf32> {
    %0 = hkg.softmax %x axis(1) : tensor<1024x8xf32> -> tensor<1024x8xf32>
    return %0 : tensor<1024x8xf32>
  }
  func.func @second(%x: tensor<64x4096xf32>) -> tensor<64xf32> {
    %0 = hkg.reduce sum %x axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
    return %0 : tensor<64xf32>
  }
}
