// The full pipelines start by requiring a verified schedule on every hkg op.
// RUN: hkg-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(hkg-to-rocdl{chip=gfx942})'
// RUN: hkg-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(hkg-to-nvvm{chip=sm_90})'

func.func @softmax(%x: tensor<64x8192xbf16>) -> tensor<64x8192xbf16> {
  // expected-error @below {{'hkg.softmax' op has no schedule; run hkg-default-schedule or hkg-autotune first}}
  %0 = hkg.softmax %x axis(1) : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
