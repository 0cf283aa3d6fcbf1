// hkg.attention to one flash-attention kernel (Attention.cpp): grouped-query
// (4 query heads over 2 key/value heads), causal with Skv > Sq (the query
// rows are the last Sq of the key positions), bf16, under sm_90's mma.sync
// m16n8k16 schedule (its default there is warpgroup MMA:
// attention-wgmma.mlir) and the FMA kernel on gfx942 (its default, MFMA:
// attention-amd-matrix-cores.mlir).
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu --canonicalize --cse | FileCheck %s

// sm_90: tile_q = 64 query rows per workgroup (4 waves of 16), K / V blocks
// of 64 keys double-buffered by cp.async. Grid: Sq / 64 x Hq x B.
// CHECK-LABEL: func.func @gqa_sm90(
// CHECK: gpu.launch_func  @hkg_attention_0::@hkg_attention_0 blocks in (%c2, %c4, %c1) threads in (%c128, %c1, %c1)
// Q: 64 rows of 64 + 8 padding elements; K and V: 2 stages of 64 x 72.
// CHECK: gpu.func @hkg_attention_0(%{{.*}}: memref<1x4x128x64xbf16>, %{{.*}}: memref<1x2x256x64xbf16>, %{{.*}}: memref<1x2x256x64xbf16>, %{{.*}}: memref<1x4x128x64xbf16>)
// CHECK-SAME: workgroup(%[[LQ:.*]] : memref<64x72xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[LK:.*]] : memref<2x64x72xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[LV:.*]] : memref<2x64x72xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: hkg.schedule = #hkg.schedule<kv_split = 1, mma = mma_16x8x16, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 64, waves = 4, wgmma_overlap = 0, wgmma_pipeline = 0>
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK-SAME: known_grid_size = array<i32: 2, 4, 1>
// softmax in base 2: scale 1/sqrt(64) x log2(e); running maxima start at -inf.
// CHECK-DAG: arith.constant 0.180336878 : f32
// CHECK-DAG: arith.constant 0xFF800000 : f32
// The query tiles run in reverse (the longest causal rows first); the
// key/value head of query head h is h / 2.
// CHECK: %[[BX:.*]] = gpu.block_id  x
// CHECK: arith.subi %c1, %[[BX]] : index
// CHECK: %[[HY:.*]] = gpu.block_id  y
// CHECK: %[[KVH:.*]] = arith.divui %[[HY]], %c2 : index
// Q, then the first K and V blocks, copied with 16-byte cp.async.
// CHECK: nvgpu.device_async_copy %arg0[%{{.*}}, %[[HY]], %{{.*}}, %{{.*}}], %[[LQ]][%{{.*}}, %{{.*}}], 8 {bypassL1}
// CHECK: nvgpu.device_async_copy %arg1[%{{.*}}, %[[KVH]], %{{.*}}, %{{.*}}], %[[LK]][%c0, %{{.*}}, %{{.*}}], 8 {bypassL1}
// CHECK: nvgpu.device_async_copy %arg2[%{{.*}}, %[[KVH]], %{{.*}}, %{{.*}}], %[[LV]][%c0, %{{.*}}, %{{.*}}], 8 {bypassL1}
// CHECK: nvgpu.ldmatrix %[[LQ]]{{.*}} {numTiles = 4 : i32, transpose = false}
// Key blocks wholly below the diagonal: no mask.
// CHECK: %[[FULL:.*]]:12 = scf.for %{{.*}} = %c0 to %[[SPLIT:.*]] step %c1 iter_args(
// CHECK: nvgpu.device_async_wait
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_copy %arg1
// CHECK: nvgpu.ldmatrix %[[LK]]{{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK: nvvm.mma.sync
// CHECK-NOT: arith.cmpi
// Row maxima and sums over the 4 lanes of a quad.
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32 : f32
// The max of the raw scores scaled once per row, the scale folded into
// P = exp2(fma(S, scale log2(e), -m)).
// CHECK: %[[MS:.*]] = arith.mulf %{{.*}}, %[[SCALE:.*]] : f32
// CHECK: math.exp2 %{{.*}} fastmath<afn> : f32
// CHECK: %[[NEGM:.*]] = arith.negf
// CHECK: %[[ARG:.*]] = math.fma %{{.*}}, %[[SCALE]], %[[NEGM]] : f32
// CHECK: math.exp2 %[[ARG]] fastmath<afn> : f32
// P V with V transposed by ldmatrix.
// CHECK: nvgpu.ldmatrix %[[LV]]{{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK: nvvm.mma.sync
// CHECK: scf.yield
// The blocks on the diagonal: key > query masked to -inf.
// CHECK: %[[DIAG:.*]]:12 = scf.for %{{.*}} = %[[SPLIT]] to %{{.*}} step %c1 iter_args({{.*}} = %[[FULL]]#0
// CHECK: nvvm.mma.sync
// CHECK: arith.cmpi sle
// CHECK: arith.select
// CHECK: math.exp2
// CHECK: nvgpu.ldmatrix %[[LV]]{{.*}} transpose = true
// CHECK: scf.yield
// Normalized by the row sums and stored as bf16 pairs.
// CHECK: arith.divf %cst, %{{.*}} : f32
// CHECK: vector.store %{{.*}}, %arg3[%{{.*}}, %[[HY]], %{{.*}}, %{{.*}}] {alignment = 4 : i64} : memref<1x4x128x64xbf16>, vector<2xbf16>
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @gqa_sm90(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x2x256x64xbf16>, %v: tensor<1x2x256x64xbf16>) -> tensor<1x4x128x64xbf16> {
    %0 = hkg.attention %q, %k, %v causal {schedule = #hkg.schedule<mma = mma_16x8x16, tile_q = 64, tile_kv = 64, waves = 4, stages = 2>} : tensor<1x4x128x64xbf16>, tensor<1x2x256x64xbf16>, tensor<1x2x256x64xbf16> -> tensor<1x4x128x64xbf16>
    return %0 : tensor<1x4x128x64xbf16>
  }
}

