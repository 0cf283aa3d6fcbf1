// Flash-decoding (issue 28; Attention.cpp, AttentionSplitKv.cpp): with
// kv_split > 1 the kv_split workgroups of a query tile (side by side along
// the grid's x) walk their share of the key/value blocks, publish their
// partial O, row max and row sum to a workspace held by the kernel's
// module, and the last to arrive (an atomic counter it resets to 0)
// combines the partials in split order and stores O / l. With pack_gqa the
// query heads of a GQA group are the rows of one query tile (grid y: the
// key/value heads).
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu --canonicalize --cse | FileCheck %s

// A decode step on sm_90 by default: 1 query of 8 heads over 2 key/value
// heads (4 packed rows of a 16-row tile), 1000 keys in 16 blocks of 64 (the
// last partial), causal (the query is the last position: every key
// visible). Grid: 4 splits x 2 key/value heads x 2 batches.
// CHECK-LABEL: func.func @decode_sm90(
// CHECK: gpu.launch_func  @hkg_attention_0::@hkg_attention_0 blocks in (%c4, %c2, %c2) threads in (%c32, %c1, %c1)
// CHECK: memref.global "private" @hkg_attention_0_kv_split_arrivals : memref<4xi32, #gpu.address_space<global>> = dense<0>
// CHECK: memref.global "private" @hkg_attention_0_kv_split_partials : memref<4x4x1152xf32, #gpu.address_space<global>> = uninitialized
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: hkg.schedule = #hkg.schedule<kv_split = 4, mma = mma_16x8x16, pack_gqa = 1, stages = 2, tile_kv = 64, tile_q = 16, waves = 1, wgmma_overlap = 0, wgmma_pipeline = 0>
// The split is x % 4, the query tile x / 4.
// CHECK: %[[SPLIT:.*]] = arith.remui %block_id_x, %c4 : index
// Split s walks blocks [4 s, min(4 s + 4, 16)): blocks below 15 unmasked,
// block 15 (keys 960..999) masked.
// CHECK: %[[LO:.*]] = arith.muli %[[SPLIT]], %c4 : index
// CHECK: %[[HI0:.*]] = arith.addi %[[LO]], %c4 : index
// CHECK: %[[HI:.*]] = arith.minui %[[HI0]], %c16 : index
// CHECK: %[[FULL0:.*]] = arith.maxui %[[LO]], %c15 : index
// CHECK: %[[FULL:.*]] = arith.minui %[[FULL0]], %[[HI]] : index
// CHECK: %[[END0:.*]] = arith.maxui %[[FULL]], %c16 : index
// CHECK: %[[END:.*]] = arith.minui %[[END0]], %[[HI]] : index
// The prefetch stays within the split: block min(kb + 1, max(end - 1, lo)).
// CHECK: %[[LAST0:.*]] = arith.subi %[[END]], %c1 : index
// CHECK: %[[LAST:.*]] = arith.maxui %[[LAST0]], %[[LO]] : index
// Tile row v is query head 4 y + v of token 0 (rows past 3 repeat row 3).
// CHECK: %[[QROW:.*]] = arith.minui %{{.*}}, %c3 : index
// CHECK: %[[HEAD0:.*]] = arith.muli %block_id_y, %c4 : index
// CHECK: %[[QHEAD:.*]] = arith.addi %[[HEAD0]], %[[QROW]] : index
// CHECK: nvgpu.device_async_copy %arg0[%block_id_z, %[[QHEAD]], %c0, %{{.*}}]
// The split's first block goes to stage lo % 2, from the key/value head y.
// CHECK: %[[FIRST:.*]] = arith.minui %[[LO]], %c15 : index
// CHECK: nvgpu.device_async_copy %arg1[%block_id_z, %block_id_y
// CHECK: scf.for %{{.*}} = %[[LO]] to %[[FULL]] step %c1
// CHECK: arith.minui %{{.*}}, %[[LAST]] : index
// CHECK: nvvm.mma.sync
// CHECK: scf.yield
// CHECK: scf.for %{{.*}} = %[[FULL]] to %[[END]] step %c1
// CHECK: arith.cmpi ult, %{{.*}}, %c1000 : index
// CHECK: scf.yield
// The partial of each valid row (the 4 packed rows) at
// [tile][split][(row, pair) x 32 threads x 2 + 2 tid]: 8 O pairs, then
// (m, l).
// CHECK: %[[PARTIALS:.*]] = memref.get_global @hkg_attention_0_kv_split_partials
// CHECK: %[[ARRIVALS:.*]] = memref.get_global @hkg_attention_0_kv_split_arrivals
// CHECK: %[[ROWOK:.*]] = arith.cmpi ult, %{{.*}}, %c4 : index
// CHECK-NEXT: scf.if %[[ROWOK]] {
// CHECK: vector.store %{{.*}}, %[[PARTIALS]][%[[TILE:.*]], %[[SPLIT]], %{{.*}}] {alignment = 8 : i64}
// CHECK: %[[ML:.*]] = vector.from_elements %{{.*}}#8, %{{.*}}#10 : vector<2xf32>
// CHECK-NEXT: %[[MLAT:.*]] = arith.addi %{{.*}}, %c512 : index
// CHECK-NEXT: vector.store %[[ML]], %[[PARTIALS]][%[[TILE]], %[[SPLIT]], %[[MLAT]]]
// Published, then counted: the 4th arrival is the last and resets the
// counter.
// CHECK: llvm.fence syncscope("device") release
// CHECK-NEXT: gpu.barrier
// CHECK: %[[BEFORE:.*]] = memref.atomic_rmw addi %c1_i32, %[[ARRIVALS]][%[[TILE]]]
// CHECK-NEXT: %[[LASTARR:.*]] = arith.cmpi eq, %[[BEFORE]], %c3_i32 : i32
// CHECK-NEXT: scf.if %[[LASTARR]] {
// CHECK-NEXT: memref.store %c0_i32, %[[ARRIVALS]][%[[TILE]]]
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK-NEXT: llvm.fence syncscope("device") acquire
// The combine, in two loops over the splits kept rolled (an unrolled one
// would hoist every split's loads): the max of the splits' m, then the
// weights exp2(m_s - max) (max -inf: 0 subtracted) summing l and O.
// CHECK: %[[R:.*]]:9 = scf.if %[[ROWOK]] -> (vector<2xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>, f32) {
// CHECK-NEXT: %[[MAX:.*]] = scf.for %[[S:.*]] = %c0 to %c4 step %c1 iter_args(%[[M:.*]] = %cst{{.*}}) -> (f32) {
// CHECK: %[[ML:.*]] = vector.load %[[PARTIALS]][%[[TILE]], %[[S]], %{{.*}}]
// CHECK-NEXT: %[[MS:.*]] = vector.extract %[[ML]][0]
// CHECK-NEXT: %[[MNEW:.*]] = arith.maximumf %[[M]], %[[MS]] : f32
// CHECK-NEXT: scf.yield %[[MNEW]] : f32
// CHECK-NEXT: } {llvm.loop_annotation = #loop_annotation}
// CHECK-NEXT: %[[NONE:.*]] = arith.cmpf oeq, %[[MAX]], %cst
// CHECK-NEXT: %[[SAFE:.*]] = arith.select %[[NONE]], %{{.*}}, %[[MAX]] : f32
// CHECK-NEXT: %{{.*}}:9 = scf.for %[[S2:.*]] = %c0 to %c4 step %c1 iter_args(%[[O0:[^ ]*]] = %{{[^,]*}}, {{.*}}, %[[L:[^ ]*]] = %{{[^,]*}}) -> (vector<2xf32>, {{.*}}, f32) {
// CHECK: %[[ML2:.*]] = vector.load %[[PARTIALS]][%[[TILE]], %[[S2]], %{{.*}}]
// CHECK-NEXT: %[[MS2:.*]] = vector.extract %[[ML2]][0]
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[MS2]], %[[SAFE]] : f32
// CHECK-NEXT: %[[W:.*]] = math.exp2 %[[D]] fastmath<afn> : f32
// CHECK-NEXT: %[[WV:.*]] = vector.broadcast %[[W]] : f32 to vector<2xf32>
// CHECK-NEXT: %[[OS:.*]] = vector.load %[[PARTIALS]][%[[TILE]], %[[S2]], %{{.*}}]
// CHECK-NEXT: math.fma %[[WV]], %[[OS]], %[[O0]] : vector<2xf32>
// CHECK: %[[LS:.*]] = vector.extract %[[ML2]][1]
// CHECK-NEXT: %[[LNEW:.*]] = math.fma %[[W]], %[[LS]], %[[L]] : f32
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {llvm.loop_annotation = #loop_annotation}
// CHECK: } else {
// O / l (the quad's l summed), stored at query head 4 y + row, token 0.
// CHECK: gpu.shuffle  xor %[[R]]#8, %c2_i32, %c32_i32 : f32
// CHECK: arith.divf
// CHECK: scf.if %[[ROWOK]] {
// CHECK: %[[OHEAD:.*]] = arith.addi %[[HEAD0]], %{{.*}} : index
// CHECK-NEXT: vector.store %{{.*}}, %arg3[%block_id_z, %[[OHEAD]], %c0, %{{.*}}] {alignment = 4 : i64} : memref<2x8x1x64xbf16>, vector<2xbf16>
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @decode_sm90(%q: tensor<2x8x1x64xbf16>, %k: tensor<2x2x1000x64xbf16>) -> tensor<2x8x1x64xbf16> {
    %0 = hkg.attention %q, %k, %k causal : tensor<2x8x1x64xbf16>, tensor<2x2x1000x64xbf16>, tensor<2x2x1000x64xbf16> -> tensor<2x8x1x64xbf16>
    return %0 : tensor<2x8x1x64xbf16>
  }
}

