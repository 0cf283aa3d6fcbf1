// The flash-decoding kernel (kv_split, pack_gqa: the default for a decode
// step) through the upstream GPU backends. sm_90 PTX: the key loop's
// cp.async and mma.sync, then the partials stored to the module's
// workspace (.global), the release fence, the arrival counted with an
// atomic add, and in the last workgroup the acquire fence, the partials
// read back and weighted with ex2; no local memory. gfx942 (MFMA, wave64):
// the same at agent scope, global_atomic_add, and no scratch.
// REQUIRES: rocdl-toolkit, libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %mm_sm90_ptx | FileCheck %s --check-prefix=SM90
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %mm_gfx942_isa | FileCheck %s --check-prefix=GFX942

// Issue 28's decode step at batch 2: 32 query heads over 8 key/value heads,
// 1 query over 8192 keys, D = 128, bf16.
func.func @decode(%q: tensor<2x32x1x128xbf16>, %k: tensor<2x8x8192x128xbf16>, %v: tensor<2x8x8192x128xbf16>) -> tensor<2x32x1x128xbf16> {
  %0 = hkg.attention %q, %k, %v : tensor<2x32x1x128xbf16>, tensor<2x8x8192x128xbf16>, tensor<2x8x8192x128xbf16> -> tensor<2x32x1x128xbf16>
  return %0 : tensor<2x32x1x128xbf16>
}

// The workspace and the counters are globals of the module: 16 query tiles
// (2 batches x 8 key/value heads) x 32 splits x 2176 floats, and 16 i32.
// SM90: gpu.binary @hkg_attention_0
// SM90-SAME: .global .align 16 .b8 hkg_attention_0_kv_split_arrivals[64];
// SM90-SAME: .global .align 16 .b8 hkg_attention_0_kv_split_partials[4456448];
// SM90-SAME: .maxntid 32, 1, 1
// SM90-SAME: cp.async.cg.shared.global
// SM90-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// SM90-SAME: ex2.approx.f32
// SM90-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// The lane's 16 O pairs and its (m, l), then published and counted.
// SM90-SAME: st.global.v2.b32
// SM90-SAME: st.global.v2.b32 {{[^;]*}}+4096]
// SM90-SAME: fence.acq_rel.gpu;
// SM90-SAME: bar.sync \090;
// SM90-SAME: atom.global.add.u32 {{[^;]*}}, 1;
// SM90-SAME: setp.ne.b32 {{[^;]*}}, 31;
// SM90-SAME: st.global.b32 {{[^;]*}}, 0;
// SM90-SAME: fence.acq_rel.gpu;
// SM90-SAME: ld.global.v2.b32
// SM90-SAME: ex2.approx.f32
// SM90-SAME: rcp.rn.f32
// SM90-SAME: st.global.b32
// SM90-NOT: .local

// The key loop on MFMA, then the partials (O runs of 4 floats, (m, l)
// pairs) stored, the release, the arrival, the acquire, the combine.
// GFX942: v_mfma_f32_16x16x16_bf16
// GFX942: v_exp_f32
// GFX942: v_mfma_f32_16x16x16_bf16
// GFX942: global_store_dwordx4
// GFX942: global_store_dwordx2
// GFX942: buffer_wbl2
// GFX942: global_atomic_add
// GFX942: buffer_inv
// GFX942: global_load_dwordx2
// GFX942: global_load_dwordx4
// GFX942: v_exp_f32
// GFX942: v_pk_fma_f32
// GFX942: v_rcp_f32
// GFX942: global_store_dwordx2
// GFX942-NOT: scratch_
// GFX942: .amdhsa_private_segment_fixed_size 0
// GFX942: .private_segment_fixed_size: 0
// GFX942: .vgpr_spill_count: 0
