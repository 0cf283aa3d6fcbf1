// RUN: hkg-opt %s --split-input-file --verify-diagnostics --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90

// Dynamic dims the kernels do not serve yet are errors at lowering.

// Down columns (kept dims after the axis) the shape is static.
func.func @softmax_columns(%x: tensor<?x64x32xf32>) -> tensor<?x64x32xf32> {
  // expected-error @below {{'hkg.softmax' op with dynamic dims reduces over its innermost dims (rows) only; down columns (kept dims after the reduced axes) its shape must be static}}
  %0 = hkg.softmax %x axis(1) : tensor<?x64x32xf32> -> tensor<?x64x32xf32>
  return %0 : tensor<?x64x32xf32>
}

// -----

// An input read through a map whose strides involve a dynamic extent.
func.func @inner_dynamic_stride(%x: tensor<?x?x64xf32>, %s: tensor<?x?xf32>) -> tensor<?x?x64xf32> {
  // expected-error @below {{'hkg.elementwise' op input #1 is read through a map whose strides depend on a dynamic dim (a dynamic dim inside the input's shape); only an input's outermost dim may be dynamic there}}
  %0 = hkg.elementwise %x, %s {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]}
      : tensor<?x?x64xf32>, tensor<?x?xf32> -> tensor<?x?x64xf32> {
  ^bb0(%a: f32, %k: f32):
    %y = arith.mulf %a, %k : f32
    hkg.yield %y : f32
  }
  return %0 : tensor<?x?x64xf32>
}
