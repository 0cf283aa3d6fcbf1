// RUN: hkg-opt %s --hkg-verify-schedule=chip=gfx942 | FileCheck %s
// RUN: hkg-opt %s --hkg-verify-schedule="chip=gfx942 require-schedule" --verify-diagnostics
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-verify-schedule="chip=gfx942 require-schedule" | FileCheck %s --check-prefix=DEFAULTED

// Without require-schedule an op with no schedule is fine (defaults apply);
// with it, the op is reported. After hkg-default-schedule it passes.

// CHECK-LABEL: func.func @unscheduled
// CHECK: hkg.softmax %{{.*}} axis(1) : tensor<4x64xf32> -> tensor<4x64xf32>
// DEFAULTED-LABEL: func.func @unscheduled
// DEFAULTED: hkg.softmax %{{.*}} axis(1) {schedule = #hkg.schedule<
func.func @unscheduled(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-error @below {{'hkg.softmax' op has no schedule; run hkg-default-schedule or hkg-autotune first}}
  %0 = hkg.softmax %x axis(1) : tensor<4x64xf32> -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// An op with a schedule passes in both modes.
// CHECK-LABEL: func.func @scheduled
func.func @scheduled(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<threads = 64>} : tensor<4x64xf32> -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}
