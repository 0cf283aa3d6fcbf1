// hkg.reduce's tuple kinds, prologue and epilogue, and log_softmax, through
// the upstream backends with their default schedules: real code objects for
// gfx942 and PTX for sm_90, no scratch.
// REQUIRES: rocdl-toolkit, libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %to_gfx942_isa | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %to_sm90_ptx | FileCheck %s --check-prefix=SM90

// argmax along rows: 16-byte loads of the bf16 row, NaN checks and the
// position tie-break in the lane and wave merges, the i64 position stored.
// GFX942:      gpu.binary @hkg_reduce_0
// GFX942-SAME: global_load_dwordx4
// GFX942-SAME: v_cmp_u_f32
// GFX942-SAME: v_cmp_lt_i32
// GFX942-SAME: ds_swizzle_b32
// GFX942-SAME: global_store_dwordx2
// GFX942-NOT:  scratch_
// SM90:        gpu.binary @hkg_reduce_0
// SM90-SAME:   setp.nan.f32
// SM90-SAME:   shfl.sync.bfly.b32
// SM90-SAME:   st.global.b32
// SM90-NOT:    .local

// Cross-entropy in one kernel: 16-byte logit loads (the vector width
// follows the bf16 input, not the f32 result), the i64 target of the row
// (uniform in a workgroup of one row: a scalar load), logsumexp's
// exponentials (the fast form: reductions-fast-exp-isa.mlir) and the log of
// the sum.
// GFX942:      gpu.binary @hkg_reduce_1
// GFX942-SAME: s_load_dwordx2
// GFX942-SAME: global_load_dwordx4
// GFX942-SAME: v_exp_f32
// GFX942-SAME: v_log_f32
// GFX942-NOT:  scratch_
// SM90:        gpu.binary @hkg_reduce_1
// SM90-SAME:   ex2.approx.f32
// SM90-SAME:   shfl.sync.bfly.b32
// SM90-NOT:    .local

// argmin down the columns: the (value, position) states of the thread rows
// meet in LDS.
// GFX942:      gpu.binary @hkg_reduce_2
// GFX942-SAME: v_cmp_lt_f32
// GFX942-SAME: ds_write_b128
// GFX942-SAME: s_barrier
// GFX942-SAME: ds_read_b128
// GFX942-SAME: global_store_dwordx4
// SM90:        gpu.binary @hkg_reduce_2
// SM90-SAME:   setp.nan.f32
// SM90-SAME:   bar.sync
// SM90-SAME:   st.global.v4.b32

// log_softmax along rows and down columns.
// GFX942:      gpu.binary @hkg_softmax_0
// GFX942-SAME: v_log_f32
// GFX942-SAME: global_store_dwordx4
// GFX942:      gpu.binary @hkg_softmax_1
// GFX942-SAME: v_log_f32
// SM90:        gpu.binary @hkg_softmax_0
// SM90-SAME:   st.global.v4.b32
// SM90:        gpu.binary @hkg_softmax_1

module {
func.func @kinds(%x: tensor<64x32000xbf16>, %t: tensor<64xi64>, %y: tensor<8x512x64xf32>) -> (tensor<64xi64>, tensor<64xf32>, tensor<8x64xi32>, tensor<64x32000xbf16>, tensor<8x512x64xf32>) {
  %a = hkg.reduce argmax %x axes = [1] : tensor<64x32000xbf16> -> tensor<64xi64>
  %ce = hkg.reduce logsumexp, sum %x ins(%t : tensor<64xi64>) axes = [1] {indexing_maps = [affine_map<(d0, d1) -> (d0)>]} : tensor<64x32000xbf16> -> tensor<64xf32>
    prologue {
    ^bb0(%v: bf16, %tg: i64):
      %vf = arith.extf %v : bf16 to f32
      %j = hkg.index 1
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %tg : i64
      %zero = arith.constant 0.0 : f32
      %pick = arith.select %hit, %vf, %zero : f32
      hkg.yield %vf, %pick : f32, f32
    } epilogue {
    ^bb0(%lse: f32, %p: f32):
      %r = arith.subf %lse, %p : f32
      hkg.yield %r : f32
    }
  %am = hkg.reduce argmin %y axes = [1] : tensor<8x512x64xf32> -> tensor<8x64xi32>
  %ls = hkg.softmax log %x axis(1) : tensor<64x32000xbf16> -> tensor<64x32000xbf16>
  %lc = hkg.softmax log %y axis(1) : tensor<8x512x64xf32> -> tensor<8x512x64xf32>
  return %a, %ce, %am, %ls, %lc : tensor<64xi64>, tensor<64xf32>, tensor<8x64xi32>, tensor<64x32000xbf16>, tensor<8x512x64xf32>
}
}
