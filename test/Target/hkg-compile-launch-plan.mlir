// hkg-compile writes a launch plan per function (docs/ABI.md, "Launch
// plan"): inputs, outputs, the buffers the kernels write (intermediates in
// one arena, sharing bytes when their lifetimes do not overlap), views and
// the steps in order with the buffers each reads and writes.
// RUN: rm -rf %t.amd && hkg-compile %s --chip=gfx942 -o %t.amd
// RUN: FileCheck %s --input-file=%t.amd/manifest.json
// RUN: rm -rf %t.nv && hkg-compile %s --chip=sm_90 -o %t.nv
// RUN: FileCheck %s --input-file=%t.nv/manifest.json

// rmsnorm -> matmul -> (reshape) -> elementwise -> softmax, returning the
// softmax and the matmul. The matmul's result is output storage (returned);
// the rmsnorm's (live in steps 0-1) and the elementwise's (steps 2-3) are
// intermediates that share offset 0 of the arena.
// CHECK:      "plans": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "function": "block",
// CHECK-NEXT:     "inputs": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "arg0",
// CHECK-NEXT:         "dtype": "f32",
// CHECK-NEXT:         "shape": [64, 256]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "arg1",
// CHECK-NEXT:         "dtype": "f32",
// CHECK-NEXT:         "shape": [256]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "arg2",
// CHECK-NEXT:         "dtype": "f32",
// CHECK-NEXT:         "shape": [256, 512]
// CHECK-NEXT:       }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "outputs": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "value": "out0",
// CHECK-NEXT:         "storage": "out0",
// CHECK-NEXT:         "dtype": "f32",
// CHECK-NEXT:         "shape": [64, 8, 64]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "value": "out1",
// CHECK-NEXT:         "storage": "out1",
// CHECK-NEXT:         "dtype": "f32",
// CHECK-NEXT:         "shape": [64, 512]
// CHECK-NEXT:       }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "buffers": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "tmp0",
// CHECK-NEXT:         "kind": "intermediate",
// CHECK-NEXT:         "dtype": "f32",
// CHECK-NEXT:         "shape": [64, 256],
// CHECK-NEXT:         "bytes": 65536,
// CHECK-NEXT:         "offset": 0,
// CHECK-NEXT:         "live": [0, 1]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "out1",
// CHECK-NEXT:         "kind": "output",
// CHECK-NEXT:         "dtype": "f32",
// CHECK-NEXT:         "shape": [64, 512],
// CHECK-NEXT:         "bytes": 131072
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "tmp1",
// CHECK-NEXT:         "kind": "intermediate",
// CHECK-NEXT:         "dtype": "f32",
// CHECK-NEXT:         "shape": [64, 8, 64],
// CHECK-NEXT:         "bytes": 131072,
// CHECK-NEXT:         "offset": 0,
// CHECK-NEXT:         "live": [2, 3]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "out0",
// CHECK-NEXT:         "kind": "output",
// CHECK-NEXT:         "dtype": "f32",
// CHECK-NEXT:         "shape": [64, 8, 64],
// CHECK-NEXT:         "bytes": 131072
// CHECK-NEXT:       }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "views": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "view0",
// CHECK-NEXT:         "of": "out1",
// CHECK-NEXT:         "dtype": "f32",
// CHECK-NEXT:         "shape": [64, 8, 64]
// CHECK-NEXT:       }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "arena_bytes": 131072,
// CHECK-NEXT:     "steps": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "kernel": "hkg_rmsnorm_0",
// CHECK-NEXT:         "args": ["arg0", "arg1", "tmp0"]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "kernel": "hkg_matmul_0",
// CHECK-NEXT:         "args": ["tmp0", "arg2", "out1"]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "kernel": "hkg_elementwise_0",
// CHECK-NEXT:         "args": ["view0", "tmp1"]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "kernel": "hkg_softmax_0",
// CHECK-NEXT:         "args": ["tmp1", "out0"]
// CHECK-NEXT:       }
// CHECK-NEXT:     ]
// CHECK-NEXT:   },
func.func @block(%x: tensor<64x256xf32>, %w: tensor<256xf32>, %b: tensor<256x512xf32>) -> (tensor<64x8x64xf32>, tensor<64x512xf32>) {
  %n = hkg.rmsnorm %x weight(%w : tensor<256xf32>) eps(1.0e-06) : tensor<64x256xf32> -> tensor<64x256xf32>
  %m = hkg.matmul %n, %b : tensor<64x256xf32>, tensor<256x512xf32> -> tensor<64x512xf32>
  %e = tensor.expand_shape %m [[0], [1, 2]] output_shape [64, 8, 64] : tensor<64x512xf32> into tensor<64x8x64xf32>
  %t = hkg.elementwise %e : tensor<64x8x64xf32> -> tensor<64x8x64xf32> {
  ^bb0(%a: f32):
    %y = math.tanh %a : f32
    hkg.yield %y : f32
  }
  %s = hkg.softmax %t axis(2) : tensor<64x8x64xf32> -> tensor<64x8x64xf32>
  return %s, %m : tensor<64x8x64xf32>, tensor<64x512xf32>
}

