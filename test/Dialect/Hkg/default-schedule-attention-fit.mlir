// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefixes=CHECK,LDS64K
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1201 | FileCheck %s --check-prefixes=CHECK,LDS64K
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx950 | FileCheck %s --check-prefixes=CHECK,LDS160K
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefixes=CHECK,LDS48K
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-verify-schedule="chip=gfx942 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 --hkg-verify-schedule="chip=gfx1100 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-verify-schedule="chip=sm_90 require-schedule" -o /dev/null

// Attention defaults fit the target's LDS: tile_q x D + stages x tile_kv x
// (D + Dv) elements. Large head dims first give up double buffering, then
// shrink the K/V tile. NVIDIA targets allow 48 KiB of static shared memory
// per workgroup.

// D = 64 bf16: 40 KiB double-buffered, fits everywhere.
// CHECK-LABEL: func.func @d64
// CHECK: stages = 2, tile_kv = 64, tile_q = 64
func.func @d64(%q: tensor<1x8x256x64xbf16>) -> tensor<1x8x256x64xbf16> {
  %0 = hkg.attention %q, %q, %q causal : tensor<1x8x256x64xbf16>, tensor<1x8x256x64xbf16>, tensor<1x8x256x64xbf16> -> tensor<1x8x256x64xbf16>
  return %0 : tensor<1x8x256x64xbf16>
}

// D = 128 bf16: 80 KiB double-buffered, 48 KiB single-buffered.
// CHECK-LABEL: func.func @d128
// LDS64K: stages = 1, tile_kv = 64, tile_q = 64
// LDS160K: stages = 2, tile_kv = 64, tile_q = 64
// LDS48K: stages = 1, tile_kv = 64, tile_q = 64
func.func @d128(%q: tensor<4x32x1024x128xbf16>) -> tensor<4x32x1024x128xbf16> {
  %0 = hkg.attention %q, %q, %q causal : tensor<4x32x1024x128xbf16>, tensor<4x32x1024x128xbf16>, tensor<4x32x1024x128xbf16> -> tensor<4x32x1024x128xbf16>
  return %0 : tensor<4x32x1024x128xbf16>
}

// D = 256 bf16: 160 KiB double-buffered; a 32-row K/V tile fits 64 KiB
// exactly, a 16-row tile fits 48 KiB exactly.
// CHECK-LABEL: func.func @d256
// LDS64K: stages = 1, tile_kv = 32, tile_q = 64
// LDS160K: stages = 2, tile_kv = 64, tile_q = 64
// LDS48K: stages = 1, tile_kv = 16, tile_q = 64
func.func @d256(%q: tensor<1x4x256x256xbf16>) -> tensor<1x4x256x256xbf16> {
  %0 = hkg.attention %q, %q, %q : tensor<1x4x256x256xbf16>, tensor<1x4x256x256xbf16>, tensor<1x4x256x256xbf16> -> tensor<1x4x256x256xbf16>
  return %0 : tensor<1x4x256x256xbf16>
}
