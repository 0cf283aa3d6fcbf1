// hkg.attention with a value head dim Dv that 8 does not divide (issue 24;
// Attention.cpp): the FMA kernel (the default: the 16-byte copies do not
// divide such rows, so stages = 0 reads Q, K and V from global memory) keeps
// O in ceil(Dv / 8) tiles of 8 columns; the last tile's columns past Dv read
// a clamped column of V and are never stored.
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 --canonicalize --cse | FileCheck %s --check-prefixes=CHECK,EVEN
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 --canonicalize --cse | FileCheck %s --check-prefixes=CHECK,EVEN
// Both compile to a code object (the full pipelines, no scratch).
// RUN: rm -rf %t && hkg-compile %s --chip=sm_90 -o %t/sm90 --report | FileCheck %s --check-prefix=REPORT
// RUN: hkg-compile %s --chip=gfx942 -o %t/gfx942 --report | FileCheck %s --check-prefix=REPORT
// REPORT: hkg_attention_0{{ +}}hkg.attention{{ +}}1x2x1{{ +}}{{[0-9]+}}x1x1{{ +}}{{[0-9/]+}}{{ +}}1024{{ +}}0{{ +}}
// REPORT: hkg_attention_1{{ +}}hkg.attention{{ +}}1x2x1{{ +}}{{[0-9]+}}x1x1{{ +}}{{[0-9/]+}}{{ +}}1024{{ +}}0{{ +}}

// Dv = 36 bf16 (even): V read in pairs, the column clamped to the last pair
// (34); 5 tiles of 8 columns; the stores of the fifth (columns 32..39) only
// where the column is below 36.
// CHECK-LABEL: func.func @dv36
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: hkg.schedule = #hkg.schedule<kv_split = 1, mma = none, pack_gqa = 0, stages = 0
// EVEN: %[[C:.*]] = arith.minui %{{.*}}, %c34 : index
// EVEN-NEXT: vector.load %arg2[%{{.*}}, %{{.*}}, %{{.*}}, %[[C]]] {alignment = 4 : i64} : memref<1x2x13x36xbf16>, vector<2xbf16>
// CHECK-COUNT-4: vector.store %{{.*}}, %arg3{{.*}} : memref<1x2x16x36xbf16>, vector<2xbf16>
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[COL:.*]], %c36 : index
// CHECK-NEXT: scf.if %[[OK]] {
// CHECK-NEXT: vector.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}, %{{.*}}, %[[COL]]] {alignment = 4 : i64} : memref<1x2x16x36xbf16>, vector<2xbf16>
// CHECK: gpu.return
func.func @dv36(%q: tensor<1x2x16x36xbf16>, %k: tensor<1x2x13x36xbf16>) -> tensor<1x2x16x36xbf16> {
  %0 = hkg.attention %q, %k, %k : tensor<1x2x16x36xbf16>, tensor<1x2x13x36xbf16>, tensor<1x2x13x36xbf16> -> tensor<1x2x16x36xbf16>
  return %0 : tensor<1x2x16x36xbf16>
}

// -----

// Dv = 37 f32 (odd: rows are not pair-aligned): V read element by element,
// each column clamped to 36, and O stored element by element; in the fifth
// tile only the columns below 37.
// CHECK-LABEL: func.func @dv37
// CHECK: gpu.func @hkg_attention_0(
// CHECK: %[[C0:.*]] = arith.minui %{{.*}}, %c36 : index
// CHECK-NEXT: %[[C1:.*]] = arith.minui %{{.*}}, %c36 : index
// CHECK-NEXT: memref.load %arg2[%{{.*}}, %{{.*}}, %{{.*}}, %[[C0]]] : memref<1x2x13x37xf32>
// CHECK-NEXT: memref.load %arg2[%{{.*}}, %{{.*}}, %{{.*}}, %[[C1]]] : memref<1x2x13x37xf32>
// CHECK-NOT: vector.store
// CHECK-COUNT-8: memref.store %{{.*}}, %arg3{{.*}} : memref<1x2x1x37xf32>
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[COL:.*]], %c37 : index
// CHECK-NEXT: scf.if %[[OK]] {
// CHECK-NEXT: %[[E:.*]] = vector.extract %{{.*}}[0] : f32 from vector<2xf32>
// CHECK-NEXT: memref.store %[[E]], %arg3[%{{.*}}, %{{.*}}, %{{.*}}, %[[COL]]] : memref<1x2x1x37xf32>
// CHECK: gpu.return
func.func @dv37(%q: tensor<1x2x1x36xf32>, %k: tensor<1x2x13x36xf32>, %v: tensor<1x2x13x37xf32>) -> tensor<1x2x1x37xf32> {
  %0 = hkg.attention %q, %k, %v : tensor<1x2x1x36xf32>, tensor<1x2x13x36xf32>, tensor<1x2x13x37xf32> -> tensor<1x2x1x37xf32>
  return %0 : tensor<1x2x1x37xf32>
}
