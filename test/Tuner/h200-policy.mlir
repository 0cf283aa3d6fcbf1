// The default policy model shipped with hkg (data/policy-h200.json, trained
// on the H200 measurements in data/h200-records.jsonl.xz) picks schedules
// zero-shot for shapes it never saw.
// RUN: hkg-opt %s --hkg-autotune="device=none model=%hkg_src_root/data/policy-h200.json" --hkg-verify-schedule=require-schedule 2>&1 | FileCheck %s

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @softmax(%x: tensor<3000x2048xbf16>) -> tensor<3000x2048xbf16> {
    // CHECK: remark: hkg-autotune: device=none; picked zero-shot by the policy model '{{.*}}policy-h200.json' among 512 legal candidates
    %0 = hkg.softmax %x axis(1) : tensor<3000x2048xbf16> -> tensor<3000x2048xbf16>
    return %0 : tensor<3000x2048xbf16>
  }
  func.func @rmsnorm(%x: tensor<7x5120xf16>, %w: tensor<5120xf16>) -> tensor<7x5120xf16> {
    // CHECK: remark: hkg-autotune: device=none; picked zero-shot by the policy model '{{.*}}policy-h200.json' among 512 legal candidates
    %0 = hkg.rmsnorm %x weight(%w : tensor<5120xf16>) eps(1.0e-06) : tensor<7x5120xf16> -> tensor<7x5120xf16>
    return %0 : tensor<7x5120xf16>
  }
}
// CHECK: hkg.softmax {{.*}} {schedule = #hkg.schedule<
// CHECK: hkg.rmsnorm {{.*}} {schedule = #hkg.schedule<
