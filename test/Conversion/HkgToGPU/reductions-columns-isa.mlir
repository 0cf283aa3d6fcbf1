// A reduce down columns through the upstream backends: 16-byte column
// loads, the thread rows combined by shuffles within a wave then through
// LDS after one barrier, no scratch.
// REQUIRES: rocdl-toolkit, libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %to_gfx942_isa | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %to_sm90_ptx | FileCheck %s --check-prefix=SM90

// GFX942:      gpu.binary @hkg_reduce_0
// GFX942-SAME: global_load_dwordx4
// GFX942-SAME: ds_write_b128
// GFX942-SAME: s_barrier
// GFX942-SAME: ds_read_b128
// GFX942-SAME: global_store_dwordx4
// GFX942-SAME: .private_segment_fixed_size: 0
// SM90:        gpu.binary @hkg_reduce_0
// SM90-SAME:   ld.global.v4.b32
// SM90-SAME:   st.shared.v4.b32
// SM90-SAME:   bar.sync
// SM90-SAME:   ld.shared.v4.b32
// SM90-SAME:   st.global.v4.b32
func.func @sum_middle(%x: tensor<8x512x64xbf16>) -> tensor<8x64xbf16> {
  %0 = hkg.reduce sum %x axes = [1] : tensor<8x512x64xbf16> -> tensor<8x64xbf16>
  return %0 : tensor<8x64xbf16>
}

// Softmax over axis 0, the column strip cached in registers: the thread
// rows of a workgroup share one wave, so the two combines are lane
// shuffles (no LDS, no barrier), exp on the hardware unit.
// GFX942:      gpu.binary @hkg_softmax_0
// GFX942-SAME: global_load_dwordx4
// GFX942-SAME: ds_swizzle
// GFX942-SAME: v_exp_f32
// GFX942-SAME: global_store_dwordx4
// GFX942-SAME: .private_segment_fixed_size: 0
// SM90:        gpu.binary @hkg_softmax_0
// SM90-SAME:   ld.global.v4.b32
// SM90-SAME:   shfl.sync.bfly
// SM90-SAME:   ex2.approx
// SM90-SAME:   st.global.v4.b32
func.func @softmax_axis0(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = hkg.softmax %x axis(0) : tensor<64x128xf32> -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
