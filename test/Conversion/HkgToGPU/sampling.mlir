// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu | FileCheck %s

// top-p over a 128256-token vocabulary with the gfx942 default schedule: one
// workgroup of 1024 threads per row, 16-byte loads, a statistics pass, the
// threshold search (scf.while; 7 thresholds per pass, one mass accumulator
// each, plus the min/max key of the boundary interval), the draw pass, two
// workgroup scans, and the walk of the one chosen thread. The seed feeds a
// splitmix64 finalizer of (seed, row).

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @top_p_seed
// CHECK:         gpu.launch_func @hkg_top_p_sample_0::@hkg_top_p_sample_0
// CHECK-SAME:      args(%{{.*}} : memref<64x128256xf32>, %{{.*}} : memref<64xi32>)
// CHECK:         gpu.func @hkg_top_p_sample_0(%{{.*}}: memref<64x128256xf32>, %{{.*}}: memref<64xi32>) workgroup(
// CHECK-SAME:      hkg.schedule = #hkg.schedule<threads = 1024, thresholds_per_pass = 7, vector_width = 4>
// CHECK-SAME:      known_block_size = array<i32: 1024, 1, 1>
// CHECK-SAME:      known_grid_size = array<i32: 64, 1, 1>
// CHECK:           scf.for %{{.*}} = %c0 to %c32 step %c1 iter_args({{.*}}) -> (f32, f32, i32) {
// CHECK:             vector.load %arg0[%block_id_x, %{{.*}}] {alignment = 16 : i64} : memref<64x128256xf32>, vector<4xf32>
// CHECK:           scf.while
// CHECK:             scf.condition
// CHECK:           } do {
// CHECK:             scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, i32, i32) {
// CHECK-COUNT-7:       arith.cmpi sge, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK:               vector.reduction <minsi>
// CHECK:               vector.reduction <maxsi>
// CHECK:             gpu.barrier
// CHECK:             scf.yield
// CHECK:           math.ceil
// CHECK:           scf.for {{.*}} -> (f32, i32) {
// CHECK:           gpu.shuffle  up
// CHECK:           arith.muli %{{.*}}, %c-7046029254386353131_i64 : i64
// CHECK:           scf.if
// CHECK:             scf.for {{.*}} -> (f32, f32, i1, i32, i32) {
// CHECK:             memref.store %{{.*}}, %arg1[%block_id_x] : memref<64xi32>
func.func @top_p_seed(%x: tensor<64x128256xf32>) -> tensor<64xi32> {
  %t = hkg.top_p_sample %x p(0.9) temperature(0.7) seed(42) {schedule = #hkg.schedule<threads = 1024, thresholds_per_pass = 7, vector_width = 4>} : tensor<64x128256xf32> -> tensor<64xi32>
  return %t : tensor<64xi32>
}
}

// -----

// With given uniforms, bf16 logits of odd length (element vectors plus no
// tail), 64 threads (one wave: scans and reductions need no LDS) and 3
// thresholds per pass.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @top_p_uniform
// CHECK:         gpu.func @hkg_top_p_sample_0(%{{.*}}: memref<8x1001xbf16>, %{{.*}}: memref<8xf32>, %{{.*}}: memref<8xi32>) kernel
// CHECK-SAME:      hkg.arg_roles = ["input", "input", "output"]
// CHECK-SAME:      known_block_size = array<i32: 64, 1, 1>
// CHECK-NOT:       gpu.barrier
// CHECK:           vector.load %arg0[%block_id_x, %{{.*}}] {alignment = 2 : i64} : memref<8x1001xbf16>, vector<1xbf16>
// CHECK:           scf.for {{.*}} -> (f32, f32, f32, i32, i32) {
// CHECK-COUNT-3:     arith.cmpi sge, %{{.*}}, %{{.*}} : vector<1xi32>
// CHECK-NOT:       gpu.barrier
// CHECK:           memref.load %arg1[%block_id_x] : memref<8xf32>
// CHECK-NOT:       gpu.barrier
// CHECK:           memref.store %{{.*}}, %arg2[%block_id_x] : memref<8xi32>
func.func @top_p_uniform(%x: tensor<8x1001xbf16>, %u: tensor<8xf32>) -> tensor<8xi32> {
  %t = hkg.top_p_sample %x uniform(%u : tensor<8xf32>) p(0.5) temperature(1.0) {schedule = #hkg.schedule<threads = 64, vector_width = 1, thresholds_per_pass = 3>} : tensor<8x1001xbf16> -> tensor<8xi32>
  return %t : tensor<8xi32>
}
}

// -----

// p = 1: the nucleus is every token, no threshold search.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @top_p_all
// CHECK:         gpu.func @hkg_top_p_sample_0
// CHECK-NOT:       scf.while
// CHECK:           arith.constant 0x7F800000 : f32
// CHECK:           memref.store %{{.*}}, %arg1[%block_id_x] : memref<16xi32>
func.func @top_p_all(%x: tensor<16x512xf32>) -> tensor<16xi32> {
  %t = hkg.top_p_sample %x p(1.0) temperature(1.0) seed(7) {schedule = #hkg.schedule<threads = 128, thresholds_per_pass = 1, vector_width = 4>} : tensor<16x512xf32> -> tensor<16xi32>
  return %t : tensor<16xi32>
}
}

