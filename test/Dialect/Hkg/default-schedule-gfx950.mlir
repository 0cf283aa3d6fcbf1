// RUN: hkg-opt %S/Inputs/all-ops.mlir --hkg-default-schedule=chip=gfx950 | FileCheck %s
// RUN: hkg-opt %S/Inputs/all-ops.mlir --hkg-default-schedule=chip=gfx950 \
// RUN:   | hkg-opt --hkg-verify-schedule="chip=gfx950 require-schedule" | FileCheck %s

// Default schedules on gfx950, CDNA4 (Instinct MI355X): wave64, 160 KiB LDS
// (attention with D = 128 keeps double buffering; attention runs its FMA
// kernel on AMD targets), MFMA.
// Every default is spelled out in full and verifies on its own chip.

// CHECK-LABEL: func.func @matmul_bf16(
// CHECK: hkg.matmul {{.*}} {schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = mfma_16x16x32, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 32, tile_m = 128, tile_n = 128, unroll = 1, vector_width = 8, waves_m = 2, waves_n = 2, wgmma_pending = 0>}
// CHECK-LABEL: func.func @matmul_f32(
// CHECK: hkg.matmul {{.*}} {schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 4, lds_swizzle = 0, mma = none, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 16, tile_m = 64, tile_n = 64, unroll = 1, vector_width = 4, waves_m = 2, waves_n = 2, wgmma_pending = 0>}
// CHECK-LABEL: func.func @matmul_decode(
// CHECK: hkg.matmul {{.*}} {schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 0, lds_swizzle = 1, mma = mfma_16x16x32, persistent = 0, split_k = 8, split_k_reduce = workspace, stages = 2, tile_k = 64, tile_m = 16, tile_n = 128, unroll = 1, vector_width = 8, waves_m = 1, waves_n = 4, wgmma_pending = 0>}
// CHECK-LABEL: func.func @elementwise(
// CHECK: hkg.elementwise {{.*}} {schedule = #hkg.schedule<threads = 256, unroll = 4, vector_width = 8>}
// CHECK-LABEL: func.func @reduce(
// CHECK: hkg.reduce {{.*}} {schedule = #hkg.schedule<occupancy = 0, row_split = 1, row_split_reduce = workspace, rows_per_block = 1, threads = 256, unroll = 4, vector_width = 4>}
// CHECK-LABEL: func.func @softmax(
// CHECK: hkg.softmax {{.*}} {schedule = #hkg.schedule<occupancy = 0, online = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, rows_per_block = 1, threads = 256, unroll = 4, vector_width = 8>}
// CHECK-LABEL: func.func @softmax_short_rows(
// CHECK: hkg.softmax {{.*}} {schedule = #hkg.schedule<occupancy = 0, online = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, rows_per_block = 16, threads = 64, unroll = 4, vector_width = 4>}
// CHECK-LABEL: func.func @layernorm(
// CHECK: hkg.layernorm {{.*}} {schedule = #hkg.schedule<moments = separate, occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, row_steps = 1, rows_per_block = 1, threads = 128, unroll = 4, vector_width = 8>}
// CHECK-LABEL: func.func @rmsnorm(
// CHECK: hkg.rmsnorm {{.*}} {schedule = #hkg.schedule<occupancy = 0, row_cache = registers, row_split = 4, row_split_reduce = workspace, row_steps = 1, rows_per_block = 1, threads = 512, unroll = 4, vector_width = 4>}
// CHECK-LABEL: func.func @rope(
// CHECK: hkg.rope {{.*}} {schedule = #hkg.schedule<threads = 256, tokens_per_block = 1, vector_width = 8>}
// CHECK-LABEL: func.func @top_p(
// CHECK: hkg.top_p_sample {{.*}} {schedule = #hkg.schedule<bin_cache = 0, bins = 2048, ctas_per_row = 1, light_tokens = 0, occupancy = 0, threads = 1024, unroll = 2, vector_width = 4>}
// CHECK-LABEL: func.func @attention_bf16(
// CHECK: hkg.attention {{.*}} {schedule = #hkg.schedule<kv_split = 1, mma = mfma_16x16x16, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 64, waves = 4>}
// CHECK-LABEL: func.func @attention_f32(
// CHECK: hkg.attention {{.*}} {schedule = #hkg.schedule<kv_split = 1, mma = none, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 64, waves = 4>}
// CHECK-LABEL: func.func @softmax_tiny_rows(
// CHECK: hkg.softmax {{.*}} {schedule = #hkg.schedule<occupancy = 0, online = 0, row_cache = registers, row_split = 1, row_split_reduce = workspace, rows_per_block = 64, threads = 64, unroll = 2, vector_width = 4>}
// CHECK-LABEL: func.func @rope_small_head(
// CHECK: hkg.rope {{.*}} {schedule = #hkg.schedule<threads = 64, tokens_per_block = 1, vector_width = 8>}
// CHECK-LABEL: func.func @top_p_small_vocab(
// CHECK: hkg.top_p_sample {{.*}} {schedule = #hkg.schedule<bin_cache = 0, bins = 2048, ctas_per_row = 1, light_tokens = 0, occupancy = 0, threads = 64, unroll = 2, vector_width = 4>}
// CHECK-LABEL: func.func @matmul_decode_f32(
// CHECK: hkg.matmul {{.*}} {schedule = #hkg.schedule<epilogue_lds = 0, group_m = 8, lds_pad = 4, lds_swizzle = 0, mma = none, persistent = 0, split_k = 1, split_k_reduce = workspace, stages = 2, tile_k = 32, tile_m = 16, tile_n = 64, unroll = 1, vector_width = 4, waves_m = 1, waves_n = 4, wgmma_pending = 0>}
// CHECK-LABEL: func.func @attention_d128(
// CHECK: hkg.attention {{.*}} {schedule = #hkg.schedule<kv_split = 1, mma = mfma_16x16x16, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 64, waves = 4>}
