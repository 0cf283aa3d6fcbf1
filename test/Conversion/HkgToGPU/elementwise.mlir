// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu | FileCheck %s

// Default schedule on gfx942: 16-byte vectors, 256 threads, 4 steps in
// flight; the broadcast bias is read modulo its size.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @bias_exp
// CHECK-DAG:     %[[X:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<1024x1000xbf16> to memref<1024x1000xbf16>
// CHECK-DAG:     %[[B:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<1000xbf16> to memref<1000xbf16>
// CHECK-DAG:     %[[Y:.*]] = memref.alloc() : memref<1024x1000xbf16>
// CHECK-DAG:     %[[C125:.*]] = arith.constant 125 : index
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK:         gpu.launch_func @hkg_elementwise_0::@hkg_elementwise_0 blocks in (%[[C125]], %{{.*}}, %{{.*}}) threads in (%[[C256]], %{{.*}}, %{{.*}}) args(%[[X]] : memref<1024x1000xbf16>, %[[B]] : memref<1000xbf16>, %[[Y]] : memref<1024x1000xbf16>)
// CHECK:         %[[R:.*]] = bufferization.to_tensor %[[Y]] restrict writable
// CHECK:         return %[[R]]
// CHECK:       gpu.module @hkg_elementwise_0
// CHECK:         gpu.func @hkg_elementwise_0(%{{.*}}: memref<1024x1000xbf16>, %{{.*}}: memref<1000xbf16>, %{{.*}}: memref<1024x1000xbf16>) kernel
// CHECK-SAME:      hkg.arg_roles = ["input", "input", "output"]
// CHECK-SAME:      hkg.op = "hkg.elementwise"
// CHECK-SAME:      hkg.schedule = #hkg.schedule<threads = 256, unroll = 4, vector_width = 8>
// CHECK-SAME:      hkg.source = "module {\0A  func.func @ref(%arg0: tensor<1024x1000xbf16>, %arg1: tensor<1000xbf16>) -> tensor<1024x1000xbf16> {\0A    %0 = hkg.elementwise
// CHECK-SAME:      known_block_size = array<i32: 256, 1, 1>
// CHECK-SAME:      known_grid_size = array<i32: 125, 1, 1>
// CHECK-NOT:       workgroup
// CHECK-COUNT-4:   vector.load %{{.*}} {alignment = 16 : i64} : memref<1024000xbf16>, vector<8xbf16>
// CHECK-NOT:       scf.if
// CHECK:           math.exp
// CHECK-COUNT-4:   vector.store %{{.*}} {alignment = 16 : i64} : memref<1024000xbf16>, vector<8xbf16>
// CHECK:           gpu.return
func.func @bias_exp(%x: tensor<1024x1000xbf16>, %b: tensor<1000xbf16>) -> tensor<1024x1000xbf16> {
  %y = hkg.elementwise %x, %b {schedule = #hkg.schedule<threads = 256, unroll = 4, vector_width = 8>}
      : tensor<1024x1000xbf16>, tensor<1000xbf16> -> tensor<1024x1000xbf16> {
  ^bb0(%a: bf16, %c: bf16):
    %af = arith.extf %a : bf16 to f32
    %cf = arith.extf %c : bf16 to f32
    %s = arith.addf %af, %cf : f32
    %e = math.exp %s : f32
    %r = arith.truncf %e : f32 to bf16
    hkg.yield %r : bf16
  }
  return %y : tensor<1024x1000xbf16>
}
}

// -----

// Non-default knobs change the kernel: 8-byte vectors, 64 threads, 2 steps.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @bias_exp_small_vectors
// CHECK:       gpu.func @hkg_elementwise_0
// CHECK-SAME:      hkg.schedule = #hkg.schedule<threads = 64, unroll = 2, vector_width = 4>
// CHECK-SAME:      known_block_size = array<i32: 64, 1, 1>
// CHECK-SAME:      known_grid_size = array<i32: 2000, 1, 1>
// CHECK:           %[[BASE:.*]] = arith.muli %{{.*}}, %c512 : index
// CHECK-COUNT-2:   vector.load %{{.*}} {alignment = 8 : i64} : memref<1024000xbf16>, vector<4xbf16>
// CHECK-NOT:       vector.load %{{.*}} : memref<1024000xbf16>
// CHECK-COUNT-2:   vector.store %{{.*}} {alignment = 8 : i64} : memref<1024000xbf16>, vector<4xbf16>
func.func @bias_exp_small_vectors(%x: tensor<1024x1000xbf16>, %b: tensor<1000xbf16>) -> tensor<1024x1000xbf16> {
  %y = hkg.elementwise %x, %b {schedule = #hkg.schedule<vector_width = 4, threads = 64, unroll = 2>}
      : tensor<1024x1000xbf16>, tensor<1000xbf16> -> tensor<1024x1000xbf16> {
  ^bb0(%a: bf16, %c: bf16):
    %af = arith.extf %a : bf16 to f32
    %cf = arith.extf %c : bf16 to f32
    %s = arith.addf %af, %cf : f32
    %e = math.exp %s : f32
    %r = arith.truncf %e : f32 to bf16
    hkg.yield %r : bf16
  }
  return %y : tensor<1024x1000xbf16>
}
}

