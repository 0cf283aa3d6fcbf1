// hkg.rope with full-width tables ([P, D], Hugging Face's layout; Rope.cpp):
// each output uses the table entry at its own feature index. Half-width
// tables: rope.mlir.
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu | FileCheck %s

// neox on gfx942: item (h, i) loads cos/sin[pos, i..] for out_a = x[i..]
// and cos/sin[pos, i + 64..] for out_b = x[i + 64..] (D = 128).
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @neox_gfx942
// CHECK:         gpu.func @hkg_rope_0(%{{.*}}: memref<2x100x8x128xbf16>, %{{.*}}: memref<4096x128xf32>, %{{.*}}: memref<4096x128xf32>, %{{.*}}: memref<2x100x8x128xbf16>) kernel
// CHECK:           %[[S:.*]] = arith.remui %{{.*}}, %c100 : index
// CHECK:           %[[POS:.*]] = arith.addi %[[S]], %c3 : index
// CHECK:           %[[I:.*]] = arith.muli %{{.*}}, %c8{{.*}} : index
// CHECK:           %[[CA:.*]] = vector.load %arg1[%[[POS]], %[[I]]] {alignment = 16 : i64} : memref<4096x128xf32>, vector<8xf32>
// CHECK:           %[[SA:.*]] = vector.load %arg2[%[[POS]], %[[I]]] {alignment = 16 : i64} : memref<4096x128xf32>, vector<8xf32>
// CHECK:           %[[IB:.*]] = arith.addi %[[I]], %c64{{.*}} : index
// CHECK:           %[[CB:.*]] = vector.load %arg1[%[[POS]], %[[IB]]] {alignment = 16 : i64} : memref<4096x128xf32>, vector<8xf32>
// CHECK:           %[[SB:.*]] = vector.load %arg2[%[[POS]], %[[IB]]] {alignment = 16 : i64} : memref<4096x128xf32>, vector<8xf32>
// CHECK:           %[[XA:.*]] = vector.load %{{.*}}[%[[TOK:.*]], %[[COL:.*]]] {alignment = 16 : i64} : memref<200x1024xbf16>, vector<8xbf16>
// CHECK:           %[[A:.*]] = arith.extf %[[XA]]
// CHECK:           %[[XB:.*]] = vector.load %{{.*}}[%[[TOK]], %[[COLB:.*]]] {alignment = 16 : i64} : memref<200x1024xbf16>, vector<8xbf16>
// CHECK:           %[[B:.*]] = arith.extf %[[XB]]
// out_a = a cos[i] - b sin[i]; out_b = b cos[i + 64] + a sin[i + 64].
// CHECK:           %[[ACA:.*]] = arith.mulf %[[A]], %[[CA]] : vector<8xf32>
// CHECK:           %[[BSA:.*]] = arith.mulf %[[B]], %[[SA]] : vector<8xf32>
// CHECK:           arith.subf %[[ACA]], %[[BSA]] : vector<8xf32>
// CHECK:           %[[BCB:.*]] = arith.mulf %[[B]], %[[CB]] : vector<8xf32>
// CHECK:           %[[ASB:.*]] = arith.mulf %[[A]], %[[SB]] : vector<8xf32>
// CHECK:           arith.addf %[[BCB]], %[[ASB]] : vector<8xf32>
// CHECK:           vector.store %{{.*}}, %{{.*}}[%[[TOK]], %[[COL]]] {alignment = 16 : i64} : memref<200x1024xbf16>, vector<8xbf16>
// CHECK:           vector.store %{{.*}}, %{{.*}}[%[[TOK]], %[[COLB]]] {alignment = 16 : i64} : memref<200x1024xbf16>, vector<8xbf16>
func.func @neox_gfx942(%x: tensor<2x100x8x128xbf16>, %c: tensor<4096x128xf32>, %s: tensor<4096x128xf32>) -> tensor<2x100x8x128xbf16> {
  %y = hkg.rope %x, %c, %s neox offset(3) {schedule = #hkg.schedule<threads = 64, tokens_per_block = 1, vector_width = 8>} : tensor<2x100x8x128xbf16>, tensor<4096x128xf32>, tensor<4096x128xf32> -> tensor<2x100x8x128xbf16>
  return %y : tensor<2x100x8x128xbf16>
}
}

// -----

