// 8-bit matmul schedules hkg-lower-to-gpu refuses on gfx942.
// RUN: hkg-opt %s --split-input-file --verify-diagnostics --hkg-lower-to-gpu=chip=gfx942

// gfx942's matrix cores take the FNUZ fp8 formats, not the OCP ones.
func.func @ocp_fp8(%a: tensor<128x128xf8E4M3FN>, %b: tensor<128x128xf8E4M3FN>) -> tensor<128x128xf32> {
  // expected-error @below {{'hkg.matmul' op 'f8E4M3FN' operands are OCP fp8, which gfx942 does not multiply; its fp8 is FNUZ (f8E4M3FNUZ, f8E5M2FNUZ): expected operands of those types}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = none>} : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>
  return %c : tensor<128x128xf32>
}

// -----

// The 16-bit instruction shapes are not 8-bit ones.
func.func @fp8_shape(%a: tensor<128x128xf8E4M3FNUZ>, %b: tensor<128x128xf8E4M3FNUZ>) -> tensor<128x128xf32> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'mma' = mfma_16x16x16 is not legal for hkg.matmul on gfx942; expected one of: none, mfma_16x16x32}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<mma = mfma_16x16x16>} : tensor<128x128xf8E4M3FNUZ>, tensor<128x128xf8E4M3FNUZ> -> tensor<128x128xf32>
  return %c : tensor<128x128xf32>
}

// -----

// i32 partial sums have no split-K reduction.
func.func @i8_split_k(%a: tensor<16x4096xi8>, %b: tensor<4096x4096xi8>) -> tensor<16x4096xi32> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'split_k' = 4 is not implemented for i8 operands (split-K adds f32 partial sums, i8 products accumulate in i32); expected split_k = 1}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<split_k = 4>} : tensor<16x4096xi8>, tensor<4096x4096xi8> -> tensor<16x4096xi32>
  return %c : tensor<16x4096xi32>
}
