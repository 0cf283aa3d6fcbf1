// row_split with row_split_reduce = workspace (every target): the workgroups
// sharing a row take their row and slice by ticket (one atomic add on a
// module counter, put back to 0 by the grid's last ticket), and each row reduction's
// partials meet in a global workspace of the kernel's module: lane 0 of
// each row stores the workgroup's partial at [group][rank], thread 0 reads
// the round's generation, arrives, and either (the last of the row's
// workgroups) resets the arrival counter and bumps the generation, or
// spins on relaxed atomic loads until the generation moves; then every thread folds the row's
// partials in rank order. No cluster.
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 --canonicalize --cse | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 --canonicalize --cse | FileCheck %s --check-prefixes=CHECK,GFX942
// Both compile to code objects without scratch (gfx942) or spills (sm_90).
// RUN: hkg-compile %s --chip=gfx942 -o %t.amd && FileCheck %s --check-prefix=AMDSTATS --input-file=%t.amd/manifest.json
// RUN: hkg-compile %s --chip=sm_90 -o %t.nv && FileCheck %s --check-prefix=NVSTATS --input-file=%t.nv/manifest.json
// The ticket is one atom.add (no compare-and-swap loop), the spin a relaxed
// load:
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.nv/hkg_softmax_0.ptx
// The relaxed load's pointer is a 64-bit global address: --index-bitwidth=0
// (32-bit indices where they fit) keeps these kernels at 64 bits.
// RUN: hkg-compile %s --chip=sm_90 --index-bitwidth=0 -o %t.nv32 && FileCheck %s --check-prefix=IDX --input-file=%t.nv32/manifest.json
// IDX-COUNT-3: "index_bitwidth": 64
// IDX-NOT: "index_bitwidth": 32
// PTX-NOT: atom.global.cas
// PTX: atom.global.add.u32 {{.*}}[hkg_softmax_0_row_split_ticket], 1;
// PTX-NOT: atom.global.cas
// PTX: ld.relaxed.gpu.global.b32
// PTX-NOT: atom.global.cas

