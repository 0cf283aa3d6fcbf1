// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule=chip=gfx942 --verify-diagnostics

// Constraints of AttentionOp::verifyScheduleConstraints on gfx942 (the
// f16/bf16 rule of `mma`: verify-schedule-mma-per-target.mlir, on sm_90).

func.func @lds(%q: tensor<1x8x512x128xbf16>) -> tensor<1x8x512x128xbf16> {
  // expected-error @below {{schedule needs 174080 bytes of LDS (tile_q x (D + pad) + stages x (tile_kv x (D + pad) + Dv x (tile_kv + pad)) elements); gfx942 has 65536}}
  %0 = hkg.attention %q, %q, %q causal {schedule = #hkg.schedule<tile_q = 128, tile_kv = 128, stages = 2, waves = 8>} : tensor<1x8x512x128xbf16>, tensor<1x8x512x128xbf16>, tensor<1x8x512x128xbf16> -> tensor<1x8x512x128xbf16>
  return %0 : tensor<1x8x512x128xbf16>
}

// -----

// The FMA kernel's LDS adds its f32 P tile.
func.func @lds_fma(%q: tensor<1x8x512x128xbf16>) -> tensor<1x8x512x128xbf16> {
  // expected-error @below {{schedule needs 239616 bytes of LDS (tile_q x (D + pad) + stages x tile_kv x (D + Dv + 2 pad) elements, + tile_q x tile_kv f32 for P); gfx942 has 65536}}
  %0 = hkg.attention %q, %q, %q causal {schedule = #hkg.schedule<mma = none, tile_q = 128, tile_kv = 128, stages = 2, waves = 8>} : tensor<1x8x512x128xbf16>, tensor<1x8x512x128xbf16>, tensor<1x8x512x128xbf16> -> tensor<1x8x512x128xbf16>
  return %0 : tensor<1x8x512x128xbf16>
}

// -----

func.func @rows_per_wave(%q: tensor<1x2x64x32xf16>) -> tensor<1x2x64x32xf16> {
  // expected-error @below {{schedule knob 'tile_q' = 32 must be a multiple of 16 x 'waves' = 64 (each wave owns 16-row groups)}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<tile_q = 32, waves = 4>} : tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16> -> tensor<1x2x64x32xf16>
  return %0 : tensor<1x2x64x32xf16>
}

// -----

// Tiles need not divide the sequence lengths (issue 24): the kernel guards
// a partial last query tile and key/value block
// (test/Conversion/HkgToGPU/attention-partial-tiles.mlir).
func.func @partial_tiles(%q: tensor<1x2x96x32xf16>, %kv: tensor<1x2x80x32xf16>) -> tensor<1x2x96x32xf16> {
  %0 = hkg.attention %q, %kv, %kv {schedule = #hkg.schedule<tile_q = 64, tile_kv = 32>} : tensor<1x2x96x32xf16>, tensor<1x2x80x32xf16>, tensor<1x2x80x32xf16> -> tensor<1x2x96x32xf16>
  return %0 : tensor<1x2x96x32xf16>
}

// -----

// stages = 0 leaves only P in LDS: D = 1024 bf16 fits gfx942 that way...
func.func @no_lds_staging(%q: tensor<1x2x16x1024xbf16>) -> tensor<1x2x16x1024xbf16> {
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<tile_q = 16, tile_kv = 16, waves = 1, stages = 0>} : tensor<1x2x16x1024xbf16>, tensor<1x2x16x1024xbf16>, tensor<1x2x16x1024xbf16> -> tensor<1x2x16x1024xbf16>
  return %0 : tensor<1x2x16x1024xbf16>
}

// -----

// ... and not with one stage of the smallest tiles.
func.func @d1024_one_stage(%q: tensor<1x2x16x1024xbf16>) -> tensor<1x2x16x1024xbf16> {
  // expected-error @below {{schedule needs 100096 bytes of LDS (tile_q x (D + pad) + stages x tile_kv x (D + Dv + 2 pad) elements, + tile_q x tile_kv f32 for P); gfx942 has 65536}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<tile_q = 16, tile_kv = 16, waves = 1, stages = 1>} : tensor<1x2x16x1024xbf16>, tensor<1x2x16x1024xbf16>, tensor<1x2x16x1024xbf16> -> tensor<1x2x16x1024xbf16>
  return %0 : tensor<1x2x16x1024xbf16>
}

// -----

// Head dims need not be multiples of 16 or 8 with FMAs (D = 36, Dv = 37:
// default-schedule-extremes-attention.mlir), but an odd Dv cannot be staged
// in 16-byte chunks.
func.func @head_dims(%q: tensor<1x2x64x36xf32>, %v: tensor<1x2x64x37xf32>) -> tensor<1x2x64x37xf32> {
  // expected-error @below {{schedule knob 'stages' = 1 copies rows of D and Dv elements in 16-byte chunks (multiples of 4), got D = 36 and Dv = 37; expected stages = 0}}
  %0 = hkg.attention %q, %q, %v {schedule = #hkg.schedule<stages = 1>} : tensor<1x2x64x36xf32>, tensor<1x2x64x36xf32>, tensor<1x2x64x37xf32> -> tensor<1x2x64x37xf32>
  return %0 : tensor<1x2x64x37xf32>
}

// -----

// The 16-byte copies of stages >= 1 need D a multiple of 8 f16 elements.
func.func @head_dims_staged(%q: tensor<1x2x64x12xf16>, %v: tensor<1x2x64x8xf16>) -> tensor<1x2x64x8xf16> {
  // expected-error @below {{schedule knob 'stages' = 1 copies rows of D and Dv elements in 16-byte chunks (multiples of 8), got D = 12 and Dv = 8; expected stages = 0}}
  %0 = hkg.attention %q, %q, %v {schedule = #hkg.schedule<stages = 1>} : tensor<1x2x64x12xf16>, tensor<1x2x64x12xf16>, tensor<1x2x64x8xf16> -> tensor<1x2x64x8xf16>
  return %0 : tensor<1x2x64x8xf16>
}

// -----

func.func @unknown_knob(%q: tensor<1x2x64x32xf16>) -> tensor<1x2x64x32xf16> {
  // expected-error @below {{unknown schedule knob 'tile_m' for hkg.attention; expected one of: tile_q, tile_kv, waves, mma, stages}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<tile_m = 64>} : tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16> -> tensor<1x2x64x32xf16>
  return %0 : tensor<1x2x64x32xf16>
}

// -----

// Flash-decoding (issue 28): each of the kv_split workgroups of a query
// tile walks at least one key/value block.
func.func @kv_split_blocks(%q: tensor<1x8x1x128xbf16>, %kv: tensor<1x8x200x128xbf16>) -> tensor<1x8x1x128xbf16> {
  // expected-error @below {{schedule knob 'kv_split' = 8 exceeds the 4 key/value blocks of tile_kv = 64 over Skv = 200 (each split walks at least one block)}}
  %0 = hkg.attention %q, %kv, %kv {schedule = #hkg.schedule<tile_q = 16, tile_kv = 64, waves = 1, kv_split = 8>} : tensor<1x8x1x128xbf16>, tensor<1x8x200x128xbf16>, tensor<1x8x200x128xbf16> -> tensor<1x8x1x128xbf16>
  return %0 : tensor<1x8x1x128xbf16>
}

// -----

// ... as many splits as blocks is legal, the last partial block included.
func.func @kv_split_every_block(%q: tensor<1x8x1x128xbf16>, %kv: tensor<1x8x200x128xbf16>) -> tensor<1x8x1x128xbf16> {
  %0 = hkg.attention %q, %kv, %kv causal {schedule = #hkg.schedule<tile_q = 16, tile_kv = 64, waves = 1, kv_split = 4>} : tensor<1x8x1x128xbf16>, tensor<1x8x200x128xbf16>, tensor<1x8x200x128xbf16> -> tensor<1x8x1x128xbf16>
  return %0 : tensor<1x8x1x128xbf16>
}

// -----

// The partials of prefill-sized grids would not fit the workspace bound:
// 4 x 32 x 64 query tiles x 64 splits x 64 rows x (128 + 8) x 4 bytes.
func.func @kv_split_workspace(%q: tensor<4x32x4096x128xbf16>) -> tensor<4x32x4096x128xbf16> {
  // expected-error @below {{schedule knob 'kv_split' = 64 needs 18253611008 bytes of workspace (query tiles x kv_split x tile_q x (Dv rounded up to 8 + 8) x 4); expected at most 268435456}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<tile_q = 64, tile_kv = 32, waves = 4, stages = 1, kv_split = 64>} : tensor<4x32x4096x128xbf16>, tensor<4x32x4096x128xbf16>, tensor<4x32x4096x128xbf16> -> tensor<4x32x4096x128xbf16>
  return %0 : tensor<4x32x4096x128xbf16>
}

// -----

// pack_gqa puts a group's query heads in one tile: there must be a group.
func.func @pack_gqa_without_groups(%q: tensor<1x8x1x128xbf16>, %kv: tensor<1x8x256x128xbf16>) -> tensor<1x8x1x128xbf16> {
  // expected-error @below {{schedule knob 'pack_gqa' = 1 needs grouped-query heads (Hq > Hkv), got Hq = Hkv = 8; expected pack_gqa = 0}}
  %0 = hkg.attention %q, %kv, %kv {schedule = #hkg.schedule<tile_q = 16, tile_kv = 64, waves = 1, pack_gqa = 1>} : tensor<1x8x1x128xbf16>, tensor<1x8x256x128xbf16>, tensor<1x8x256x128xbf16> -> tensor<1x8x1x128xbf16>
  return %0 : tensor<1x8x1x128xbf16>
}

// -----

// Packed heads and split keys together, causal (the decode step's queries
// end the key sequence), with a tile longer than the group's rows.
func.func @pack_gqa_kv_split(%q: tensor<2x32x4x128xbf16>, %kv: tensor<2x8x1000x128xbf16>) -> tensor<2x32x4x128xbf16> {
  %0 = hkg.attention %q, %kv, %kv causal {schedule = #hkg.schedule<tile_q = 32, tile_kv = 32, waves = 2, kv_split = 16, pack_gqa = 1>} : tensor<2x32x4x128xbf16>, tensor<2x8x1000x128xbf16>, tensor<2x8x1000x128xbf16> -> tensor<2x32x4x128xbf16>
  return %0 : tensor<2x32x4x128xbf16>
}

// -----

// kv_split's arrival flag counts in the LDS (16 bytes more than the same
// tiles without kv_split need).
func.func @kv_split_lds(%q: tensor<1x2x16x1024xf16>, %kv: tensor<1x2x512x1024xf16>) -> tensor<1x2x16x1024xf16> {
  // expected-error @below {{schedule needs 100112 bytes of LDS (tile_q x (D + pad) + stages x tile_kv x (D + Dv + 2 pad) elements, + tile_q x tile_kv f32 for P, + 16 for kv_split's flag); gfx942 has 65536}}
  %0 = hkg.attention %q, %kv, %kv {schedule = #hkg.schedule<tile_q = 16, tile_kv = 16, waves = 1, stages = 1, kv_split = 4>} : tensor<1x2x16x1024xf16>, tensor<1x2x512x1024xf16>, tensor<1x2x512x1024xf16> -> tensor<1x2x16x1024xf16>
  return %0 : tensor<1x2x16x1024xf16>
}
