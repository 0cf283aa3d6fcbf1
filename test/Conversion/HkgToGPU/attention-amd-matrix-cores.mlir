// hkg.attention on AMD matrix cores (Attention.cpp): the products run
// transposed, S^T = K Q^T and O^T = V^T P^T, so that each lane's
// accumulators hold one query row (lane % 16) and several keys; V is copied
// into LDS transposed ([stage][Dv][tile_kv + pad]), S^T's accumulators are
// P^T's B fragments (on gfx11 after an exchange between half-waves), a
// row's max and sum combine lanes l ^ 16 (, l ^ 32 on wave64). The ISA of
// the same kernels: attention-isa.mlir.
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu --canonicalize --cse | FileCheck %s

// gfx942 (wave64, MFMA 16x16x16 bf16), D = 128, grouped-query causal: one
// stage (87 KiB double-buffered exceed the 64 KiB), Q fragments (4 bf16 a
// lane, 8 steps of 16 along D) held across the key loop.
// CHECK-LABEL: func.func @mfma_gqa(
// CHECK: gpu.launch_func  @hkg_attention_0::@hkg_attention_0 blocks in (%c2, %c4, %c1) threads in (%c256, %c1, %c1)
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: workgroup(%[[LQ:.*]] : memref<64x136xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[LK:.*]] : memref<1x64x136xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[LV:.*]] : memref<1x128x72xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: hkg.schedule = #hkg.schedule<kv_split = 1, mma = mfma_16x16x16, pack_gqa = 0, stages = 1, tile_kv = 64, tile_q = 64, waves = 4>
// CHECK-COUNT-8: vector.load %[[LQ]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<64x136xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// CHECK: scf.for
// K rows as they are, V element by element into its transposed block.
// CHECK: vector.store %{{.*}}, %[[LK]][%c0, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<1x64x136xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK: %[[V:.*]] = vector.load %arg2{{.*}} : memref<1x2x256x128xbf16>, vector<8xbf16>
// CHECK: %[[V0:.*]] = vector.extract %[[V]][0] : bf16 from vector<8xbf16>
// CHECK: memref.store %[[V0]], %[[LV]][%c0, %[[COL:.*]], %[[ROW:.*]]] : memref<1x128x72xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[V1:.*]] = vector.extract %[[V]][1] : bf16 from vector<8xbf16>
// CHECK: %[[COL1:.*]] = arith.addi %[[COL]], %c1 : index
// CHECK: memref.store %[[V1]], %[[LV]][%c0, %[[COL1]], %[[ROW]]]
// CHECK: gpu.barrier
// S^T: K fragments (A) times the held Q fragments (B).
// CHECK: %[[KF:.*]] = vector.load %[[LK]]{{.*}} {alignment = 8 : i64} : memref<1x64x136xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// CHECK: amdgpu.mfma 16x16x16 %[[KF]] * %{{.*}} + %{{.*}} blgp =  none : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
// A query row's max over lanes l ^ 16 and l ^ 32.
// CHECK: gpu.shuffle  xor %{{.*}}, %c16_i32, %c64_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c32_i32, %c64_i32 : f32
// CHECK: math.exp2 %{{.*}} fastmath<afn> : f32
// P^T's B fragment straight from S^T's accumulators; V^T's A fragments.
// CHECK: %[[P:.*]] = arith.truncf %{{.*}} : vector<4xf32> to vector<4xbf16>
// CHECK: %[[VF:.*]] = vector.load %[[LV]]{{.*}} {alignment = 8 : i64} : memref<1x128x72xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// CHECK: amdgpu.mfma 16x16x16 %[[VF]] * %[[P]] + %{{.*}} blgp =  none : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
// CHECK: scf.yield
// The diagonal blocks mask.
// CHECK: scf.for
// CHECK: arith.cmpi sle
// CHECK: scf.yield
// The row sums over the same lanes; runs of 4 columns of Dv stored.
// CHECK: gpu.shuffle  xor %{{.*}}, %c16_i32, %c64_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c32_i32, %c64_i32 : f32
// CHECK: arith.divf
// CHECK: vector.store %{{.*}}, %arg3[{{.*}}] {alignment = 8 : i64} : memref<1x4x128x128xbf16>, vector<4xbf16>
// CHECK-NOT: nvgpu.
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @mfma_gqa(%q: tensor<1x4x128x128xbf16>, %k: tensor<1x2x256x128xbf16>, %v: tensor<1x2x256x128xbf16>) -> tensor<1x4x128x128xbf16> {
    %0 = hkg.attention %q, %k, %v causal : tensor<1x4x128x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16> -> tensor<1x4x128x128xbf16>
    return %0 : tensor<1x4x128x128xbf16>
  }
}

