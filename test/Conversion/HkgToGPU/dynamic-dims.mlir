// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 --canonicalize --cse | FileCheck %s
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 --canonicalize --cse | FileCheck %s

// Dynamic dims become size parameters (docs/ABI.md): the kernel takes the
// buffers as one-row views and an i64 per dynamic result dim, re-views the
// buffers at their full extent, and the host computes the grid's x from
// the sizes by the kernel's hkg.grid_x rule. (The kernels are checked at
// the end, after the host functions.)

// CHECK-LABEL: func.func @softmax
// CHECK-SAME:    (%[[X:.*]]: tensor<?x8192xbf16>)
// CHECK:         %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK:         %[[IN:.*]] = bufferization.to_buffer %[[X]] read_only : tensor<?x8192xbf16> to memref<?x8192xbf16>
// CHECK:         %[[INV:.*]] = memref.reinterpret_cast %[[IN]] to offset: [0], sizes: [1, 8192], strides: [8192, 1] : memref<?x8192xbf16> to memref<1x8192xbf16>
// CHECK:         %[[OUT:.*]] = memref.alloc(%[[N]]) : memref<?x8192xbf16>
// CHECK:         %[[OUTV:.*]] = memref.reinterpret_cast %[[OUT]] to offset: [0], sizes: [1, 8192], strides: [8192, 1]
// CHECK:         %[[NI:.*]] = arith.index_cast %[[N]] : index to i64
// One row per workgroup: the grid is the rows.
// CHECK:         gpu.launch_func @hkg_softmax_0::@hkg_softmax_0 blocks in (%[[N]], %c1{{.*}}, %c1{{.*}}) threads in ({{.*}}) args(%[[INV]] : memref<1x8192xbf16>, %[[OUTV]] : memref<1x8192xbf16>, %[[NI]] : i64)
// CHECK:         bufferization.to_tensor %[[OUT]]
func.func @softmax(%x: tensor<?x8192xbf16>) -> tensor<?x8192xbf16> {
  %0 = hkg.softmax %x axis(1) : tensor<?x8192xbf16> -> tensor<?x8192xbf16>
  return %0 : tensor<?x8192xbf16>
}

// Two dynamic dims (batch, sequence) and several rows per workgroup: the
// rows are their product, the last group is guarded against it, and the
// grid is ceil(B * S / rows_per_block).
// CHECK-LABEL: func.func @rmsnorm_tokens
// CHECK-SAME:    (%[[X:.*]]: tensor<?x?x64xf32>)
// CHECK-DAG:     %[[B:.*]] = tensor.dim %[[X]], %c0
// CHECK-DAG:     %[[T:.*]] = tensor.dim %[[X]], %c1
// CHECK:         memref.alloc(%[[B]], %[[T]]) : memref<?x?x64xf32>
// CHECK:         %[[BT:.*]] = arith.muli %[[B]], %[[T]] : index
// CHECK:         %[[G:.*]] = arith.ceildivui %[[BT]], %c[[RPB:[0-9]+]] : index
// CHECK:         gpu.launch_func @hkg_rmsnorm_0::@hkg_rmsnorm_0 blocks in (%[[G]], %c1{{.*}}, %c1{{.*}})
func.func @rmsnorm_tokens(%x: tensor<?x?x64xf32>) -> tensor<?x?x64xf32> {
  %0 = hkg.rmsnorm %x eps(1.0e-06) : tensor<?x?x64xf32> -> tensor<?x?x64xf32>
  return %0 : tensor<?x?x64xf32>
}

// Elementwise over N * 4096 elements, with a per-row scale (following the
// dynamic dim): the last workgroup is partial when N * 4096 is not a
// multiple of a workgroup's elements, decided at run time.
// CHECK-LABEL: func.func @scale_rows
// CHECK:         arith.ceildivui
// CHECK:         gpu.launch_func @hkg_elementwise_0::@hkg_elementwise_0
func.func @scale_rows(%x: tensor<?x4096xbf16>, %s: tensor<?xf32>) -> tensor<?x4096xbf16> {
  %0 = hkg.elementwise %x, %s {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>]}
      : tensor<?x4096xbf16>, tensor<?xf32> -> tensor<?x4096xbf16> {
  ^bb0(%a: bf16, %k: f32):
    %af = arith.extf %a : bf16 to f32
    %y = arith.mulf %af, %k : f32
    %r = arith.truncf %y : f32 to bf16
    hkg.yield %r : bf16
  }
  return %0 : tensor<?x4096xbf16>
}

// CHECK-LABEL: gpu.func @hkg_softmax_0
// CHECK-SAME:    (%[[A0:.*]]: memref<1x8192xbf16>, %[[A1:.*]]: memref<1x8192xbf16>, %[[S:.*]]: i64)
// CHECK-SAME:    hkg.arg_sizes = [array<i64: 0, -1>, array<i64: 0, -1>], hkg.grid_x = array<i64: 1, 1, 1>
// CHECK-NOT:     known_grid_size
// CHECK-SAME:    known_block_size
// CHECK:         %[[R:.*]] = arith.index_cast %[[S]] : i64 to index
// CHECK:         memref.reinterpret_cast %[[A0]] to offset: [0], sizes: [%[[R]], 8192], strides: [8192, 1] : memref<1x8192xbf16> to memref<?x8192xbf16>

// CHECK-LABEL: gpu.func @hkg_rmsnorm_0
// CHECK-SAME:    (%{{.*}}: memref<1x1x64xf32>, %{{.*}}: memref<1x1x64xf32>, %[[S0:.*]]: i64, %[[S1:.*]]: i64)
// CHECK-SAME:    hkg.arg_sizes = [array<i64: 0, 1, -1>, array<i64: 0, 1, -1>], hkg.grid_x = array<i64: 1, [[RPB]], 1>
// CHECK-DAG:     %[[I0:.*]] = arith.index_cast %[[S0]] : i64 to index
// CHECK-DAG:     %[[I1:.*]] = arith.index_cast %[[S1]] : i64 to index
// CHECK:         %[[ROWS:.*]] = arith.muli %[[I0]], %[[I1]] : index
// CHECK:         arith.cmpi ult, %{{.*}}, %[[ROWS]] : index

// CHECK-LABEL: gpu.func @hkg_elementwise_0
// CHECK-SAME:    (%{{.*}}: memref<1x4096xbf16>, %{{.*}}: memref<1xf32>, %{{.*}}: memref<1x4096xbf16>, %{{.*}}: i64)
// CHECK-SAME:    hkg.arg_sizes = [array<i64: 0, -1>, array<i64: 0>, array<i64: 0, -1>], hkg.grid_x = array<i64: 4096, {{[0-9]+}}, 1>
// CHECK:         memref.collapse_shape
// CHECK:         arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK:         scf.if
