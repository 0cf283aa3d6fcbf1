// Slice views in hkg-compile's bundle (docs/ABI.md, "Slice views"): a
// kernel reading a static slice takes the whole sliced buffer, so the plan
// passes that buffer (no copy, no view entry: the offset is inside the
// kernel), the kernel's manifest args describe it, and its `source` takes it
// and views it with the same ops.
// RUN: rm -rf %t.amd && hkg-compile %s --chip=gfx942 -o %t.amd
// RUN: FileCheck %s --input-file=%t.amd/manifest.json
// RUN: rm -rf %t.nv && hkg-compile %s --chip=sm_90 -o %t.nv
// RUN: FileCheck %s --input-file=%t.nv/manifest.json
// Six kernels: the matmul, rope and elementwise of @qkv (the two slices are
// views), the softmax, copy and rmsnorm of @copied.
// RUN: ls %t.amd | FileCheck %s --check-prefix=FILES
// FILES-COUNT-6: hkg_{{.*}}.hsaco
// FILES-NOT: hkg_
// A plan hkg-compile wrote reads back (the run then stops at the missing GPU).
// RUN: env HKG_CUDA_LIBRARY=/nonexistent/libcuda.so.1 HKG_HIP_LIBRARY=/nonexistent/libamdhip64.so bash -c 'hkg-run %t.nv --plan; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=NOGPU
// NOGPU: hkg-run: error: no GPU runtime found
// NOGPU: exit=2
// A slice that is not read by kernels alone is an error naming why.
// RUN: not hkg-compile %S/Inputs/slice-returned.mlir --chip=gfx942 -o %t.returned 2>&1 | FileCheck %s --check-prefix=RETURNED
// RETURNED: slice-returned.mlir:6:8: error: 'tensor.extract_slice' is not an hkg kernel op: {{.*}} (a slice is a view kernels read in place only when static and read by kernels alone; this one is not: it is read by 'func.return', not by hkg kernel ops only: a slice is a view only for the kernels that read it)

// A Llama layer's fused QKV projection, split: q (features 0..127, 4 heads
// of 32) to RoPE, v (features 192..255) to an elementwise op. Both read the
// matmul's buffer tmp0, which lives until the last of them.
// CHECK:      "plans": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "function": "qkv",
// CHECK:          "buffers": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "tmp0",
// CHECK-NEXT:         "kind": "intermediate",
// CHECK-NEXT:         "dtype": "bf16",
// CHECK-NEXT:         "shape": [64, 256],
// CHECK-NEXT:         "bytes": 32768,
// CHECK-NEXT:         "offset": 0,
// CHECK-NEXT:         "live": [0, 2]
// CHECK-NEXT:       },
// CHECK:          "views": [],
// CHECK-NEXT:     "arena_bytes": 32768,
// CHECK-NEXT:     "steps": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "kernel": "hkg_matmul_0",
// CHECK-NEXT:         "args": ["arg0", "arg1", "tmp0"]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "kernel": "hkg_rope_0",
// CHECK-NEXT:         "args": ["tmp0", "arg2", "arg3", "out0"]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "kernel": "hkg_elementwise_0",
// CHECK-NEXT:         "args": ["tmp0", "out1"]
// CHECK-NEXT:       }
// CHECK-NEXT:     ]
// CHECK-NEXT:   },
func.func @qkv(%x: tensor<64x128xbf16>, %w: tensor<128x256xbf16>, %cos: tensor<64x16xf32>, %sin: tensor<64x16xf32>) -> (tensor<1x64x4x32xbf16>, tensor<1x64x64xbf16>) {
  %qkv = hkg.matmul %x, %w : tensor<64x128xbf16>, tensor<128x256xbf16> -> tensor<64x256xbf16>
  %e = tensor.expand_shape %qkv [[0, 1], [2]] output_shape [1, 64, 256] : tensor<64x256xbf16> into tensor<1x64x256xbf16>
  %q = tensor.extract_slice %e[0, 0, 0] [1, 64, 128] [1, 1, 1] : tensor<1x64x256xbf16> to tensor<1x64x128xbf16>
  %v = tensor.extract_slice %e[0, 0, 192] [1, 64, 64] [1, 1, 1] : tensor<1x64x256xbf16> to tensor<1x64x64xbf16>
  %q4 = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [1, 64, 4, 32] : tensor<1x64x128xbf16> into tensor<1x64x4x32xbf16>
  %r = hkg.rope %q4, %cos, %sin neox offset(0) : tensor<1x64x4x32xbf16>, tensor<64x16xf32>, tensor<64x16xf32> -> tensor<1x64x4x32xbf16>
  %t = hkg.elementwise %v : tensor<1x64x64xbf16> -> tensor<1x64x64xbf16> {
  ^bb0(%a: bf16):
    %y = arith.mulf %a, %a : bf16
    hkg.yield %y : bf16
  }
  return %r, %t : tensor<1x64x4x32xbf16>, tensor<1x64x64xbf16>
}

