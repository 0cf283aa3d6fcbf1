// RUN: hkg-opt %s --split-input-file --hkg-reject-host-ops --verify-diagnostics
// RUN: hkg-opt %s --split-input-file --hkg-reject-host-ops=allow-host-ops=1 2>&1 | FileCheck %s --check-prefix=ALLOW
// RUN: not hkg-opt %s --split-input-file --hkg-to-rocdl=chip=gfx942 2>&1 | FileCheck %s --check-prefix=PIPELINE

// hkg ops, scalar constants and the return: nothing is left out.
func.func @kernels_only(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c = arith.constant 1.0 : f32
  %s = hkg.softmax %x axis(1) : tensor<64x64xf32> -> tensor<64x64xf32>
  return %s : tensor<64x64xf32>
}

// -----

// Reshapes between kernels are views (the same bytes, a new shape): nothing
// to compute, so nothing is left out.
// ALLOW-NOT: remark: 'tensor.expand_shape'
// ALLOW-NOT: remark: 'tensor.collapse_shape'
func.func @reshape_views(%x: tensor<64x64xf32>) -> tensor<4096xf32> {
  %s = hkg.softmax %x axis(1) : tensor<64x64xf32> -> tensor<64x64xf32>
  %e = tensor.expand_shape %s [[0], [1, 2]] output_shape [64, 8, 8] : tensor<64x64xf32> into tensor<64x8x8xf32>
  %t = hkg.softmax %e axis(2) : tensor<64x8x8xf32> -> tensor<64x8x8xf32>
  %c = tensor.collapse_shape %t [[0, 1, 2]] : tensor<64x8x8xf32> into tensor<4096xf32>
  return %c : tensor<4096xf32>
}

// -----

