// The elementwise kernel goes through the upstream NVVM backend (sm_90 PTX).
// REQUIRES: libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %to_sm90_ptx | FileCheck %s --check-prefix=SM90

// SM90:    gpu.binary @hkg_elementwise_0
// SM90-SAME: .target sm_90
// SM90-SAME: ld.global.v4.b32
// SM90-SAME: st.global.v4.b32

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