// RMSNorm reads identity layouts only: the slice is copied by an
// hkg.elementwise kernel (step 1, reading the softmax's buffer in place)
// into tmp1, which the norm reads.
// CHECK:          "function": "copied",
// CHECK:          "views": [],
// CHECK:          "steps": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "kernel": "hkg_softmax_0",
// CHECK-NEXT:         "args": ["arg0", "tmp0"]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "kernel": "hkg_elementwise_1",
// CHECK-NEXT:         "args": ["tmp0", "tmp1"]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "kernel": "hkg_rmsnorm_0",
// CHECK-NEXT:         "args": ["tmp1", "out0"]
// CHECK-NEXT:       }
// CHECK-NEXT:     ]
func.func @copied(%x: tensor<64x96xf32>) -> tensor<64x32xf32> {
  %s = hkg.softmax %x axis(1) : tensor<64x96xf32> -> tensor<64x96xf32>
  %h = tensor.extract_slice %s[0, 32] [64, 32] [1, 1] : tensor<64x96xf32> to tensor<64x32xf32>
  %n = hkg.rmsnorm %h eps(1.0e-06) : tensor<64x32xf32> -> tensor<64x32xf32>
  return %n : tensor<64x32xf32>
}

// The RoPE kernel's first arg is the whole QKV buffer; its source takes it
// and views it as the function did.
// CHECK:      "name": "hkg_rope_0",
// CHECK:      "args": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "role": "input",
// CHECK-NEXT:     "dtype": "bf16",
// CHECK-NEXT:     "shape": [
// CHECK-NEXT:       64,
// CHECK-NEXT:       256
// CHECK-NEXT:     ]
// CHECK-NEXT:   },
// CHECK:      "source": "module {\n  func.func @ref(%arg0: tensor<64x256xbf16>, %arg1: tensor<64x16xf32>, %arg2: tensor<64x16xf32>) -> tensor<1x64x4x32xbf16> {\n    %expanded = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [1, 64, 256] : tensor<64x256xbf16> into tensor<1x64x256xbf16>\n    %extracted_slice = tensor.extract_slice %expanded[0, 0, 0] [1, 64, 128] [1, 1, 1] : tensor<1x64x256xbf16> to tensor<1x64x128xbf16>\n    %expanded_0 = tensor.expand_shape %extracted_slice {{\[\[}}0], [1], [2, 3]] output_shape [1, 64, 4, 32] : tensor<1x64x128xbf16> into tensor<1x64x4x32xbf16>\n    %0 = hkg.rope %expanded_0, %arg1, %arg2
// CHECK:      "name": "hkg_elementwise_0",
// CHECK:      "args": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "role": "input",
// CHECK-NEXT:     "dtype": "bf16",
// CHECK-NEXT:     "shape": [
// CHECK-NEXT:       64,
// CHECK-NEXT:       256
// CHECK-NEXT:     ]
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "role": "output",
// CHECK-NEXT:     "dtype": "bf16",
// CHECK-NEXT:     "shape": [
// CHECK-NEXT:       1,
// CHECK-NEXT:       64,
// CHECK-NEXT:       64
// CHECK-NEXT:     ]
// CHECK-NEXT:   }
// CHECK-NEXT: ],
// CHECK:      "source": "module {\n  func.func @ref(%arg0: tensor<64x256xbf16>) -> tensor<1x64x64xbf16> {\n    %expanded = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [1, 64, 256] : tensor<64x256xbf16> into tensor<1x64x256xbf16>\n    %extracted_slice = tensor.extract_slice %expanded[0, 0, 192] [1, 64, 64] [1, 1, 1]
