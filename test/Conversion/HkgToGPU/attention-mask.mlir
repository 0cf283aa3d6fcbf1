// hkg.attention with an additive mask (Attention.cpp, loadMask): the mask
// is the kernel's argument 3 and the result its argument 4; in every block
// the scores stay in natural units, x = fma(S, scale, mask), and only
// x - m is taken to the log2 domain for exp2 (the scale no longer folds
// into exp2's fma; mask x log2(e) would overflow for finfo.min masks).
// The block's mask loads are issued before its Q K^T products, which hide
// their latency (loadMaskBlock). Dims of 1 broadcast (index 0); in the m16n8 layout (mma.sync, wgmma, the
// FMA kernel) adjacent keys load as aligned pairs, on AMD matrix cores and
// with an odd Skv element by element with the key clamped to Skv - 1.
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu --canonicalize --cse | FileCheck %s

// sm_90, mma.sync pinned, a key-padding mask [B, 1, 1, Skv] in f32 beside
// bf16 operands: one pair of keys a load, at batch blockIdx.z.
// CHECK-LABEL: func.func @key_padding_sm90(
// CHECK: gpu.func @hkg_attention_0(%{{.*}}: memref<2x4x64x64xbf16>, %{{.*}}: memref<2x4x128x64xbf16>, %{{.*}}: memref<2x4x128x64xbf16>, %[[MASK:.*]]: memref<2x1x1x128xf32>, %[[OUT:.*]]: memref<2x4x64x64xbf16>)
// CHECK-DAG: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK-DAG: %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
// CHECK: %[[PAIR:.*]] = vector.load %[[MASK]][%block_id_z, %c0, %c0, %{{.*}}] {alignment = 8 : i64} : memref<2x1x1x128xf32>, vector<2xf32>
// CHECK: nvvm.mma.sync
// CHECK: %[[M0:.*]] = vector.extract %[[PAIR]][0]
// CHECK: %[[X0:.*]] = math.fma %{{.*}}, %[[SCALE]], %[[M0]] : f32
// CHECK: %[[D0:.*]] = arith.subf %[[X0]], %{{.*}} : f32
// CHECK-NEXT: %[[L0:.*]] = arith.mulf %[[D0]], %[[LOG2E]] : f32
// CHECK-NEXT: math.exp2 %[[L0]]
// CHECK: vector.store %{{.*}}, %[[OUT]]
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @key_padding_sm90(%q: tensor<2x4x64x64xbf16>, %k: tensor<2x4x128x64xbf16>, %m: tensor<2x1x1x128xf32>) -> tensor<2x4x64x64xbf16> {
    %0 = hkg.attention %q, %k, %k mask(%m : tensor<2x1x1x128xf32>) {schedule = #hkg.schedule<mma = mma_16x8x16, tile_q = 64, tile_kv = 64, waves = 4, stages = 2>} : tensor<2x4x64x64xbf16>, tensor<2x4x128x64xbf16>, tensor<2x4x128x64xbf16> -> tensor<2x4x64x64xbf16>
    return %0 : tensor<2x4x64x64xbf16>
  }
}

// -----

// gfx942 (MFMA), causal with a per-head mask [1, Hq, Sq, Skv] over 77 keys:
// element loads at head blockIdx.y, the key clamped to 76 (the partial
// block's keys past Skv, masked to -inf after).
// CHECK-LABEL: func.func @heads_gfx942(
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: %[[MASK:arg3]]: memref<1x4x64x77xbf16>, %{{.*}}: memref<1x4x64x64xbf16>)
// CHECK-SAME: mma = mfma_16x16x16
// The loads follow the block's copy into LDS (its barrier).
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: %[[KEY:.*]] = arith.minui %{{.*}}, %c76 : index
// CHECK-NEXT: %[[M:.*]] = memref.load %[[MASK]][%c0, %block_id_y, %{{.*}}, %[[KEY]]] : memref<1x4x64x77xbf16>
// CHECK: amdgpu.mfma
// CHECK: %[[MF:.*]] = arith.extf %[[M]] : bf16 to f32
// CHECK: math.fma %{{.*}}, %{{.*}}, %[[MF]] : f32
// CHECK: arith.cmpi sle
// CHECK: arith.select
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @heads_gfx942(%q: tensor<1x4x64x64xbf16>, %k: tensor<1x4x77x64xbf16>, %m: tensor<1x4x64x77xbf16>) -> tensor<1x4x64x64xbf16> {
    %0 = hkg.attention %q, %k, %k mask(%m : tensor<1x4x64x77xbf16>) causal : tensor<1x4x64x64xbf16>, tensor<1x4x77x64xbf16>, tensor<1x4x77x64xbf16> -> tensor<1x4x64x64xbf16>
    return %0 : tensor<1x4x64x64xbf16>
  }
}

// -----

// sm_90's default for a 128-row prefill (the pipelined wgmma loop), causal
// with one mask [1, 1, Sq, Skv] for every batch and head: the mask's pairs
// are read in the loop's blocks, by the token row of the tile.
// CHECK-LABEL: func.func @prefill_sm90(
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: %[[MASK:arg3]]: memref<1x1x1024x1024xbf16>
// CHECK-SAME: wgmma_pipeline = 1
// CHECK: scf.for
// CHECK: wgmma.mma_async
// CHECK: vector.load %[[MASK]][%c0, %c0, %{{.*}}, %{{.*}}] {alignment = 4 : i64} : memref<1x1x1024x1024xbf16>, vector<2xbf16>
// CHECK: math.exp2
// CHECK: scf.yield
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @prefill_sm90(%q: tensor<2x8x1024x128xbf16>, %k: tensor<2x8x1024x128xbf16>, %m: tensor<1x1x1024x1024xbf16>) -> tensor<2x8x1024x128xbf16> {
    %0 = hkg.attention %q, %k, %k mask(%m : tensor<1x1x1024x1024xbf16>) causal : tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16> -> tensor<2x8x1024x128xbf16>
    return %0 : tensor<2x8x1024x128xbf16>
  }
}

// -----

// Decode with GQA 4 over 2 heads (pack_gqa: query head 2 y + row) and a
// mask [B, Hq, 1, Skv]: the mask's head is the packed row's query head
// (the tile's rows past the 2 of a group clamped to row 1).
// CHECK-LABEL: func.func @decode_sm90(
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: %[[MASK:arg3]]: memref<1x4x1x256xf16>
// CHECK-SAME: pack_gqa = 1
// CHECK: scf.for
// CHECK: %[[ROW:.*]] = arith.minui %{{.*}}, %c1 : index
// CHECK-NEXT: %[[HEAD:.*]] = arith.addi %{{.*}}, %[[ROW]] : index
// CHECK: vector.load %[[MASK]][%c0, %[[HEAD]], %c0, %{{.*}}] {alignment = 4 : i64} : memref<1x4x1x256xf16>, vector<2xf16>
// CHECK: nvgpu.mma.sync
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @decode_sm90(%q: tensor<1x4x1x64xf16>, %k: tensor<1x2x256x64xf16>, %m: tensor<1x4x1x256xf16>) -> tensor<1x4x1x64xf16> {
    %0 = hkg.attention %q, %k, %k mask(%m : tensor<1x4x1x256xf16>) : tensor<1x4x1x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16> -> tensor<1x4x1x64xf16>
    return %0 : tensor<1x4x1x64xf16>
  }
}
