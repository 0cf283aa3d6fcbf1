// layout(bshd) attention through the upstream GPU backends, as
// attention-isa.mlir does for bhsd: the same kernels (cp.async, ldmatrix,
// mma.sync on sm_90; MFMA with 16-byte loads on gfx942, the same 45 KiB of
// LDS), no scratch or spills: only the global addresses differ.
// REQUIRES: rocdl-toolkit, libdevice
// sm_90's default is warpgroup MMA (test/Target/NVVM/attention-wgmma.test): the mma.sync
// kernel is pinned there.
// RUN: sed 's/causal layout(bshd) :/causal layout(bshd) {schedule = #hkg.schedule<mma = mma_16x8x16, tile_q = 64, tile_kv = 64, waves = 4, stages = 2>} :/' %s | hkg-opt --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %mm_sm90_ptx | FileCheck %s --check-prefix=SM90
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %mm_gfx942_isa | FileCheck %s --check-prefix=GFX942

// attention-isa.mlir's grouped-query causal attention, stored [B, S, H, D].
func.func @gqa_bshd(%q: tensor<1x128x4x64xbf16>, %k: tensor<1x256x2x64xbf16>, %v: tensor<1x256x2x64xbf16>) -> tensor<1x128x4x64xbf16> {
  %0 = hkg.attention %q, %k, %v causal layout(bshd) : tensor<1x128x4x64xbf16>, tensor<1x256x2x64xbf16>, tensor<1x256x2x64xbf16> -> tensor<1x128x4x64xbf16>
  return %0 : tensor<1x128x4x64xbf16>
}

// SM90: gpu.binary @hkg_attention_0
// SM90-SAME: .target sm_90
// SM90-SAME: .shared .align 16 .b8 __wg_hkg_attention_0_0[9216]
// SM90-SAME: cp.async.cg.shared.global [{{[^]]*}}], [{{[^]]*}}], 16;
// SM90-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// SM90-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// SM90-SAME: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// SM90-SAME: st.global.b32
// SM90-NOT: .local

// GFX942: global_load_dwordx4
// GFX942: ds_write_b128
// GFX942: v_mfma_f32_16x16x16_bf16
// GFX942: v_exp_f32
// GFX942: v_mfma_f32_16x16x16_bf16
// GFX942: global_store_dwordx2
// GFX942-NOT: scratch_
// GFX942: .amdhsa_group_segment_fixed_size 46080
// GFX942: .amdhsa_private_segment_fixed_size 0
// GFX942: .private_segment_fixed_size: 0
// GFX942: .vgpr_spill_count: 0
