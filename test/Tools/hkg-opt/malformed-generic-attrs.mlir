// RUN: not hkg-opt %s --split-input-file 2>&1 | FileCheck %s --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"

// The generic form can omit or mistype what the custom form requires.

// CHECK: error: 'hkg.softmax' op requires attribute 'axis'
func.func @missing_axis(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "hkg.softmax"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK: error: 'hkg.reduce' op attribute 'kinds' failed to satisfy constraint: reduction kinds
func.func @bad_enum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = "hkg.reduce"(%x) <{axes = array<i64: 1>, kinds = [99 : i32]}> ({}, {}) : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: error: 'hkg.layernorm' op operand count (2) does not match with the total size (3) specified in attribute 'operandSegmentSizes'
func.func @bad_segments(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = "hkg.layernorm"(%x, %w) <{eps = 1.0e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK: error: 'hkg.matmul' op expected 2 or more operands, but found 1
func.func @missing_operand(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "hkg.matmul"(%x) ({}) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK: error: 'hkg.matmul' op region #0 ('epilogue') failed to verify constraint: region with at most 1 blocks
func.func @two_epilogue_blocks(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = "hkg.matmul"(%a, %b) ({
  ^bb0(%acc: f32):
    hkg.yield %acc : f32
  ^bb1(%x: f32):
    hkg.yield %x : f32
  }) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
