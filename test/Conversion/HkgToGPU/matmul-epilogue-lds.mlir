// epilogue_lds = 1: after the K loop the f32 results go to B's LDS buffers
// (one flat array; 8-float chunk c of tile row r at chunk c ^ (r % 8)), then
// each thread reads 8 row-contiguous values at a time and stores them through
// the epilogue with 16-byte loads of its operands and 16-byte stores.
// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu=chip=sm_90 --canonicalize --cse | FileCheck %s

// 128 x 256 tile over 4 stages: B's buffers (4 x 256 x 64 bf16, 128 KiB)
// hold the 128 x 256 f32 tile exactly.
// CHECK-LABEL: gpu.func @hkg_matmul_0
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [65536], strides: [1] : memref<4x256x64xbf16, #gpu.address_space<workgroup>> to memref<65536xbf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: gpu.barrier
// Each thread's 64 fragment pairs, as 4 x bf16 bit patterns.
// CHECK-COUNT-64: vector.store %{{.*}}, %[[FLAT]][%{{.*}}] {alignment = 8 : i64} : memref<65536xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// CHECK: gpu.barrier
// 16 chunks of 8 values a thread (4096 chunks, 256 threads).
// CHECK: arith.xori
// CHECK: %[[RAW:.*]] = vector.load %[[FLAT]][%{{.*}}] {alignment = 16 : i64} : memref<65536xbf16, #gpu.address_space<workgroup>>, vector<16xbf16>
// CHECK: vector.bitcast %[[RAW]] : vector<16xbf16> to vector<8xf32>
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<1x1x512xbf16>, vector<8xbf16>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<1x256x512xbf16>, vector<8xbf16>
// CHECK-COUNT-15: vector.store %{{.*}} {alignment = 16 : i64} : memref<1x256x512xbf16>, vector<8xbf16>
// CHECK-NOT: vector.store
// CHECK: gpu.return
func.func @bias(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>, %bias: tensor<512xbf16>) -> tensor<256x512xbf16> {
  %0 = hkg.matmul %a, %b epilogue(%bias : tensor<512xbf16>) {schedule = #hkg.schedule<mma = wgmma_64x256x16, tile_n = 256, stages = 4, wgmma_pending = 1, epilogue_lds = 1>} : tensor<256x512xbf16>, tensor<512x512xbf16> -> tensor<256x512xbf16> {
  ^bb0(%acc: f32, %bb: bf16):
    %x = arith.extf %bb : bf16 to f32
    %s = arith.addf %acc, %x : f32
    %r = arith.truncf %s : f32 to bf16
    hkg.yield %r : bf16
  }
  return %0 : tensor<256x512xbf16>
}
