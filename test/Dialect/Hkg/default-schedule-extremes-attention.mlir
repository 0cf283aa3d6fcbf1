// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 | FileCheck %s --check-prefixes=CHECK,GFX1100
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefixes=CHECK,SM90
// Every default passes its own verification on every target:
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx90a --hkg-verify-schedule="chip=gfx90a require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-verify-schedule="chip=gfx942 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx950 --hkg-verify-schedule="chip=gfx950 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1100 --hkg-verify-schedule="chip=gfx1100 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1151 --hkg-verify-schedule="chip=gfx1151 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1201 --hkg-verify-schedule="chip=gfx1201 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx1250 --hkg-verify-schedule="chip=gfx1250 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_80 --hkg-verify-schedule="chip=sm_80 require-schedule" -o /dev/null
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-verify-schedule="chip=sm_90 require-schedule" -o /dev/null

// Issue 24: every attention shape has a legal default (head dims that are not multiples of 16 take the FMA
// kernel; those the 16-byte copies do not divide, stages = 0). Lengths no tile divides take the smallest tile that covers
// them (at most 64; the kernel guards the partial tile); large head dims
// give up double buffering, then shrink the key/value block, then the query
// tile; where even 16 x 16 tiles exceed the LDS (D = 1024 on 64 KiB chips),
// the FMA kernel reads its operands from global memory (stages = 0).

// Decode: 1 query, GQA 32 over 8 heads, D = 128: the 4 query heads of a
// key/value head packed in a 16-row query tile (pack_gqa), one wave, the
// 64 blocks split 16 ways (kv_split; issue 28).
// CHECK-LABEL: func.func @decode_q1
// GFX942: kv_split = 16, mma = mfma_16x16x16, pack_gqa = 1, stages = 1, tile_kv = 64, tile_q = 16, waves = 1
// GFX1100: kv_split = 16, mma = wmma_16x16x16, pack_gqa = 1, stages = 1, tile_kv = 64, tile_q = 16, waves = 1
// SM90: kv_split = 16, mma = mma_16x8x16, pack_gqa = 1, stages = 2, tile_kv = 64, tile_q = 16, waves = 1
func.func @decode_q1(%q: tensor<1x32x1x128xbf16>, %k: tensor<1x8x4096x128xbf16>) -> tensor<1x32x1x128xbf16> {
  %0 = hkg.attention %q, %k, %k : tensor<1x32x1x128xbf16>, tensor<1x8x4096x128xbf16>, tensor<1x8x4096x128xbf16> -> tensor<1x32x1x128xbf16>
  return %0 : tensor<1x32x1x128xbf16>
}

// 13 queries over 4099 keys (prime), causal: both last tiles partial.
// CHECK-LABEL: func.func @decode_q13_kv4099
// GFX942: kv_split = 16, mma = mfma_16x16x16, pack_gqa = 1, stages = 1, tile_kv = 64, tile_q = 64, waves = 4
// SM90: kv_split = 16, mma = mma_16x8x16, pack_gqa = 1, stages = 2, tile_kv = 64, tile_q = 64, waves = 4
func.func @decode_q13_kv4099(%q: tensor<1x32x13x128xbf16>, %k: tensor<1x8x4099x128xbf16>) -> tensor<1x32x13x128xbf16> {
  %0 = hkg.attention %q, %k, %k causal : tensor<1x32x13x128xbf16>, tensor<1x8x4099x128xbf16>, tensor<1x8x4099x128xbf16> -> tensor<1x32x13x128xbf16>
  return %0 : tensor<1x32x13x128xbf16>
}

// One key, 3 queries, 7 query heads over one key/value head: the 21 packed
// rows take a 32-row tile.
// CHECK-LABEL: func.func @kv1
// CHECK: pack_gqa = 1, stages = 2, tile_kv = 16, tile_q = 32, waves = 2
func.func @kv1(%q: tensor<1x7x3x64xf16>, %k: tensor<1x1x1x64xf16>) -> tensor<1x7x3x64xf16> {
  %0 = hkg.attention %q, %k, %k : tensor<1x7x3x64xf16>, tensor<1x1x1x64xf16>, tensor<1x1x1x64xf16> -> tensor<1x7x3x64xf16>
  return %0 : tensor<1x7x3x64xf16>
}

