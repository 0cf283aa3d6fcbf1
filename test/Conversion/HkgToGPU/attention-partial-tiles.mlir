// hkg.attention over lengths its tiles do not divide, and head dims whose
// tiles do not fit the LDS (issue 24; Attention.cpp): the last query tile
// reads its rows past Sq from row Sq - 1 and stores only rows < Sq; the last
// key/value block reads its rows past Skv from row Skv - 1 and runs the
// masking copy of the loop body, where keys >= Skv score -inf. stages = 0
// reads Q, K and V from global memory, leaving only P in LDS.
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu --canonicalize --cse | FileCheck %s

// Decode on sm_90: 1 query (a 16-row tile), 13 keys (a 16-key block), GQA
// 4 over 2: the 2 query heads of a key/value head are the tile's rows 0 and
// 1 (pack_gqa; issue 28), its other rows repeat row 1. Grid: 1 query tile x
// 2 key/value heads x 1 batch, one wave (one block: kv_split = 1).
// CHECK-LABEL: func.func @decode_sm90(
// CHECK: gpu.launch_func  @hkg_attention_0::@hkg_attention_0 blocks in (%c1, %c2, %c1) threads in (%c32, %c1, %c1)
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: hkg.schedule = #hkg.schedule<kv_split = 1, mma = mma_16x8x16, pack_gqa = 1, stages = 2, tile_kv = 16, tile_q = 16, waves = 1, wgmma_overlap = 0, wgmma_pipeline = 0>
// CHECK: %[[QROW:.*]] = arith.minui %{{.*}}, %c1 : index
// CHECK: %[[QHEAD:.*]] = arith.addi %{{.*}}, %[[QROW]] : index
// CHECK: nvgpu.device_async_copy %arg0[%{{.*}}, %[[QHEAD]], %c0, %{{.*}}]
// Key rows past 12 repeat row 12, for K and V alike.
// CHECK: %[[KROW:.*]] = arith.minui %{{.*}}, %c12 : index
// CHECK: nvgpu.device_async_copy %arg1[%{{.*}}, %{{.*}}, %[[KROW]], %{{.*}}]
// CHECK: nvgpu.device_async_copy %arg2[%{{.*}}, %{{.*}}, %[[KROW]], %{{.*}}]
// The one block is the partial one: keys >= 13 masked to -inf.
// CHECK: nvvm.mma.sync
// CHECK: %[[VISIBLE:.*]] = arith.cmpi ult, %{{.*}}, %c13 : index
// CHECK: arith.select %[[VISIBLE]], %{{.*}}, %cst
// CHECK: math.exp2
// Only tile rows 0 and 1 are stored, at query head 2 y + row, token 0.
// CHECK: %[[ROWOK:.*]] = arith.cmpi ult, %[[ROW:.*]], %c2 : index
// CHECK-NEXT: scf.if %[[ROWOK]] {
// CHECK: %[[OHEAD:.*]] = arith.addi %{{.*}}, %[[ROW]] : index
// CHECK-NEXT: vector.store %{{.*}}, %arg3[%{{.*}}, %[[OHEAD]], %c0, %{{.*}}] {alignment = 4 : i64} : memref<1x4x1x64xbf16>, vector<2xbf16>
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @decode_sm90(%q: tensor<1x4x1x64xbf16>, %k: tensor<1x2x13x64xbf16>) -> tensor<1x4x1x64xbf16> {
    %0 = hkg.attention %q, %k, %k : tensor<1x4x1x64xbf16>, tensor<1x2x13x64xbf16>, tensor<1x2x13x64xbf16> -> tensor<1x4x1x64xbf16>
    return %0 : tensor<1x4x1x64xbf16>
  }
}

// -----

