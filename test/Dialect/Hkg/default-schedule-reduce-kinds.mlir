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