// -----

// 5001 f32 elements, 4-wide vectors, 1024 elements per workgroup: four full
// workgroups without checks, then a partial one that checks each vector and
// finishes the 5001 % 4 = 1 last element one at a time.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @silu_tail
// CHECK:       gpu.func @hkg_elementwise_0
// CHECK-SAME:      known_block_size = array<i32: 64, 1, 1>
// CHECK-SAME:      known_grid_size = array<i32: 5, 1, 1>
// CHECK:           %[[FULL:.*]] = arith.cmpi ult, %block_id_x, %{{.*}} : index
// CHECK:           scf.if %[[FULL]] {
// CHECK-COUNT-4:     vector.load %{{.*}} {alignment = 16 : i64} : memref<5001xf32>, vector<4xf32>
// CHECK:           } else {
// CHECK:             %[[FITS:.*]] = arith.cmpi ule, %{{.*}}, %c5001 : index
// CHECK:             scf.if %[[FITS]] {
// CHECK:               vector.load %{{.*}} {alignment = 16 : i64} : memref<5001xf32>, vector<4xf32>
// CHECK:             } else {
// CHECK:               scf.if
// CHECK:                 vector.load %{{.*}} {alignment = 4 : i64} : memref<5001xf32>, vector<1xf32>
// CHECK:                 vector.store %{{.*}} {alignment = 4 : i64} : memref<5001xf32>, vector<1xf32>
func.func @silu_tail(%x: tensor<5001xf32>) -> tensor<5001xf32> {
  %y = hkg.elementwise %x {schedule = #hkg.schedule<vector_width = 4, threads = 64, unroll = 4>}
      : tensor<5001xf32> -> tensor<5001xf32> {
  ^bb0(%a: f32):
    %n = arith.negf %a : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %a, %d : f32
    hkg.yield %s : f32
  }
  return %y : tensor<5001xf32>
}
}

// -----

// A rank-0 result is one element: its buffers are viewed as memref<1xf32>,
// one workgroup runs, and only its first thread passes the bounds check.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @rank_zero
// CHECK:         gpu.launch_func @hkg_elementwise_0::@hkg_elementwise_0 blocks in (%c1, %{{.*}}, %{{.*}}) threads in (%c64, %{{.*}}, %{{.*}}) args(%{{.*}} : memref<f32>, %{{.*}} : memref<f32>, %{{.*}} : memref<f32>)
// CHECK:       gpu.func @hkg_elementwise_0(%[[X:.*]]: memref<f32>, %[[Y:.*]]: memref<f32>, %[[Z:.*]]: memref<f32>) kernel
// CHECK-SAME:      known_grid_size = array<i32: 1, 1, 1>
// CHECK-DAG:       %[[XV:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [1], strides: [1] : memref<f32> to memref<1xf32>
// CHECK-DAG:       %[[ZV:.*]] = memref.reinterpret_cast %[[Z]] to offset: [0], sizes: [1], strides: [1] : memref<f32> to memref<1xf32>
// CHECK:           %[[FITS:.*]] = arith.cmpi ule, %{{.*}}, %c1 : index
// CHECK:           scf.if %[[FITS]] {
// CHECK:             vector.load %[[XV]][%{{.*}}] {alignment = 4 : i64} : memref<1xf32>, vector<1xf32>
// CHECK:             arith.addf
// CHECK:             vector.store %{{.*}}, %[[ZV]][%{{.*}}] {alignment = 4 : i64} : memref<1xf32>, vector<1xf32>
// CHECK:           gpu.return
func.func @rank_zero(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %z = hkg.elementwise %x, %y {schedule = #hkg.schedule<threads = 64, unroll = 1, vector_width = 1>}
      : tensor<f32>, tensor<f32> -> tensor<f32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    hkg.yield %s : f32
  }
  return %z : tensor<f32>
}
}
