// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule=chip=sm_90 --verify-diagnostics

// Constraints of mma = wgmma_64x128x16 on hkg.attention
// (AttentionOp::verifyScheduleConstraints, AttentionWgmma.cpp).

// A legal schedule: one warpgroup, 64-key blocks, one stage.
func.func @legal(%q: tensor<1x2x100x64xbf16>, %kv: tensor<1x2x77x64xbf16>) -> tensor<1x2x100x64xbf16> {
  %0 = hkg.attention %q, %kv, %kv {schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_q = 64, waves = 4, tile_kv = 64, stages = 1, kv_split = 1, pack_gqa = 0>} : tensor<1x2x100x64xbf16>, tensor<1x2x77x64xbf16>, tensor<1x2x77x64xbf16> -> tensor<1x2x100x64xbf16>
  return %0 : tensor<1x2x100x64xbf16>
}

// -----

// A warpgroup owns 64 query rows.
func.func @tile_q(%q: tensor<1x2x256x128xbf16>) -> tensor<1x2x256x128xbf16> {
  // expected-error @below {{schedule knob 'mma' = wgmma_64x128x16 needs 'tile_q' a multiple of 64 (warpgroups of 64 rows) and 'waves' = tile_q / 16 (a wave per 16 rows), got tile_q = 32 and waves = 2}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_q = 32, waves = 2, tile_kv = 64, stages = 2>} : tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16> -> tensor<1x2x256x128xbf16>
  return %0 : tensor<1x2x256x128xbf16>
}

// -----

// ... with one wave per 16 of them.
func.func @waves(%q: tensor<1x2x256x128xbf16>) -> tensor<1x2x256x128xbf16> {
  // expected-error @below {{schedule knob 'mma' = wgmma_64x128x16 needs 'tile_q' a multiple of 64 (warpgroups of 64 rows) and 'waves' = tile_q / 16 (a wave per 16 rows), got tile_q = 128 and waves = 4}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_q = 128, waves = 4, tile_kv = 64, stages = 2>} : tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16> -> tensor<1x2x256x128xbf16>
  return %0 : tensor<1x2x256x128xbf16>
}

// -----

// Head dims of whole 128-byte swizzled rows: D = 96 is not (mma.sync takes
// it; its default there).
func.func @head_dim(%q: tensor<1x2x256x96xbf16>) -> tensor<1x2x256x96xbf16> {
  // expected-error @below {{schedule knob 'mma' = wgmma_64x128x16 needs D and Dv multiples of 64 (128-byte swizzled rows) and Dv <= 256 (one instruction's N), got D = 96 and Dv = 96}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_q = 128, waves = 8, tile_kv = 64, stages = 2>} : tensor<1x2x256x96xbf16>, tensor<1x2x256x96xbf16>, tensor<1x2x256x96xbf16> -> tensor<1x2x256x96xbf16>
  return %0 : tensor<1x2x256x96xbf16>
}

// -----

// Dv is one instruction's N: at most 256.
func.func @dv512(%q: tensor<1x2x256x64xbf16>, %v: tensor<1x2x256x512xbf16>) -> tensor<1x2x256x512xbf16> {
  // expected-error @below {{schedule knob 'mma' = wgmma_64x128x16 needs D and Dv multiples of 64 (128-byte swizzled rows) and Dv <= 256 (one instruction's N), got D = 64 and Dv = 512}}
  %0 = hkg.attention %q, %q, %v {schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_q = 64, waves = 4, tile_kv = 16, stages = 1>} : tensor<1x2x256x64xbf16>, tensor<1x2x256x64xbf16>, tensor<1x2x256x512xbf16> -> tensor<1x2x256x512xbf16>
  return %0 : tensor<1x2x256x512xbf16>
}

// -----

// S's tile_kv / 2 and O's Dv / 2 accumulators, P's tile_kv / 4 registers:
// Dv = 256 with 128-key blocks would spill.
func.func @registers(%q: tensor<1x2x256x256xbf16>) -> tensor<1x2x256x256xbf16> {
  // expected-error @below {{schedule knob 'mma' = wgmma_64x128x16 needs 264 registers per thread (tile_kv / 2 + Dv / 2 accumulators + tile_kv / 4 for P + 40), more than the 255 of 256 threads; expected a smaller tile_kv}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_q = 128, waves = 8, tile_kv = 128, stages = 1>} : tensor<1x2x256x256xbf16>, tensor<1x2x256x256xbf16>, tensor<1x2x256x256xbf16> -> tensor<1x2x256x256xbf16>
  return %0 : tensor<1x2x256x256xbf16>
}

// -----

// 16-bit operands only.
func.func @f32(%q: tensor<1x2x256x64xf32>) -> tensor<1x2x256x64xf32> {
  // expected-error @below {{schedule knob 'mma' = wgmma_64x128x16 needs f16 or bf16 operands, got 'f32'; expected mma = none}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_q = 64, waves = 4, tile_kv = 64, stages = 2>} : tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32> -> tensor<1x2x256x64xf32>
  return %0 : tensor<1x2x256x64xf32>
}

// -----

