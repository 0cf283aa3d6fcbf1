// hkg.attention on sm_90a's warpgroup MMA (AttentionWgmma.cpp), the sm_90
// default for 16-bit prefill whose head dims are multiples of 64 up to 256.
// The 128-row default pipelines its key loop (@pipeline); the first two
// cases ask for the plain loop (wgmma_pipeline = 0), the rest of their
// schedules the defaults.
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu --canonicalize --cse | FileCheck %s

// Grouped-query causal, D = 128: 128 query rows per workgroup (two
// warpgroups, 8 waves), 128-key blocks, two stages: Q 32 KiB, K and V 64 KiB
// each, 160 KiB as dynamic shared memory, every buffer 1024-byte aligned.
// CHECK-LABEL: func.func @gqa_causal_d128(
// CHECK: gpu.launch_func  @hkg_attention_0::@hkg_attention_0 blocks in (%c2, %c4, %c1) threads in (%c256, %c1, %c1)  dynamic_shared_memory_size %c163840_i32
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: hkg.arch_specific
// CHECK-SAME: hkg.schedule = #hkg.schedule<kv_split = 1, mma = wgmma_64x128x16, pack_gqa = 0, stages = 2, tile_kv = 128, tile_q = 128, waves = 8, wgmma_overlap = 0, wgmma_pipeline = 0>
// Q: [D / 64][tile_q][64], K and V: [stages][D / 64][tile_kv][64].
// CHECK: %[[Q:.*]] = memref.view %{{.*}}[%c0][] : {{.*}} to memref<2x128x64xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[K:.*]] = memref.view %{{.*}}[%c32768][] : {{.*}} to memref<2x2x128x64xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[V:.*]] = memref.view %{{.*}}[%c98304][] : {{.*}} to memref<2x2x128x64xbf16, #gpu.address_space<workgroup>>
// The copies write the 128-byte swizzle: chunk (col % 64) / 8 XOR row % 8.
// CHECK: %[[SW:.*]] = arith.xori
// CHECK: nvgpu.device_async_copy %arg0[{{.*}}], %[[Q]][{{.*}}], 8 {bypassL1}
// CHECK: nvgpu.device_async_copy %arg1[{{.*}}], %[[K]][%c0, {{.*}}], 8 {bypassL1}
// CHECK: nvgpu.device_async_copy %arg2[{{.*}}], %[[V]][%c0, {{.*}}], 8 {bypassL1}
// The unmasked loop: wait, fence the async proxy, barrier, next block.
// CHECK: scf.for
// CHECK: nvgpu.device_async_wait
// CHECK-NEXT: llvm.inline_asm has_side_effects "fence.proxy.async.shared::cta;"
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_copy %arg1
// S = Q K^T: fence, 8 x m64n128k16 (D / 16) on descriptors (128-byte
// swizzle, stride 1024, leading offset 16 unused: 0x4000004000010000),
// commit, wait.
// CHECK: llvm.inline_asm has_side_effects "wgmma.fence.sync.aligned;"
// CHECK: arith.ori %{{.*}}, %c4611686293305360384_i64
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{.*}}}, $64, $65, p, 1, 1, 0, 0;
// CHECK: "wgmma.commit_group.sync.aligned;"
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// The online softmax in base 2 (quad shuffles).
// CHECK: gpu.shuffle  xor
// CHECK: math.exp2
// O += P V: P's 32 packed pairs tied through the fence with O's 64
// accumulators, 8 x m64n128k16 (tile_kv / 16) with A from registers and V
// MN-major (imm-trans-b = 1; leading byte offset 128 x 128 bytes).
// CHECK: arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK: llvm.inline_asm has_side_effects "wgmma.fence.sync.aligned;", "{{(=f,)+(=r,)+}}0,
// CHECK: arith.ori %{{.*}}, %c4611686293372403712_i64
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{.*}}}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;
// CHECK: "wgmma.commit_group.sync.aligned;"
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: scf.yield
// The masked loop over the diagonal block.
// CHECK: scf.for
// CHECK: wgmma.mma_async
// CHECK: arith.cmpi sle
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @gqa_causal_d128(%q: tensor<1x4x256x128xbf16>, %k: tensor<1x2x256x128xbf16>, %v: tensor<1x2x256x128xbf16>) -> tensor<1x4x256x128xbf16> {
    %0 = hkg.attention %q, %k, %v causal {schedule = #hkg.schedule<wgmma_pipeline = 0>} : tensor<1x4x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16> -> tensor<1x4x256x128xbf16>
    return %0 : tensor<1x4x256x128xbf16>
  }
}

