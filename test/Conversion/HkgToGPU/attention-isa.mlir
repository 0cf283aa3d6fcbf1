// The default attention kernels through the upstream GPU backends: sm_90 PTX
// with cp.async copies, ldmatrix (.trans for V), mma.sync m16n8k16 for both
// products and ex2 for the softmax; the AMD code objects on their matrix
// cores (Attention.cpp: S^T = K Q^T and O^T = V^T P^T, V transposed into
// LDS by 16-bit stores): v_mfma_f32_16x16x16_bf16 on gfx942 and gfx950
// (wave64; the row reductions over lanes l ^ 16, l ^ 32 as ds_bpermute /
// ds_swizzle, on gfx950 v_permlane16/32_swap), v_wmma_f32_16x16x16_bf16 on
// gfx1100 (P's B fragments exchanged between half-waves) and gfx1201;
// 45 KiB of LDS, no scratch or spills.
// REQUIRES: rocdl-toolkit, libdevice
// sm_90's default is warpgroup MMA (test/Target/NVVM/attention-wgmma.test): the mma.sync
// kernel is pinned there.
// RUN: sed 's/causal :/causal {schedule = #hkg.schedule<mma = mma_16x8x16, tile_q = 64, tile_kv = 64, waves = 4, stages = 2>} :/' %s | hkg-opt --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %mm_sm90_ptx | FileCheck %s --check-prefix=SM90
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %mm_gfx942_isa | FileCheck %s --check-prefixes=GFX942,CDNA
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx950 --hkg-lower-to-gpu=chip=gfx950 | hkg-opt %mm_gfx950_isa | FileCheck %s --check-prefixes=GFX950,CDNA
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 --hkg-lower-to-gpu=chip=gfx1100 | hkg-opt %mm_gfx1100_isa | FileCheck %s --check-prefixes=GFX1100,RDNA
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1201 --hkg-lower-to-gpu=chip=gfx1201 | hkg-opt %mm_gfx1201_isa | FileCheck %s --check-prefixes=GFX1201,RDNA

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

// CDNA: global_load_dwordx4
// CDNA: ds_write_b128
// CDNA: ds_write_b16
// CDNA: s_barrier
// CDNA: ds_read2_b64
// CDNA: v_mfma_f32_16x16x16_bf16
// GFX942: ds_bpermute_b32
// GFX950: v_permlane32_swap_b32
// CDNA: v_exp_f32
// CDNA: v_mfma_f32_16x16x16_bf16
// CDNA: global_store_dwordx2
// CDNA-NOT: scratch_
// CDNA-NOT: v_pk_fma_f32
// CDNA: .amdhsa_group_segment_fixed_size 46080
// CDNA: .amdhsa_private_segment_fixed_size 0
// CDNA: .private_segment_fixed_size: 0
// CDNA: .vgpr_spill_count: 0

// RDNA: global_load_b128
// RDNA: ds_store_b128
// RDNA: ds_store_b16
// RDNA: ds_load_b128
// RDNA: v_wmma_f32_16x16x16_bf16
// RDNA: v_exp_f32
// GFX1100: ds_bpermute_b32
// RDNA: v_wmma_f32_16x16x16_bf16
// GFX1100: global_store_d16_hi_b16
// GFX1201: global_store_b128
// RDNA-NOT: scratch_
// RDNA: .amdhsa_group_segment_fixed_size 46080
// RDNA: .amdhsa_private_segment_fixed_size 0
// RDNA: .private_segment_fixed_size: 0
// RDNA: .vgpr_spill_count: 0
