// Kernels with size parameters through the upstream backends: the sizes
// are 8-byte by-value kernel arguments after the buffer pointers (AMD
// kernarg segment, PTX .param), and the row loads stay 16 bytes wide.
// REQUIRES: rocdl-toolkit, libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %to_gfx942_isa | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %to_sm90_ptx | FileCheck %s --check-prefix=SM90

// log_softmax over [B, S, 512]: two sizes, 2 pointers + 2 i64 = 32 bytes
// of kernel arguments, the guard against B * S rows.
// GFX942:      gpu.binary @hkg_softmax_0
// GFX942-SAME: global_load_dwordx4
// GFX942-SAME: v_cmp_gt_u64
// GFX942-SAME: .amdhsa_kernarg_size 32
// GFX942-SAME: .value_kind: global_buffer
// GFX942-SAME: .value_kind: global_buffer
// GFX942-SAME: .offset: 16
// GFX942-SAME: .size: 8
// GFX942-SAME: .value_kind: by_value
// GFX942-SAME: .offset: 24
// GFX942-SAME: .size: 8
// GFX942-SAME: .value_kind: by_value
// GFX942-NOT:  scratch_
// SM90:        gpu.binary @hkg_softmax_0
// SM90-SAME:   .param .u64 .ptr .align 1 hkg_softmax_0_param_0
// SM90-SAME:   .param .u64 .ptr .align 1 hkg_softmax_0_param_1
// SM90-SAME:   .param .u64 hkg_softmax_0_param_2
// SM90-SAME:   .param .u64 hkg_softmax_0_param_3
// SM90-SAME:   ld.global.v4.b32
// SM90-NOT:    .local
func.func @log_softmax(%x: tensor<?x?x512xf32>) -> tensor<?x?x512xf32> {
  %0 = hkg.softmax log %x axis(2) : tensor<?x?x512xf32> -> tensor<?x?x512xf32>
  return %0 : tensor<?x?x512xf32>
}

// exp over a rank-1 dynamic tensor: one size, 24 bytes of arguments.
// GFX942:      gpu.binary @hkg_elementwise_0
// GFX942-SAME: global_load_dwordx4
// GFX942-SAME: v_exp_f32
// GFX942-SAME: .amdhsa_kernarg_size 24
// GFX942-NOT:  scratch_
// SM90:        gpu.binary @hkg_elementwise_0
// SM90-SAME:   .param .u64 hkg_elementwise_0_param_2
// SM90-SAME:   ex2.approx.ftz.f32
// SM90-NOT:    .local
func.func @exp(%v: tensor<?xf32>) -> tensor<?xf32> {
  %0 = hkg.elementwise %v : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%a: f32):
    %r = math.exp %a : f32
    hkg.yield %r : f32
  }
  return %0 : tensor<?xf32>
}
