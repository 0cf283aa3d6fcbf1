// A kernel with dynamic dims in the manifest (docs/ABI.md): the grid's x
// is null with the rule that computes it from the sizes, each size says
// where it is read from, and the args' dynamic dims name their size.
// RUN: rm -rf %t && hkg-compile %s --chip=gfx942 -o %t --report | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --input-file=%t/manifest.json
// RUN: rm -rf %t && hkg-compile %s --chip=sm_90 -o %t
// RUN: FileCheck %s --input-file=%t/manifest.json

// REPORT: hkg_rmsnorm_0 hkg.rmsnorm ?x1x1

// CHECK:      "name": "hkg_rmsnorm_0",
// CHECK:      "grid": [
// CHECK-NEXT:   null,
// CHECK-NEXT:   1,
// CHECK-NEXT:   1
// CHECK-NEXT: ],
// CHECK-NEXT: "grid_x": {
// CHECK-NEXT:   "mul": 1,
// CHECK-NEXT:   "div": {{[0-9]+}},
// CHECK-NEXT:   "times": 1
// CHECK-NEXT: },
// CHECK-NEXT: "sizes": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "arg": 2,
// CHECK-NEXT:     "dim": 0
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "arg": 2,
// CHECK-NEXT:     "dim": 1
// CHECK-NEXT:   }
// CHECK-NEXT: ],
// CHECK:      "args": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "role": "input",
// CHECK-NEXT:     "dtype": "f16",
// CHECK-NEXT:     "shape": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "size": 0
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "size": 1
// CHECK-NEXT:       },
// CHECK-NEXT:       1024
// CHECK-NEXT:     ]
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "role": "input",
// CHECK-NEXT:     "dtype": "f16",
// CHECK-NEXT:     "shape": [
// CHECK-NEXT:       1024
// CHECK-NEXT:     ]
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "role": "output",
// CHECK:      "source": "module {\n  func.func @ref(%arg0: tensor<?x?x1024xf16>, %arg1: tensor<1024xf16>) -> tensor<?x?x1024xf16> {
func.func @rmsnorm(%x: tensor<?x?x1024xf16>, %w: tensor<1024xf16>) -> tensor<?x?x1024xf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<1024xf16>) eps(1.0e-06) : tensor<?x?x1024xf16> -> tensor<?x?x1024xf16>
  return %0 : tensor<?x?x1024xf16>
}
