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

// Issue 24: hkg.top_p_sample defaults over vocabularies of 1 to 1M logits
// and many short rows.

// One logit: one wave.
// CHECK-LABEL: func.func @top_p_1(
// GFX942: #hkg.schedule<bin_cache = 0, bins = 2048, ctas_per_row = 1, light_tokens = 0, occupancy = 0, threads = 64, unroll = 2, vector_width = 1>
// GFX1100: #hkg.schedule<bin_cache = 0, bins = 2048, ctas_per_row = 1, light_tokens = 0, occupancy = 0, threads = 32, unroll = 2, vector_width = 1>
// SM90: #hkg.schedule<bin_cache = 0, bins = 2048, ctas_per_row = 1, light_tokens = 0, occupancy = 0, threads = 32, unroll = 2, vector_width = 1>
func.func @top_p_1(%x: tensor<1x1xf32>) -> tensor<1xi32> {
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(7) : tensor<1x1xf32> -> tensor<1xi32>
  return %0 : tensor<1xi32>
}

// 4099 rows of 13 logits.
// CHECK-LABEL: func.func @top_p_prime(
// GFX942: #hkg.schedule<bin_cache = 0, bins = 2048, ctas_per_row = 1, light_tokens = 0, occupancy = 0, threads = 64, unroll = 2, vector_width = 1>
// GFX1100: #hkg.schedule<bin_cache = 0, bins = 2048, ctas_per_row = 1, light_tokens = 0, occupancy = 0, threads = 32, unroll = 2, vector_width = 1>
// SM90: #hkg.schedule<bin_cache = 0, bins = 2048, ctas_per_row = 1, light_tokens = 0, occupancy = 0, threads = 32, unroll = 2, vector_width = 1>
func.func @top_p_prime(%x: tensor<4099x13xbf16>) -> tensor<4099xi32> {
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(7) : tensor<4099x13xbf16> -> tensor<4099xi32>
  return %0 : tensor<4099xi32>
}

// One row of 1M logits: 1024 threads (sm_90: a cluster of 4 workgroups of
// 512).
// CHECK-LABEL: func.func @top_p_1m(
// GFX942: #hkg.schedule<bin_cache = 0, bins = 2048, ctas_per_row = 1, light_tokens = 0, occupancy = 0, threads = 1024, unroll = 2, vector_width = 8>
// GFX1100: #hkg.schedule<bin_cache = 0, bins = 2048, ctas_per_row = 1, light_tokens = 0, occupancy = 0, threads = 1024, unroll = 2, vector_width = 8>
// SM90: #hkg.schedule<bin_cache = 0, bins = 2048, ctas_per_row = 4, light_tokens = 0, occupancy = 0, threads = 512, unroll = 2, vector_width = 8>
func.func @top_p_1m(%x: tensor<1x1048576xbf16>) -> tensor<1xi32> {
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(7) : tensor<1x1048576xbf16> -> tensor<1xi32>
  return %0 : tensor<1xi32>
}
