// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 | FileCheck %s --check-prefixes=CHECK,GFX1100
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1250 | FileCheck %s --check-prefixes=CHECK,GFX1250
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefixes=CHECK,SM90
// Every default passes its own verification on every target:
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx90a --hkg-verify-schedule="chip=gfx90a require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx950 --hkg-verify-schedule="chip=gfx950 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1151 --hkg-verify-schedule="chip=gfx1151 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1201 --hkg-verify-schedule="chip=gfx1201 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_80 --hkg-verify-schedule="chip=sm_80 require-schedule" -o /dev/null

// Matmul defaults adapt to the problem so that they pass the op's own
// constraints.

// Decode (M = 16): a 16x32 A tile is too small for 8-element loads by every
// thread; the vector width shrinks until the threads cover the tiles evenly.
// CHECK-LABEL: func.func @decode
// GFX942: tile_m = 16, tile_n = 64, vector_width = 2, waves_m = 1, waves_n = 4
// GFX1100: tile_m = 16, tile_n = 64, vector_width = 4, waves_m = 1, waves_n = 4
// SM90: tile_m = 16, tile_n = 64, vector_width = 4, waves_m = 1, waves_n = 4
func.func @decode(%a: tensor<16x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<16x4096xbf16> {
  %0 = hkg.matmul %a, %b : tensor<16x4096xbf16>, tensor<4096x4096xbf16> -> tensor<16x4096xbf16>
  return %0 : tensor<16x4096xbf16>
}

// K = 16: no K step deeper than K. gfx1250's WMMA steps K by 32, so it
// falls back to FMAs.
// CHECK-LABEL: func.func @short_k
// GFX942: mma = mfma_16x16x16, {{.*}}tile_k = 16
// GFX1100: mma = wmma_16x16x16, {{.*}}tile_k = 16
// GFX1250: mma = none, {{.*}}tile_k = 16
// SM90: mma = mma_16x8x16, {{.*}}tile_k = 16
func.func @short_k(%a: tensor<128x16xf16>, %b: tensor<16x128xf16>) -> tensor<128x128xf16> {
  %0 = hkg.matmul %a, %b : tensor<128x16xf16>, tensor<16x128xf16> -> tensor<128x128xf16>
  return %0 : tensor<128x128xf16>
}

// K = 32 keeps gfx1250's matrix cores.
// CHECK-LABEL: func.func @k32
// GFX1250: mma = wmma_16x16x32, {{.*}}tile_k = 32
func.func @k32(%a: tensor<128x32xbf16>, %b: tensor<32x128xbf16>) -> tensor<128x128xbf16> {
  %0 = hkg.matmul %a, %b : tensor<128x32xbf16>, tensor<32x128xbf16> -> tensor<128x128xbf16>
  return %0 : tensor<128x128xbf16>
}
