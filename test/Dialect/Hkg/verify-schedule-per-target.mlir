// RUN: hkg-opt %s --hkg-verify-schedule=chip=gfx1100 | FileCheck %s
// RUN: hkg-opt %s --hkg-verify-schedule=chip=sm_90 | FileCheck %s
// RUN: hkg-opt %s --hkg-verify-schedule=chip=gfx942 --verify-diagnostics
// RUN: hkg-opt %s --hkg-verify-schedule=chip=gfx90a --verify-diagnostics

// Legality depends on the target: a 32-thread workgroup is one wave on
// wave32 chips (gfx1100, sm_90) and half a wave on wave64 chips.

// CHECK-LABEL: func.func @one_wave32
// CHECK: threads = 32
func.func @one_wave32(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-error-re @below {{schedule knob 'threads' = 32 is not legal for hkg.softmax on gfx9{{(42|0a)}}; expected one of: 64, 128, 256, 512, 1024}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<threads = 32>} : tensor<4x64xf32> -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}
