// RUN: hkg-opt %S/Inputs/all-ops.mlir --hkg-default-schedule=chip=sm_90 | FileCheck %s
// RUN: hkg-opt %S/Inputs/all-ops.mlir --hkg-default-schedule=chip=sm_90 \
// RUN:   | hkg-opt --hkg-verify-schedule="chip=sm_90 require-schedule" | FileCheck %s

// Default schedules on sm_90, NVIDIA Hopper (H100/H200): warp 32, warpgroup
// MMA (wgmma_64x128x16, two warpgroups) for 16-bit GEMMs with A as [M, K],
// mma.sync (mma_16x8x16) for decode shapes, no LDS padding, 227 KiB shared
// memory.
// Every default is spelled out in full and verifies on its own chip.

// CHECK-LABEL: func.func @matmul_bf16(
// CHECK: hkg.matmul {{.*}} {schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = wgmma_64x128x16, persistent = 0, split_k = 1, split_k_reduce = cluster, stages = 3, tile_k = 64, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 8, waves_m = 2, waves_n = 1, wgmma_pending = 0>}
// CHECK-LABEL: func.func @matmul_f32(
// CHECK: hkg.matmul {{.*}} {schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = wgmma_64x128x8_tf32x3, persistent = 0, split_k = 1, split_k_reduce = cluster, stages = 4, tf32_split = trunc, tile_k = 32, tile_m = 128, tile_n = 128, unroll = 2, vector_width = 4, waves_m = 2, waves_n = 1, wgmma_pending = 1, wgmma_promote = 1>}
// CHECK-LABEL: func.func @matmul_decode(
// CHECK: hkg.matmul {{.*}} {schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = mma_16x8x16, persistent = 0, split_k = 8, split_k_reduce = workspace, stages = 4, tile_k = 64, tile_m = 16, tile_n = 128, unroll = 1, vector_width = 8, waves_m = 1, waves_n = 4, wgmma_pending = 0>}
// CHECK-LABEL: func.func @elementwise(
// CHECK: hkg.elementwise {{.*}} {schedule = #hkg.schedule<threads = 256, unroll = 4, vector_width = 8>}
// CHECK-LABEL: func.func @reduce(
// CHECK: hkg.reduce {{.*}} {schedule = #hkg.schedule<occupancy = 0, row_split = 1, row_split_reduce = cluster, rows_per_block = 1, threads = 256, unroll = 4, vector_width = 4>}
// CHECK-LABEL: func.func @softmax(
// CHECK: hkg.softmax {{.*}} {schedule = #hkg.schedule<bulk_store = 0, occupancy = 0, online = 0, row_cache = registers, row_split = 1, row_split_reduce = cluster, rows_per_block = 1, threads = 256, unroll = 4, vector_width = 8>}
// CHECK-LABEL: func.func @softmax_short_rows(
// CHECK: hkg.softmax {{.*}} {schedule = #hkg.schedule<bulk_store = 0, occupancy = 0, online = 0, row_cache = registers, row_split = 1, row_split_reduce = cluster, rows_per_block = 16, threads = 64, unroll = 4, vector_width = 4>}
// CHECK-LABEL: func.func @layernorm(
// CHECK: hkg.layernorm {{.*}} {schedule = #hkg.schedule<bulk_store = 0, moments = separate, occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = cluster, row_steps = 1, rows_per_block = 1, threads = 128, unroll = 4, vector_width = 8>}
// CHECK-LABEL: func.func @rmsnorm(
// CHECK: hkg.rmsnorm {{.*}} {schedule = #hkg.schedule<bulk_store = 0, occupancy = 0, row_cache = registers, row_split = 4, row_split_reduce = workspace, row_steps = 1, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 4>}
// CHECK-LABEL: func.func @rope(
// CHECK: hkg.rope {{.*}} {schedule = #hkg.schedule<threads = 256, tokens_per_block = 1, vector_width = 8>}
// CHECK-LABEL: func.func @top_p(
// CHECK: hkg.top_p_sample {{.*}} {schedule = #hkg.schedule<bin_cache = 0, bins = 2048, ctas_per_row = 2, light_tokens = 0, occupancy = 0, threads = 1024, unroll = 2, vector_width = 4>}
// CHECK-LABEL: func.func @attention_bf16(
// CHECK: hkg.attention {{.*}} {schedule = #hkg.schedule<kv_split = 1, mma = wgmma_64x128x16, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 64, waves = 4, wgmma_overlap = 0, wgmma_pipeline = 0>}
// CHECK-LABEL: func.func @attention_f32(
// CHECK: hkg.attention {{.*}} {schedule = #hkg.schedule<kv_split = 1, mma = none, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 64, waves = 4>}
// CHECK-LABEL: func.func @softmax_tiny_rows(
// CHECK: hkg.softmax {{.*}} {schedule = #hkg.schedule<bulk_store = 0, occupancy = 0, online = 0, row_cache = registers, row_split = 1, row_split_reduce = cluster, rows_per_block = 32, threads = 32, unroll = 2, vector_width = 4>}
// CHECK-LABEL: func.func @rope_small_head(
// CHECK: hkg.rope {{.*}} {schedule = #hkg.schedule<threads = 32, tokens_per_block = 1, vector_width = 8>}
// CHECK-LABEL: func.func @top_p_small_vocab(
// CHECK: hkg.top_p_sample {{.*}} {schedule = #hkg.schedule<bin_cache = 0, bins = 2048, ctas_per_row = 4, light_tokens = 0, occupancy = 0, threads = 32, unroll = 2, vector_width = 4>}
// CHECK-LABEL: func.func @matmul_decode_f32(
// CHECK: hkg.matmul {{.*}} {schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 4, lds_swizzle = 0, mma = none, persistent = 0, split_k = 1, split_k_reduce = cluster, stages = 2, tf32_split = rna, tile_k = 32, tile_m = 16, tile_n = 64, unroll = 1, vector_width = 4, waves_m = 1, waves_n = 4, wgmma_pending = 0, wgmma_promote = 0>}
// CHECK-LABEL: func.func @attention_d128(
// CHECK: hkg.attention {{.*}} {schedule = #hkg.schedule<kv_split = 1, mma = wgmma_64x128x16, pack_gqa = 0, stages = 2, tile_kv = 128, tile_q = 128, waves = 8, wgmma_overlap = 0, wgmma_pipeline = 1>}