// -----

// The search interval [lo, hi) of keys is i64: the keys of negative and
// positive logits span more than 2^31, and an i32 hi - lo wrapped negative,
// ended the search at once and sampled from the whole vocabulary. T = 0.7
// divides (x * (1 / 0.7) is not x / 0.7). The draw passes give thread t the
// contiguous vectors [4 t, 4 t + 4) (250 vectors: the last ones clamped and
// masked) and the last thread the tail token 1000, so the scans and the walk
// run in token-id order.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @top_p_wide_keys
// CHECK:         gpu.func @hkg_top_p_sample_0(%{{.*}}: memref<4x1001xf32>, %{{.*}}: memref<4xi32>)
// CHECK:           %[[TS:.*]] = arith.constant 0.699999988 : f32
// CHECK:           %[[T:.*]] = vector.broadcast %[[TS]] : f32 to vector<4xf32>
// CHECK:           arith.divf %{{.*}}, %[[T]] : vector<4xf32>
// CHECK:           %[[MIN:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK:           %[[MAX:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK:           %[[HI:.*]] = arith.addi %[[MAX]], %[[ONE:.*]] : i64
// CHECK:           scf.while (%[[LO0:.*]] = %[[MIN]], %[[HI0:.*]] = %[[HI]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (i64, i64, f32, i32) -> (i64, i64, f32, i32) {
// CHECK:             %[[W:.*]] = arith.subi %[[HI0]], %[[LO0]] : i64
// CHECK:             arith.cmpi sgt, %[[W]], %[[ONE]] : i64
// CHECK:           } do {
// CHECK:           ^bb0(%[[LO:.*]]: i64, %[[HI1:.*]]: i64, %{{.*}}: f32, %{{.*}}: i32):
// CHECK:             arith.trunci %[[LO]] : i64 to i32
// CHECK:             %[[LAST:.*]] = arith.subi %[[HI1]], %[[ONE]] : i64
// CHECK:             arith.trunci %[[LAST]] : i64 to i32
// CHECK:             arith.cmpi sle
// CHECK:             arith.maxsi %{{.*}}, %{{.*}} : i64
// CHECK:             arith.minsi %{{.*}}, %{{.*}} : i64
// CHECK:             scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i64, i64, f32, i32
// CHECK:           math.ceil
// CHECK:           scf.for %[[S:.*]] = %{{.*}} to %[[C4:.*]] step %{{.*}} iter_args({{.*}}) -> (f32, i32) {
// CHECK:             %[[BASE:.*]] = arith.muli %thread_id_x, %{{.*}} : index
// CHECK:             %[[VI:.*]] = arith.addi %[[BASE]], %[[S]] : index
// CHECK:             arith.cmpi ule, %[[VI]], %c249 : index
// CHECK:           }
// CHECK:           %[[ISLAST:.*]] = arith.cmpi eq, %thread_id_x, %c63 : index
// CHECK:           vector.load %arg0[%block_id_x, %c1000{{.*}}] {{.*}} vector<1xf32>
// CHECK:           gpu.shuffle  up
// CHECK:           scf.if
// CHECK:             scf.for %[[S2:.*]] = {{.*}} -> (f32, f32, i1, i32, i32) {
// CHECK:               arith.muli %thread_id_x, %{{.*}} : index
// CHECK:             arith.cmpi eq, %thread_id_x, %c63{{.*}} : index
// CHECK:             memref.store %{{.*}}, %arg1[%block_id_x] : memref<4xi32>
func.func @top_p_wide_keys(%x: tensor<4x1001xf32>) -> tensor<4xi32> {
  %t = hkg.top_p_sample %x p(0.9) temperature(0.7) seed(1234) {schedule = #hkg.schedule<threads = 64, thresholds_per_pass = 1, vector_width = 4>} : tensor<4x1001xf32> -> tensor<4xi32>
  return %t : tensor<4xi32>
}
}

// -----

// T = 2: 1 / T is a power of two, x * 0.5 is x / 2 exactly: a multiply.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @top_p_exact_scale
// CHECK:         gpu.func @hkg_top_p_sample_0
// CHECK-NOT:       arith.divf %{{.*}} : vector<4xf32>
// CHECK:           arith.mulf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NOT:       arith.divf %{{.*}} : vector<4xf32>
// CHECK:           scf.while
func.func @top_p_exact_scale(%x: tensor<4x1000xf32>) -> tensor<4xi32> {
  %t = hkg.top_p_sample %x p(0.95) temperature(2.0) seed(1) {schedule = #hkg.schedule<threads = 128, thresholds_per_pass = 1, vector_width = 4>} : tensor<4x1000xf32> -> tensor<4xi32>
  return %t : tensor<4xi32>
}
}
