// Inputs read through indexing maps, and i1 / i8 tensors, through the
// upstream backends: a gfx942 code object and sm_90 PTX.
// REQUIRES: rocdl-toolkit, libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | hkg-opt %to_gfx942_isa | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %to_sm90_ptx | FileCheck %s --check-prefix=SM90

// A per-row scale of a square matrix: the matrix in 16-byte loads and
// stores, the scale one dword per vector (broadcast), the row index a shift.
// GFX942:      gpu.binary @hkg_elementwise_0
// GFX942-SAME: global_load_dwordx4
// GFX942-SAME: global_load_dword v
// GFX942-SAME: global_store_dwordx4
// GFX942-SAME: .private_segment_fixed_size: 0
// SM90:        gpu.binary @hkg_elementwise_0
// SM90-SAME:   ld.global.v4.b32
// SM90-SAME:   ld.global.b32
// SM90-SAME:   st.global.v4.b32
func.func @per_row_scale(%x: tensor<64x64xf32>, %s: tensor<64xf32>) -> tensor<64x64xf32> {
  %0 = hkg.elementwise %x, %s {indexing_maps = [
      affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>]}
      : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xf32> {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    hkg.yield %p : f32
  }
  return %0 : tensor<64x64xf32>
}

// An i1 mask and the high nibble of an i8: byte loads and byte stores (an i1
// is one byte, as torch.bool).
// GFX942:      gpu.binary @hkg_elementwise_1
// GFX942-SAME: global_load_ubyte
// GFX942-SAME: global_store_byte
// GFX942-NOT:  global_load_dwordx4
// SM90:        gpu.binary @hkg_elementwise_1
// SM90-SAME:   ld.global.b8
// SM90-SAME:   st.global.b8
func.func @mask_unpack(%m: tensor<1000xi1>, %p: tensor<1000xi8>) -> tensor<1000xi1> {
  %0 = hkg.elementwise %m, %p : tensor<1000xi1>, tensor<1000xi8> -> tensor<1000xi1> {
  ^bb0(%k: i1, %v: i8):
    %c4 = arith.constant 4 : i8
    %h = arith.shrui %v, %c4 : i8
    %z = arith.constant 0 : i8
    %nz = arith.cmpi ne, %h, %z : i8
    %o = arith.andi %k, %nz : i1
    hkg.yield %o : i1
  }
  return %0 : tensor<1000xi1>
}
