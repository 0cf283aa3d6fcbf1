// hkg.matmul_w4a16 through the upstream backends with its default
// schedules: the matrix-core kernel on gfx942 (v_mfma_f32_16x16x16 bf16 /
// f16), gfx1201 (v_wmma_f32_16x16x16) and sm_90 (mma.sync m16n8k16); the
// weight-streaming kernel (mma = none) on gfx942 and sm_90. 16-byte loads
// of the packed weights; the nibble pairs masked into 16-bit floats
// (f16: v_pk_add_f16 / v_pk_mul_f16 on gfx942, sub / mul .f16x2 and .bf16x2
// on sm_90; gfx942 has no packed bf16 math: bf16 goes through f32); no
// scratch, no spills. ptxas' registers: test/Target/NVVM/matmul-w4a16.test.
// REQUIRES: rocdl-toolkit, libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %to_gfx942_isa | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1201 --hkg-lower-to-gpu=chip=gfx1201 | hkg-opt %to_gfx1201_isa | FileCheck %s --check-prefix=GFX1201
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %mm_sm90_ptx | FileCheck %s --check-prefix=SM90

// GFX942:      gpu.binary @hkg_matmul_w4a16_0
// GFX942-SAME:   global_load_dwordx4
// GFX942-SAME:   v_perm_b32
// GFX942-SAME:   v_mfma_f32_16x16x16_bf16
// GFX942-SAME:   global_atomic_add
// GFX942-SAME:   .private_segment_fixed_size: 0
// GFX942-SAME:   .vgpr_spill_count: 0
// GFX942:      gpu.binary @hkg_matmul_w4a16_1
// GFX942-SAME:   global_load_dwordx4
// GFX942-SAME:   v_pk_add_f16
// GFX942-SAME:   v_pk_mul_f16
// GFX942-SAME:   v_mfma_f32_16x16x16_f16
// GFX942-SAME:   global_store_dword
// GFX942-SAME:   .private_segment_fixed_size: 0
// GFX942-SAME:   .vgpr_spill_count: 0
// GFX942:      gpu.binary @hkg_matmul_w4a16_2
// GFX942-SAME:   global_load_dwordx4
// GFX942-SAME:   v_and_or_b32
// GFX942-SAME:   v_pk_fma_f32
// GFX942-SAME:   ds_swizzle_b32
// GFX942-SAME:   .private_segment_fixed_size: 0
// GFX942-SAME:   .vgpr_spill_count: 0

// GFX1201:     gpu.binary @hkg_matmul_w4a16_0
// GFX1201-SAME:  global_load_b128
// GFX1201-SAME:  v_wmma_f32_16x16x16_bf16
// GFX1201-SAME:  .private_segment_fixed_size: 0
// GFX1201-SAME:  .vgpr_spill_count: 0
// GFX1201:     gpu.binary @hkg_matmul_w4a16_1
// GFX1201-SAME:  global_load_b128
// GFX1201-SAME:  v_pk_add_f16
// GFX1201-SAME:  v_pk_mul_f16
// GFX1201-SAME:  v_wmma_f32_16x16x16_f16
// GFX1201-SAME:  .private_segment_fixed_size: 0
// GFX1201-SAME:  .vgpr_spill_count: 0

// SM90:        gpu.binary @hkg_matmul_w4a16_0
// SM90-SAME:     ld.global{{(.nc|.cs)?}}.v4.b32
// SM90-SAME:     sub.rn.bf16x2
// SM90-SAME:     mul.rn.bf16x2
// SM90-SAME:     mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// SM90-SAME:     atom.global.add.u32
// SM90-SAME:     st.global.b16
// SM90:        gpu.binary @hkg_matmul_w4a16_1
// SM90-SAME:     sub.rn.f16x2
// SM90-SAME:     mul.rn.f16x2
// SM90-SAME:     mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SM90-SAME:     st.global.b32
// SM90:        gpu.binary @hkg_matmul_w4a16_2
// SM90-SAME:     ld.global.v4.b32
// SM90-SAME:     fma.rn.f32
// SM90-SAME:     shfl.sync.bfly.b32

func.func @b16(%x: tensor<16x4096xbf16>, %w: tensor<4096x2048xi8>, %s: tensor<4096x32xbf16>, %z: tensor<4096x32xi8>) -> tensor<16x4096xbf16> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128) : tensor<16x4096xbf16>, tensor<4096x2048xi8>, tensor<4096x32xbf16>, tensor<4096x32xi8> -> tensor<16x4096xbf16>
  return %y : tensor<16x4096xbf16>
}
func.func @b1_f16_f32(%x: tensor<1x14336xf16>, %w: tensor<4096x7168xi8>, %s: tensor<4096x448xf16>, %z: tensor<4096x448xi8>) -> tensor<1x4096xf32> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) : tensor<1x14336xf16>, tensor<4096x7168xi8>, tensor<4096x448xf16>, tensor<4096x448xi8> -> tensor<1x4096xf32>
  return %y : tensor<1x4096xf32>
}
func.func @stream(%x: tensor<4x4096xbf16>, %w: tensor<4096x2048xi8>, %s: tensor<4096x32xbf16>, %z: tensor<4096x32xi8>) -> tensor<4x4096xbf16> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128) {schedule = #hkg.schedule<mma = none, tile_m = 4, rows_per_wave = 2, unroll = 2, threads = 256, split_k = 1>} : tensor<4x4096xbf16>, tensor<4096x2048xi8>, tensor<4096x32xbf16>, tensor<4096x32xi8> -> tensor<4x4096xbf16>
  return %y : tensor<4x4096xbf16>
}