// -----

// gfx1100 (wave32): WMMA's operands hold all 16 K values in each half-wave
// and its accumulators key 2 e + l / 16 of element e, so P^T's B fragment
// takes the 8 values of lane l ^ 16 too; O^T's elements are every other
// column of Dv: stored one by one.
// CHECK-LABEL: func.func @wmma_gfx11(
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: mma = wmma_16x16x16
// CHECK: vector.load %{{.*}} {alignment = 32 : i64} : memref<64x72xbf16, #gpu.address_space<workgroup>>, vector<16xbf16>
// CHECK: scf.for
// CHECK: amdgpu.wmma 16x16x16 %{{.*}} * %{{.*}} + %{{.*}} : vector<16xbf16>, vector<16xbf16>, vector<8xf32>
// CHECK: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: math.exp2
// CHECK-COUNT-8: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: %[[PT:.*]] = vector.from_elements {{.*}} : vector<16xf32>
// CHECK: %[[P:.*]] = arith.truncf %[[PT]] : vector<16xf32> to vector<16xbf16>
// CHECK: amdgpu.wmma 16x16x16 %{{.*}} * %[[P]] + %{{.*}} : vector<16xbf16>, vector<16xbf16>, vector<8xf32>
// CHECK: scf.yield
// CHECK: memref.store %{{.*}}, %arg3[{{.*}}] : memref<1x2x64x64xbf16>
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "gfx1100">} {
  func.func @wmma_gfx11(%q: tensor<1x2x64x64xbf16>, %k: tensor<1x2x128x64xbf16>) -> tensor<1x2x64x64xbf16> {
    %0 = hkg.attention %q, %k, %k : tensor<1x2x64x64xbf16>, tensor<1x2x128x64xbf16>, tensor<1x2x128x64xbf16> -> tensor<1x2x64x64xbf16>
    return %0 : tensor<1x2x64x64xbf16>
  }
}

// -----

// gfx1201: 8 K values a lane (8 (l / 16) + i), accumulators rows
// 8 (l / 16) + e: P^T's B fragment is S^T's accumulators, and O^T's 8
// elements are 8 consecutive columns of Dv (16-byte stores).
// CHECK-LABEL: func.func @wmma_gfx12(
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: mma = wmma_16x16x16
// CHECK: scf.for
// CHECK: amdgpu.wmma 16x16x16 %{{.*}} * %{{.*}} + %{{.*}} : vector<8xbf16>, vector<8xbf16>, vector<8xf32>
// CHECK: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK-NOT: gpu.shuffle
// CHECK: %[[P:.*]] = arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK: amdgpu.wmma 16x16x16 %{{.*}} * %[[P]] + %{{.*}} : vector<8xbf16>, vector<8xbf16>, vector<8xf32>
// CHECK: scf.yield
// CHECK: vector.store %{{.*}}, %arg3[{{.*}}] {alignment = 16 : i64} : memref<1x2x64x64xbf16>, vector<8xbf16>
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "gfx1201">} {
  func.func @wmma_gfx12(%q: tensor<1x2x64x64xbf16>, %k: tensor<1x2x128x64xbf16>) -> tensor<1x2x64x64xbf16> {
    %0 = hkg.attention %q, %k, %k : tensor<1x2x64x64xbf16>, tensor<1x2x128x64xbf16>, tensor<1x2x128x64xbf16> -> tensor<1x2x64x64xbf16>
    return %0 : tensor<1x2x64x64xbf16>
  }
}

