// The exponentials of a sum against its max (softmax, log_softmax,
// logsumexp, cross-entropy, along rows and down columns) are the fast form
// (expBelowMax in GPUBuildingBlocks.h: the argument is at most 0): sm_90
// ex2.approx of x log2(e), gfx942 v_exp_f32 after one multiply, with
// none of the precise expf's range reduction (libdevice's fma.rm and shift
// of the exponent on sm_90; v_rndne_f32, v_cvt_i32_f32 and v_ldexp_f32 per
// exponential on gfx942). Default schedules; no scratch.
// REQUIRES: rocdl-toolkit, libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %to_gfx942_isa | FileCheck %s --check-prefix=GFX942 --implicit-check-not=v_rndne_f32 --implicit-check-not=v_cvt_i32_f32 --implicit-check-not=scratch_
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %to_sm90_ptx | FileCheck %s --check-prefix=SM90 --implicit-check-not=fma.rm.f32 --implicit-check-not=.local

// GFX942:      gpu.binary @hkg_reduce_0
// GFX942-SAME: v_exp_f32
// GFX942-SAME: v_log_f32
// SM90:        gpu.binary @hkg_reduce_0
// SM90-SAME:   ex2.approx
func.func @logsumexp_rows(%x: tensor<64x4096xbf16>) -> tensor<64xf32> {
  %0 = hkg.reduce logsumexp %x axes = [1] : tensor<64x4096xbf16> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// GFX942:      gpu.binary @hkg_softmax_0
// GFX942-SAME: v_exp_f32
// SM90:        gpu.binary @hkg_softmax_0
// SM90-SAME:   ex2.approx
func.func @softmax_rows(%x: tensor<64x4096xbf16>) -> tensor<64x4096xbf16> {
  %0 = hkg.softmax %x axis(1) : tensor<64x4096xbf16> -> tensor<64x4096xbf16>
  return %0 : tensor<64x4096xbf16>
}

// The two-pass softmax (a max pass, then the sum), f32 out.
// GFX942:      gpu.binary @hkg_softmax_1
// GFX942-SAME: v_exp_f32
// SM90:        gpu.binary @hkg_softmax_1
// SM90-SAME:   ex2.approx
func.func @softmax_two_pass(%x: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<threads = 256, rows_per_block = 1, unroll = 2, vector_width = 4, row_cache = "registers", online = 0, row_split = 1>} : tensor<64x4096xf32> -> tensor<64x4096xf32>
  return %0 : tensor<64x4096xf32>
}

// log_softmax down the middle axis (the column emitter).
// GFX942:      gpu.binary @hkg_softmax_2
// GFX942-SAME: v_exp_f32
// GFX942-SAME: v_log_f32
// SM90:        gpu.binary @hkg_softmax_2
// SM90-SAME:   ex2.approx
func.func @log_softmax_mid(%x: tensor<8x512x256xbf16>) -> tensor<8x512x256xbf16> {
  %0 = hkg.softmax log %x axis(1) : tensor<8x512x256xbf16> -> tensor<8x512x256xbf16>
  return %0 : tensor<8x512x256xbf16>
}