// A prime prefill length: the default 64 x 64 tiles (sm_90: wgmma's, also
// 64 x 64 at D64), the last ones partial.
// CHECK-LABEL: func.func @prime_prefill
// GFX942: stages = 2, tile_kv = 64, tile_q = 64, waves = 4
// GFX1100: stages = 2, tile_kv = 64, tile_q = 64, waves = 4
// SM90: mma = wgmma_64x128x16, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 64, waves = 4
func.func @prime_prefill(%q: tensor<1x2x4099x64xbf16>) -> tensor<1x2x4099x64xbf16> {
  %0 = hkg.attention %q, %q, %q causal : tensor<1x2x4099x64xbf16>, tensor<1x2x4099x64xbf16>, tensor<1x2x4099x64xbf16> -> tensor<1x2x4099x64xbf16>
  return %0 : tensor<1x2x4099x64xbf16>
}

// D = 512 decode: single-buffered, 16-key blocks on 64 KiB chips.
// CHECK-LABEL: func.func @d512_decode
// GFX942: kv_split = 64, mma = mfma_16x16x16, pack_gqa = 1, stages = 1, tile_kv = 16, tile_q = 16, waves = 1
// GFX1100: kv_split = 64, mma = wmma_16x16x16, pack_gqa = 1, stages = 1, tile_kv = 16, tile_q = 16, waves = 1
// SM90: kv_split = 16, mma = mma_16x8x16, pack_gqa = 1, stages = 1, tile_kv = 64, tile_q = 16, waves = 1
func.func @d512_decode(%q: tensor<1x8x1x512xbf16>, %k: tensor<1x2x4096x512xbf16>) -> tensor<1x8x1x512xbf16> {
  %0 = hkg.attention %q, %k, %k : tensor<1x8x1x512xbf16>, tensor<1x2x4096x512xbf16>, tensor<1x2x4096x512xbf16> -> tensor<1x8x1x512xbf16>
  return %0 : tensor<1x8x1x512xbf16>
}

// D = 1024 decode: operands from global memory on 64 KiB chips; sm_90's
// 227 KiB hold one stage of 32 keys.
// CHECK-LABEL: func.func @d1024_decode
// GFX942: kv_split = 64, mma = none, pack_gqa = 1, stages = 0, tile_kv = 16, tile_q = 16, waves = 1
// GFX1100: kv_split = 64, mma = none, pack_gqa = 1, stages = 0, tile_kv = 16, tile_q = 16, waves = 1
// SM90: kv_split = 32, mma = mma_16x8x16, pack_gqa = 1, stages = 1, tile_kv = 32, tile_q = 16, waves = 1
func.func @d1024_decode(%q: tensor<1x8x1x1024xbf16>, %k: tensor<1x2x4096x1024xbf16>) -> tensor<1x8x1x1024xbf16> {
  %0 = hkg.attention %q, %k, %k : tensor<1x8x1x1024xbf16>, tensor<1x2x4096x1024xbf16>, tensor<1x2x4096x1024xbf16> -> tensor<1x8x1x1024xbf16>
  return %0 : tensor<1x8x1x1024xbf16>
}

// D = 1024 prefill: the query tile stays 64 rows (sm_90: one stage of 16
// keys, 198144 bytes).
// CHECK-LABEL: func.func @d1024_prefill
// GFX942: kv_split = 1, mma = none, pack_gqa = 0, stages = 0, tile_kv = 16, tile_q = 64, waves = 4
// SM90: kv_split = 1, mma = mma_16x8x16, pack_gqa = 0, stages = 1, tile_kv = 16, tile_q = 64, waves = 4
func.func @d1024_prefill(%q: tensor<1x4x4096x1024xbf16>) -> tensor<1x4x4096x1024xbf16> {
  %0 = hkg.attention %q, %q, %q causal : tensor<1x4x4096x1024xbf16>, tensor<1x4x4096x1024xbf16>, tensor<1x4x4096x1024xbf16> -> tensor<1x4x4096x1024xbf16>
  return %0 : tensor<1x4x4096x1024xbf16>
}

