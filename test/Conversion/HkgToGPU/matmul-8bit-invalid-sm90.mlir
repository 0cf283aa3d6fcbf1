// 8-bit matmul schedules hkg-lower-to-gpu refuses on sm_90.
// RUN: hkg-opt %s --split-input-file --verify-diagnostics --hkg-lower-to-gpu=chip=sm_90

// sm_90's fp8 is OCP (e4m3, e5m2), not gfx942's FNUZ formats.
func.func @fnuz_fp8(%a: tensor<128x128xf8E5M2FNUZ>, %b: tensor<128x128xf8E5M2FNUZ>) -> tensor<128x128xbf16> {
  // expected-error @below {{'hkg.matmul' op 'f8E5M2FNUZ' operands are FNUZ fp8, which sm_90 does not multiply; its fp8 is OCP (f8E4M3FN, f8E5M2): expected operands of those types}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = none>} : tensor<128x128xf8E5M2FNUZ>, tensor<128x128xf8E5M2FNUZ> -> tensor<128x128xbf16>
  return %c : tensor<128x128xbf16>
}

// -----

// fp8 / s8 wgmma is not built yet: 8-bit operands take FMAs on NVIDIA.
func.func @fp8_wgmma(%a: tensor<128x128xf8E4M3FN>, %b: tensor<128x128xf8E4M3FN>) -> tensor<128x128xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'mma' = wgmma_64x128x16 is not legal for hkg.matmul on sm_90; expected one of: none}}
  %c = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<mma = wgmma_64x128x16>} : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN> -> tensor<128x128xbf16>
  return %c : tensor<128x128xbf16>
}