// gfx942, causal, 96 queries in tiles of 64 (the second tile partial: rows
// 64..95) and 100 keys in blocks of 32 (the fourth partial: keys 96..99),
// explicit tiles that divide neither (the verifier used to refuse both);
// the FMA kernel (pinned; MFMA's partial tiles: attention-amd-matrix-cores.mlir).
// CHECK-LABEL: func.func @partial_gfx942(
// CHECK: gpu.launch_func  @hkg_attention_0::@hkg_attention_0 blocks in (%c2, %c2, %c1) threads in (%c128, %c1, %c1)
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: hkg.schedule = #hkg.schedule<kv_split = 1, mma = none, pack_gqa = 0, stages = 2, tile_kv = 32, tile_q = 64, waves = 2>
// CHECK-SAME: known_grid_size = array<i32: 2, 2, 1>
// The diagonal blocks end at ceil(100 / 32) = 4 blocks.
// CHECK: %[[END:.*]] = arith.minsi %{{.*}}, %c4 : index
// Query rows past 95 repeat row 95.
// CHECK: %[[QROW:.*]] = arith.minui %{{.*}}, %c95 : index
// CHECK: vector.load %arg0[%{{.*}}, %{{.*}}, %[[QROW]], %{{.*}}]
// CHECK: %[[FULL:.*]]:12 = scf.for
// CHECK: arith.minui %{{.*}}, %c99 : index
// CHECK: scf.yield
// The masked blocks (the diagonal, and the partial last block): causal and
// key < 100.
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[END]] step %c1 iter_args({{.*}} = %[[FULL]]#0
// CHECK: arith.minui %{{.*}}, %c99 : index
// CHECK: %[[CAUSAL:.*]] = arith.cmpi sle
// CHECK-NEXT: %[[INKV:.*]] = arith.cmpi ult, %{{.*}}, %c100 : index
// CHECK-NEXT: %[[VIS:.*]] = arith.andi %[[CAUSAL]], %[[INKV]] : i1
// CHECK-NEXT: arith.select %[[VIS]]
// CHECK: scf.yield
// Rows >= 96 are not stored.
// CHECK: arith.cmpi ult, %{{.*}}, %c96 : index
// CHECK-NEXT: scf.if
// CHECK: vector.store %{{.*}}, %arg3
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @partial_gfx942(%q: tensor<1x2x96x32xf16>, %kv: tensor<1x2x100x32xf16>) -> tensor<1x2x96x32xf16> {
    %0 = hkg.attention %q, %kv, %kv causal {schedule = #hkg.schedule<mma = none, tile_q = 64, tile_kv = 32>} : tensor<1x2x96x32xf16>, tensor<1x2x100x32xf16>, tensor<1x2x100x32xf16> -> tensor<1x2x96x32xf16>
    return %0 : tensor<1x2x96x32xf16>
  }
}

// -----

// Head dim 1024 bf16 on gfx942 (64 KiB of LDS): no 16 x 16 tiling fits
// (100096 bytes), so the default reads Q, K and V from global memory
// (stages = 0) and keeps only the 16 x 16 f32 P block in LDS (and
// kv_split's arrival flag). The 4 query heads of a key/value head share a
// query tile (pack_gqa) and the 256 key blocks are split 64 ways, 4 each
// (issue 28).
// CHECK-LABEL: func.func @d1024_gfx942(
// CHECK: gpu.launch_func  @hkg_attention_0::@hkg_attention_0 blocks in (%c64, %c2, %c1) threads in (%c64, %c1, %c1)
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: workgroup(%[[P:.*]] : memref<16x16xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<1xi32, #gpu.address_space<workgroup>> {llvm.align = 4 : i64})
// CHECK-SAME: hkg.schedule = #hkg.schedule<kv_split = 64, mma = none, pack_gqa = 1, stages = 0, tile_kv = 16, tile_q = 16, waves = 1>
// CHECK-NOT: vector.store %{{.*}}, %{{.*}} : memref<{{.*}}xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[LO:.*]] = arith.muli %{{.*}}, %c4 : index
// CHECK: scf.for %{{.*}} = %[[LO]] to %{{.*}} step %c1
// CHECK-NEXT: gpu.barrier
// S = Q K^T over D = 1024, straight from the key and query tensors.
// CHECK: scf.for %{{.*}} = %c0 to %c1024 step %c1
// CHECK: memref.load %arg1[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x2x4096x1024xbf16>
// CHECK: memref.load %arg0[%{{.*}}, %{{.*}}, %c0, %{{.*}}] : memref<1x8x1x1024xbf16>
// P through LDS, then P V with V read in pairs from global memory.
// CHECK: memref.store %{{.*}}, %[[P]]
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1
// CHECK: vector.load %arg2[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {alignment = 4 : i64} : memref<1x2x4096x1024xbf16>, vector<2xbf16>
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @d1024_gfx942(%q: tensor<1x8x1x1024xbf16>, %k: tensor<1x2x4096x1024xbf16>) -> tensor<1x8x1x1024xbf16> {
    %0 = hkg.attention %q, %k, %k : tensor<1x8x1x1024xbf16>, tensor<1x2x4096x1024xbf16>, tensor<1x2x4096x1024xbf16> -> tensor<1x8x1x1024xbf16>
    return %0 : tensor<1x8x1x1024xbf16>
  }
}
