// persistent = 1: as many workgroups as the chip keeps resident (132 SMs on
// sm_90 times the workgroups that fit one by LDS and threads, at most the
// tiles) walk the output tiles pid, pid + grid, ...; one cp.async pipeline
// runs over the flat steps (tile x K steps), so the copies of a tile's first
// steps are issued by the previous tile's last ones, before its epilogue.
// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu=chip=sm_90 --canonicalize --cse | FileCheck %s

// 2 batches x 16 x 16 tiles of 128 x 256, 192 KiB of LDS: one workgroup
// per SM, 132 of them. The tile of a flat step is pid + (step / 2) x 132
// (K = 128: two K steps a tile), its batch that / 256.
// CHECK-LABEL: func.func @wide
// CHECK: gpu.launch_func @hkg_matmul_0::@hkg_matmul_0 blocks in (%c132, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK: gpu.func @hkg_matmul_0
// CHECK: %[[PID:.*]] = gpu.block_id x
// The workgroup's tiles: (512 + 131 - pid) / 132.
// CHECK: %[[LEFT:.*]] = arith.subi %c643, %[[PID]]
// CHECK: %[[MINE:.*]] = arith.divui %[[LEFT]], %c132
// Prologue: 2 stages ahead (4 stages, one MMA group in flight).
// CHECK-COUNT-12: nvgpu.device_async_copy
// CHECK: nvgpu.device_async_create_group
// CHECK-COUNT-12: nvgpu.device_async_copy
// CHECK: %[[TOKEN:.*]] = nvgpu.device_async_create_group
// CHECK: scf.for %[[T:.*]] = %c0 to %[[MINE]] step %c1 {
// CHECK:   %[[BASE:.*]] = arith.muli %[[T]], %c2
// CHECK:   scf.for %[[KT:.*]] = %c0 to %c2 step %c1 iter_args
// CHECK:     %[[F:.*]] = arith.addi %[[BASE]], %[[KT]]
// CHECK:     nvgpu.device_async_wait %[[TOKEN]] {numGroups = 1 : i32}
// CHECK:     gpu.barrier
// The refill: flat step f + 2 (clamped to the last), possibly the next tile.
// CHECK:     %[[NEXT:.*]] = arith.addi %[[F]], %c2
// CHECK:     %[[CLAMPED:.*]] = arith.minui %[[NEXT]]
// CHECK:     %[[J:.*]] = arith.divui %[[CLAMPED]], %c2
// CHECK:     %[[OFF:.*]] = arith.muli %[[J]], %c132
// CHECK:     arith.addi %[[PID]], %[[OFF]]
// CHECK:     nvgpu.device_async_copy
// CHECK:     wgmma.mma_async
// CHECK:     scf.yield
// The epilogue of tile t, inside the tile loop, after every MMA is done.
// CHECK:   wgmma.wait_group.sync.aligned 0;
// CHECK:   vector.store {{.*}} : memref<2x2048x4096xbf16>, vector<2xbf16>
// CHECK: }
// CHECK: nvgpu.device_async_wait %[[TOKEN]] {numGroups = 0 : i32}
// CHECK-NEXT: gpu.return
func.func @wide(%a: tensor<2x2048x128xbf16>, %b: tensor<2x128x4096xbf16>) -> tensor<2x2048x4096xbf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = wgmma_64x256x16, tile_n = 256, stages = 4, wgmma_pending = 1, persistent = 1>} : tensor<2x2048x128xbf16>, tensor<2x128x4096xbf16> -> tensor<2x2048x4096xbf16>
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
