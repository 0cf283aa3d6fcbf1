// RUN: hkg-opt %s --split-input-file --hkg-default-schedule | FileCheck %s
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefix=OPTION

// Without the chip option the target is the nearest hkg.target attribute:
// the function's overrides the module's. The option overrides both.

// CHECK-LABEL: func.func @module_target
// CHECK: mma = mfma_16x16x16
// OPTION-LABEL: func.func @module_target
// OPTION: mma = wgmma_64x128x16
// CHECK-LABEL: func.func @function_target
// CHECK: mma = wmma_16x16x16
// OPTION-LABEL: func.func @function_target
// OPTION: mma = wgmma_64x128x16
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @module_target(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf16> {
    %0 = hkg.matmul %a, %b : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf16>
    return %0 : tensor<64x64xf16>
  }
  func.func @function_target(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf16>
      attributes {hkg.target = #hkg.target<chip = "gfx1201">} {
    %0 = hkg.matmul %a, %b : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf16>
    return %0 : tensor<64x64xf16>
  }
}

// -----

// The attribute may sit on the op itself.
// CHECK-LABEL: func.func @op_target
// CHECK: hkg.softmax %{{.*}} axis(0) {hkg.target = #hkg.target<chip = "gfx1151">, schedule = #hkg.schedule<{{.*}}threads = 32
// OPTION-LABEL: func.func @op_target
// OPTION: threads = 32
func.func @op_target(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = hkg.softmax %x axis(0) {hkg.target = #hkg.target<chip = "gfx1151">} : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
