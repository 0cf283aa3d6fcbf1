// The database fixture is built from JSON lines in the RUN line.
// RUN: rm -f %t.sqlite
// RUN: hkg-tune import --db %t.sqlite %S/Inputs/records.jsonl --allow-illegal-knobs
// RUN: hkg-opt %s --hkg-autotune="device=none db=%t.sqlite" -verify-diagnostics | FileCheck %s

// The fastest ok record wins; the faster 'wrong' record and the record that
// is no longer legal (vector_width = 3) never do.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  // CHECK-LABEL: func.func @softmax
  func.func @softmax(%x: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
    // CHECK: hkg.softmax %{{.*}} axis(1) {schedule = #hkg.schedule<bulk_store = 0, occupancy = 0, online = 1, row_cache = registers, row_split = 1, row_split_reduce = cluster, rows_per_block = 1, threads = 512, unroll = 2, vector_width = 4>}
    // expected-remark @below {{hkg-autotune: device=none; replayed the fastest database record (18.50 us, measured 2026-11-29T12:00:00Z)}}
    %0 = hkg.softmax %x axis(1) : tensor<64x8192xf32> -> tensor<64x8192xf32>
    return %0 : tensor<64x8192xf32>
  }

  // CHECK-LABEL: func.func @rmsnorm
  func.func @rmsnorm(%x: tensor<4096x4096xbf16>, %w: tensor<4096xbf16>) -> tensor<4096x4096xbf16> {
    // CHECK: hkg.rmsnorm {{.*}} {schedule = #hkg.schedule<bulk_store = 0, occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = cluster, row_steps = 1, rows_per_block = 1, threads = 256, unroll = 2, vector_width = 8>}
    // expected-remark @below {{hkg-autotune: device=none; replayed the fastest database record (41.00 us, measured 2026-11-29T12:00:00Z)}}
    %0 = hkg.rmsnorm %x weight(%w : tensor<4096xbf16>) eps(1.0e-06) : tensor<4096x4096xbf16> -> tensor<4096x4096xbf16>
    return %0 : tensor<4096x4096xbf16>
  }

  // An op with a schedule keeps it.
  // CHECK-LABEL: func.func @pinned
  func.func @pinned(%x: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
    // CHECK: {schedule = #hkg.schedule<threads = 128>}
    %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<threads = 128>} : tensor<64x8192xf32> -> tensor<64x8192xf32>
    return %0 : tensor<64x8192xf32>
  }
}
