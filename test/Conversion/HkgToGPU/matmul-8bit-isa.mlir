// 8-bit matmuls (OCP fp8, i8) through the upstream GPU backends with their
// default schedules: each chip's 8-bit matrix-core instruction, no scratch
// or spills. gfx950: v_mfma_f32_16x16x128_f8f6f4 (cbsz / blgp 1 for bf8) and
// v_mfma_i32_16x16x64_i8; gfx1201: v_wmma_f32_16x16x16_fp8_fp8 / _bf8_bf8
// and v_wmma_i32_16x16x16_iu8; gfx1100: v_wmma_i32_16x16x16_iu8 (inputs
// replicated in both half-waves); sm_90: wgmma m64nNk32 .e4m3 / .e5m2 / .s8
// with B as [N, K]. Chips without the 8-bit instruction (gfx90a; gfx1100 for
// fp8), and sm_90 with B as [K, N], multiply with FMAs, fp8 widened through
// f16 (Float8.h), i8 in i32 (LLVM forms v_dot4 from the i8 products). gfx942's FNUZ formats: matmul-8bit-gfx942-isa.mlir.
// REQUIRES: rocdl-toolkit, libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx950 --hkg-lower-to-gpu=chip=gfx950 | hkg-opt %mm_gfx950_isa | FileCheck %s --check-prefixes=AMD,GFX950
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1201 --hkg-lower-to-gpu=chip=gfx1201 | hkg-opt %mm_gfx1201_isa | FileCheck %s --check-prefixes=AMD,GFX1201
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx90a --hkg-lower-to-gpu=chip=gfx90a | hkg-opt %mm_gfx90a_isa | FileCheck %s --check-prefixes=AMD,FMA,FMAI8
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 --hkg-lower-to-gpu=chip=gfx1100 | hkg-opt %mm_gfx1100_isa | FileCheck %s --check-prefixes=AMD,FMA,GFX1100
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %mm_sm90_ptx | FileCheck %s --check-prefix=SM90

func.func @fp8_scaled(%a: tensor<128x512xf8E4M3FN>, %b: tensor<256x512xf8E4M3FN>, %s: tensor<f32>, %sa: tensor<128x1xf32>, %sb: tensor<256xf32>) -> tensor<128x256xbf16> {
  %0 = hkg.matmul %a, %b epilogue(%s, %sa, %sb : tensor<f32>, tensor<128x1xf32>, tensor<256xf32>) {transpose_b}
      : tensor<128x512xf8E4M3FN>, tensor<256x512xf8E4M3FN> -> tensor<128x256xbf16> {
  ^bb0(%acc: f32, %t: f32, %x: f32, %w: f32):
    %s0 = arith.mulf %x, %w : f32
    %s1 = arith.mulf %s0, %t : f32
    %v = arith.mulf %acc, %s1 : f32
    %r = arith.truncf %v : f32 to bf16
    hkg.yield %r : bf16
  }
  return %0 : tensor<128x256xbf16>
}
func.func @e5m2(%a: tensor<128x512xf8E5M2>, %b: tensor<512x256xf8E5M2>) -> tensor<128x256xf32> {
  %0 = hkg.matmul %a, %b : tensor<128x512xf8E5M2>, tensor<512x256xf8E5M2> -> tensor<128x256xf32>
  return %0 : tensor<128x256xf32>
}
func.func @i8(%a: tensor<128x512xi8>, %b: tensor<256x512xi8>) -> tensor<128x256xi32> {
  %0 = hkg.matmul %a, %b {transpose_b} : tensor<128x512xi8>, tensor<256x512xi8> -> tensor<128x256xi32>
  return %0 : tensor<128x256xi32>
}

// e4m3 x e4m3 (B as [N, K]) with a per-tensor, a per-row (A) and a
// per-column (B) scale in the epilogue, written as bf16.
// AMD-LABEL: gpu.binary @hkg_matmul_0
// GFX950: v_mfma_f32_16x16x128_f8f6f4 {{[av]}}[{{[0-9:]+}}], v[{{[0-9:]+}}], v[{{[0-9:]+}}], {{[^ \\]+}}\0A
// GFX1201: v_wmma_f32_16x16x16_fp8_fp8
// FMA: v_cvt_f32_f16
// FMA: {{v_pk_fma_f32|v_fmac_f32}}
// AMD: .private_segment_fixed_size: 0
// AMD: .vgpr_spill_count: 0
// e5m2 x e5m2, B as [K, N] (transposed into K-contiguous LDS), to f32.
// AMD-LABEL: gpu.binary @hkg_matmul_1
// GFX950: v_mfma_f32_16x16x128_f8f6f4 {{[^\\]*}} cbsz:1 blgp:1\0A
// GFX1201: v_wmma_f32_16x16x16_bf8_bf8
// FMA: {{v_cvt_f32_f16|v_fma_mix_f32}}
// AMD: .private_segment_fixed_size: 0
// AMD: .vgpr_spill_count: 0
// i8 x i8 to its exact i32 sums.
// AMD-LABEL: gpu.binary @hkg_matmul_2
// GFX950: v_mfma_i32_16x16x64_i8
// GFX1201: v_wmma_i32_16x16x16_iu8
// GFX1100: v_wmma_i32_16x16x16_iu8
// FMAI8: {{v_dot4c_i32_i8|v_dot4_i32_iu8}}
// AMD: .private_segment_fixed_size: 0
// AMD: .vgpr_spill_count: 0
// AMD-NOT: v_mfma_f32
// AMD-NOT: v_wmma_f32

// sm_90: 8-bit warpgroup MMAs where B is [N, K] (test/Target/NVVM/matmul-8bit.test
// runs ptxas on them); B as [K, N] takes the FMA kernel.
// SM90-LABEL: gpu.binary @hkg_matmul_0
// SM90: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// SM90-LABEL: gpu.binary @hkg_matmul_1
// SM90-NOT: wgmma
// SM90: cvt.f32.f16
// SM90: fma.rn.f32
// SM90-LABEL: gpu.binary @hkg_matmul_2
// SM90: wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8
