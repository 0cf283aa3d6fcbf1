// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu=chip=sm_90 --canonicalize --cse | FileCheck %s

// 3xTF32 (mma = mma_16x8x8_tf32x3, f32 operands): each fragment element x
// is split into big = tf32(x) and small = tf32(x - big), and each fragment
// pair is three tf32 m16n8k8 MMAs, small terms first, into an accumulator
// zeroed per stage and added to the running f32 sum after it
// (MatmulMmaSyncTf32x3.cpp). One 16 x 8 warp tile per wave: one A and
// one B fragment per K step of 8.

// B as [K, N]: its LDS tile keeps the K rows interleaved (row r and r + 4
// of each 8 on adjacent rows), both in the copies and the fragment loads.
// CHECK-LABEL: gpu.func @hkg_matmul_0(
// CHECK-SAME: workgroup(%[[ALDS:.*]] : memref<2x16x16xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[BLDS:.*]] : memref<2x16x16xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: tf32_split = rna
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<2x2xf32>
// CHECK: %[[LANE:.*]] = arith.remui %thread_id_x, %c32 : index
// CHECK: scf.for %[[KT:.*]] = %c0 to %c4 step %c1 iter_args(%[[ITER:.*]] = %{{.*}}) -> (vector<4xf32>)
// CHECK-NEXT: %[[STAGE:.*]] = arith.remui %[[KT]], %c2 : index
// The lane's fragment coordinates: g = lane / 4, t = lane % 4.
// CHECK: %[[G:.*]] = arith.divui %[[LANE]], %c4 : index
// CHECK-NEXT: %[[T:.*]] = arith.remui %[[LANE]], %c4 : index
// A (row g, column t), (g + 8, t), (g, t + 4), (g + 8, t + 4): plain
// loads from the swizzled tile.
// CHECK-COUNT-4: memref.load %[[ALDS]][%[[STAGE]], %{{.*}}, %{{.*}}] : memref<2x16x16xf32, #gpu.address_space<workgroup>>
// The split of a0: cvt.rna.tf32.f32, the exact difference, cvt.rna again.
// CHECK-NEXT: %[[BIG0I:.*]] = nvvm.convert.float.to.tf32 %[[A0:.*]] {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK-NEXT: %[[BIG0:.*]] = arith.bitcast %[[BIG0I]] : i32 to f32
// CHECK-NEXT: %[[D0:.*]] = arith.subf %[[A0]], %[[BIG0]] : f32
// CHECK-NEXT: %[[SMALL0I:.*]] = nvvm.convert.float.to.tf32 %[[D0]] {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK-NEXT: %[[SMALL0:.*]] = arith.bitcast %[[SMALL0I]] : i32 to f32
// CHECK-COUNT-3: nvvm.convert.float.to.tf32
// CHECK: %[[ABIG:.*]] = vector.from_elements %[[BIG0]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4x1xf32>
// CHECK-NEXT: %[[ASMALL:.*]] = vector.from_elements %[[SMALL0]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4x1xf32>
// B b0 (K row t, column g) sits at LDS row 8 (t / 8) + 2 (t % 8 % 4) +
// t % 8 / 4.
// CHECK: %[[R:.*]] = arith.remui %[[T]], %c8 : index
// CHECK-NEXT: %[[Q:.*]] = arith.divui %[[T]], %c8 : index
// CHECK-NEXT: %[[Q8:.*]] = arith.muli %[[Q]], %c8 : index
// CHECK-NEXT: %[[R4:.*]] = arith.remui %[[R]], %c4 : index
// CHECK-NEXT: %[[R42:.*]] = arith.muli %[[R4]], %c2 : index
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[Q8]], %[[R42]] : index
// CHECK-NEXT: %[[HI:.*]] = arith.divui %[[R]], %c4 : index
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[S]], %[[HI]] : index
// CHECK: memref.load %[[BLDS]][%[[STAGE]], %[[ROW]], %{{.*}}] : memref<2x16x16xf32, #gpu.address_space<workgroup>>
// CHECK: memref.load %[[BLDS]][%[[STAGE]], %{{.*}}, %{{.*}}] : memref<2x16x16xf32, #gpu.address_space<workgroup>>
// CHECK: %[[BBIG:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2x1xf32>
// CHECK-NEXT: %[[BSMALL:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2x1xf32>
// Three MMAs per fragment pair: a_small b_big, a_big b_small, a_big b_big,
// the stage's first into a zeroed accumulator.
// CHECK: %[[D1:.*]] = nvgpu.mma.sync(%[[ASMALL]], %[[BBIG]], %[[ZERO]]) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NEXT: %[[D2:.*]] = nvgpu.mma.sync(%[[ABIG]], %[[BSMALL]], %[[D1]]) {mmaShape = [16, 8, 8], tf32Enabled}
// CHECK-NEXT: %[[D3:.*]] = nvgpu.mma.sync(%[[ABIG]], %[[BBIG]], %[[D2]]) {mmaShape = [16, 8, 8], tf32Enabled}
// The second K step of 8 in the tile_k = 16 stage.
// CHECK-COUNT-2: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled}
// CHECK-NEXT: %[[D6:.*]] = nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled}
// CHECK-NOT: nvgpu.mma.sync
// Added to the running sum in f32 (the tensor cores truncate their
// additions): a zeroed accumulator per stage.
// CHECK: %[[PART:.*]] = vector.shape_cast %[[D6]] : vector<2x2xf32> to vector<4xf32>
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[ITER]], %[[PART]] : vector<4xf32>
// CHECK-NEXT: scf.yield %[[SUM]]
func.func @kn(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mma_16x8x8_tf32x3, tile_m = 16, tile_n = 16, tile_k = 16, waves_m = 1, waves_n = 2, stages = 2, lds_pad = 0, lds_swizzle = 1>} : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// B as [N, K] (K-contiguous like A: no interleaving, the copies write both
// tiles alike) with tf32_split = fast: big by adding half a tf32 ulp to the
// bits and clearing the low 13, small truncated the same way, no cvt.
// CHECK-LABEL: gpu.func @hkg_matmul_0(
// CHECK-SAME: tf32_split = fast
// CHECK: scf.for
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[ALDS:.*]][%[[S:.*]], %[[ROW:.*]], %[[COL:.*]]], 4
// CHECK-NEXT: nvgpu.device_async_copy %{{.*}}, %[[BLDS:.*]][%[[S]], %[[ROW]], %[[COL]]], 4
// CHECK-NOT: nvvm.convert.float.to.tf32
// CHECK: %[[X:.*]] = memref.load
// CHECK-COUNT-3: memref.load
// CHECK-NEXT: %[[BITS:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK-NEXT: %[[BIAS:.*]] = arith.addi %[[BITS]], %c4096_i32 : i32
// CHECK-NEXT: %[[BIGI:.*]] = arith.andi %[[BIAS]], %c-8192_i32 : i32
// CHECK-NEXT: %[[BIG:.*]] = arith.bitcast %[[BIGI]] : i32 to f32
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[X]], %[[BIG]] : f32
// CHECK-NEXT: %[[DI:.*]] = arith.bitcast %[[D]] : f32 to i32
// CHECK-NEXT: %[[SMALLI:.*]] = arith.andi %[[DI]], %c-8192_i32 : i32
// CHECK-NEXT: arith.bitcast %[[SMALLI]] : i32 to f32
// CHECK-COUNT-6: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled}
// CHECK-NOT: nvvm.convert.float.to.tf32
// CHECK-NOT: nvgpu.mma.sync
// CHECK: scf.yield
func.func @nk_fast(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = mma_16x8x8_tf32x3, tf32_split = fast, tile_m = 16, tile_n = 16, tile_k = 16, waves_m = 1, waves_n = 2, stages = 2, lds_pad = 0, lds_swizzle = 1>} : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// A as [K, M] (transpose_a): its rows run along K and are interleaved too;
// the default's 64 x 64 warp tiles issue 4 x 8 x 3 MMAs per K step of 8.
// CHECK-LABEL: gpu.func @hkg_matmul_0(
// CHECK-SAME: mma = mma_16x8x8_tf32x3
// CHECK: scf.for
// CHECK-COUNT-192: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled}
// CHECK-NOT: nvgpu.mma.sync
// CHECK: scf.yield
func.func @ta(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = hkg.matmul %a, %b {transpose_a, schedule = #hkg.schedule<mma = mma_16x8x8_tf32x3, tile_m = 128, tile_n = 128, tile_k = 16, waves_m = 2, waves_n = 2, stages = 3, lds_pad = 0, lds_swizzle = 1>} : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
