// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 | FileCheck %s --check-prefix=GFX942
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-verify-schedule="chip=sm_90 require-schedule" -o /dev/null

// Rows of 65536 bf16 at 1024 threads: 64 elements a thread. softmax and
// layernorm cache rows as f32 (64 words), rmsnorm packed (32 words). A
// workgroup of 1024 threads on NVIDIA has 64 registers a thread, so its
// default caches at most 32 words: softmax and layernorm re-read the row
// (their 64-word caches spilled on the H100 and ran 1.09x / 1.23x slower
// than re-read, docs/perf "Long rows"), with online = 1 / moments =
// merged; rmsnorm keeps its packed row in registers. AMD (gfx942: 128
// VGPRs a lane at 16 waves a CU) keeps the 64-word bound. 1024 rows are
// more than the CUs of either chip, so no row is split (split 2 or 16 ran
// 1.4x / 2.6x slower than unsplit on the H100).

// SM90-LABEL: func.func @softmax_65536
// SM90: online = 1, row_cache = none, row_split = 1, {{.*}}threads = 1024,
// GFX942-LABEL: func.func @softmax_65536
// GFX942: online = 0, row_cache = registers, row_split = 1, {{.*}}threads = 1024,
// GFX942-LABEL: func.func @layernorm_65536
// GFX942: moments = separate, occupancy = 0, row_cache = registers, row_split = 1, {{.*}}threads = 1024,
func.func @softmax_65536(%x: tensor<1024x65536xbf16>) -> tensor<1024x65536xbf16> {
  %0 = hkg.softmax %x axis(1) : tensor<1024x65536xbf16> -> tensor<1024x65536xbf16>
  return %0 : tensor<1024x65536xbf16>
}

// SM90-LABEL: func.func @layernorm_65536
// SM90: moments = merged, occupancy = 0, row_cache = none, row_split = 1, {{.*}}threads = 1024,
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
