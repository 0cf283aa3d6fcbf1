// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu | FileCheck %s

// Inputs read through their indexing maps. A per-row scale of a square
// matrix (map (d0, d1) -> (d0)): the row index is the flat index divided by
// the row length, one scalar load broadcast over the vector (vector_width
// divides the row). The full-size input stays one vector load at the flat
// index.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: gpu.func @hkg_elementwise_0
// CHECK-SAME:    hkg.schedule = #hkg.schedule<threads = 256, unroll = 4, vector_width = 4>
// CHECK:         %[[I:.*]] = arith.addi %{{.*}}, %c0 : index
// CHECK:         vector.load %{{.*}}[%[[I]]] {alignment = 16 : i64} : memref<4096xf32>, vector<4xf32>
// CHECK:         %[[ROW:.*]] = arith.divui %[[I]], %c64{{.*}} : index
// CHECK:         %[[S:.*]] = vector.load %{{.*}}[%[[ROW]]] {alignment = 4 : i64} : memref<64xf32>, vector<1xf32>
// CHECK:         %[[SE:.*]] = vector.extract %[[S]][0] : f32 from vector<1xf32>
// CHECK:         vector.broadcast %[[SE]] : f32 to vector<4xf32>
func.func @per_row_scale(%x: tensor<64x64xf32>, %s: tensor<64xf32>) -> tensor<64x64xf32> {
  %0 = hkg.elementwise %x, %s {indexing_maps = [
      affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>]}
      : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xf32> {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    hkg.yield %p : f32
  }
  return %0 : tensor<64x64xf32>
}
}

// -----

// A transposed read: lane l is 64 elements past lane 0 (one gather load per
// lane); the column index is the flat index mod 64, the row its quotient.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: gpu.func @hkg_elementwise_0
// CHECK:         %[[I:.*]] = arith.addi %{{.*}}, %c0 : index
// CHECK:         %[[COL:.*]] = arith.remui %[[I]], %c64{{.*}} : index
// CHECK:         %[[ROW:.*]] = arith.divui %[[I]], %c64{{.*}} : index
// CHECK:         %[[CM:.*]] = arith.muli %[[COL]], %c64{{.*}} : index
// CHECK:         %[[OFF:.*]] = arith.addi %[[ROW]], %[[CM]] : index
// CHECK:         vector.load %{{.*}}[%{{.*}}] {alignment = 4 : i64} : memref<4096xf32>, vector<1xf32>
// CHECK:         %[[L1:.*]] = arith.addi %[[OFF]], %c64{{.*}} : index
// CHECK:         vector.load %{{.*}}[%[[L1]]] {alignment = 4 : i64} : memref<4096xf32>, vector<1xf32>
// CHECK:         %[[L2:.*]] = arith.addi %[[OFF]], %c128 : index
// CHECK:         vector.load %{{.*}}[%[[L2]]] {alignment = 4 : i64} : memref<4096xf32>, vector<1xf32>
// CHECK:         %[[L3:.*]] = arith.addi %[[OFF]], %c192 : index
// CHECK:         vector.load %{{.*}}[%[[L3]]] {alignment = 4 : i64} : memref<4096xf32>, vector<1xf32>
// CHECK:         vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
func.func @transpose_add(%x: tensor<64x64xf32>, %t: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = hkg.elementwise %x, %t {indexing_maps = [
      affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>]}
      : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32> {
  ^bb0(%a: f32, %b: f32):
    %p = arith.addf %a, %b : f32
    hkg.yield %p : f32
  }
  return %0 : tensor<64x64xf32>
}
}

// -----

// hkg.index: the body sees the element's result index; lane l of a vector
// adds l to the last dim's index (the vector stays within one row of 24:
// vector_width 8 divides it).

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: gpu.func @hkg_elementwise_0
// CHECK-SAME:    vector_width = 8
// CHECK:         %[[I:.*]] = arith.addi %{{.*}}, %c0 : index
// CHECK:         vector.load %{{.*}}[%[[I]]] {alignment = 16 : i64} : memref<576xbf16>, vector<8xbf16>
// CHECK:         %[[COL:.*]] = arith.remui %[[I]], %c24{{.*}} : index
// CHECK:         %[[ROW:.*]] = arith.divui %[[I]], %c24{{.*}} : index
// CHECK:         arith.cmpi ule, %[[COL]], %[[ROW]] : index
// CHECK:         %[[COL1:.*]] = arith.addi %[[COL]], %c1 : index
// CHECK:         arith.cmpi ule, %[[COL1]], %[[ROW]] : index
// CHECK:         %[[COL7:.*]] = arith.addi %[[COL]], %c7 : index
// CHECK:         arith.cmpi ule, %[[COL7]], %[[ROW]] : index
func.func @causal_mask(%x: tensor<24x24xbf16>) -> tensor<24x24xbf16> {
  %0 = hkg.elementwise %x : tensor<24x24xbf16> -> tensor<24x24xbf16> {
  ^bb0(%v: bf16):
    %r = hkg.index 0
    %c = hkg.index 1
    %keep = arith.cmpi ule, %c, %r : index
    %zero = arith.constant 0.0 : bf16
    %o = arith.select %keep, %v, %zero : bf16
    hkg.yield %o : bf16
  }
  return %0 : tensor<24x24xbf16>
}
}

// -----

// i1 tensors are a byte per element: scalar loads and stores, one element
// per access (vector_width 1).

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: gpu.func @hkg_elementwise_0
// CHECK-SAME:    vector_width = 1
// CHECK:         memref.load %{{.*}} : memref<1000xi1>
// CHECK:         vector.load %{{.*}} : memref<1000xf32>, vector<1xf32>
// CHECK:         arith.andi %{{.*}}, %{{.*}} : i1
// CHECK:         memref.store %{{.*}} : memref<1000xi1>
// CHECK-NOT:     vector<{{[2-9]}}xi1>
func.func @mask_positive(%m: tensor<1000xi1>, %x: tensor<1000xf32>) -> tensor<1000xi1> {
  %0 = hkg.elementwise %m, %x : tensor<1000xi1>, tensor<1000xf32> -> tensor<1000xi1> {
  ^bb0(%k: i1, %v: f32):
    %z = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %v, %z : f32
    %o = arith.andi %k, %p : i1
    hkg.yield %o : i1
  }
  return %0 : tensor<1000xi1>
}
}

// -----

// Integer inputs stream like floats: i32 targets in 16-byte vectors.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: gpu.func @hkg_elementwise_0
// CHECK-SAME:    vector_width = 4
// CHECK:         vector.load %{{.*}} {alignment = 16 : i64} : memref<4096xi32>, vector<4xi32>
// CHECK:         arith.sitofp %{{.*}} : i32 to f32
// CHECK:         vector.store %{{.*}} {alignment = 16 : i64} : memref<4096xf32>, vector<4xf32>
func.func @int_to_float(%t: tensor<4096xi32>) -> tensor<4096xf32> {
  %0 = hkg.elementwise %t : tensor<4096xi32> -> tensor<4096xf32> {
  ^bb0(%a: i32):
    %f = arith.sitofp %a : i32 to f32
    hkg.yield %f : f32
  }
  return %0 : tensor<4096xf32>
}
}
