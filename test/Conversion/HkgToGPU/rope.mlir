// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu | FileCheck %s

// neox with its default gfx942 schedule: one token per workgroup, 8-wide
// bf16 vectors from both halves of each head, f32 table rows of the same
// width (two 16-byte accesses), table row s + offset.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @neox
// CHECK:         gpu.func @hkg_rope_0(%{{.*}}: memref<2x100x8x128xbf16>, %{{.*}}: memref<4096x64xf32>, %{{.*}}: memref<4096x64xf32>, %{{.*}}: memref<2x100x8x128xbf16>) kernel
// CHECK-SAME:      hkg.schedule = #hkg.schedule<threads = 64, tokens_per_block = 1, vector_width = 8>
// CHECK-SAME:      known_block_size = array<i32: 64, 1, 1>
// CHECK-SAME:      known_grid_size = array<i32: 200, 1, 1>
// CHECK-NOT:       scf.for
// CHECK:           %[[S:.*]] = arith.remui %{{.*}}, %c100 : index
// CHECK:           %[[POS:.*]] = arith.addi %[[S]], %c3 : index
// CHECK:           vector.load %arg1[%[[POS]], %{{.*}}] {alignment = 16 : i64} : memref<4096x64xf32>, vector<8xf32>
// CHECK:           vector.load %arg2[%[[POS]], %{{.*}}] {alignment = 16 : i64} : memref<4096x64xf32>, vector<8xf32>
// CHECK:           %[[COLB:.*]] = arith.addi %[[COL:.*]], %c64{{.*}} : index
// CHECK:           vector.load %{{.*}}[%[[TOK:.*]], %[[COL]]] {alignment = 16 : i64} : memref<200x1024xbf16>, vector<8xbf16>
// CHECK:           vector.load %{{.*}}[%[[TOK]], %[[COLB]]] {alignment = 16 : i64} : memref<200x1024xbf16>, vector<8xbf16>
// CHECK:           vector.store %{{.*}}, %{{.*}}[%[[TOK]], %[[COL]]] {alignment = 16 : i64} : memref<200x1024xbf16>, vector<8xbf16>
// CHECK:           vector.store %{{.*}}, %{{.*}}[%[[TOK]], %[[COLB]]] {alignment = 16 : i64} : memref<200x1024xbf16>, vector<8xbf16>
func.func @neox(%x: tensor<2x100x8x128xbf16>, %c: tensor<4096x64xf32>, %s: tensor<4096x64xf32>) -> tensor<2x100x8x128xbf16> {
  %y = hkg.rope %x, %c, %s neox offset(3) {schedule = #hkg.schedule<threads = 64, tokens_per_block = 1, vector_width = 8>} : tensor<2x100x8x128xbf16>, tensor<4096x64xf32>, tensor<4096x64xf32> -> tensor<2x100x8x128xbf16>
  return %y : tensor<2x100x8x128xbf16>
}
}

// -----

// gptj with 4 tokens per workgroup and 64 threads: each thread loops 4 times
// over the workgroup's 256 items; the last workgroup has 2 of its 4 tokens.
// Interleaved pairs are split with vector.shuffle and merged back.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @gptj
// CHECK:         gpu.func @hkg_rope_0
// CHECK-SAME:      known_block_size = array<i32: 64, 1, 1>
// CHECK-SAME:      known_grid_size = array<i32: 4, 1, 1>
// CHECK:           scf.for %{{.*}} = %c0 to %c4{{.*}} step %c1 {
// CHECK:             %[[OK:.*]] = arith.cmpi ult, %{{.*}}, %c14 : index
// CHECK:             scf.if %[[OK]] {
// CHECK:               vector.load %arg1[{{.*}}] {alignment = 8 : i64} : memref<16x32xf32>, vector<2xf32>
// CHECK:               %[[X:.*]] = vector.load {{.*}} {alignment = 16 : i64} : memref<14x256xf32>, vector<4xf32>
// CHECK:               vector.shuffle %[[X]], %[[X]] [0, 2]
// CHECK:               vector.shuffle %[[X]], %[[X]] [1, 3]
// CHECK:               %[[Y:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 2, 1, 3] : vector<2xf32>, vector<2xf32>
// CHECK:               vector.store %[[Y]], {{.*}} {alignment = 16 : i64} : memref<14x256xf32>, vector<4xf32>
func.func @gptj(%x: tensor<2x7x4x64xf32>, %c: tensor<16x32xf32>, %s: tensor<16x32xf32>) -> tensor<2x7x4x64xf32> {
  %y = hkg.rope %x, %c, %s gptj offset(0) {schedule = #hkg.schedule<tokens_per_block = 4, threads = 64, vector_width = 4>} : tensor<2x7x4x64xf32>, tensor<16x32xf32>, tensor<16x32xf32> -> tensor<2x7x4x64xf32>
  return %y : tensor<2x7x4x64xf32>
}
}