// -----

// D = 256, bshd, not causal: 64-key blocks (S: m64n64k16, 16 per block; O:
// m64n256k16, 4 per block, leading byte offset 64 x 128), 192 KiB of LDS.
// CHECK-LABEL: func.func @bshd_d256(
// CHECK: gpu.launch_func  @hkg_attention_0::@hkg_attention_0 blocks in (%c2, %c4, %c1) threads in (%c256, %c1, %c1)  dynamic_shared_memory_size %c196608_i32
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: hkg.schedule = #hkg.schedule<kv_split = 1, mma = wgmma_64x128x16, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 128, waves = 8, wgmma_overlap = 0, wgmma_pipeline = 0>
// CHECK: nvgpu.device_async_copy %arg0[%{{.*}}, %{{.*}}, %block_id_y, %{{.*}}]
// CHECK-COUNT-16: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{.*}}}, $32, $33, p, 1, 1, 0, 0;
// CHECK: arith.ori %{{.*}}, %c4611686293338849280_i64
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{{.*}}}, {$128, $129, $130, $131}, $132, p, 1, 1, 1;
// CHECK-NOT: wgmma.mma_async
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @bshd_d256(%q: tensor<1x256x4x256xbf16>, %k: tensor<1x256x2x256xbf16>, %v: tensor<1x256x2x256xbf16>) -> tensor<1x256x4x256xbf16> {
    %0 = hkg.attention %q, %k, %v layout(bshd) {schedule = #hkg.schedule<wgmma_pipeline = 0>} : tensor<1x256x4x256xbf16>, tensor<1x256x2x256xbf16>, tensor<1x256x2x256xbf16> -> tensor<1x256x4x256xbf16>
    return %0 : tensor<1x256x4x256xbf16>
  }
}

// -----

// f16, D = 64, one warpgroup (tile_q = 64, 4 waves), ragged lengths (200
// queries over 333 keys: a partial query tile, stored under a guard, and a
// partial key block, masked): 32 KiB of static LDS, 1024-byte aligned.
// CHECK-LABEL: func.func @f16_ragged(
// CHECK: gpu.launch_func  @hkg_attention_0::@hkg_attention_0 blocks in (%c4, %c2, %c1) threads in (%c128, %c1, %c1)
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: workgroup(%{{.*}} : memref<1x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %{{.*}} : memref<2x1x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %{{.*}} : memref<2x1x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{.*}}}, $32, $33, p, 1, 1, 0, 0;
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{.*}}}, {$32, $33, $34, $35}, $36, p, 1, 1, 1;
// Keys past 333 score -inf.
// CHECK: arith.cmpi ult, %{{.*}}, %c333
// CHECK: scf.if
// CHECK: vector.store
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @f16_ragged(%q: tensor<1x2x200x64xf16>, %k: tensor<1x2x333x64xf16>, %v: tensor<1x2x333x64xf16>) -> tensor<1x2x200x64xf16> {
    %0 = hkg.attention %q, %k, %v causal {schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_q = 64, tile_kv = 64, waves = 4, stages = 2, kv_split = 1, pack_gqa = 0>} : tensor<1x2x200x64xf16>, tensor<1x2x333x64xf16>, tensor<1x2x333x64xf16> -> tensor<1x2x200x64xf16>
    return %0 : tensor<1x2x200x64xf16>
  }
}

