// Without database, model or device, the default schedule is used and the
// remark says why; device=auto without a device falls back, never fails.
// RUN: hkg-opt %s --hkg-autotune="device=none" -verify-diagnostics | FileCheck %s
// hkg-opt has the device measurer: without a GPU runtime it says so.
// RUN: env HKG_CUDA_LIBRARY=/nonexistent/libcuda.so.1 HKG_HIP_LIBRARY=/nonexistent/libamdhip64.so hkg-opt %s --hkg-autotune --hkg-default-schedule 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: hkg-opt %s --hkg-autotune --hkg-verify-schedule=require-schedule

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  // CHECK-LABEL: func.func @softmax
  func.func @softmax(%x: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
    // CHECK: hkg.softmax {{.*}} {schedule = #hkg.schedule<bulk_store = 0, occupancy = 0, online = 0, row_cache = registers, row_split = 1, row_split_reduce = cluster, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 4>}
    // AUTO: remark: hkg-autotune: no device to measure on (no GPU runtime found: /nonexistent/libcuda.so.1 and /nonexistent/libamdhip64.so not loadable); no database record or policy model for this op; using the default schedule
    // expected-remark @below {{hkg-autotune: device=none; no database record or policy model for this op; using the default schedule}}
    %0 = hkg.softmax %x axis(1) : tensor<64x8192xf32> -> tensor<64x8192xf32>
    return %0 : tensor<64x8192xf32>
  }
}
