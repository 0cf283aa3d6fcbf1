// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-verify-schedule="chip=sm_90 require-schedule" -o /dev/null

// Rows of 65536 bf16 at 1024 threads: 64 elements a thread. A workgroup of
// 1024 threads on NVIDIA has 64 registers a thread, so its default caches at
// most 32 words, and such rows stay packed, two bf16 a word
// (packsCachedRow): softmax and layernorm, which otherwise cache f32 values
// (64 words: spilled on the H100 and ran slower than re-read), keep the row
// in 32 words and ran 1.23x / 1.29x faster than re-read (docs/perf "Long
// rows"); rmsnorm always packs. An f16 row does not pack: re-read, with
// online = 1. AMD (gfx942: 128 VGPRs a lane at 16 waves a CU) keeps the
// 64-word bound and f32 words. 1024 rows are more than the CUs of either
// chip, so no row is split (split 2 or 16 ran 1.4x / 2.6x slower than
// unsplit on the H100).

// SM90-LABEL: func.func @softmax_65536
// SM90: online = 0, row_cache = registers, row_split = 1, {{.*}}threads = 1024,
// GFX942-LABEL: func.func @softmax_65536
// GFX942: online = 0, row_cache = registers, row_split = 1, {{.*}}threads = 1024,
// GFX942-LABEL: func.func @layernorm_65536
// GFX942: moments = separate, occupancy = 0, row_cache = registers, row_split = 1, {{.*}}threads = 1024,
func.func @softmax_65536(%x: tensor<1024x65536xbf16>) -> tensor<1024x65536xbf16> {
  %0 = hkg.softmax %x axis(1) : tensor<1024x65536xbf16> -> tensor<1024x65536xbf16>
  return %0 : tensor<1024x65536xbf16>
}

// SM90-LABEL: func.func @layernorm_65536
// SM90: moments = separate, occupancy = 0, row_cache = registers, row_split = 1, {{.*}}threads = 1024,
func.func @layernorm_65536(%x: tensor<1024x65536xbf16>, %w: tensor<65536xbf16>) -> tensor<1024x65536xbf16> {
  %0 = hkg.layernorm %x weight(%w : tensor<65536xbf16>) bias(%w : tensor<65536xbf16>) eps(1.0e-05) : tensor<1024x65536xbf16> -> tensor<1024x65536xbf16>
  return %0 : tensor<1024x65536xbf16>
}

// SM90-LABEL: func.func @rmsnorm_65536
// SM90: row_cache = registers, row_split = 1, {{.*}}threads = 1024,
func.func @rmsnorm_65536(%x: tensor<1024x65536xbf16>, %w: tensor<65536xbf16>) -> tensor<1024x65536xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<65536xbf16>) eps(1.0e-06) : tensor<1024x65536xbf16> -> tensor<1024x65536xbf16>
  return %0 : tensor<1024x65536xbf16>
}

// SM90-LABEL: func.func @softmax_65536_f16
// SM90: online = 1, row_cache = none, row_split = 1, {{.*}}threads = 1024,
func.func @softmax_65536_f16(%x: tensor<1024x65536xf16>) -> tensor<1024x65536xf16> {
  %0 = hkg.softmax %x axis(1) : tensor<1024x65536xf16> -> tensor<1024x65536xf16>
  return %0 : tensor<1024x65536xf16>
}