// -----

// wgmma_overlap = 1: S of each 128-key block in two groups of 64 keys
// (m64n64k16), the first half's softmax after wait_group 1 (the second
// half's S in flight), its P V issued (m64n128k16 over 64 keys), the second
// half's softmax after wait_group 1 (the first half's P V in flight), then
// wait_group 0 before O is rescaled, the second half's P V, wait_group 0.
// CHECK-LABEL: func.func @overlap(
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: wgmma_overlap = 1
// CHECK: scf.for
// CHECK: "wgmma.fence.sync.aligned;"
// CHECK: "wgmma.fence.sync.aligned;"
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{.*}}}, $32, $33, p, 1, 1, 0, 0;
// CHECK: "wgmma.commit_group.sync.aligned;"
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{.*}}}, $32, $33, p, 1, 1, 0, 0;
// CHECK: "wgmma.commit_group.sync.aligned;"
// CHECK: "wgmma.wait_group.sync.aligned 1;"
// CHECK: math.exp2
// CHECK: "wgmma.fence.sync.aligned;"
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{.*}}}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;
// CHECK: "wgmma.commit_group.sync.aligned;"
// CHECK: "wgmma.wait_group.sync.aligned 1;"
// CHECK: math.exp2
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: arith.mulf
// CHECK: "wgmma.fence.sync.aligned;"
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{.*}}}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;
// CHECK: "wgmma.commit_group.sync.aligned;"
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: scf.yield
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @overlap(%q: tensor<1x4x256x128xbf16>) -> tensor<1x4x256x128xbf16> {
    %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_q = 128, waves = 8, tile_kv = 128, stages = 2, kv_split = 1, pack_gqa = 0, wgmma_overlap = 1>} : tensor<1x4x256x128xbf16>, tensor<1x4x256x128xbf16>, tensor<1x4x256x128xbf16> -> tensor<1x4x256x128xbf16>
    return %0 : tensor<1x4x256x128xbf16>
  }
}

// -----

// The default at D = 128 (wgmma_pipeline = 1): the first block peeled (S, wait_group 0, softmax, P
// packed into 32 i32 registers), the loop over blocks 1-3 carrying O, m,
// l and that P: block kb's S, waited for, its row maxima (the shuffles),
// then block kb - 1's P V (V's stage (kb - 1) % 3) issued, and the
// exponentials and row sums (no shuffle) before wait_group 0 and O
// rescaled; after the loop the last block's P V. V has three LDS buffers.
// CHECK-LABEL: func.func @pipeline(
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: wgmma_pipeline = 1
// CHECK: memref.view {{.*}} to memref<3x2x128x64xbf16, #gpu.address_space<workgroup>>
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: math.exp2
// CHECK: scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, f32, f32, f32, f32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)
// CHECK: gpu.barrier
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{.*}}}, $64, $65, p, 1, 1, 0, 0;
// CHECK: "wgmma.commit_group.sync.aligned;"
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: gpu.shuffle  xor
// CHECK: arith.remui %{{.*}}, %c3
// CHECK: "wgmma.fence.sync.aligned;"
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{.*}}}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;
// CHECK: "wgmma.commit_group.sync.aligned;"
// CHECK-NOT: gpu.shuffle
// CHECK: math.exp2
// CHECK-NOT: gpu.shuffle
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: arith.mulf
// CHECK: scf.yield
// CHECK: "wgmma.fence.sync.aligned;"
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{.*}}}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: arith.divf
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @pipeline(%q: tensor<1x4x512x128xbf16>) -> tensor<1x4x512x128xbf16> {
    %0 = hkg.attention %q, %q, %q : tensor<1x4x512x128xbf16>, tensor<1x4x512x128xbf16>, tensor<1x4x512x128xbf16> -> tensor<1x4x512x128xbf16>
    return %0 : tensor<1x4x512x128xbf16>
  }
}
