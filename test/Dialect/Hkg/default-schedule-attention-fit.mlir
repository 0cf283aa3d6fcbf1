// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefixes=CHECK,LDS64K
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1201 | FileCheck %s --check-prefixes=CHECK,LDS64K
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx950 | FileCheck %s --check-prefixes=CHECK,LDS160K
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefixes=CHECK,LDS227K
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-verify-schedule="chip=gfx942 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 --hkg-verify-schedule="chip=gfx1100 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-verify-schedule="chip=sm_90 require-schedule" -o /dev/null

// Attention defaults fit the target's LDS: tile_q x (D + pad) + stages x
// tile_kv x (D + Dv + 2 pad) elements (pad = 16 bytes per row; on AMD
// matrix cores V is kept transposed, Dv rows of tile_kv + pad), plus
// tile_q x tile_kv f32 for P in the FMA kernel. Large head dims first give
// up double buffering, then shrink the K/V tile. NVIDIA kernels take what is
// above 48 KiB as dynamic shared memory (227 KiB on sm_90). sm_90 prefill
// takes warpgroup MMA (no padding, Q, K and V in swizzled panels): 128 query
// rows, 128-key blocks (64 for Dv = 256), two stages.

// D = 64 bf16: 45 KiB double-buffered, fits everywhere; on sm_90 wgmma's
// 64 x 64 tiles of one warpgroup (head dims of 64 take the smaller tiles).
// CHECK-LABEL: func.func @d64
// LDS64K: stages = 2, tile_kv = 64, tile_q = 64
// LDS160K: stages = 2, tile_kv = 64, tile_q = 64
// LDS227K: mma = wgmma_64x128x16, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 64, waves = 4
func.func @d64(%q: tensor<1x8x256x64xbf16>) -> tensor<1x8x256x64xbf16> {
  %0 = hkg.attention %q, %q, %q causal : tensor<1x8x256x64xbf16>, tensor<1x8x256x64xbf16>, tensor<1x8x256x64xbf16> -> tensor<1x8x256x64xbf16>
  return %0 : tensor<1x8x256x64xbf16>
}

// D = 128 bf16: 85 KiB double-buffered (87 KiB with V transposed);
// single-buffered with a 64-row K/V tile 52 KiB.
// CHECK-LABEL: func.func @d128
// LDS64K: mma = {{mfma|wmma}}_16x16x16, pack_gqa = 0, stages = 1, tile_kv = 64, tile_q = 64
// LDS160K: mma = mfma_16x16x16, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 64
// wgmma: 160 KiB.
// LDS227K: mma = wgmma_64x128x16, pack_gqa = 0, stages = 2, tile_kv = 128, tile_q = 128, waves = 8
func.func @d128(%q: tensor<4x32x1024x128xbf16>) -> tensor<4x32x1024x128xbf16> {
  %0 = hkg.attention %q, %q, %q causal : tensor<4x32x1024x128xbf16>, tensor<4x32x1024x128xbf16>, tensor<4x32x1024x128xbf16> -> tensor<4x32x1024x128xbf16>
  return %0 : tensor<4x32x1024x128xbf16>
}

// D = 256 bf16: 165 KiB double-buffered (171 KiB with V transposed); V
// transposed, single-buffered: 102 KiB at 64 K/V rows, 69.5 KiB at 32,
// 53.25 KiB at 16.
// CHECK-LABEL: func.func @d256
// LDS64K: mma = {{mfma|wmma}}_16x16x16, pack_gqa = 0, stages = 1, tile_kv = 16, tile_q = 64
// LDS160K: mma = mfma_16x16x16, pack_gqa = 0, stages = 1, tile_kv = 64, tile_q = 64
// wgmma with 64-key blocks (the registers of Dv = 256): 192 KiB.
// LDS227K: mma = wgmma_64x128x16, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 128, waves = 8
func.func @d256(%q: tensor<1x4x256x256xbf16>) -> tensor<1x4x256x256xbf16> {
  %0 = hkg.attention %q, %q, %q : tensor<1x4x256x256xbf16>, tensor<1x4x256x256xbf16>, tensor<1x4x256x256xbf16> -> tensor<1x4x256x256xbf16>
  return %0 : tensor<1x4x256x256xbf16>
}

// Sequence lengths that 64 does not divide take the largest tiles that do;
// the waves follow tile_q (16 rows each). wgmma's tiles are 64 or 128
// query rows and at most the keys' power of two (the kernel guards the
// partial tiles).
// CHECK-LABEL: func.func @short
// LDS64K: stages = 2, tile_kv = 16, tile_q = 32, waves = 2
// LDS160K: stages = 2, tile_kv = 16, tile_q = 32, waves = 2
// LDS227K: mma = wgmma_64x128x16, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 64, waves = 4
func.func @short(%q: tensor<1x2x96x64xbf16>, %kv: tensor<1x2x48x64xbf16>) -> tensor<1x2x96x64xbf16> {
  %0 = hkg.attention %q, %kv, %kv : tensor<1x2x96x64xbf16>, tensor<1x2x48x64xbf16>, tensor<1x2x48x64xbf16> -> tensor<1x2x96x64xbf16>
  return %0 : tensor<1x2x96x64xbf16>
}

// layout(bshd): the lengths are read from dim 1, the heads from dim 2. A
// decode step (Sq = 1 over 32 heads) takes one 16-row query tile, a 4096-key
// cache 64-key blocks; D = 128 with a 16-row query tile fits double-buffered
// (V transposed) in 74.25 KiB, single-buffered in 39.25 KiB. The 4 query heads of a
// key/value head are the rows of one tile (pack_gqa), and the 64 blocks are
// split 16 ways (4 blocks each; issue 28).
// CHECK-LABEL: func.func @bshd_decode
// LDS64K: kv_split = 16, mma = {{mfma|wmma}}_16x16x16, pack_gqa = 1, stages = 1, tile_kv = 64, tile_q = 16, waves = 1
// LDS160K: kv_split = 16, mma = mfma_16x16x16, pack_gqa = 1, stages = 2, tile_kv = 64, tile_q = 16, waves = 1
// LDS227K: kv_split = 16, mma = mma_16x8x16, pack_gqa = 1, stages = 2, tile_kv = 64, tile_q = 16, waves = 1
func.func @bshd_decode(%q: tensor<1x1x32x128xbf16>, %kv: tensor<1x4096x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  %0 = hkg.attention %q, %kv, %kv layout(bshd) : tensor<1x1x32x128xbf16>, tensor<1x4096x8x128xbf16>, tensor<1x4096x8x128xbf16> -> tensor<1x1x32x128xbf16>
  return %0 : tensor<1x1x32x128xbf16>
}
