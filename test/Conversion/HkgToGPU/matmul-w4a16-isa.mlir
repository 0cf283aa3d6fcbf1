// hkg.matmul_w4a16's weight-streaming kernel through the upstream backends
// with its default schedules: gfx942 (wave64) and sm_90 PTX. 16-byte loads
// of the packed weights, the nibbles shifted and masked into f32 bit
// patterns (v_and_or_b32: (q & 15) | 0x4B000000), packed f32 multiply-adds
// on gfx942, lane sums by swizzles / shuffles; no scratch, no spills.
// REQUIRES: rocdl-toolkit, libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %to_gfx942_isa | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %to_sm90_ptx | FileCheck %s --check-prefix=SM90

// GFX942:      gpu.binary @hkg_matmul_w4a16_0
// GFX942-SAME:   global_load_dwordx4
// GFX942-SAME:   v_and_or_b32
// GFX942-SAME:   v_sub_f32
// GFX942-SAME:   v_pk_fma_f32
// GFX942-SAME:   ds_swizzle_b32
// GFX942-SAME:   global_store_short
// GFX942-SAME:   .private_segment_fixed_size: 0
// GFX942-SAME:   .vgpr_spill_count: 0
// GFX942:      gpu.binary @hkg_matmul_w4a16_1
// GFX942-SAME:   global_load_dwordx4
// GFX942-SAME:   v_pk_fma_f32
// GFX942-SAME:   global_store_dword
// GFX942-SAME:   .private_segment_fixed_size: 0
// GFX942-SAME:   .vgpr_spill_count: 0

// SM90:        gpu.binary @hkg_matmul_w4a16_0
// SM90-SAME:     ld.global.v4.b32
// SM90-SAME:     fma.rn.f32
// SM90-SAME:     shfl.sync.bfly.b32
// SM90-SAME:     st.global.b16
// SM90:        gpu.binary @hkg_matmul_w4a16_1
// SM90-SAME:     ld.global.v4.b32
// SM90-SAME:     st.global.b32

func.func @b16(%x: tensor<16x4096xbf16>, %w: tensor<4096x2048xi8>, %s: tensor<4096x32xbf16>, %z: tensor<4096x32xi8>) -> tensor<16x4096xbf16> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128) : tensor<16x4096xbf16>, tensor<4096x2048xi8>, tensor<4096x32xbf16>, tensor<4096x32xi8> -> tensor<16x4096xbf16>
  return %y : tensor<16x4096xbf16>
}
func.func @b1_f16_f32(%x: tensor<1x14336xf16>, %w: tensor<4096x7168xi8>, %s: tensor<4096x448xf16>, %z: tensor<4096x448xi8>) -> tensor<1x4096xf32> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) : tensor<1x14336xf16>, tensor<4096x7168xi8>, tensor<4096x448xf16>, tensor<4096x448xi8> -> tensor<1x4096xf32>
  return %y : tensor<1x4096xf32>
}