// An input returned as it is, a result returned twice and as a reshape:
// each output names its value and the storage that holds it (the input's,
// or one output buffer for the three others).
// CHECK:          "function": "aliases",
// CHECK:          "outputs": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "value": "arg0",
// CHECK-NEXT:         "storage": "arg0",
// CHECK:              "value": "out1",
// CHECK-NEXT:         "storage": "out1",
// CHECK:              "value": "out1",
// CHECK-NEXT:         "storage": "out1",
// CHECK:              "value": "view0",
// CHECK-NEXT:         "storage": "out1",
// CHECK-NEXT:         "dtype": "f32",
// CHECK-NEXT:         "shape": [4096]
// CHECK:          "buffers": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "out1",
// CHECK-NEXT:         "kind": "output",
// CHECK:            }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "views": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "view0",
// CHECK-NEXT:         "of": "out1",
// CHECK:          "arena_bytes": 0,
// CHECK-NEXT:     "steps": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "kernel": "hkg_softmax_1",
// CHECK-NEXT:         "args": ["arg0", "out1"]
// CHECK-NEXT:       }
// CHECK-NEXT:     ]
func.func @aliases(%x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<4096xf32>) {
  %s = hkg.softmax %x axis(1) : tensor<64x64xf32> -> tensor<64x64xf32>
  %c = tensor.collapse_shape %s [[0, 1]] : tensor<64x64xf32> into tensor<4096xf32>
  return %x, %s, %s, %c : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<4096xf32>
}

// Dynamic rows: one plan size, read from dim 0 of argument 0; shapes and
// each step's size parameters refer to it. Intermediates of dynamic shape
// have no bytes and no offset: each is allocated on its own at the run's
// sizes.
// CHECK:          "function": "dynamic",
// CHECK-NEXT:     "sizes": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "arg": 0,
// CHECK-NEXT:         "dim": 0
// CHECK-NEXT:       }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "inputs": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "arg0",
// CHECK-NEXT:         "dtype": "f32",
// CHECK-NEXT:         "shape": [{"size": 0}, 256]
// CHECK:          "buffers": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "tmp0",
// CHECK-NEXT:         "kind": "intermediate",
// CHECK-NEXT:         "dtype": "f32",
// CHECK-NEXT:         "shape": [{"size": 0}, 256],
// CHECK-NEXT:         "live": [0, 1]
// CHECK-NEXT:       },
// CHECK:          "arena_bytes": 0,
// CHECK-NEXT:     "steps": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "kernel": "hkg_rmsnorm_1",
// CHECK-NEXT:         "args": ["arg0", "arg1", "tmp0"],
// CHECK-NEXT:         "sizes": [0]
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "kernel": "hkg_softmax_2",
// CHECK-NEXT:         "args": ["tmp0", "out0"],
// CHECK-NEXT:         "sizes": [0]
// CHECK-NEXT:       }
// CHECK-NEXT:     ]
// CHECK-NEXT:   }
// CHECK-NEXT: ],
// CHECK-NEXT: "kernels": [
func.func @dynamic(%x: tensor<?x256xf32>, %w: tensor<256xf32>) -> tensor<?x256xf32> {
  %n = hkg.rmsnorm %x weight(%w : tensor<256xf32>) eps(1.0e-06) : tensor<?x256xf32> -> tensor<?x256xf32>
  %s = hkg.softmax %n axis(1) : tensor<?x256xf32> -> tensor<?x256xf32>
  return %s : tensor<?x256xf32>
}

// A function without kernels has no plan.
// CHECK-NOT: "function": "no_kernels"
func.func @no_kernels(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
