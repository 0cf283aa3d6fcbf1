// The default attention kernels through the upstream GPU backends: sm_90 PTX
// with cp.async copies, ldmatrix (.trans for V), mma.sync m16n8k16 for both
// products and ex2 for the softmax; the gfx942 code object (FMA kernel,
// wave64) with 16-byte loads and LDS stores, packed FMAs, v_exp_f32, the
// quad shuffles as ds_swizzle, its 61 KiB of LDS and no scratch or spills.
// REQUIRES: rocdl-toolkit, libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %mm_sm90_ptx | FileCheck %s --check-prefix=SM90
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %mm_gfx942_isa | FileCheck %s --check-prefix=GFX942

// Grouped-query causal attention: 4 query heads over 2 key/value heads,
// 128 queries over 256 keys, head dim 64, bf16.
func.func @gqa(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x2x256x64xbf16>, %v: tensor<1x2x256x64xbf16>) -> tensor<1x4x128x64xbf16> {
  %0 = hkg.attention %q, %k, %v causal : tensor<1x4x128x64xbf16>, tensor<1x2x256x64xbf16>, tensor<1x2x256x64xbf16> -> tensor<1x4x128x64xbf16>
  return %0 : tensor<1x4x128x64xbf16>
}

// SM90: gpu.binary @hkg_attention_0
// SM90-SAME: .target sm_90
// SM90-SAME: .maxntid 128, 1, 1
// Q (64 x 72 bf16) and two stages each of K and V.
// SM90-SAME: .shared .align 16 .b8 __wg_hkg_attention_0_0[9216]
// SM90-SAME: .shared .align 16 .b8 __wg_hkg_attention_0_1[18432]
// SM90-SAME: .shared .align 16 .b8 __wg_hkg_attention_0_2[18432]
// SM90-SAME: cp.async.cg.shared.global [{{[^]]*}}], [{{[^]]*}}], 16;
// SM90-SAME: cp.async.commit_group;
// SM90-SAME: cp.async.wait_group \090;
// SM90-SAME: bar.sync \090;
// SM90-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// The key loop: S = Q K^T, the online softmax, O += P V.
// SM90-SAME: $L__BB0_1:
// SM90-SAME: cp.async.wait_group \090;
// SM90-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// SM90-SAME: shfl.sync.bfly.b32
// SM90-SAME: ex2.approx.f32
// SM90-SAME: cvt.rn.bf16x2.f32
// SM90-SAME: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// SM90-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// The row sums' reciprocal, bf16 pairs stored.
// SM90-SAME: rcp.rn.f32
// SM90-SAME: st.global.b32
// SM90-NOT: .local

// GFX942: global_load_dwordx4
// GFX942: ds_write_b128
// GFX942: s_barrier
// GFX942: v_pk_fma_f32
// GFX942: ds_swizzle_b32
// GFX942: v_exp_f32
// GFX942: global_store_dword
// GFX942-NOT: scratch_
// GFX942: .amdhsa_group_segment_fixed_size 62464
// GFX942: .amdhsa_private_segment_fixed_size 0
// GFX942: .private_segment_fixed_size: 0
// GFX942: .vgpr_spill_count: 0