// The LDS (no padding): 128 x 256 + 2 x 128 x (256 + 128) elements of 2
// bytes.
func.func @lds(%q: tensor<1x2x256x256xbf16>, %v: tensor<1x2x256x128xbf16>) -> tensor<1x2x256x128xbf16> {
  // expected-error @below {{schedule needs 262144 bytes of LDS (tile_q x D + stages x tile_kv x (D + Dv), unpadded elements); sm_90 has 232448}}
  %0 = hkg.attention %q, %q, %v {schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_q = 128, waves = 8, tile_kv = 128, stages = 2>} : tensor<1x2x256x256xbf16>, tensor<1x2x256x256xbf16>, tensor<1x2x256x128xbf16> -> tensor<1x2x256x128xbf16>
  return %0 : tensor<1x2x256x128xbf16>
}

// -----

// wgmma_overlap splits a block's S into two wgmma groups: warpgroup MMA only.
func.func @overlap_mma_sync(%q: tensor<1x2x256x128xbf16>) -> tensor<1x2x256x128xbf16> {
  // expected-error @below {{schedule knob 'wgmma_overlap' = 1 needs warpgroup MMA, got mma = mma_16x8x16; expected wgmma_overlap = 0}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = mma_16x8x16, tile_q = 64, waves = 4, tile_kv = 64, stages = 2, wgmma_overlap = 1>} : tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16> -> tensor<1x2x256x128xbf16>
  return %0 : tensor<1x2x256x128xbf16>
}

// -----

// ... into halves of whole 16-key steps.
func.func @overlap_kv16(%q: tensor<1x2x256x128xbf16>) -> tensor<1x2x256x128xbf16> {
  // expected-error @below {{schedule knob 'wgmma_overlap' = 1 splits a key/value block in halves of whole 16-key steps, got tile_kv = 16; expected a multiple of 32}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_q = 128, waves = 8, tile_kv = 16, stages = 2, wgmma_overlap = 1>} : tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16> -> tensor<1x2x256x128xbf16>
  return %0 : tensor<1x2x256x128xbf16>
}

// -----

// The knob exists only where warpgroup MMA does (16-bit operands on sm_90).
func.func @overlap_f32(%q: tensor<1x2x256x64xf32>) -> tensor<1x2x256x64xf32> {
  // expected-error @below {{schedule knob 'wgmma_overlap' is not available for hkg.attention on sm_90: warpgroup MMA takes f16 / bf16 attention on sm_90}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = none, wgmma_overlap = 1>} : tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32> -> tensor<1x2x256x64xf32>
  return %0 : tensor<1x2x256x64xf32>
}

// -----

// wgmma_pipeline carries P across blocks of warpgroup MMA.
func.func @pipeline_mma_sync(%q: tensor<1x2x256x128xbf16>) -> tensor<1x2x256x128xbf16> {
  // expected-error @below {{schedule knob 'wgmma_pipeline' = 1 needs warpgroup MMA, got mma = mma_16x8x16; expected wgmma_pipeline = 0}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = mma_16x8x16, tile_q = 64, waves = 4, tile_kv = 64, stages = 2, wgmma_pipeline = 1>} : tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16> -> tensor<1x2x256x128xbf16>
  return %0 : tensor<1x2x256x128xbf16>
}

// -----

// One overlap of the softmax with the MMAs at a time.
func.func @pipeline_and_overlap(%q: tensor<1x2x256x128xbf16>) -> tensor<1x2x256x128xbf16> {
  // expected-error @below {{schedule knobs 'wgmma_pipeline' = 1 and 'wgmma_overlap' = 1 are two ways of overlapping the softmax with the MMAs; expected one of them}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_q = 128, waves = 8, tile_kv = 128, stages = 2, wgmma_overlap = 1, wgmma_pipeline = 1>} : tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16> -> tensor<1x2x256x128xbf16>
  return %0 : tensor<1x2x256x128xbf16>
}

// -----

// The pipelined loop is one workgroup's, double-buffered.
func.func @pipeline_split(%q: tensor<1x2x256x128xbf16>) -> tensor<1x2x256x128xbf16> {
  // expected-error @below {{schedule knob 'wgmma_pipeline' = 1 needs stages = 2 and kv_split = 1 (the key loop of one workgroup, double-buffered), got stages = 2 and kv_split = 2}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_q = 128, waves = 8, tile_kv = 64, stages = 2, kv_split = 2, wgmma_pipeline = 1>} : tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16> -> tensor<1x2x256x128xbf16>
  return %0 : tensor<1x2x256x128xbf16>
}

// -----

func.func @pipeline_one_stage(%q: tensor<1x2x256x128xbf16>) -> tensor<1x2x256x128xbf16> {
  // expected-error @below {{schedule knob 'wgmma_pipeline' = 1 needs stages = 2 and kv_split = 1 (the key loop of one workgroup, double-buffered), got stages = 1 and kv_split = 1}}
  %0 = hkg.attention %q, %q, %q {schedule = #hkg.schedule<mma = wgmma_64x128x16, tile_q = 128, waves = 8, tile_kv = 64, stages = 1, kv_split = 1, wgmma_pipeline = 1>} : tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16> -> tensor<1x2x256x128xbf16>
  return %0 : tensor<1x2x256x128xbf16>
}