// D = 1024 f32 (FMAs everywhere; 198400 bytes at 16 x 16 on sm_90).
// CHECK-LABEL: func.func @d1024_f32
// GFX942: kv_split = 1, mma = none, pack_gqa = 0, stages = 0, tile_kv = 16, tile_q = 16, waves = 1
// SM90: kv_split = 1, mma = none, pack_gqa = 0, stages = 1, tile_kv = 16, tile_q = 16, waves = 1
func.func @d1024_f32(%q: tensor<2x4x13x1024xf32>) -> tensor<2x4x13x1024xf32> {
  %0 = hkg.attention %q, %q, %q causal : tensor<2x4x13x1024xf32>, tensor<2x4x13x1024xf32>, tensor<2x4x13x1024xf32> -> tensor<2x4x13x1024xf32>
  return %0 : tensor<2x4x13x1024xf32>
}

// D = 40 (Stable Diffusion's): FMAs (mma.sync needs multiples of 16), the
// usual LDS tiles (40 bf16 = five 16-byte chunks).
// CHECK-LABEL: func.func @d40
// CHECK: mma = none, pack_gqa = 0, stages = 2, tile_kv = 64, tile_q = 64, waves = 4
func.func @d40(%q: tensor<1x2x77x40xbf16>) -> tensor<1x2x77x40xbf16> {
  %0 = hkg.attention %q, %q, %q causal : tensor<1x2x77x40xbf16>, tensor<1x2x77x40xbf16>, tensor<1x2x77x40xbf16> -> tensor<1x2x77x40xbf16>
  return %0 : tensor<1x2x77x40xbf16>
}

// D = 1 (f32), Dv = 8: no 16-byte chunk divides D, so the operands come
// from global memory.
// CHECK-LABEL: func.func @d1
// CHECK: mma = none, pack_gqa = 0, stages = 0, tile_kv = 16, tile_q = 16, waves = 1
func.func @d1(%q: tensor<1x2x3x1xf32>, %k: tensor<1x2x5x1xf32>, %v: tensor<1x2x5x8xf32>) -> tensor<1x2x3x8xf32> {
  %0 = hkg.attention %q, %k, %v : tensor<1x2x3x1xf32>, tensor<1x2x5x1xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x3x8xf32>
  return %0 : tensor<1x2x3x8xf32>
}

// Head dims 8 does not divide (D = 36, Dv = 36 and Dv = 37): the FMA kernel
// from global memory, O's last 8-column tile partial.
// CHECK-LABEL: func.func @head_dims_ragged
// CHECK: hkg.attention {{.*}}mma = none, pack_gqa = 0, stages = 0
// CHECK: hkg.attention {{.*}}mma = none, pack_gqa = 0, stages = 0
func.func @head_dims_ragged(%q: tensor<1x2x1x36xbf16>, %k: tensor<1x2x13x36xbf16>, %v: tensor<1x2x13x37xf32>, %qf: tensor<1x2x1x36xf32>, %kf: tensor<1x2x13x36xf32>) -> (tensor<1x2x1x36xbf16>, tensor<1x2x1x37xf32>) {
  %0 = hkg.attention %q, %k, %k : tensor<1x2x1x36xbf16>, tensor<1x2x13x36xbf16>, tensor<1x2x13x36xbf16> -> tensor<1x2x1x36xbf16>
  %1 = hkg.attention %qf, %kf, %v : tensor<1x2x1x36xf32>, tensor<1x2x13x36xf32>, tensor<1x2x13x37xf32> -> tensor<1x2x1x37xf32>
  return %0, %1 : tensor<1x2x1x36xbf16>, tensor<1x2x1x37xf32>
}
