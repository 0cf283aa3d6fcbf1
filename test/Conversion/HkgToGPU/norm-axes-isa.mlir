// The norms' new forms through the upstream backends: over one inner axis
// (down columns, the strip cached in registers: 16-byte column loads, the
// thread rows combined by lane shuffles, rsqrt on the hardware unit, the
// weight a scalar load per row) and over two trailing axes (rows of their
// product, 16-byte weight loads), for gfx942, gfx1100, gfx1201 and sm_90.
// No scratch on gfx942.
// REQUIRES: rocdl-toolkit, libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %to_gfx942_isa | FileCheck %s --check-prefixes=AMD,GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 --hkg-lower-to-gpu=chip=gfx1100 | hkg-opt %to_gfx1100_isa | FileCheck %s --check-prefix=AMD
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1201 --hkg-lower-to-gpu=chip=gfx1201 | hkg-opt %to_gfx1201_isa | FileCheck %s --check-prefix=AMD
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %to_sm90_ptx | FileCheck %s --check-prefix=SM90

// AMD:         gpu.binary @hkg_layernorm_0
// GFX942-SAME: global_load_dwordx4
// GFX942-SAME: ds_swizzle
// AMD-SAME:    v_rsq_f32
// GFX942-SAME: global_load_ushort
// GFX942-SAME: global_store_dwordx4
// GFX942-SAME: .private_segment_fixed_size: 0
// SM90:        gpu.binary @hkg_layernorm_0
// SM90-SAME:   ld.global.v4.b32
// SM90-SAME:   shfl.sync.bfly
// SM90-SAME:   rsqrt.approx
// SM90-SAME:   ld.global.b16
// SM90-SAME:   st.global.v4.b32
func.func @layernorm_channels(%x: tensor<4x96x1000xbf16>, %w: tensor<96xbf16>, %b: tensor<96xbf16>) -> tensor<4x96x1000xbf16> {
  %y = hkg.layernorm %x axes = [1] weight(%w : tensor<96xbf16>) bias(%b : tensor<96xbf16>) eps(1.0e-05) : tensor<4x96x1000xbf16> -> tensor<4x96x1000xbf16>
  return %y : tensor<4x96x1000xbf16>
}

// AMD:         gpu.binary @hkg_rmsnorm_0
// AMD-SAME:    v_rsq_f32
// AMD-SAME:    .private_segment_fixed_size: 0
// SM90:        gpu.binary @hkg_rmsnorm_0
// SM90-SAME:   rsqrt.approx
// SM90-SAME:   ld.global.v4.b32
// SM90-SAME:   st.global.v4.b32
func.func @rmsnorm_last_two(%x: tensor<16x32x256xf16>, %w: tensor<32x256xf16>) -> tensor<16x32x256xf16> {
  %y = hkg.rmsnorm %x axes = [1, 2] weight(%w : tensor<32x256xf16>) eps(1.0e-06) : tensor<16x32x256xf16> -> tensor<16x32x256xf16>
  return %y : tensor<16x32x256xf16>
}
