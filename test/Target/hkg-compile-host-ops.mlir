// hkg-compile refuses an op no kernel computes (exit 1, the op and its
// location); with --allow-host-ops it is left to the caller and listed in
// the manifest's host_ops.
// RUN: not hkg-compile %s --chip=gfx942 -o %t 2>&1 | FileCheck %s
// RUN: rm -rf %t && hkg-compile %s --chip=gfx942 -o %t --allow-host-ops
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/manifest.json

// MANIFEST:      "host_ops": [
// MANIFEST-NEXT:   {
// MANIFEST-NEXT:     "op": "arith.addf",
// MANIFEST-NEXT:     "loc": "{{.*}}hkg-compile-host-ops.mlir:18:8"
// MANIFEST-NEXT:   }
// MANIFEST-NEXT: ],
// MANIFEST:      "name": "hkg_softmax_0",
func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %s = hkg.softmax %x axis(1) : tensor<64x64xf32> -> tensor<64x64xf32>
  // CHECK: [[@LINE+1]]:8: error: 'arith.addf' is not an hkg kernel op
  %y = arith.addf %s, %s : tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
