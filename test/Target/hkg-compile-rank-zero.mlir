// Rank-0 tensors and rank-1 rows compile for AMD and NVIDIA: a rank-0
// hkg.elementwise is one element (its verifier once asked for the dims
// [0, -1) and the compiler aborted), a reduction of every dim has a rank-0
// result (the elementwise after it is fused), and a rank-1 softmax is one
// row. The manifest gives a rank-0 tensor the shape [].
// RUN: rm -rf %t.amd && hkg-compile %s --chip=gfx942 -o %t.amd --report | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --input-file=%t.amd/manifest.json
// RUN: rm -rf %t.nv && hkg-compile %s --chip=sm_90 -o %t.nv
// RUN: FileCheck %s --input-file=%t.nv/manifest.json
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.nv/hkg_elementwise_0.ptx

// REPORT:      hkg-compile: 3 kernel(s) for gfx942 (hsaco)
// REPORT-NEXT: kernel{{ +}}op{{ +}}grid{{ +}}block
// REPORT-NEXT: hkg_elementwise_0{{ +}}hkg.elementwise{{ +}}1x1x1{{ }}
// REPORT-NEXT: hkg_reduce_0{{ +}}hkg.reduce{{ +}}1x1x1{{ }}
// REPORT-NEXT: hkg_softmax_0{{ +}}hkg.softmax{{ +}}1x1x1{{ }}

// PTX: .entry hkg_elementwise_0(
// PTX: add.rn.f32
// PTX: ret;

// CHECK:      "function": "scalar_add",
// CHECK-NEXT: "inputs": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "arg0",
// CHECK-NEXT:     "dtype": "f32",
// CHECK-NEXT:     "shape": []
// CHECK:      "outputs": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "value": "out0",
// CHECK-NEXT:     "storage": "out0",
// CHECK-NEXT:     "dtype": "f32",
// CHECK-NEXT:     "shape": []
// CHECK:      "steps": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "kernel": "hkg_elementwise_0",
// CHECK-NEXT:     "args": ["arg0", "arg1", "out0"]
func.func @scalar_add(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hkg.elementwise %x, %y : tensor<f32>, tensor<f32> -> tensor<f32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    hkg.yield %s : f32
  }
  return %0 : tensor<f32>
}

// CHECK:      "function": "mean_all",
// CHECK:      "outputs": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "value": "out0",
// CHECK-NEXT:     "storage": "out0",
// CHECK-NEXT:     "dtype": "f32",
// CHECK-NEXT:     "shape": []
// CHECK:      "steps": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "kernel": "hkg_reduce_0",
// CHECK-NEXT:     "args": ["arg0", "out0"]
// CHECK-NEXT:   }
// CHECK-NEXT: ]
func.func @mean_all(%x: tensor<8x128xf32>) -> tensor<f32> {
  %0 = hkg.reduce sum %x axes = [0, 1] : tensor<8x128xf32> -> tensor<f32>
  %1 = hkg.elementwise %0 : tensor<f32> -> tensor<f32> {
  ^bb0(%a: f32):
    %c = arith.constant 9.765625e-04 : f32
    %m = arith.mulf %a, %c : f32
    hkg.yield %m : f32
  }
  return %1 : tensor<f32>
}

// CHECK:      "function": "softmax_rank1",
// CHECK:      "kernel": "hkg_softmax_0",
func.func @softmax_rank1(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %0 = hkg.softmax %x axis(0) : tensor<1000xf32> -> tensor<1000xf32>
  return %0 : tensor<1000xf32>
}

// CHECK:      "name": "hkg_elementwise_0",
// CHECK-NEXT: "op": "hkg.elementwise",
// CHECK:      "grid": [
// CHECK-NEXT:   1,
// CHECK-NEXT:   1,
// CHECK-NEXT:   1
// CHECK-NEXT: ],
// CHECK:      "args": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "role": "input",
// CHECK-NEXT:     "dtype": "f32",
// CHECK-NEXT:     "shape": []
// CHECK:          "role": "output",
// CHECK-NEXT:     "dtype": "f32",
// CHECK-NEXT:     "shape": []
