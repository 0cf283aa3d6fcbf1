// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 | FileCheck %s --check-prefixes=CHECK,GFX1100
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefixes=CHECK,SM90
// On sm_90 few long rows are split over a cluster (row_split > 1: rows x
// split within the 132 SMs, slices of at least 32 KiB), each workgroup
// sizing its threads for its slice; rows too long for a workgroup's
// registers otherwise are split through the workspace on every target
// (row_split_reduce = workspace, 512 threads, up to 64 workgroups a row).
// Every default passes its own verification on every target:
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx90a --hkg-verify-schedule="chip=gfx90a require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-verify-schedule="chip=gfx942 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx950 --hkg-verify-schedule="chip=gfx950 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 --hkg-verify-schedule="chip=gfx1100 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1151 --hkg-verify-schedule="chip=gfx1151 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1201 --hkg-verify-schedule="chip=gfx1201 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1250 --hkg-verify-schedule="chip=gfx1250 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_80 --hkg-verify-schedule="chip=sm_80 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-verify-schedule="chip=sm_90 require-schedule" -o /dev/null

// Issue 24: the row ops' defaults (softmax, layernorm, rmsnorm, reduce) over
// rows of 1 element to 1M elements, odd (prime) lengths and row counts, and
// batch 1 with a huge hidden dim. Vectors narrow to what divides the row;
// short rows share a workgroup; long rows take 1024 threads, and rows
// longer than their registers hold are split over workgroups.

// One row of one element: a wave of threads, one row each (rows_per_block
// = the wave size), the row cached in registers.
// CHECK-LABEL: func.func @softmax_1x1(
// GFX942: #hkg.schedule<occupancy = 0, online = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, rows_per_block = 64, threads = 64, unroll = 1, vector_width = 1>
// GFX1100: #hkg.schedule<occupancy = 0, online = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, rows_per_block = 32, threads = 32, unroll = 1, vector_width = 1>
// SM90: #hkg.schedule<bulk_store = 0, occupancy = 0, online = 0, row_cache = registers, row_split = 1, row_split_reduce = cluster, rows_per_block = 32, threads = 32, unroll = 1, vector_width = 1>
func.func @softmax_1x1(%x: tensor<1x1xbf16>) -> tensor<1x1xbf16> {
  %0 = hkg.softmax %x axis(1) : tensor<1x1xbf16> -> tensor<1x1xbf16>
  return %0 : tensor<1x1xbf16>
}

// 4099 (prime) rows of one element: the same, the last group guarded.
// CHECK-LABEL: func.func @softmax_4099x1(
// GFX942: #hkg.schedule<occupancy = 0, online = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, rows_per_block = 64, threads = 64, unroll = 1, vector_width = 1>
// GFX1100: #hkg.schedule<occupancy = 0, online = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, rows_per_block = 32, threads = 32, unroll = 1, vector_width = 1>
// SM90: #hkg.schedule<bulk_store = 0, occupancy = 0, online = 0, row_cache = registers, row_split = 1, row_split_reduce = cluster, rows_per_block = 32, threads = 32, unroll = 1, vector_width = 1>
func.func @softmax_4099x1(%x: tensor<4099x1xf32>) -> tensor<4099x1xf32> {
  %0 = hkg.softmax %x axis(1) : tensor<4099x1xf32> -> tensor<4099x1xf32>
  return %0 : tensor<4099x1xf32>
}

// A 1M-element row: 32 workgroups of 512 threads through the workspace
// on every target (one wave; 32K-element slices in registers, a max pass
// then a sum pass), as the H100 measured fastest (4 x 1M: 15.6 us against
// 24.8 in clusters of 8 re-reading their slices); 16-byte vectors.
// CHECK-LABEL: func.func @softmax_1m(
// GFX942: #hkg.schedule<occupancy = 0, online = 0, row_cache = registers, row_split = 32, row_split_reduce = workspace, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 8>
// GFX1100: #hkg.schedule<occupancy = 0, online = 0, row_cache = registers, row_split = 32, row_split_reduce = workspace, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 8>
// SM90: #hkg.schedule<bulk_store = 0, occupancy = 0, online = 0, row_cache = registers, row_split = 32, row_split_reduce = workspace, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 8>
func.func @softmax_1m(%x: tensor<1x1048576xbf16>) -> tensor<1x1048576xbf16> {
  %0 = hkg.softmax %x axis(1) : tensor<1x1048576xbf16> -> tensor<1x1048576xbf16>
  return %0 : tensor<1x1048576xbf16>
}

// An odd 1M-element f32 row: 1-element accesses; 2 rows x 64 workgroups
// in registers where that is one wave (gfx942, sm_90), else 16 a row
// re-reading their slices (gfx1100's 48 CUs).
// CHECK-LABEL: func.func @softmax_1m_odd(
// GFX942: #hkg.schedule<occupancy = 0, online = 0, row_cache = registers, row_split = 64, row_split_reduce = workspace, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 1>
// GFX1100: #hkg.schedule<occupancy = 0, online = 1, row_cache = none, row_split = 16, row_split_reduce = workspace, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 1>
// SM90: #hkg.schedule<bulk_store = 0, occupancy = 0, online = 0, row_cache = registers, row_split = 64, row_split_reduce = workspace, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 1>
func.func @softmax_1m_odd(%x: tensor<2x1048579xf32>) -> tensor<2x1048579xf32> {
  %0 = hkg.softmax %x axis(1) : tensor<2x1048579xf32> -> tensor<2x1048579xf32>
  return %0 : tensor<2x1048579xf32>
}

