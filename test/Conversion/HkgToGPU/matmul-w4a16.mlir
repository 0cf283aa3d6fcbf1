// hkg.matmul_w4a16 with its default schedules. On targets with mma.sync,
// MFMA 16x16x16 or gfx12 WMMA the matrix-core kernel
// (MatmulW4A16MatrixCore.cpp): the packed weights are the instruction's A
// operand, each lane's 16-byte chunk dequantized into 16-bit pairs
// ((word >> 4i) & 0x000F000F | magic, minus magic + z, times the scale),
// the activations its B operand loaded in the same K permutation (a
// shuffle 0 4 1 5 2 6 3 7 of each 16-byte piece); the next step's chunks
// are loop-carried; K splits meet in a workspace global. From batch 64 on
// sm_90 the LDS-pipelined kernel (stages > 0). `mma = none`
// keeps the weight-streaming kernel (MatmulW4A16.cpp).
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefix=SCHED
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1201 | FileCheck %s --check-prefix=GFX1201
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 | FileCheck %s --check-prefix=GFX1100
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | FileCheck %s

// Decode batch 1: one n8 tile of activation rows (7 clamped), 32 weight
// rows a wave, 4 waves: 224 weight-row groups; K split 2 ways, where the
// grid reaches 8 waves per SM for one 8-row tile (1792 waves), 32 spans of
// 128 a slice, 2 a step.
// SCHED-LABEL: func.func @b1
// SCHED: schedule = #hkg.schedule<mma = mma_16x8x16, occupancy = 0, rows_per_wave = 32, split_k = 2, stages = 0, threads = 128, tile_m = 8, unroll = 2, waves_m = 1>
// GFX942-LABEL: func.func @b1
// GFX942: schedule = #hkg.schedule<mma = mfma_16x16x16, occupancy = 0, rows_per_wave = 32, split_k = 8, stages = 0, threads = 256, tile_m = 16, unroll = 2, waves_m = 1>
// GFX1201-LABEL: func.func @b1
// GFX1201: schedule = #hkg.schedule<mma = wmma_16x16x16, occupancy = 0, rows_per_wave = 32, split_k = 2, stages = 0, threads = 128, tile_m = 16, unroll = 2, waves_m = 1>
// gfx11's WMMA replicates its operands across the half-waves: the
// streaming kernel.
// GFX1100-LABEL: func.func @b1
// GFX1100: schedule = #hkg.schedule<mma = none, occupancy = 0, rows_per_wave = 2, split_k = 1, stages = 0, threads = 256, tile_m = 1, unroll = 2, waves_m = 1>
// CHECK-LABEL: func.func @b1
// CHECK: gpu.launch_func @hkg_matmul_w4a16_0::@hkg_matmul_w4a16_0 blocks in (%c1, %c2, %c224) threads in (%c128,
func.func @b1(%x: tensor<1x8192xbf16>, %w: tensor<28672x4096xi8>, %s: tensor<28672x64xbf16>, %z: tensor<28672x64xi8>) -> tensor<1x28672xbf16> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128) : tensor<1x8192xbf16>, tensor<28672x4096xi8>, tensor<28672x64xbf16>, tensor<28672x64xi8> -> tensor<1x28672xbf16>
  return %y : tensor<1x28672xbf16>
}

// Batch 16: two n8 tiles; 64 weight-row groups split 16 ways along K.
// SCHED-LABEL: func.func @b16
// SCHED: schedule = #hkg.schedule<mma = mma_16x8x16, occupancy = 0, rows_per_wave = 32, split_k = 16, stages = 0, threads = 128, tile_m = 16, unroll = 2, waves_m = 1>
// CHECK-LABEL: func.func @b16
// CHECK: blocks in (%c1, %c16, %c64) threads in (%c128,
func.func @b16(%x: tensor<16x28672xf16>, %w: tensor<8192x14336xi8>, %s: tensor<8192x896xf16>, %z: tensor<8192x896xi8>) -> tensor<16x8192xf16> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) : tensor<16x28672xf16>, tensor<8192x14336xi8>, tensor<8192x896xf16>, tensor<8192x896xi8> -> tensor<16x8192xf16>
  return %y : tensor<16x8192xf16>
}

