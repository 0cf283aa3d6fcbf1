// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 | FileCheck %s --check-prefixes=CHECK,GFX1100
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefixes=CHECK,SM90
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

// Issue 24: RoPE defaults for the smallest head (D = 2), odd half-dims and
// prime token counts, and one huge head.

// D = 2, one token, one head: gptj pairs in one 2-element vector.
// CHECK-LABEL: func.func @rope_d2(
// GFX942: #hkg.schedule<threads = 64, tokens_per_block = 1, vector_width = 2>
// GFX1100: #hkg.schedule<threads = 32, tokens_per_block = 1, vector_width = 2>
// SM90: #hkg.schedule<threads = 32, tokens_per_block = 1, vector_width = 2>
func.func @rope_d2(%x: tensor<1x1x1x2xbf16>, %c: tensor<1x1xf32>) -> tensor<1x1x1x2xbf16> {
  %0 = hkg.rope %x, %c, %c gptj offset(0) : tensor<1x1x1x2xbf16>, tensor<1x1xf32>, tensor<1x1xf32> -> tensor<1x1x1x2xbf16>
  return %0 : tensor<1x1x1x2xbf16>
}

// neox with D = 2: the halves are 1 element long, so 1-element vectors.
// CHECK-LABEL: func.func @rope_neox_d2(
// GFX942: #hkg.schedule<threads = 64, tokens_per_block = 1, vector_width = 1>
// GFX1100: #hkg.schedule<threads = 32, tokens_per_block = 1, vector_width = 1>
// SM90: #hkg.schedule<threads = 32, tokens_per_block = 1, vector_width = 1>
func.func @rope_neox_d2(%x: tensor<1x1x1x2xf32>, %c: tensor<1x1xf32>) -> tensor<1x1x1x2xf32> {
  %0 = hkg.rope %x, %c, %c neox offset(0) : tensor<1x1x1x2xf32>, tensor<1x1xf32>, tensor<1x1xf32> -> tensor<1x1x1x2xf32>
  return %0 : tensor<1x1x1x2xf32>
}

// 4099 tokens of 7 heads of D = 126 (D/2 = 63, odd): 1-element vectors.
// CHECK-LABEL: func.func @rope_odd(
// CHECK: #hkg.schedule<threads = 256, tokens_per_block = 1, vector_width = 1>
func.func @rope_odd(%x: tensor<1x4099x7x126xbf16>, %c: tensor<4099x63xf32>) -> tensor<1x4099x7x126xbf16> {
  %0 = hkg.rope %x, %c, %c neox offset(0) : tensor<1x4099x7x126xbf16>, tensor<4099x63xf32>, tensor<4099x63xf32> -> tensor<1x4099x7x126xbf16>
  return %0 : tensor<1x4099x7x126xbf16>
}

// One head of D = 4096: 16-byte vectors, 256 threads.
// CHECK-LABEL: func.func @rope_d4096(
// CHECK: #hkg.schedule<threads = 256, tokens_per_block = 1, vector_width = 8>
func.func @rope_d4096(%x: tensor<1x1x1x4096xbf16>, %c: tensor<1x2048xf32>) -> tensor<1x1x1x4096xbf16> {
  %0 = hkg.rope %x, %c, %c neox offset(0) : tensor<1x1x1x4096xbf16>, tensor<1x2048xf32>, tensor<1x2048xf32> -> tensor<1x1x1x4096xbf16>
  return %0 : tensor<1x1x1x4096xbf16>
}
