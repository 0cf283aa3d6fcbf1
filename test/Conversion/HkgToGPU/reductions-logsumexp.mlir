// logsumexp along rows: each slot's lanes are exponentiated against the new
// running max and the running sum is rescaled once, as in the online
// softmax: 9 exponentials per 8 lanes (a slot's own (max, sum) merged into
// the running pair took 10). The same on every target.
// RUN: hkg-opt %s --hkg-lower-to-gpu=chip=sm_90 --canonicalize --cse | FileCheck %s
// RUN: hkg-opt %s --hkg-lower-to-gpu=chip=gfx942 --canonicalize --cse | FileCheck %s

// CHECK-LABEL: gpu.func @hkg_reduce_0
// CHECK: scf.for {{.*}} iter_args(%[[M:[^ ]*]] = %{{.*}}, %[[S:[^ ]*]] = %{{.*}}) -> (f32, f32)
// CHECK: %[[X:.*]] = arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// CHECK-NEXT: %[[VM:.*]] = vector.reduction <maxnumf>, %[[X]] : vector<8xf32> into f32
// CHECK-NEXT: %[[NM:.*]] = arith.maxnumf %[[M]], %[[VM]] : f32
// Against 0 while the max is -inf, so that NaN lanes stay NaN.
// CHECK-NEXT: %[[EMPTY:.*]] = arith.cmpf oeq, %[[NM]], %{{.*}} : f32
// CHECK-NEXT: %[[BASE:.*]] = arith.select %[[EMPTY]], %{{.*}}, %[[NM]] : f32
// CHECK-NOT: math.exp
// CHECK: arith.subf %[[M]], %[[BASE]] : f32
// CHECK-NEXT: math.exp %{{.*}} fastmath<afn> : f32
// CHECK-NOT: math.exp
// CHECK: arith.mulf %[[S]], %{{.*}} : f32
// CHECK-NOT: math.exp
// CHECK: vector.broadcast %[[BASE]] : f32 to vector<8xf32>
// CHECK-NOT: math.exp
// CHECK: math.exp %{{.*}} fastmath<afn> : vector<8xf32>
// CHECK-NOT: arith.select
// CHECK-NOT: math.exp
// CHECK: scf.yield %[[NM]], %{{.*}} : f32, f32
func.func @logsumexp_rows(%x: tensor<64x4096xbf16>) -> tensor<64xf32> {
  %0 = hkg.reduce logsumexp %x axes = [1] {schedule = #hkg.schedule<threads = 256, rows_per_block = 1, unroll = 1, vector_width = 8, row_split = 1>} : tensor<64x4096xbf16> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
