// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 | FileCheck %s --check-prefixes=CHECK,GFX1100
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefixes=CHECK,SM90
// On sm_90 few rows that fit a workgroup's registers are split over a
// cluster (row_split > 1, slices of at least 32 KiB, rows x split within
// the 132 SMs), each workgroup sizing its threads for its slice; rows too
// long for a workgroup's registers are split through the workspace on
// every target (row_split_reduce = workspace, 512 threads; docs/Lowering.md
// "Rows split across workgroups").
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

// The norms' defaults over one inner axis take the column space (no
// row_cache, moments or row_steps; column_cache and axis_split instead);
// over trailing axes, the row space of the normalized dims' product.

// The channels of [4, 96, 1000] bf16: the column strip cached in registers
// (6 rows per thread over 16 thread rows), 4 threads of 8-element vectors
// across a 32-column tile so that more workgroups run.
// CHECK-LABEL: func.func @layernorm_channels(
// GFX942: #hkg.schedule<axis_split = 1, column_cache = registers, occupancy = 0, rows_per_block = 16, threads = 64, unroll = 4, vector_width = 8>
// GFX1100: #hkg.schedule<axis_split = 1, column_cache = registers, occupancy = 0, rows_per_block = 16, threads = 64, unroll = 4, vector_width = 8>
// SM90: #hkg.schedule<axis_split = 1, column_cache = registers, occupancy = 0, rows_per_block = 16, threads = 64, unroll = 4, vector_width = 8>
func.func @layernorm_channels(%x: tensor<4x96x1000xbf16>, %w: tensor<96xbf16>) -> tensor<4x96x1000xbf16> {
  %0 = hkg.layernorm %x axes = [1] weight(%w : tensor<96xbf16>) eps(1.0e-05) : tensor<4x96x1000xbf16> -> tensor<4x96x1000xbf16>
  return %0 : tensor<4x96x1000xbf16>
}

// Axis 1 of [1, 1, 1]: no kept dims after it (only 1s), so rows.
// CHECK-LABEL: func.func @rmsnorm_column_of_1(
// GFX942: #hkg.schedule<occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, row_steps = 1, rows_per_block = 64, threads = 64, unroll = 1, vector_width = 1>
// GFX1100: #hkg.schedule<occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, row_steps = 1, rows_per_block = 32, threads = 32, unroll = 1, vector_width = 1>
// SM90: #hkg.schedule<bulk_store = 0, occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = cluster, row_steps = 1, rows_per_block = 32, threads = 32, unroll = 1, vector_width = 1>
func.func @rmsnorm_column_of_1(%x: tensor<1x1x1xf32>) -> tensor<1x1x1xf32> {
  %0 = hkg.rmsnorm %x axes = [1] eps(1.0e-06) : tensor<1x1x1xf32> -> tensor<1x1x1xf32>
  return %0 : tensor<1x1x1xf32>
}

// A 1M-element column, 3 columns: scalar accesses (3 is odd), 64 thread
// rows down the axis; too long to cache even split over a cluster of 8
// (column_cache = none: the multi-pass fallback).
// CHECK-LABEL: func.func @rmsnorm_long_odd_columns(
// GFX942: #hkg.schedule<axis_split = 1, column_cache = none, occupancy = 0, rows_per_block = 64, threads = 128, unroll = 4, vector_width = 1>
// GFX1100: #hkg.schedule<axis_split = 1, column_cache = none, occupancy = 0, rows_per_block = 64, threads = 128, unroll = 4, vector_width = 1>
// SM90: #hkg.schedule<axis_split = 1, column_cache = none, occupancy = 0, rows_per_block = 64, threads = 128, unroll = 4, vector_width = 1>
func.func @rmsnorm_long_odd_columns(%x: tensor<1x1048576x3xf16>) -> tensor<1x1048576x3xf16> {
  %0 = hkg.rmsnorm %x axes = [1] eps(1.0e-06) : tensor<1x1048576x3xf16> -> tensor<1x1048576x3xf16>
  return %0 : tensor<1x1048576x3xf16>
}

// Axis 0 of [4099, 13] (both prime), the bias following it: 4099 scalar
// rows do not fit 8 rows per thread over 64 thread rows and 8 workgroups
// (column_cache = none).
// CHECK-LABEL: func.func @layernorm_leading_axis(
// GFX942: #hkg.schedule<axis_split = 1, column_cache = none, occupancy = 0, rows_per_block = 32, threads = 256, unroll = 4, vector_width = 1>
// GFX1100: #hkg.schedule<axis_split = 1, column_cache = none, occupancy = 0, rows_per_block = 32, threads = 256, unroll = 4, vector_width = 1>
// SM90: #hkg.schedule<axis_split = 1, column_cache = none, occupancy = 0, rows_per_block = 32, threads = 256, unroll = 4, vector_width = 1>
func.func @layernorm_leading_axis(%x: tensor<4099x13xf32>, %b: tensor<4099xf32>) -> tensor<4099x13xf32> {
  %0 = hkg.layernorm %x axes = [0] bias(%b : tensor<4099xf32>) eps(1.0e-05) : tensor<4099x13xf32> -> tensor<4099x13xf32>
  return %0 : tensor<4099x13xf32>
}

// The last two dims of [8, 1024, 1024]: rows of 1M elements, the row
// space through the workspace: 8 rows x 32 workgroups on gfx942's 304 CUs,
// the 32K-element slices in registers (one wave); on gfx1100 (48 CUs) and
// sm_90 (132 SMs) 8 x 32 is more than one wave, so 16 workgroups a row
// re-read their slices, with the moments merged (one pass fewer).
// CHECK-LABEL: func.func @layernorm_last_two(
// GFX942: #hkg.schedule<moments = separate, occupancy = 0, row_cache = registers, row_split = 32, row_split_reduce = workspace, row_steps = 1, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 8>
// GFX1100: #hkg.schedule<moments = merged, occupancy = 0, row_cache = none, row_split = 16, row_split_reduce = workspace, row_steps = 1, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 8>
// SM90: #hkg.schedule<bulk_store = 0, moments = merged, occupancy = 0, row_cache = none, row_split = 16, row_split_reduce = workspace, row_steps = 1, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 8>
func.func @layernorm_last_two(%x: tensor<8x1024x1024xbf16>, %w: tensor<1024x1024xbf16>) -> tensor<8x1024x1024xbf16> {
  %0 = hkg.layernorm %x axes = [1, 2] weight(%w : tensor<1024x1024xbf16>) eps(1.0e-05) : tensor<8x1024x1024xbf16> -> tensor<8x1024x1024xbf16>
  return %0 : tensor<8x1024x1024xbf16>
}

// Axis 1 of [2, 13, 1]: only a dim of 1 after it, so rows of 13.
// CHECK-LABEL: func.func @rmsnorm_axis_then_ones(
// GFX942: #hkg.schedule<occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, row_steps = 1, rows_per_block = 16, threads = 64, unroll = 4, vector_width = 1>
// GFX1100: #hkg.schedule<occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, row_steps = 1, rows_per_block = 16, threads = 64, unroll = 4, vector_width = 1>
// SM90: #hkg.schedule<bulk_store = 0, occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = cluster, row_steps = 1, rows_per_block = 16, threads = 64, unroll = 4, vector_width = 1>
func.func @rmsnorm_axis_then_ones(%x: tensor<2x13x1xf32>) -> tensor<2x13x1xf32> {
  %0 = hkg.rmsnorm %x axes = [1] eps(1.0e-06) : tensor<2x13x1xf32> -> tensor<2x13x1xf32>
  return %0 : tensor<2x13x1xf32>
}