// 7 rows of 4099 (primes).
// CHECK-LABEL: func.func @layernorm_7x4099(
// GFX942: #hkg.schedule<moments = separate, occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, row_steps = 1, rows_per_block = 1, threads = 1024, unroll = 4, vector_width = 1>
// GFX1100: #hkg.schedule<moments = separate, occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, row_steps = 1, rows_per_block = 1, threads = 1024, unroll = 4, vector_width = 1>
// SM90: #hkg.schedule<bulk_store = 0, moments = separate, occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = cluster, row_steps = 1, rows_per_block = 1, threads = 1024, unroll = 4, vector_width = 1>
func.func @layernorm_7x4099(%x: tensor<7x4099xbf16>, %w: tensor<4099xbf16>) -> tensor<7x4099xbf16> {
  %0 = hkg.layernorm %x weight(%w : tensor<4099xbf16>) bias(%w : tensor<4099xbf16>) eps(1.0e-05) : tensor<7x4099xbf16> -> tensor<7x4099xbf16>
  return %0 : tensor<7x4099xbf16>
}

// A 1M-element layernorm row: too long for one workgroup's registers,
// split over 32 workgroups whose slices fit theirs.
// CHECK-LABEL: func.func @layernorm_1m(
// GFX942: #hkg.schedule<moments = separate, occupancy = 0, row_cache = registers, row_split = 32, row_split_reduce = workspace, row_steps = 1, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 4>
// GFX1100: #hkg.schedule<moments = separate, occupancy = 0, row_cache = registers, row_split = 32, row_split_reduce = workspace, row_steps = 1, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 4>
// SM90: #hkg.schedule<bulk_store = 0, moments = separate, occupancy = 0, row_cache = registers, row_split = 32, row_split_reduce = workspace, row_steps = 1, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 4>
func.func @layernorm_1m(%x: tensor<1x1048576xf32>, %w: tensor<1048576xf32>) -> tensor<1x1048576xf32> {
  %0 = hkg.layernorm %x weight(%w : tensor<1048576xf32>) bias(%w : tensor<1048576xf32>) eps(1.0e-05) : tensor<1x1048576xf32> -> tensor<1x1048576xf32>
  return %0 : tensor<1x1048576xf32>
}

// Batch 1, hidden 65536: one workgroup of 1024 threads, the row in
// registers (bf16 packed).
// CHECK-LABEL: func.func @rmsnorm_1x65536(
// GFX942: #hkg.schedule<occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, row_steps = 1, rows_per_block = 1, threads = 1024, unroll = 4, vector_width = 8>
// GFX1100: #hkg.schedule<occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, row_steps = 1, rows_per_block = 1, threads = 1024, unroll = 4, vector_width = 8>
// SM90: #hkg.schedule<bulk_store = 0, occupancy = 0, row_cache = registers, row_split = 4, row_split_reduce = cluster, row_steps = 1, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 8>
func.func @rmsnorm_1x65536(%x: tensor<1x65536xbf16>, %w: tensor<65536xbf16>) -> tensor<1x65536xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<65536xbf16>) eps(1.0e-06) : tensor<1x65536xbf16> -> tensor<1x65536xbf16>
  return %0 : tensor<1x65536xbf16>
}

// One element.
// CHECK-LABEL: func.func @rmsnorm_1x1(
// GFX942: #hkg.schedule<occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, row_steps = 1, rows_per_block = 64, threads = 64, unroll = 1, vector_width = 1>
// GFX1100: #hkg.schedule<occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, row_steps = 1, rows_per_block = 32, threads = 32, unroll = 1, vector_width = 1>
// SM90: #hkg.schedule<bulk_store = 0, occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = cluster, row_steps = 1, rows_per_block = 32, threads = 32, unroll = 1, vector_width = 1>
func.func @rmsnorm_1x1(%x: tensor<1x1xf32>, %w: tensor<1xf32>) -> tensor<1x1xf32> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<1xf32>) eps(1.0e-06) : tensor<1x1xf32> -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// CHECK-LABEL: func.func @reduce_1x1(
// GFX942: #hkg.schedule<occupancy = 0, row_split = 1, row_split_reduce = workspace, rows_per_block = 64, threads = 64, unroll = 1, vector_width = 1>
// GFX1100: #hkg.schedule<occupancy = 0, row_split = 1, row_split_reduce = workspace, rows_per_block = 32, threads = 32, unroll = 1, vector_width = 1>
// SM90: #hkg.schedule<occupancy = 0, row_split = 1, row_split_reduce = cluster, rows_per_block = 32, threads = 32, unroll = 1, vector_width = 1>
func.func @reduce_1x1(%x: tensor<1x1xf32>) -> tensor<1xf32> {
  %0 = hkg.reduce sum %x axes = [1] : tensor<1x1xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// CHECK-LABEL: func.func @reduce_1m(
// GFX942: #hkg.schedule<occupancy = 0, row_split = 64, row_split_reduce = workspace, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 4>
// GFX1100: #hkg.schedule<occupancy = 0, row_split = 64, row_split_reduce = workspace, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 4>
// SM90: #hkg.schedule<occupancy = 0, row_split = 64, row_split_reduce = workspace, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 4>
func.func @reduce_1m(%x: tensor<1x1048576xf32>) -> tensor<1xf32> {
  %0 = hkg.reduce sum %x axes = [1] : tensor<1x1048576xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// A 13 x 127 block reduced whole (two trailing dims, one output).
// CHECK-LABEL: func.func @reduce_all_13x127(
// CHECK: #hkg.schedule<occupancy = 0, row_split = 1, row_split_reduce = {{cluster|workspace}}, rows_per_block = 1, threads = 256, unroll = 4, vector_width = 1>
func.func @reduce_all_13x127(%x: tensor<13x127xbf16>) -> tensor<bf16> {
  %0 = hkg.reduce max %x axes = [0, 1] : tensor<13x127xbf16> -> tensor<bf16>
  return %0 : tensor<bf16>
}
