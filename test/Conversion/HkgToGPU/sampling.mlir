// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu | FileCheck %s

// top-p over a 128256-token vocabulary with the gfx942 default schedule: one
// workgroup of 1024 threads per row, 16-byte loads. Pass 1: max z and the
// smallest finite z (no exp), 4 vectors loaded per step (unroll) before any
// is used. Pass 2: a mass histogram over 2048 bins of 64-bit q =
// floor(exp(z - max) 2^44) as three i32 words of 15 bits of mass each, added
// by i32 LDS atomics (the top word only when not 0); a workgroup scan of the
// bins (i64 shuffles) finds the cut's bin. Pass 3 (contiguous): mass above that
// bin, and the bin's tokens appended to an LDS list through an i32 counter.
// Then the cut: in the list (each entry against all, then the entries above
// the cut credited to their owner threads: 128 tokens per thread), or else
// key-histogram passes in an scf.while and a mass pass. Then the tie and mass
// scans, the seed's splitmix64 draw and the walk of the one chosen thread.
// T = 0.7 divides (x * (1 / 0.7) is not x / 0.7).

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @top_p_seed
// CHECK:         gpu.launch_func @hkg_top_p_sample_0::@hkg_top_p_sample_0
// CHECK-SAME:      args(%{{.*}} : memref<64x128256xf32>, %{{.*}} : memref<64xi32>)
// CHECK:         gpu.func @hkg_top_p_sample_0(%{{.*}}: memref<64x128256xf32>, %{{.*}}: memref<64xi32>) workgroup(
// CHECK-SAME:      %[[HIST:[^ ]*]] : memref<6144xi32, #gpu.address_space<workgroup>>
// CHECK-SAME:      %[[COUNT:[^ ]*]] : memref<1xi32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[LKEY:[^ ]*]] : memref<1024xi32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[LID:[^ ]*]] : memref<1024xi32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[LQ:[^ ]*]] : memref<1024xi64, #gpu.address_space<workgroup>>
// CHECK-SAME:      hkg.schedule = #hkg.schedule<bin_cache = 0, bins = 2048, ctas_per_row = 1, light_tokens = 0, occupancy = 0, threads = 1024, unroll = 4, vector_width = 4>
// CHECK-SAME:      known_block_size = array<i32: 1024, 1, 1>
// CHECK-SAME:      known_grid_size = array<i32: 64, 1, 1>
// CHECK:           scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args({{.*}}) -> (f32, f32) {
// CHECK-COUNT-4:     vector.load %arg0[%block_id_x, %{{.*}}] {alignment = 16 : i64} : memref<64x128256xf32>, vector<4xf32>
// CHECK-NOT:         vector.load
// CHECK:             arith.divf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NOT:         math.exp
// CHECK:             vector.reduction <maxnumf>
// CHECK:             vector.reduction <minnumf>
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             math.exp %{{.*}} fastmath<afn> : vector<4xf32>
// CHECK:             arith.fptoui %{{.*}} : vector<4xf32> to vector<4xi64>
// CHECK:             arith.minnumf %{{.*}} : vector<4xf32>
// CHECK:             arith.fptoui %{{.*}} : vector<4xf32> to vector<4xi32>
// CHECK-COUNT-2:     memref.atomic_rmw addi %{{.*}}, %[[HIST]][%{{.*}}] : (i32, memref<6144xi32, #gpu.address_space<workgroup>>) -> i32
// CHECK:             arith.cmpi ne, %{{.*}}, %{{.*}} : i32
// CHECK:             scf.if
// CHECK:               arith.muli %{{.*}}, %c3{{.*}} : index
// CHECK:               memref.atomic_rmw addi %{{.*}}, %[[HIST]][%{{.*}}] : (i32, memref<6144xi32, #gpu.address_space<workgroup>>) -> i32
// CHECK:           gpu.shuffle  up %{{.*}} : i64
// CHECK:           math.ceil %{{.*}} : f64
// CHECK:           scf.for %{{.*}} iter_args({{.*}}) -> (i64, i32, i32) {
// CHECK:             arith.cmpi ult, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK:             vector.reduction <add>, %{{.*}} : vector<4xi64> into i64
// CHECK:             memref.atomic_rmw addi %{{.*}}, %[[COUNT]][%{{.*}}] : (i32, memref<1xi32, #gpu.address_space<workgroup>>) -> i32
// CHECK:             memref.store %{{.*}}, %[[LKEY]]
// CHECK:             memref.store %{{.*}}, %[[LID]]
// CHECK:             memref.store %{{.*}}, %[[LQ]]
// CHECK:           scf.if %{{.*}} -> (i32, i64, i64, i64) {
// CHECK:             scf.for %{{.*}} = %thread_id_x to %{{.*}} step %c1024{{.*}} {
// CHECK:               scf.for {{.*}} -> (i64, i64) {
// CHECK:             gpu.barrier
// CHECK:             scf.for %{{.*}} = %thread_id_x to %{{.*}} step %c1024{{.*}} {
// CHECK:               arith.divui %{{.*}}, %c128 : index
// CHECK:               memref.atomic_rmw addi %{{.*}}, %[[HIST]]
// CHECK:               memref.atomic_rmw addi %{{.*}}, %[[HIST]]
// CHECK:           } else {
// CHECK:             scf.while ({{.*}}) : (i64, i64, i64) -> (i64, i64, i64) {
// CHECK:               scf.condition
// CHECK:             } do {
// CHECK:               arith.shrui %{{.*}} : vector<4xi64>
// CHECK:               memref.atomic_rmw addi %{{.*}}, %[[HIST]]
// CHECK:             scf.for {{.*}} -> (i64, i64) {
// CHECK:           arith.divui %{{.*}} : i64
// CHECK:           gpu.shuffle  up
// CHECK:           arith.muli %{{.*}}, %c-7046029254386353131_i64 : i64
// CHECK:           arith.fptoui %{{.*}} : f64 to i64
// CHECK:           scf.if
// CHECK:             scf.for {{.*}} -> (i64, i64, i1, i32) {
// CHECK:             memref.store %{{.*}}, %arg1[%block_id_x] : memref<64xi32>
func.func @top_p_seed(%x: tensor<64x128256xf32>) -> tensor<64xi32> {
  %t = hkg.top_p_sample %x p(0.9) temperature(0.7) seed(42) {schedule = #hkg.schedule<bins = 2048, threads = 1024, unroll = 4, vector_width = 4>} : tensor<64x128256xf32> -> tensor<64xi32>
  return %t : tensor<64xi32>
}
}

