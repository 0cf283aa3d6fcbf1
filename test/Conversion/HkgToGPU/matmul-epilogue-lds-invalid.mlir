// epilogue_lds = 1 schedules hkg-lower-to-gpu refuses, each naming the knob
// and what it needs.
// RUN: hkg-opt %s --split-input-file --verify-diagnostics --hkg-lower-to-gpu=chip=sm_90

func.func @mma_sync(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'epilogue_lds' = 1 needs mma = wgmma_* (its result fragments are what it stages), got mma = mma_16x8x16}}
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mma_16x8x16, waves_m = 2, waves_n = 2, epilogue_lds = 1>} : tensor<256x512xbf16>, tensor<512x512xbf16> -> tensor<256x512xbf16>
  return %0 : tensor<256x512xbf16>
}

// -----

// 128 x 128 over 3 stages: the f32 tile (64 KiB) exceeds B's 48 KiB.
func.func @does_not_fit(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'epilogue_lds' = 1 needs the f32 tile (tile_m x tile_n x 4 = 65536 bytes) within B's LDS buffers (stages x tile_k x tile_n x 2 = 49152 bytes)}}
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<epilogue_lds = 1>} : tensor<256x512xbf16>, tensor<512x512xbf16> -> tensor<256x512xbf16>
  return %0 : tensor<256x512xbf16>
}

// -----

func.func @persistent(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'epilogue_lds' = 1 needs split_k = 1 and persistent = 0 (the LDS must be free after the K loop)}}
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = wgmma_64x256x16, tile_n = 256, stages = 4, wgmma_pending = 1, persistent = 1, epilogue_lds = 1>} : tensor<256x512xbf16>, tensor<512x512xbf16> -> tensor<256x512xbf16>
  return %0 : tensor<256x512xbf16>
}
