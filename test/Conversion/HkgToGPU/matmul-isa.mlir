// The default matmul schedules through the upstream GPU backends: matrix-core
// instructions, LDS staging, no scratch or spills, the fused epilogue.
// REQUIRES: rocdl-toolkit, libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_80 --hkg-lower-to-gpu=chip=sm_80 | hkg-opt %mm_sm80_ptx | FileCheck %s --check-prefix=SM80
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %mm_gfx942_isa | FileCheck %s --check-prefixes=AMD,GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx950 --hkg-lower-to-gpu=chip=gfx950 | hkg-opt %mm_gfx950_isa | FileCheck %s --check-prefixes=AMD,GFX950
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx90a --hkg-lower-to-gpu=chip=gfx90a | hkg-opt %mm_gfx90a_isa | FileCheck %s --check-prefixes=AMD,GFX90A
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 --hkg-lower-to-gpu=chip=gfx1100 | hkg-opt %mm_gfx1100_isa | FileCheck %s --check-prefixes=AMD,GFX1100
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1201 --hkg-lower-to-gpu=chip=gfx1201 | hkg-opt %mm_gfx1201_isa | FileCheck %s --check-prefixes=AMD,GFX1201

// A QKV-style projection with a fused bias and GELU (tanh form).
func.func @proj(%x: tensor<512x1024xbf16>, %w: tensor<768x1024xbf16>, %bias: tensor<768xbf16>) -> tensor<512x768xbf16> {
  %0 = hkg.matmul %x, %w epilogue(%bias : tensor<768xbf16>) {transpose_b}
      : tensor<512x1024xbf16>, tensor<768x1024xbf16> -> tensor<512x768xbf16> {
  ^bb0(%acc: f32, %b: bf16):
    %bf = arith.extf %b : bf16 to f32
    %x0 = arith.addf %acc, %bf : f32
    %c = arith.constant 0.7978845608 : f32
    %h = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k = arith.constant 0.044715 : f32
    %x2 = arith.mulf %x0, %x0 : f32
    %x3 = arith.mulf %x2, %x0 : f32
    %t0 = arith.mulf %x3, %k : f32
    %t1 = arith.addf %x0, %t0 : f32
    %t2 = arith.mulf %t1, %c : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %t3, %one : f32
    %t5 = arith.mulf %x0, %h : f32
    %g = arith.mulf %t5, %t4 : f32
    %r = arith.truncf %g : f32 to bf16
    hkg.yield %r : bf16
  }
  return %0 : tensor<512x768xbf16>
}

// SM80: gpu.binary @hkg_matmul_0
// SM80-SAME: .target sm_80
// SM80: .shared .align 16 .b8 __wg_hkg_matmul_0_0[24576]
// SM80: .shared .align 16 .b8 __wg_hkg_matmul_0_1[24576]
// SM80: cp.async.cg.shared.global [{{[^]]*}}], [{{[^]]*}}], 16;
// SM80: cp.async.commit_group
// SM80: cp.async.wait_group \091;
// SM80: bar.sync \090;
// SM80: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// SM80: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// SM80: cp.async.wait_group \090;
// The epilogue: tanh from libdevice (exp-based), bf16 pairs stored.
// SM80: ex2.approx
// SM80: st.global.b32

// GFX942: global_load_dwordx4
// GFX942: ds_write_b128
// GFX942: ds_read_b64
// GFX942: v_mfma_f32_16x16x16_bf16
// GFX950: global_load_dwordx4
// GFX950: ds_write_b128
// GFX950: ds_read_b128
// GFX950: v_mfma_f32_16x16x32_bf16
// GFX90A: global_load_dwordx4
// GFX90A: ds_write_b128
// GFX90A: v_mfma_f32_16x16x16bf16_1k
// GFX1100: global_load_b128
// GFX1100: ds_store_b128
// GFX1100: ds_load_b128
// GFX1100: v_wmma_f32_16x16x16_bf16
// GFX1201: global_load_b128
// GFX1201: ds_store_b128
// GFX1201: ds_load_b128
// GFX1201: v_wmma_f32_16x16x16_bf16
// AMD: .amdhsa_group_segment_fixed_size 32768
// AMD: .amdhsa_private_segment_fixed_size 0
// AMD: .private_segment_fixed_size: 0
// AMD: .vgpr_spill_count: 0
