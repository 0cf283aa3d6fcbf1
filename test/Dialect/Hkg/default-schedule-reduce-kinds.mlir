// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s
// Every default passes its own verification:
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-verify-schedule="chip=gfx942 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 --hkg-verify-schedule="chip=gfx1100 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-verify-schedule="chip=sm_90 require-schedule" -o /dev/null

// A reduction's vector width follows its input: a bf16 row reduced to an
// i64 argmax or an f32 logsumexp is still read 8 elements (16 bytes) at a
// time, rows and down columns; tuple states stop at 512 threads.
// CHECK-LABEL: func.func @widths
// CHECK: hkg.reduce argmax {{.*}}threads = 512{{.*}}vector_width = 8
// CHECK: hkg.reduce logsumexp {{.*}}threads = 512{{.*}}vector_width = 8
// CHECK: hkg.reduce argmax {{.*}}vector_width = 8
func.func @widths(%x: tensor<64x32000xbf16>, %y: tensor<8x512x64xbf16>) -> (tensor<64xi64>, tensor<64xf32>, tensor<8x64xi64>) {
  %0 = hkg.reduce argmax %x axes = [1] : tensor<64x32000xbf16> -> tensor<64xi64>
  %1 = hkg.reduce logsumexp %x axes = [1] : tensor<64x32000xbf16> -> tensor<64xf32>
  %2 = hkg.reduce argmax %y axes = [1] : tensor<8x512x64xbf16> -> tensor<8x64xi64>
  return %0, %1, %2 : tensor<64xi64>, tensor<64xf32>, tensor<8x64xi64>
}

// Down columns, a (value, position) state per lane: 64 thread rows of up to
// 512 threads, two rows each in flight (a plain sum keeps 4 in flight with
// 256 threads at most).
// CHECK-LABEL: func.func @column_states
// CHECK: hkg.reduce argmax {{.*}}rows_per_block = 64, threads = 512, unroll = 2, vector_width = 8
// CHECK: hkg.reduce argmin {{.*}}rows_per_block = 64, threads = 512, unroll = 2, vector_width = 8
// CHECK: hkg.reduce sum {{.*}}rows_per_block = 32, threads = 256, unroll = 4, vector_width = 8
func.func @column_states(%x: tensor<8192x16384xbf16>) -> (tensor<16384xi64>, tensor<16384xi64>, tensor<16384xbf16>) {
  %0 = hkg.reduce argmax %x axes = [0] : tensor<8192x16384xbf16> -> tensor<16384xi64>
  %1 = hkg.reduce argmin %x axes = [0] : tensor<8192x16384xbf16> -> tensor<16384xi64>
  %2 = hkg.reduce sum %x axes = [0] : tensor<8192x16384xbf16> -> tensor<16384xbf16>
  return %0, %1, %2 : tensor<16384xi64>, tensor<16384xi64>, tensor<16384xbf16>
}
