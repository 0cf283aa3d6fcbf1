// hkg.matmul_w4a16 with its default schedules: the weight-streaming kernel
// (MatmulW4A16.cpp). A wave owns rows_per_wave weight rows, a grid row a
// tile of tile_m activation rows; each lane loads 16-byte chunks of packed
// weights, dequantizes each 32-bit word with integer ops ((0x4B000000 | q)
// - (2^23 + z), times the scale) and multiply-adds f32; a shuffle butterfly
// sums the lanes.
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefix=SCHED
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | FileCheck %s

// Decode batch 1: 2 rows a wave, 8 waves a workgroup: 28672 / 16 = 1792
// workgroups; 2 chunks of each row in flight per lane.
// SCHED-LABEL: func.func @b1
// SCHED: schedule = #hkg.schedule<rows_per_wave = 2, threads = 256, tile_m = 1, unroll = 2>
// CHECK-LABEL: func.func @b1
// CHECK: gpu.launch_func @hkg_matmul_w4a16_0::@hkg_matmul_w4a16_0 blocks in (%c1792, %c1, %c1{{.*}}) threads in (%c256,
func.func @b1(%x: tensor<1x8192xbf16>, %w: tensor<28672x4096xi8>, %s: tensor<28672x64xbf16>, %z: tensor<28672x64xi8>) -> tensor<1x28672xbf16> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128) : tensor<1x8192xbf16>, tensor<28672x4096xi8>, tensor<28672x64xbf16>, tensor<28672x64xi8> -> tensor<1x28672xbf16>
  return %y : tensor<1x28672xbf16>
}

// Batch 16: one tile of 16 rows, one weight row a wave (registers).
// SCHED-LABEL: func.func @b16
// SCHED: schedule = #hkg.schedule<rows_per_wave = 1, threads = 256, tile_m = 16, unroll = 2>
// CHECK-LABEL: func.func @b16
// CHECK: blocks in (%c1024, %c1, %c1{{.*}}) threads in (%c256,
func.func @b16(%x: tensor<16x28672xf16>, %w: tensor<8192x14336xi8>, %s: tensor<8192x896xf16>, %z: tensor<8192x896xi8>) -> tensor<16x8192xf16> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) : tensor<16x28672xf16>, tensor<8192x14336xi8>, tensor<8192x896xf16>, tensor<8192x896xi8> -> tensor<16x8192xf16>
  return %y : tensor<16x8192xf16>
}

// Batch 128: eight grid rows of 16.
// SCHED-LABEL: func.func @b128
// SCHED: schedule = #hkg.schedule<rows_per_wave = 1, threads = 256, tile_m = 16, unroll = 2>
// CHECK-LABEL: func.func @b128
// CHECK: blocks in (%c512, %c8, %c1{{.*}}) threads in (%c256,
func.func @b128(%x: tensor<128x4096xbf16>, %w: tensor<4096x2048xi8>, %s: tensor<4096x64xbf16>, %z: tensor<4096x64xi8>) -> tensor<128x4096xf32> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(64) : tensor<128x4096xbf16>, tensor<4096x2048xi8>, tensor<4096x64xbf16>, tensor<4096x64xi8> -> tensor<128x4096xf32>
  return %y : tensor<128x4096xf32>
}

// Ragged: 3 activation rows in a tile of 4, 5 weight rows, 3 chunks a row
// (a partial step): loads clamped, stores guarded.
// SCHED-LABEL: func.func @ragged
// SCHED: schedule = #hkg.schedule<rows_per_wave = 2, threads = 256, tile_m = 4, unroll = 1>
// CHECK-LABEL: gpu.func @hkg_matmul_w4a16_3
// CHECK: scf.for
// CHECK:   arith.cmpi ult, %{{.*}}, %c3
// CHECK:   arith.minui %{{.*}}, %c2
// CHECK:   vector.load %{{.*}} : memref<5x48xi8>, vector<16xi8>
// CHECK:   vector.bitcast %{{.*}} : vector<16xi8> to vector<4xi32>
// CHECK:   arith.select
// CHECK:   arith.ori %{{.*}}, %c1258291200_i32
// CHECK:   arith.shrui
// CHECK:   arith.andi
// CHECK:   arith.ori
// CHECK:   arith.bitcast %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK:   arith.subf
// CHECK:   arith.mulf
// CHECK:   vector.load %{{.*}} : memref<3x96xbf16>, vector<8xbf16>
// CHECK:   vector.fma
// CHECK: gpu.shuffle  xor
// CHECK: memref.store %{{.*}} : memref<3x5xbf16>
func.func @ragged(%x: tensor<3x96xbf16>, %w: tensor<5x48xi8>, %s: tensor<5x3xbf16>, %z: tensor<5x3xi8>) -> tensor<3x5xbf16> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) : tensor<3x96xbf16>, tensor<5x48xi8>, tensor<5x3xbf16>, tensor<5x3xi8> -> tensor<3x5xbf16>
  return %y : tensor<3x5xbf16>
}
