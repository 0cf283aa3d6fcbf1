// The elementwise kernel goes through the upstream ROCDL backend (gfx942, wave32 gfx1100).
// REQUIRES: rocdl-toolkit
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %to_gfx942_isa | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 --hkg-lower-to-gpu=chip=gfx1100 | hkg-opt %to_gfx1100_isa | FileCheck %s --check-prefix=GFX1100

// GFX942:  gpu.binary @hkg_elementwise_0
// GFX942-SAME: amdgcn-amd-amdhsa--gfx942
// GFX942-SAME: global_load_dwordx4
// GFX942-SAME: v_exp_f32
// GFX942-SAME: global_store_dwordx4

// GFX1100: gpu.binary @hkg_elementwise_0
// GFX1100-SAME: amdgcn-amd-amdhsa--gfx1100
// GFX1100-SAME: global_load_b128
// GFX1100-SAME: global_store_b128
// GFX1100-SAME: .wavefront_size: 32

func.func @swiglu(%g: tensor<512x1024xbf16>, %u: tensor<512x1024xbf16>) -> tensor<512x1024xbf16> {
  %y = hkg.elementwise %g, %u : tensor<512x1024xbf16>, tensor<512x1024xbf16> -> tensor<512x1024xbf16> {
  ^bb0(%a: bf16, %b: bf16):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %n = arith.negf %af : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %af, %d : f32
    %p = arith.mulf %s, %bf : f32
    %r = arith.truncf %p : f32 to bf16
    hkg.yield %r : bf16
  }
  return %y : tensor<512x1024xbf16>
}