// -----

// The FMA kernel (gfx942, wave64; pinned, the default is MFMA) with split keys and unpacked heads,
// causal with 13 queries over 100 keys (bshd): 7 blocks of 16, 2 per split
// (the last split 1); a split's loops are its blocks clamped to the
// tile's causal range [0, end) and diagonal [full, end).
// CHECK-LABEL: func.func @split_gfx942(
// CHECK: gpu.launch_func  @hkg_attention_0::@hkg_attention_0 blocks in (%c4, %c4, %c1) threads in (%c64, %c1, %c1)
// CHECK: memref.global "private" @hkg_attention_0_kv_split_partials : memref<4x4x640xf32, #gpu.address_space<global>>
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: hkg.schedule = #hkg.schedule<kv_split = 4, mma = none, pack_gqa = 0, stages = 2, tile_kv = 16, tile_q = 16, waves = 1>
// CHECK: %[[SPLIT:.*]] = arith.remui %block_id_x, %c4 : index
// CHECK: %[[END:.*]] = arith.minsi %{{.*}}, %c7 : index
// CHECK: %[[FULLC:.*]] = arith.minsi %{{.*}}, %[[END]] : index
// CHECK: %[[LO:.*]] = arith.muli %[[SPLIT]], %c2 : index
// CHECK: %[[HI0:.*]] = arith.addi %[[LO]], %c2 : index
// CHECK: %[[HI:.*]] = arith.minui %[[HI0]], %c7 : index
// CHECK: %[[FULL0:.*]] = arith.maxui %[[FULLC]], %[[LO]] : index
// CHECK: %[[FULL:.*]] = arith.minui %[[FULL0]], %[[HI]] : index
// CHECK: %[[END0:.*]] = arith.maxui %[[END]], %[[FULL]] : index
// CHECK: %[[SEND:.*]] = arith.minui %[[END0]], %[[HI]] : index
// CHECK: scf.for %{{.*}} = %[[LO]] to %[[FULL]] step %c1
// CHECK: scf.for %{{.*}} = %[[FULL]] to %[[SEND]] step %c1
// CHECK: arith.cmpi sle
// Rows past 12 are neither published nor stored.
// CHECK: %[[ROWOK:.*]] = arith.cmpi ult, %{{.*}}, %c13 : index
// CHECK-NEXT: scf.if %[[ROWOK]] {
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %[[SPLIT]], %{{.*}}] {alignment = 8 : i64} : memref<4x4x640xf32, #gpu.address_space<global>>, vector<2xf32>
// CHECK: llvm.fence syncscope("agent") release
// CHECK: memref.atomic_rmw addi
// CHECK: llvm.fence syncscope("agent") acquire
// CHECK: scf.if %[[ROWOK]] -> (vector<2xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>, f32)
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK: math.exp2
// CHECK: vector.store %{{.*}}, %arg3[%block_id_z, %{{.*}}, %block_id_y, %{{.*}}] {alignment = 4 : i64} : memref<1x13x4x32xf16>, vector<2xf16>
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @split_gfx942(%q: tensor<1x13x4x32xf16>, %k: tensor<1x100x1x32xf16>) -> tensor<1x13x4x32xf16> {
    %0 = hkg.attention %q, %k, %k causal layout(bshd) {schedule = #hkg.schedule<mma = none, tile_q = 16, tile_kv = 16, waves = 1, kv_split = 4, pack_gqa = 0>} : tensor<1x13x4x32xf16>, tensor<1x100x1x32xf16>, tensor<1x100x1x32xf16> -> tensor<1x13x4x32xf16>
    return %0 : tensor<1x13x4x32xf16>
  }
}
