// persistent = 1: as many workgroups as the chip keeps resident (132 SMs on
// sm_90 times the workgroups that fit one by LDS and threads, at most the
// tiles) walk the output tiles pid, pid + grid, ...; one cp.async pipeline
// runs over the flat steps (tile x K steps), so the copies of a tile's first
// steps are issued by the previous tile's last ones, before its epilogue.
// The K steps run as two loops so that each refill's tile is loop-invariant.
// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu=chip=sm_90 --canonicalize --cse | FileCheck %s

// 2 batches x 16 x 16 tiles of 128 x 256, 192 KiB of LDS: one workgroup
// per SM, 132 of them. Workgroup pid's tile j is pid + j x 132, its batch
// that / 256 (K = 512: 8 K steps a tile; 4 stages, one MMA group in flight:
// the copies run 2 steps ahead).
// CHECK-LABEL: func.func @wide
// CHECK: gpu.launch_func @hkg_matmul_0::@hkg_matmul_0 blocks in (%c132, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK: gpu.func @hkg_matmul_0
// CHECK: %[[PID:.*]] = gpu.block_id x
// The workgroup's tiles: (512 + 131 - pid) / 132.
// CHECK: %[[LEFT:.*]] = arith.subi %c643, %[[PID]]
// CHECK: %[[MINE:.*]] = arith.divui %[[LEFT]], %c132
// Prologue: the first tile's steps 0 and 1.
// CHECK-COUNT-12: nvgpu.device_async_copy
// CHECK: nvgpu.device_async_create_group
// CHECK-COUNT-12: nvgpu.device_async_copy
// CHECK: %[[TOKEN:.*]] = nvgpu.device_async_create_group
// CHECK: scf.for %[[J:.*]] = %c0 to %[[MINE]] step %c1 {
// CHECK:   %[[BASE:.*]] = arith.muli %[[J]], %c8
// Tile j's and tile j + 1's coordinates (tile j's again after the last).
// CHECK:   %[[OFF:.*]] = arith.muli %[[J]], %c132
// CHECK:   %[[TILE:.*]] = arith.addi %[[PID]], %[[OFF]]
// CHECK:   %[[BATCH:.*]] = arith.divui %[[TILE]], %c256
// CHECK:   %[[NEXTJ:.*]] = arith.addi %[[J]], %c1
// CHECK:   %[[HASNEXT:.*]] = arith.cmpi ult, %[[NEXTJ]], %[[MINE]]
// CHECK:   %[[NBATCH:.*]] = arith.select %[[HASNEXT]], %{{.*}}, %[[BATCH]]
// Steps 0-5 refill steps 2-7 of the same tile (its coordinates invariant).
// CHECK:   %[[EARLY:.*]] = scf.for %[[KT:.*]] = %c0 to %c6 step %c1 iter_args
// CHECK:     %[[F:.*]] = arith.addi %[[BASE]], %[[KT]]
// CHECK:     nvgpu.device_async_wait %[[TOKEN]] {numGroups = 1 : i32}
// CHECK:     gpu.barrier
// CHECK:     arith.addi %[[KT]], %c2
// CHECK:     %[[NEXT:.*]] = arith.addi %[[F]], %c2
// CHECK:     %[[STAGE:.*]] = arith.remui %[[NEXT]], %c4
// CHECK:     nvgpu.device_async_copy %arg0[%[[BATCH]], {{.*}}], %{{.*}}[%[[STAGE]],
// CHECK:     wgmma.mma_async
// CHECK:     scf.yield
// Steps 6-7 refill the next tile's steps 0-1 (the last tile: its step 7).
// CHECK:   %[[LATE:.*]] = scf.for %[[KT2:.*]] = %c6 to %c8 step %c1 iter_args(%{{.*}} = %[[EARLY]])
// CHECK:     %[[F2:.*]] = arith.addi %[[BASE]], %[[KT2]]
// CHECK:     nvgpu.device_async_wait %[[TOKEN]] {numGroups = 1 : i32}
// CHECK:     %[[K0:.*]] = arith.addi %[[KT2]], %c-6
// CHECK:     arith.select %[[HASNEXT]], %[[K0]], %c7
// CHECK:     %[[NEXT2:.*]] = arith.addi %[[F2]], %c2
// CHECK:     %[[STAGE2:.*]] = arith.remui %[[NEXT2]], %c4
// CHECK:     nvgpu.device_async_copy %arg0[%[[NBATCH]], {{.*}}], %{{.*}}[%[[STAGE2]],
// CHECK:     wgmma.mma_async
// CHECK:     scf.yield
// The epilogue of tile j, once its MMAs are done, while the next one's
// first copies are in flight.
// CHECK:   wgmma.wait_group.sync.aligned 0;
// CHECK:   vector.store {{.*}} : memref<2x2048x4096xbf16>, vector<2xbf16>
// CHECK: }
// CHECK: nvgpu.device_async_wait %[[TOKEN]] {numGroups = 0 : i32}
// CHECK-NEXT: gpu.return
func.func @wide(%a: tensor<2x2048x512xbf16>, %b: tensor<2x512x4096xbf16>) -> tensor<2x2048x4096xbf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = wgmma_64x256x16, tile_n = 256, stages = 4, wgmma_pending = 1, persistent = 1>} : tensor<2x2048x512xbf16>, tensor<2x512x4096xbf16> -> tensor<2x2048x4096xbf16>
  return %0 : tensor<2x2048x4096xbf16>
}

// -----

// 128 x 128 tiles over 3 stages (96 KiB): two workgroups per SM, 264.
// CHECK-LABEL: func.func @two_per_sm
// CHECK: gpu.launch_func @hkg_matmul_0::@hkg_matmul_0 blocks in (%c264, %c1, %c1)
func.func @two_per_sm(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<persistent = 1>} : tensor<4096x4096xbf16>, tensor<4096x4096xbf16> -> tensor<4096x4096xbf16>
  return %0 : tensor<4096x4096xbf16>
}

// -----

// Fewer tiles than resident workgroups: one workgroup a tile.
// CHECK-LABEL: func.func @few_tiles
// CHECK: gpu.launch_func @hkg_matmul_0::@hkg_matmul_0 blocks in (%c4, %c1, %c1)
func.func @few_tiles(%a: tensor<256x512xbf16>, %b: tensor<512x256xbf16>) -> tensor<256x256xbf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<persistent = 1>} : tensor<256x512xbf16>, tensor<512x256xbf16> -> tensor<256x256xbf16>
  return %0 : tensor<256x256xbf16>
}

// -----

// mma.sync 128 x 128 over 4 warps: 128 accumulators a thread (an estimated
// 168 registers, 128 threads): three workgroups a SM by registers, though
// four fit by LDS (3 x 256 x 32 x 2 bytes).
// CHECK-LABEL: func.func @registers
// CHECK: gpu.launch_func @hkg_matmul_0::@hkg_matmul_0 blocks in (%c396, %c1, %c1)
func.func @registers(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<persistent = 1, mma = mma_16x8x16, tile_k = 32, waves_m = 2, waves_n = 2>} : tensor<4096x4096xbf16>, tensor<4096x4096xbf16> -> tensor<4096x4096xbf16>
  return %0 : tensor<4096x4096xbf16>
}
