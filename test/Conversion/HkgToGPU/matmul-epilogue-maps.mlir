// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 --canonicalize --cse | FileCheck %s
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 --canonicalize --cse | FileCheck %s

// A per-row scale in a matmul epilogue ([M] following d0): the kernel views
// it as [batch 1, M, 1] and reads one scalar per output row (column index
// 0), where a per-column bias is read along n.
// CHECK-LABEL: gpu.func @hkg_matmul_0
// CHECK-SAME:    (%{{.*}}: memref<64x128xbf16>, %{{.*}}: memref<128x64xbf16>, %[[S:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xbf16>,
// CHECK-DAG:     %[[SV:.*]] = memref.reinterpret_cast %[[S]] to offset: [0], sizes: [1, 64, 1], strides: [64, 1, 1] : memref<64xf32> to memref<1x64x1xf32>
// CHECK-DAG:     %[[BV:.*]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [1, 1, 64], strides: [64, 64, 1] : memref<64xbf16> to memref<1x1x64xbf16>
// CHECK:         memref.load %[[SV]][%c0{{.*}}, %{{.*}}, %c0{{.*}}] : memref<1x64x1xf32>
// CHECK:         arith.mulf
func.func @row_scale_column_bias(%x: tensor<64x128xbf16>, %w: tensor<128x64xbf16>, %s: tensor<64xf32>, %b: tensor<64xbf16>) -> tensor<64x64xbf16> {
  %0 = hkg.matmul %x, %w epilogue(%s, %b : tensor<64xf32>, tensor<64xbf16>) {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>]} : tensor<64x128xbf16>, tensor<128x64xbf16> -> tensor<64x64xbf16> {
  ^bb0(%acc: f32, %sc: f32, %bb: bf16):
    %p = arith.mulf %acc, %sc : f32
    %bf = arith.extf %bb : bf16 to f32
    %q = arith.addf %p, %bf : f32
    %r = arith.truncf %q : f32 to bf16
    hkg.yield %r : bf16
  }
  return %0 : tensor<64x64xbf16>
}