// -----

// With given uniforms (clamped at 0), bf16 logits of odd length (element
// vectors, the last vector index clamped and masked), 64 threads (one wave),
// 256 bins (4 per thread) and 2 loads per step (16 vectors per thread: 8
// steps).

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @top_p_uniform
// CHECK:         gpu.func @hkg_top_p_sample_0(%{{.*}}: memref<8x1001xbf16>, %{{.*}}: memref<8xf32>, %{{.*}}: memref<8xi32>) workgroup(
// CHECK-SAME:      memref<768xi32, #gpu.address_space<workgroup>>
// CHECK-SAME:      hkg.arg_roles = ["input", "input", "output"]
// CHECK-SAME:      known_block_size = array<i32: 64, 1, 1>
// CHECK:           scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK:           arith.cmpi ule, %{{.*}}, %c1000 : index
// CHECK:           vector.load %arg0[%block_id_x, %{{.*}}] {alignment = 2 : i64} : memref<8x1001xbf16>, vector<1xbf16>
// CHECK:           arith.cmpi ule, %{{.*}}, %c1000 : index
// CHECK:           vector.load %arg0[%block_id_x, %{{.*}}] {alignment = 2 : i64} : memref<8x1001xbf16>, vector<1xbf16>
// CHECK:           scf.if
// CHECK:             memref.atomic_rmw addi
// CHECK-COUNT-12:  memref.load %{{.*}} : memref<768xi32, #gpu.address_space<workgroup>>
// CHECK:           memref.load %arg1[%block_id_x] : memref<8xf32>
// CHECK:           arith.maxnumf %{{.*}}, %cst{{.*}} : f32
// CHECK:           memref.store %{{.*}}, %arg2[%block_id_x] : memref<8xi32>
func.func @top_p_uniform(%x: tensor<8x1001xbf16>, %u: tensor<8xf32>) -> tensor<8xi32> {
  %t = hkg.top_p_sample %x uniform(%u : tensor<8xf32>) p(0.5) temperature(1.0) {schedule = #hkg.schedule<threads = 64, vector_width = 1, bins = 256, unroll = 2>} : tensor<8x1001xbf16> -> tensor<8xi32>
  return %t : tensor<8xi32>
}
}

// -----

// p = 1: the nucleus is every token: no histogram, no search, one mass pass.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @top_p_all
// CHECK:         gpu.func @hkg_top_p_sample_0
// CHECK-NOT:       memref.atomic_rmw
// CHECK-NOT:       scf.while
// CHECK:           arith.constant 9223372036854775807 : i64
// CHECK-NOT:       memref.atomic_rmw
// CHECK:           memref.store %{{.*}}, %arg1[%block_id_x] : memref<16xi32>
func.func @top_p_all(%x: tensor<16x512xf32>) -> tensor<16xi32> {
  %t = hkg.top_p_sample %x p(1.0) temperature(1.0) seed(7) {schedule = #hkg.schedule<threads = 128, bins = 256, vector_width = 4>} : tensor<16x512xf32> -> tensor<16xi32>
  return %t : tensor<16xi32>
}
}

// -----

// T = 2: 1 / T is a power of two, x * 0.5 is x / 2 exactly: a multiply. The
// bins knob sets the histogram (here 512 bins, 4 per thread of 128) and the
// key bits of a fallback pass (9: the scan of the span's bit length starts
// at 2^9).

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @top_p_exact_scale
// CHECK:         gpu.func @hkg_top_p_sample_0
// CHECK-SAME:      memref<1536xi32, #gpu.address_space<workgroup>>
// CHECK-NOT:       arith.divf %{{.*}} : vector<4xf32>
// CHECK:           arith.mulf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NOT:       arith.divf %{{.*}} : vector<4xf32>
// CHECK:           arith.constant 511 : i64
// CHECK:           scf.while
// CHECK:             arith.constant 512 : i64
// CHECK-NEXT:        arith.cmpi sge
// CHECK-NOT:       arith.divf %{{.*}} : vector<4xf32>
func.func @top_p_exact_scale(%x: tensor<4x1000xf32>) -> tensor<4xi32> {
  %t = hkg.top_p_sample %x p(0.95) temperature(2.0) seed(1) {schedule = #hkg.schedule<threads = 128, bins = 512, vector_width = 4>} : tensor<4x1000xf32> -> tensor<4xi32>
  return %t : tensor<4xi32>
}
}
