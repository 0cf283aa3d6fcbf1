// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu | FileCheck %s

// bulk_store = 1 (sm_90): the output pass writes the row group into an LDS
// buffer [rows_per_block, len] of the output type; then every thread fences
// its LDS stores against the async proxy, the workgroup meets at a barrier,
// and thread 0 copies the group's rows (contiguous in the output) with one
// cp.async.bulk and waits until the copy has read the buffer. The kernel is
// marked hkg.ptx80 (hkg-nvvm-arch-specific-target raises the PTX version).

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_layernorm_0(
// CHECK-SAME:    %[[OUT:arg3]]: memref<64x8192xbf16>)
// CHECK-SAME:    %[[LDS:arg6]] : memref<1x8192xbf16, #gpu.address_space<workgroup>> {llvm.align = 128 : i64})
// CHECK-SAME:    hkg.ptx80
// the group's first row: block id x rows_per_block
// CHECK:         %[[FIRST:.*]] = arith.muli %block_id_x, %c1{{.*}} : index
// CHECK-NOT:     vector.store {{.*}} %[[OUT]]
// CHECK-COUNT-4: vector.store %{{.*}}, %[[LDS]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<1x8192xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK-NOT:     vector.store
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:    gpu.barrier
// CHECK:         %[[T0:.*]] = arith.cmpi eq, %thread_id_x, %c0{{.*}} : index
// CHECK-NEXT:    scf.if %[[T0]] {
// one row of 16384 bytes
// CHECK:           %[[BYTES:.*]] = arith.muli %c1{{.*}}, %c16384{{.*}} : index
// CHECK:           %[[SIZE:.*]] = arith.index_cast %[[BYTES]] : index to i32
// CHECK:           %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK:           %[[OFF:.*]] = arith.muli %[[FIRST]], %c16384{{.*}} : index
// CHECK:           %[[ADDR:.*]] = arith.addi %[[BASE]], %[[OFF]] : index
// CHECK:           %[[A64:.*]] = arith.index_cast %[[ADDR]] : index to i64
// CHECK:           %[[GEN:.*]] = llvm.inttoptr %[[A64]] : i64 to !llvm.ptr
// CHECK:           %[[DST:.*]] = llvm.addrspacecast %[[GEN]] : !llvm.ptr to !llvm.ptr<1>
// CHECK:           memref.extract_aligned_pointer_as_index %[[LDS]]
// CHECK:           %[[SRC:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK:           nvvm.cp.async.bulk.global.shared.cta %[[DST]], %[[SRC]], %[[SIZE]] : <1>, <3>
// CHECK-NEXT:      nvvm.cp.async.bulk.commit.group
// CHECK-NEXT:      nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.return
func.func @ln(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<threads = 256, rows_per_block = 1, vector_width = 8, unroll = 4, row_cache = registers, bulk_store = 1>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

// 10 rows in groups of 4: the last group copies min(4, 10 - first) rows of
// 2048 bytes (bf16 output of an f32 input: the buffer has the output type).
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0(
// CHECK-SAME:    workgroup({{.*}}%[[LDS:arg4]] : memref<4x1024xbf16, #gpu.address_space<workgroup>>
// CHECK-SAME:    known_grid_size = array<i32: 3, 1, 1>
// CHECK:         %[[FIRST:.*]] = arith.muli %block_id_x, %c4{{.*}} : index
// CHECK:         vector.store %{{.*}}, %[[LDS]]
// CHECK:         nvvm.fence.proxy
// CHECK:         scf.if
// CHECK:           %[[LEFT:.*]] = arith.subi %c10{{.*}}, %[[FIRST]] : index
// CHECK:           %[[COUNT:.*]] = arith.minui %c4{{.*}}, %[[LEFT]] : index
// CHECK:           %[[BYTES:.*]] = arith.muli %[[COUNT]], %c2048{{.*}} : index
// CHECK:           %[[SIZE:.*]] = arith.index_cast %[[BYTES]] : index to i32
// CHECK:           nvvm.cp.async.bulk.global.shared.cta %{{.*}}, %{{.*}}, %[[SIZE]] : <1>, <3>
func.func @rms(%x: tensor<10x1024xf32>, %w: tensor<1024xf32>) -> tensor<10x1024xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<1024xf32>) eps(1.0e-06) {schedule = #hkg.schedule<threads = 256, rows_per_block = 4, vector_width = 4, unroll = 4, row_cache = none, bulk_store = 1>} : tensor<10x1024xf32> -> tensor<10x1024xbf16>
  return %0 : tensor<10x1024xbf16>
}
}

// -----

// With row_steps the buffer is written again by the next row group: a
// barrier after thread 0's wait keeps the other threads from writing it
// before the copy has read it.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_layernorm_0(
// CHECK:         scf.for
// CHECK:           nvvm.fence.proxy
// CHECK-NEXT:      gpu.barrier
// CHECK:           scf.if
// CHECK:             nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      scf.yield
func.func @steps(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<threads = 256, rows_per_block = 1, vector_width = 8, unroll = 4, row_cache = registers, row_steps = 2, bulk_store = 1>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

// softmax: the output pass (pass 2) goes through the buffer too.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_softmax_0(
// CHECK-SAME:    hkg.ptx80
// CHECK:         math.exp
// CHECK:         vector.store %{{.*}}, %arg{{[0-9]+}}[%{{.*}}, %{{.*}}] {{.*}} : memref<1x4096xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK:         nvvm.cp.async.bulk.global.shared.cta
func.func @sm(%x: tensor<32x4096xf32>) -> tensor<32x4096xf32> {
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<threads = 256, rows_per_block = 1, vector_width = 4, unroll = 4, row_cache = registers, online = 0, bulk_store = 1>} : tensor<32x4096xf32> -> tensor<32x4096xf32>
  return %0 : tensor<32x4096xf32>
}
}