// Batch 128 (64 and more): the LDS-pipelined kernel (MatmulW4A16Tiled.cpp,
// matmul-w4a16-tiled.mlir): one 128 x 128 tile of 2 x 4 waves per 128
// weight rows, 3 stages, K split 4 ways (132 SMs; the partials' bytes
// bound it: K / (8 M) = 4); 66 KiB of LDS (dynamic).
// SCHED-LABEL: func.func @b128
// SCHED: schedule = #hkg.schedule<mma = mma_16x8x16, occupancy = 0, rows_per_wave = 32, split_k = 4, stages = 3, threads = 256, tile_m = 128, unroll = 1, waves_m = 2>
// CHECK-LABEL: func.func @b128
// CHECK: blocks in (%c1, %c4, %c32) threads in (%c256, %c1_0, %c1_1)  dynamic_shared_memory_size %c67588_i32
func.func @b128(%x: tensor<128x4096xbf16>, %w: tensor<4096x2048xi8>, %s: tensor<4096x64xbf16>, %z: tensor<4096x64xi8>) -> tensor<128x4096xf32> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(64) : tensor<128x4096xbf16>, tensor<4096x2048xi8>, tensor<4096x64xbf16>, tensor<4096x64xi8> -> tensor<128x4096xf32>
  return %y : tensor<128x4096xf32>
}

// Ragged: 3 activation rows in an n8 tile, 5 weight rows of a wave's 32,
// K = 96 in one span of 128 (the lanes of k group 3 read clamped chunks
// with a zero scale): loads clamped, stores guarded.
// SCHED-LABEL: func.func @ragged
// SCHED: schedule = #hkg.schedule<mma = mma_16x8x16, occupancy = 0, rows_per_wave = 32, split_k = 1, stages = 0, threads = 128, tile_m = 8, unroll = 1, waves_m = 1>
// CHECK-LABEL: gpu.func @hkg_matmul_w4a16_3
// CHECK: arith.minui %{{.*}}, %c4
// CHECK: vector.load %{{.*}} {alignment = 16 : i64, nontemporal = true} : memref<5x48xi8>, vector<16xi8>
// CHECK: scf.for
// CHECK:   arith.cmpi ult, %{{.*}}, %c96
// CHECK:   arith.minui %{{.*}}, %c64
// CHECK:   vector.load %{{.*}} : memref<5x48xi8>, vector<16xi8>
// CHECK:   vector.load %{{.*}} : memref<3x96xbf16>, vector<8xbf16>
// CHECK:   vector.shuffle %{{.*}} [0, 4, 1, 5, 2, 6, 3, 7] : vector<8xbf16>, vector<8xbf16>
// CHECK:   arith.select %{{.*}} : bf16
// CHECK:   arith.ori %{{.*}}, %c17152_i32
// CHECK:   arith.muli %{{.*}}, %c65537_i32
// The nibble pair masked and the magic or-ed in one lop3.
// CHECK:   arith.shrui %{{.*}}, %c4_i32
// CHECK:   llvm.inline_asm "lop3.b32 $0, $1, $2, $3, 0xEA;", "=r,r,n,n" %{{.*}}, %c983055_i32{{.*}}, %c1124090624_i32{{.*}} : (i32, i32, i32) -> i32
// CHECK:   vector.bitcast %{{.*}} : vector<1xi32> to vector<2xbf16>
// CHECK:   arith.subf %{{.*}} : vector<2xbf16>
// CHECK:   arith.mulf %{{.*}} : vector<2xbf16>
// CHECK:   nvvm.mma.sync
// CHECK: scf.yield
// CHECK: arith.cmpi ult, %{{.*}}, %c5
// CHECK: arith.cmpi ult, %{{.*}}, %c3
// CHECK: memref.store %{{.*}} : memref<3x5xbf16>
func.func @ragged(%x: tensor<3x96xbf16>, %w: tensor<5x48xi8>, %s: tensor<5x3xbf16>, %z: tensor<5x3xi8>) -> tensor<3x5xbf16> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) : tensor<3x96xbf16>, tensor<5x48xi8>, tensor<5x3xbf16>, tensor<5x3xi8> -> tensor<3x5xbf16>
  return %y : tensor<3x5xbf16>
}
