// RUN: rm -rf %t && hkg-compile %s --chip=gfx942 -o %t
// RUN: FileCheck %s --input-file=%t/manifest.json
// RUN: not hkg-compile %S/Inputs/slice-dynamic-offset.mlir --chip=gfx942 -o %t.refused 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: rm -rf %t.host && hkg-compile %S/Inputs/slice-dynamic-offset.mlir --chip=gfx942 -o %t.host --allow-host-ops
// RUN: FileCheck %s --check-prefix=HOST --input-file=%t.host/manifest.json

// A kernel with a dynamic dim reading a static slice view: the view's
// parameter is its whole static root ([4, 64], no size parameter), the
// other operands keep theirs.
// CHECK:      "kernels": [
// CHECK:        "args": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "role": "input",
// CHECK-NEXT:       "dtype": "f32",
// CHECK-NEXT:       "shape": [
// CHECK-NEXT:         {
// CHECK-NEXT:           "size": 0
// CHECK-NEXT:         },
// CHECK-NEXT:         64
// CHECK-NEXT:       ]
// CHECK-NEXT:     },
// CHECK-NEXT:     {
// CHECK-NEXT:       "role": "input",
// CHECK-NEXT:       "dtype": "f32",
// CHECK-NEXT:       "shape": [
// CHECK-NEXT:         4,
// CHECK-NEXT:         64
// CHECK-NEXT:       ]
// CHECK:        "source": "{{.*}}tensor.extract_slice %arg1[1, 0] [1, 64] [1, 1]
func.func @dynbias(%x: tensor<?x64xf32>, %w: tensor<4x64xf32>) -> tensor<?x64xf32> {
  %b = tensor.extract_slice %w[1, 0] [1, 64] [1, 1] : tensor<4x64xf32> to tensor<64xf32>
  %o = hkg.elementwise %x, %b : tensor<?x64xf32>, tensor<64xf32> -> tensor<?x64xf32> {
  ^bb0(%a: f32, %c: f32):
    %y = arith.addf %a, %c : f32
    hkg.yield %y : f32
  }
  return %o : tensor<?x64xf32>
}

// A slice at a dynamic offset is no view: refused by name, or, with
// --allow-host-ops, left to the caller and listed.
// REFUSED: error: 'tensor.extract_slice' is not an hkg kernel op
// HOST:      "host_ops": [
// HOST-NEXT:   {
// HOST-NEXT:     "op": "tensor.extract_slice",
