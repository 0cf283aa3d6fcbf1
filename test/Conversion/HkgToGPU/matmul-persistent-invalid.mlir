// persistent = 1 schedules hkg-lower-to-gpu refuses, each naming the knob
// and what it needs; on AMD the knob has no other value than 0.
// RUN: hkg-opt %s --split-input-file --verify-diagnostics --hkg-lower-to-gpu=chip=sm_90
// RUN: not hkg-opt %s --split-input-file --hkg-lower-to-gpu=chip=gfx942 2>&1 | FileCheck %s --check-prefix=AMD

// AMD: :18:8: error: 'hkg.matmul' op schedule knob 'persistent' = 1 is not legal for hkg.matmul on gfx942; expected one of: 0

func.func @split_k(%a: tensor<512x4096xbf16>, %b: tensor<4096x512xbf16>) -> tensor<512x512xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'persistent' = 1 needs split_k = 1 (one workgroup per output tile), got split_k = 2}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<persistent = 1, mma = mma_16x8x16, tile_k = 32, waves_m = 2, waves_n = 2, split_k = 2>} : tensor<512x4096xbf16>, tensor<4096x512xbf16> -> tensor<512x512xbf16>
  return %c : tensor<512x512xbf16>
}

// -----

func.func @dynamic_m(%a: tensor<?x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<?x512xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'persistent' = 1 needs a static M (the workgroups are as many as the chip keeps resident, up to the tiles); M is dynamic}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<persistent = 1>} : tensor<?x512xbf16>, tensor<512x512xbf16> -> tensor<?x512xbf16>
  return %c : tensor<?x512xbf16>
}

// -----

// Rows of 127 elements: 2-byte chunks, below cp.async's 4 bytes, so the
// tiles go through registers and there is no pipeline to carry on.
func.func @register_path(%a: tensor<128x127xbf16>, %b: tensor<127x128xbf16>) -> tensor<128x128xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'persistent' = 1 needs the cp.async pipeline (NVIDIA, vector_width x element bytes >= 4); expected persistent = 0}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<persistent = 1, mma = mma_16x8x16, vector_width = 1, lds_swizzle = 0>} : tensor<128x127xbf16>, tensor<127x128xbf16> -> tensor<128x128xbf16>
  return %c : tensor<128x128xbf16>
}

// -----

// K = 128: two K steps of 64, fewer than the 4 stages.
func.func @few_k_steps(%a: tensor<512x128xbf16>, %b: tensor<128x512xbf16>) -> tensor<512x512xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'persistent' = 1 needs stages >= 2 and at least `stages` K steps (ceil(K / tile_k) = 2, stages = 4)}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<persistent = 1, mma = wgmma_64x256x16, tile_n = 256, stages = 4, wgmma_pending = 1>} : tensor<512x128xbf16>, tensor<128x512xbf16> -> tensor<512x512xbf16>
  return %c : tensor<512x512xbf16>
}