// -----

// f16 with partial tiles on gfx942: 96 queries in tiles of 64 (two row
// groups a wave: Q fragments read per block), 100 keys in blocks of 32; the
// transposed V copy repeats key 99 past the end, the masked loop hides keys
// >= 100, and rows past 96 are not stored.
// CHECK-LABEL: func.func @mfma_partial(
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: hkg.schedule = #hkg.schedule<kv_split = 1, mma = mfma_16x16x16, pack_gqa = 0, stages = 2, tile_kv = 32, tile_q = 64, waves = 2>
// CHECK: scf.for
// CHECK: arith.minui %{{.*}}, %c99 : index
// CHECK: memref.store %{{.*}} : memref<2x32x40xf16, #gpu.address_space<workgroup>>
// CHECK: amdgpu.mfma 16x16x16 %{{.*}} * %{{.*}} + %{{.*}} blgp =  none : vector<4xf16>, vector<4xf16>, vector<4xf32>
// CHECK: arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
// CHECK: scf.yield
// CHECK: scf.for
// CHECK: arith.cmpi ult, %{{.*}}, %c100 : index
// CHECK: scf.yield
// CHECK: arith.cmpi ult, %{{.*}}, %c96 : index
// CHECK: scf.if
// CHECK: vector.store %{{.*}}, %arg3[{{.*}}] {alignment = 8 : i64} : memref<1x2x96x32xf16>, vector<4xf16>
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @mfma_partial(%q: tensor<1x2x96x32xf16>, %kv: tensor<1x2x100x32xf16>) -> tensor<1x2x96x32xf16> {
    %0 = hkg.attention %q, %kv, %kv causal {schedule = #hkg.schedule<tile_q = 64, tile_kv = 32>} : tensor<1x2x96x32xf16>, tensor<1x2x100x32xf16>, tensor<1x2x100x32xf16> -> tensor<1x2x96x32xf16>
    return %0 : tensor<1x2x96x32xf16>
  }
}

// -----

// A decode step on MFMA with kv_split: each lane publishes its O runs (4
// floats of one row) and its (m, l) pair; the workspace holds per query tile
// and split 16 rows x (64 + 8) floats, [run][thread] so that a wave's
// stores are contiguous.
// CHECK-LABEL: func.func @mfma_decode(
// CHECK: gpu.func @hkg_attention_0(
// CHECK-SAME: hkg.schedule = #hkg.schedule<kv_split = 4, mma = mfma_16x16x16, pack_gqa = 1
// CHECK: amdgpu.mfma
// CHECK: %[[WS:.*]] = memref.get_global @hkg_attention_0_kv_split_partials : memref<4x4x1152xf32, #gpu.address_space<global>>
// CHECK: scf.if
// CHECK-COUNT-4: vector.store %{{.*}}, %[[WS]][{{.*}}] {alignment = 16 : i64} : memref<4x4x1152xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: vector.store %{{.*}}, %[[WS]][{{.*}}] {alignment = 8 : i64} : memref<4x4x1152xf32, #gpu.address_space<global>>, vector<2xf32>
// CHECK: scf.if %{{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, f32)
// CHECK: vector.load %[[WS]][{{.*}}] {alignment = 16 : i64} : memref<4x4x1152xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: vector.store %{{.*}}, %arg3[{{.*}}] {alignment = 8 : i64} : memref<2x8x1x64xbf16>, vector<4xbf16>
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @mfma_decode(%q: tensor<2x8x1x64xbf16>, %k: tensor<2x2x1000x64xbf16>) -> tensor<2x8x1x64xbf16> {
    %0 = hkg.attention %q, %k, %k causal : tensor<2x8x1x64xbf16>, tensor<2x2x1000x64xbf16>, tensor<2x2x1000x64xbf16> -> tensor<2x8x1x64xbf16>
    return %0 : tensor<2x8x1x64xbf16>
  }
}