// neox on sm_90 with bf16 tables, the Llama shape (32 heads of 128), its
// default schedule: the table rows are as wide as the feature vectors.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: func.func @neox_sm90
// CHECK:         gpu.func @hkg_rope_0(%{{.*}}: memref<1x64x32x128xbf16>, %{{.*}}: memref<2048x128xbf16>, %{{.*}}: memref<2048x128xbf16>, %{{.*}}: memref<1x64x32x128xbf16>) kernel
// CHECK-SAME:      hkg.schedule = #hkg.schedule<threads = 256, tokens_per_block = 1, vector_width = 8>
// CHECK:           %[[I:.*]] = arith.muli %{{.*}}, %c8{{.*}} : index
// CHECK:           vector.load %arg1[%[[POS:.*]], %[[I]]] {alignment = 16 : i64} : memref<2048x128xbf16>, vector<8xbf16>
// CHECK:           vector.load %arg2[%[[POS]], %[[I]]] {alignment = 16 : i64} : memref<2048x128xbf16>, vector<8xbf16>
// CHECK:           %[[IB:.*]] = arith.addi %[[I]], %c64{{.*}} : index
// CHECK:           vector.load %arg1[%[[POS]], %[[IB]]] {alignment = 16 : i64} : memref<2048x128xbf16>, vector<8xbf16>
// CHECK:           vector.load %arg2[%[[POS]], %[[IB]]] {alignment = 16 : i64} : memref<2048x128xbf16>, vector<8xbf16>
func.func @neox_sm90(%x: tensor<1x64x32x128xbf16>, %c: tensor<2048x128xbf16>, %s: tensor<2048x128xbf16>) -> tensor<1x64x32x128xbf16> {
  %y = hkg.rope %x, %c, %s neox offset(0) : tensor<1x64x32x128xbf16>, tensor<2048x128xbf16>, tensor<2048x128xbf16> -> tensor<1x64x32x128xbf16>
  return %y : tensor<1x64x32x128xbf16>
}
}

// -----

// gptj on sm_90: item (h, j) loads cos/sin[pos, j..j+4) (4 entries, not 2)
// and splits them like the features: entries 2k for out[2k], 2k + 1 for
// out[2k + 1].
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: func.func @gptj_sm90
// CHECK:         gpu.func @hkg_rope_0
// CHECK:           scf.for
// CHECK:             scf.if
// CHECK:               %[[C:.*]] = vector.load %arg1[%[[POS:.*]], %[[J:.*]]] {alignment = 16 : i64} : memref<16x64xf32>, vector<4xf32>
// CHECK:               %[[SN:.*]] = vector.load %arg2[%[[POS]], %[[J]]] {alignment = 16 : i64} : memref<16x64xf32>, vector<4xf32>
// CHECK:               %[[X:.*]] = vector.load {{.*}} {alignment = 16 : i64} : memref<14x256xf32>, vector<4xf32>
// CHECK:               %[[A:.*]] = vector.shuffle %[[X]], %[[X]] [0, 2]
// CHECK:               %[[B:.*]] = vector.shuffle %[[X]], %[[X]] [1, 3]
// CHECK:               %[[CB:.*]] = vector.shuffle %[[C]], %[[C]] [1, 3]
// CHECK:               %[[SB:.*]] = vector.shuffle %[[SN]], %[[SN]] [1, 3]
// CHECK:               %[[CA:.*]] = vector.shuffle %[[C]], %[[C]] [0, 2]
// CHECK:               %[[SA:.*]] = vector.shuffle %[[SN]], %[[SN]] [0, 2]
// CHECK:               arith.mulf %[[A]], %[[CA]] : vector<2xf32>
// CHECK:               arith.mulf %[[B]], %[[SA]] : vector<2xf32>
// CHECK:               arith.mulf %[[B]], %[[CB]] : vector<2xf32>
// CHECK:               arith.mulf %[[A]], %[[SB]] : vector<2xf32>
// CHECK:               %[[Y:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 2, 1, 3] : vector<2xf32>, vector<2xf32>
// CHECK:               vector.store %[[Y]], {{.*}} {alignment = 16 : i64} : memref<14x256xf32>, vector<4xf32>
func.func @gptj_sm90(%x: tensor<2x7x4x64xf32>, %c: tensor<16x64xf32>, %s: tensor<16x64xf32>) -> tensor<2x7x4x64xf32> {
  %y = hkg.rope %x, %c, %s gptj offset(0) {schedule = #hkg.schedule<tokens_per_block = 4, threads = 64, vector_width = 4>} : tensor<2x7x4x64xf32>, tensor<16x64xf32>, tensor<16x64xf32> -> tensor<2x7x4x64xf32>
  return %y : tensor<2x7x4x64xf32>
}
}

// -----

// gptj on gfx942 with f16 features and tables, its default schedule.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @gptj_gfx942
// CHECK:         gpu.func @hkg_rope_0
// CHECK-SAME:      vector_width = 8
// CHECK:           %[[C:.*]] = vector.load %arg1[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x64xf16>, vector<8xf16>
// CHECK:           vector.shuffle %{{.*}}, %{{.*}} [1, 3, 5, 7] : vector<8xf32>, vector<8xf32>
// CHECK:           vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6] : vector<8xf32>, vector<8xf32>
func.func @gptj_gfx942(%x: tensor<2x64x8x64xf16>, %c: tensor<64x64xf16>, %s: tensor<64x64xf16>) -> tensor<2x64x8x64xf16> {
  %y = hkg.rope %x, %c, %s gptj offset(0) : tensor<2x64x8x64xf16>, tensor<64x64xf16>, tensor<64x64xf16> -> tensor<2x64x8x64xf16>
  return %y : tensor<2x64x8x64xf16>
}
}