// Softmax over 16 rows of 4M bf16 (8 MiB a row: no workgroup holds it),
// pinned to the workspace split (the default is now a cluster of 8 on
// sm_90 and one wave's split elsewhere: more workgroups than one wave ran
// about 1 us each on the H100, docs/perf "Long rows"): 64 workgroups of
// 512 threads a row, each
// slice of 64K elements re-read (row_cache = none) from what the online
// (max, sum) pass left in L2; one round, (max, sum) pairs.
// CHECK-LABEL: func.func @softmax_long_rows
// CHECK: gpu.launch_func @hkg_softmax_0::@hkg_softmax_0 blocks in (%c1024, %c1, %c1) threads in (%c512, %c1, %c1)
// CHECK-LABEL: gpu.module @hkg_softmax_0
// CHECK-DAG: memref.global "private" @hkg_softmax_0_row_split_0_generations : memref<16xi32, #gpu.address_space<global>> = dense<0>
// CHECK-DAG: memref.global "private" @hkg_softmax_0_row_split_0_arrivals : memref<16xi32, #gpu.address_space<global>> = dense<0>
// CHECK-DAG: memref.global "private" @hkg_softmax_0_row_split_0_partials : memref<16x64x2x1xf32, #gpu.address_space<global>> = uninitialized
// CHECK-DAG: memref.global "private" @hkg_softmax_0_row_split_ticket : memref<1xi32, #gpu.address_space<global>> = dense<0>
// CHECK: gpu.func @hkg_softmax_0
// CHECK-SAME: row_cache = none, row_split = 64, row_split_reduce = workspace, rows_per_block = 1, threads = 512
// CHECK-NOT: known_cluster_size
// CHECK-SAME: known_grid_size = array<i32: 1024, 1, 1>
// CHECK-NOT: gpu.block_id
// The ticket: 0 .. 1023, back to 0 after the last.
// CHECK: %[[TICKETS:.*]] = memref.get_global @hkg_softmax_0_row_split_ticket
// CHECK: scf.if
// CHECK-NEXT: %[[OLD:.*]] = memref.atomic_rmw addi %c1_i32, %[[TICKETS]][%c0]
// CHECK-NEXT: %[[WRAP:.*]] = arith.cmpi eq, %[[OLD]], %c1023_i32 : i32
// CHECK-NEXT: scf.if %[[WRAP]] {
// CHECK-NEXT: memref.store %c0_i32, %[[TICKETS]][%c0]
// CHECK-NEXT: }
// CHECK-NEXT: memref.store %[[OLD]]
// CHECK-NOT: generic_atomic_rmw
// CHECK: gpu.barrier
// CHECK: %[[T:.*]] = arith.index_castui
// CHECK-NEXT: %[[RANK:.*]] = arith.remui %[[T]], %c64 : index
// CHECK-NEXT: %[[GROUP:.*]] = arith.divui %[[T]], %c64 : index
// CHECK-NEXT: arith.muli %[[RANK]], %c8192 : index
// CHECK-NOT: nvvm.cluster
// CHECK: %[[WS:.*]] = memref.get_global @hkg_softmax_0_row_split_0_partials
// CHECK-NEXT: %[[ARR:.*]] = memref.get_global @hkg_softmax_0_row_split_0_arrivals
// CHECK-NEXT: %[[GEN:.*]] = memref.get_global @hkg_softmax_0_row_split_0_generations
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[WS]][%[[GROUP]], %[[RANK]], %c0, %{{.*}}]
// CHECK-NEXT: memref.store %{{.*}}, %[[WS]][%[[GROUP]], %[[RANK]], %c1, %{{.*}}]
// SM90: llvm.fence syncscope("device") release
// GFX942: llvm.fence syncscope("agent") release
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.if
// CHECK-NEXT: %[[G0:.*]] = memref.atomic_rmw addi %c0_i32, %[[GEN]][%[[GROUP]]]
// SM90-NEXT: llvm.fence syncscope("device") acq_rel
// GFX942-NEXT: llvm.fence syncscope("agent") acq_rel
// CHECK-NEXT: %[[BEFORE:.*]] = memref.atomic_rmw addi %c1_i32, %[[ARR]][%[[GROUP]]]
// CHECK-NEXT: %[[LAST:.*]] = arith.cmpi eq, %[[BEFORE]], %c63_i32 : i32
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK-NEXT: memref.store %c0_i32, %[[ARR]][%[[GROUP]]]
// CHECK-NEXT: llvm.fence
// CHECK-NEXT: memref.atomic_rmw addi %c1_i32, %[[GEN]][%[[GROUP]]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.while
// CHECK: %[[NOW:.*]] = llvm.load %{{.*}} atomic syncscope(
// SM90-SAME: "device"
// GFX942-SAME: "agent"
// CHECK-SAME: monotonic {alignment = 4 : i64} : !llvm.ptr<1> -> i32
// CHECK-NEXT: %[[SAME:.*]] = arith.cmpi eq, %[[NOW]], %[[G0]] : i32
// CHECK-NEXT: scf.condition(%[[SAME]])
// CHECK: scf.yield
// CHECK-NEXT: }
// SM90-NEXT: llvm.fence syncscope("device") acquire
// GFX942-NEXT: llvm.fence syncscope("agent") acquire
// CHECK: gpu.barrier
// SM90-NEXT: llvm.fence syncscope("device") acquire
// GFX942-NEXT: llvm.fence syncscope("agent") acquire
// The 64 (max, sum) partials of the row, in rank order.
// CHECK-NEXT: memref.load %[[WS]][%[[GROUP]], %c0, %c0,
// CHECK-NEXT: memref.load %[[WS]][%[[GROUP]], %c0, %c1,
// CHECK-COUNT-126: memref.load %[[WS]][%[[GROUP]]
// CHECK-NOT: memref.load %[[WS]]
// CHECK: gpu.return
func.func @softmax_long_rows(%x: tensor<16x4194304xbf16>) -> tensor<16x4194304xbf16> {
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<row_split = 64, row_split_reduce = workspace, row_cache = none, threads = 512>} : tensor<16x4194304xbf16> -> tensor<16x4194304xbf16>
  return %0 : tensor<16x4194304xbf16>
}

// -----

