// hkg-compile refuses an op no kernel computes (exit 1, the op and its
// location); with --allow-host-ops it is left to the caller and listed in
// the manifest's host_ops, and its function gets no launch plan.
// RUN: not hkg-compile %s --chip=gfx942 -o %t 2>&1 | FileCheck %s
// RUN: rm -rf %t && hkg-compile %s --chip=gfx942 -o %t --allow-host-ops
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/manifest.json

// MANIFEST:      "host_ops": [
// MANIFEST-NEXT:   {
// MANIFEST-NEXT:     "op": "arith.addf",
// MANIFEST-NEXT:     "loc": "{{.*}}hkg-compile-host-ops.mlir:25:8"
// MANIFEST-NEXT:   }
// MANIFEST-NEXT: ],
// A plan step cannot run a host op: the function gets no plan, saying why.
// MANIFEST-NEXT: "plans": [
// MANIFEST-NEXT:   {
// MANIFEST-NEXT:     "function": "f",
// MANIFEST-NEXT:     "no_plan": "it has ops left to the caller (host_ops): a plan step cannot run them"
// MANIFEST-NEXT:   }
// MANIFEST-NEXT: ],
// MANIFEST:      "name": "hkg_softmax_0",
func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %s = hkg.softmax %x axis(1) : tensor<64x64xf32> -> tensor<64x64xf32>
  // CHECK: [[@LINE+1]]:8: error: 'arith.addf' is not an hkg kernel op
  %y = arith.addf %s, %s : tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