// -----

// gfx942 (wave64), the FMA kernel (mma = none; every target's kernel for
// f32 and for head dims the matrix cores do not take): 4 waves, the same
// LDS blocks (staged through registers, no cp.async) plus a 64 x 64 f32
// block for P, the quad reductions over 64 lanes.
// CHECK-LABEL: func.func @gqa_gfx942(
// CHECK: gpu.launch_func  @hkg_attention_0::@hkg_attention_0 blocks in (%c2, %c4, %c1) threads in (%c256, %c1, %c1)
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: workgroup(%{{.*}} : memref<64x72xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[GK:.*]] : memref<2x64x72xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<2x64x72xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<64x64xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: hkg.schedule = #hkg.schedule<kv_split = 1, mma = none, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 64, waves = 4>
// CHECK-NOT: nvgpu.
// CHECK: %[[GFULL:.*]]:10 = scf.for
// CHECK: vector.store %{{.*}}, %[[GK]][%{{.*}}, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<2x64x72xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1
// CHECK: math.fma
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32, %c64_i32 : f32
// CHECK: math.exp2 %{{.*}} fastmath<afn> : f32
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1 iter_args({{.*}} = %[[GFULL]]#0
// CHECK: arith.select
// CHECK: vector.store %{{.*}}, %arg3{{.*}} : memref<1x4x128x64xbf16>, vector<2xbf16>
// CHECK-NOT: nvgpu.
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @gqa_gfx942(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x2x256x64xbf16>, %v: tensor<1x2x256x64xbf16>) -> tensor<1x4x128x64xbf16> {
    %0 = hkg.attention %q, %k, %v causal {schedule = #hkg.schedule<mma = none>} : tensor<1x4x128x64xbf16>, tensor<1x2x256x64xbf16>, tensor<1x2x256x64xbf16> -> tensor<1x4x128x64xbf16>
    return %0 : tensor<1x4x128x64xbf16>
  }
}