// LayerNorm over 64 rows of 1M bf16, pinned to a workspace split of 64
// workgroups a row (the default: 16, re-read, moments merged), each keeping
// its 16K-element slice in registers (4 vectors of 8 a thread, read once);
// with moments = separate two rounds (the mean, then the squared
// deviations), each with its own partials and counters.
// CHECK-LABEL: func.func @layernorm_many_long_rows
// CHECK: gpu.launch_func @hkg_layernorm_0::@hkg_layernorm_0 blocks in (%c4096, %c1, %c1) threads in (%c512, %c1, %c1)
// CHECK-LABEL: gpu.module @hkg_layernorm_0
// CHECK-DAG: memref.global "private" @hkg_layernorm_0_row_split_0_partials : memref<64x64x1x1xf32
// CHECK-DAG: memref.global "private" @hkg_layernorm_0_row_split_1_partials : memref<64x64x1x1xf32
// CHECK: gpu.func @hkg_layernorm_0(%[[IN:[^:]*]]: memref<64x1048576xbf16>
// CHECK-SAME: row_cache = registers, row_split = 64, row_split_reduce = workspace
// CHECK-COUNT-4: vector.load %[[IN]]
// CHECK-NOT: vector.load %[[IN]]
// CHECK: memref.get_global @hkg_layernorm_0_row_split_0_partials
// CHECK: scf.while
// CHECK-COUNT-64: memref.load %{{.*}}[%{{.*}}, %c{{[0-9]+}}, %c0, %{{.*}}] : memref<64x64x1x1xf32
// CHECK: memref.get_global @hkg_layernorm_0_row_split_1_partials
// CHECK: scf.while
// CHECK-NOT: vector.load %[[IN]]
// CHECK-COUNT-4: vector.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : memref<64x1048576xbf16>
func.func @layernorm_many_long_rows(%x: tensor<64x1048576xbf16>, %w: tensor<1048576xbf16>, %b: tensor<1048576xbf16>) -> tensor<64x1048576xbf16> {
  %0 = hkg.layernorm %x weight(%w : tensor<1048576xbf16>) bias(%b : tensor<1048576xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<row_split = 64, row_split_reduce = workspace, row_cache = registers, threads = 512, moments = separate>} : tensor<64x1048576xbf16> -> tensor<64x1048576xbf16>
  return %0 : tensor<64x1048576xbf16>
}

// -----

// hkg.reduce over few long rows (argmax over 4 rows of 1M f32): each row is
// read once, so the split fills the machine: 64 workgroups a row, the
// (value, position) pairs (positions bitcast to f32 words) combined in rank
// order, rank 0 storing the row's i64 position.
// CHECK-LABEL: func.func @argmax_long_rows
// CHECK: gpu.launch_func @hkg_reduce_0::@hkg_reduce_0 blocks in (%c256, %c1, %c1) threads in (%c512, %c1, %c1)
// CHECK-LABEL: gpu.module @hkg_reduce_0
// CHECK-DAG: memref.global "private" @hkg_reduce_0_row_split_0_partials : memref<4x64x2x1xf32
// CHECK: gpu.func @hkg_reduce_0
// CHECK-SAME: row_split = 64, row_split_reduce = workspace
// CHECK: %[[T:.*]] = arith.index_castui
// CHECK-NEXT: %[[RANK:.*]] = arith.remui %[[T]], %c64 : index
// CHECK: %[[WS:.*]] = memref.get_global @hkg_reduce_0_row_split_0_partials
// CHECK: memref.store %{{.*}}, %[[WS]][%{{.*}}, %[[RANK]], %c0,
// CHECK: memref.store %{{.*}}, %[[WS]][%{{.*}}, %[[RANK]], %c1,
// CHECK: scf.while
// CHECK-COUNT-128: memref.load %[[WS]]
// CHECK: %[[RANK0:.*]] = arith.cmpi eq, %[[RANK]], %c0 : index
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xi64>
func.func @argmax_long_rows(%x: tensor<4x1048576xf32>) -> tensor<4xi64> {
  %0 = hkg.reduce argmax %x axes = [1] : tensor<4x1048576xf32> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// AMDSTATS: "name": "hkg_softmax_0"
// AMDSTATS: "scratch_bytes": 0
// AMDSTATS: "name": "hkg_layernorm_0"
// AMDSTATS: "scratch_bytes": 0
// AMDSTATS: "name": "hkg_reduce_0"
// AMDSTATS: "scratch_bytes": 0
// NVSTATS: "name": "hkg_softmax_0"
// NVSTATS: "spill_bytes": 0
// NVSTATS: "name": "hkg_layernorm_0"
// NVSTATS: "spill_bytes": 0
// NVSTATS: "name": "hkg_reduce_0"
// NVSTATS: "spill_bytes": 0