// An op on tensors next to hkg ops would be missing from the kernels.
// ALLOW: remark: 'arith.addf' is left to the caller (allow-host-ops): no hkg kernel computes it
// PIPELINE: error: 'arith.addf' is not an hkg kernel op
func.func @add_after_softmax(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %s = hkg.softmax %x axis(1) : tensor<64x64xf32> -> tensor<64x64xf32>
  // expected-error @below {{'arith.addf' is not an hkg kernel op: no kernel computes it, and it would be missing from the compiled kernels; express it with hkg ops, or allow host ops (hkg-compile --allow-host-ops) to leave it to the caller}}
  %y = arith.addf %s, %s : tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

// -----

// A tensor constant is data no kernel produces.
// ALLOW: remark: 'arith.constant' is left to the caller
func.func @tensor_constant() -> tensor<4xf32> {
  // expected-error @below {{'arith.constant' is not an hkg kernel op}}
  %c = arith.constant dense<1.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// Static slices that only kernels read are views too (each kernel takes the
// sliced buffer whole, docs/ABI.md "Slice views"), with reshapes before and
// after them, of a kernel's result or of an argument.
// ALLOW-NOT: remark: 'tensor.extract_slice'
func.func @slice_views(%x: tensor<64x96xf32>) -> (tensor<64x4x8xf32>, tensor<32x32xf32>) {
  %s = hkg.softmax %x axis(1) : tensor<64x96xf32> -> tensor<64x96xf32>
  %e = tensor.expand_shape %s [[0, 1], [2]] output_shape [1, 64, 96] : tensor<64x96xf32> into tensor<1x64x96xf32>
  %q = tensor.extract_slice %e[0, 0, 32] [1, 64, 32] [1, 1, 1] : tensor<1x64x96xf32> to tensor<64x32xf32>
  %q3 = tensor.expand_shape %q [[0], [1, 2]] output_shape [64, 4, 8] : tensor<64x32xf32> into tensor<64x4x8xf32>
  %t = hkg.softmax %q3 axis(2) : tensor<64x4x8xf32> -> tensor<64x4x8xf32>
  %a = tensor.extract_slice %x[16, 64] [32, 32] [1, 1] : tensor<64x96xf32> to tensor<32x32xf32>
  %u = hkg.softmax %a axis(1) : tensor<32x32xf32> -> tensor<32x32xf32>
  return %t, %u : tensor<64x4x8xf32>, tensor<32x32xf32>
}

// -----

// A slice that is returned (here through a reshape) is no view: the caller
// would get bytes that are not its tensor's.
// ALLOW: remark: 'tensor.extract_slice' is left to the caller
func.func @slice_returned(%x: tensor<64x64xf32>) -> tensor<32x2x32xf32> {
  %s = hkg.softmax %x axis(1) : tensor<64x64xf32> -> tensor<64x64xf32>
  // expected-error @below {{'tensor.extract_slice' is not an hkg kernel op: no kernel computes it, and it would be missing from the compiled kernels; express it with hkg ops, or allow host ops (hkg-compile --allow-host-ops) to leave it to the caller (a slice is a view kernels read in place only when static and read by kernels alone; this one is not: it is read by 'func.return', not by hkg kernel ops only: a slice is a view only for the kernels that read it)}}
  %h = tensor.extract_slice %s[0, 0] [64, 32] [1, 1] : tensor<64x64xf32> to tensor<64x32xf32>
  %e = tensor.expand_shape %h [[0, 1], [2]] output_shape [32, 2, 32] : tensor<64x32xf32> into tensor<32x2x32xf32>
  return %e : tensor<32x2x32xf32>
}

// -----

// Dynamic offsets, sizes or strides: no view.
func.func @slice_dynamic(%x: tensor<64x64xf32>, %i: index) -> tensor<8x64xf32> {
  // expected-error @below {{this one is not: its offsets, sizes or strides are not static (strides 1): only static slices are views}}
  %h = tensor.extract_slice %x[%i, 0] [8, 64] [1, 1] : tensor<64x64xf32> to tensor<8x64xf32>
  %s = hkg.softmax %h axis(1) : tensor<8x64xf32> -> tensor<8x64xf32>
  return %s : tensor<8x64xf32>
}

// -----

func.func @slice_strided(%x: tensor<64x64xf32>) -> tensor<32x64xf32> {
  // expected-error @below {{this one is not: its offsets, sizes or strides are not static (strides 1)}}
  %h = tensor.extract_slice %x[0, 0] [32, 64] [2, 1] : tensor<64x64xf32> to tensor<32x64xf32>
  %s = hkg.softmax %h axis(1) : tensor<32x64xf32> -> tensor<32x64xf32>
  return %s : tensor<32x64xf32>
}

// -----

// A slice of a dynamic tensor: no view (static shapes only).
func.func @slice_of_dynamic(%x: tensor<?x64xf32>) -> tensor<8x64xf32> {
  // expected-error @below {{this one is not: it or the tensor it slices has a dynamic shape: only slices of static shapes are views}}
  %h = tensor.extract_slice %x[0, 0] [8, 64] [1, 1] : tensor<?x64xf32> to tensor<8x64xf32>
  %s = hkg.softmax %h axis(1) : tensor<8x64xf32> -> tensor<8x64xf32>
  return %s : tensor<8x64xf32>
}

// -----

// A slice of what a host op computes is no view of a kernel's buffer.
func.func @slice_of_host_op(%x: tensor<64x64xf32>) -> tensor<8x64xf32> {
  // expected-error @below {{'arith.addf' is not an hkg kernel op}}
  %y = arith.addf %x, %x : tensor<64x64xf32>
  // expected-error @below {{this one is not: it slices a tensor that is neither a function argument nor an hkg kernel's result ('arith.addf')}}
  %h = tensor.extract_slice %y[0, 0] [8, 64] [1, 1] : tensor<64x64xf32> to tensor<8x64xf32>
  %s = hkg.softmax %h axis(1) : tensor<8x64xf32> -> tensor<8x64xf32>
  return %s : tensor<8x64xf32>
}
