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

// Issue 24: hkg.topk defaults over slices of 1 to 1M elements, k from 1 to
// the whole slice and to the op's limit (1024).

// One element: a wave per slice.
// CHECK-LABEL: func.func @topk_1(
// CHECK: #hkg.schedule<per_slice = wave, sample_every = 1, threads = 256, unroll = 4, vector_width = 1>
func.func @topk_1(%x: tensor<1x1xf32>) -> (tensor<1x1xf32>, tensor<1x1xi32>) {
  %v, %i = hkg.topk %x k(1) axis(1) : tensor<1x1xf32> -> tensor<1x1xf32>, tensor<1x1xi32>
  return %v, %i : tensor<1x1xf32>, tensor<1x1xi32>
}

// k = 1 of 1M: a workgroup of 1024 threads, the lower bound sampled from
// every 8th step.
// CHECK-LABEL: func.func @topk_1m(
// CHECK: #hkg.schedule<per_slice = workgroup, sample_every = 8, threads = 1024, unroll = 4, vector_width = 4>
func.func @topk_1m(%x: tensor<1x1048576xf32>) -> (tensor<1x1xf32>, tensor<1x1xi32>) {
  %v, %i = hkg.topk %x k(1) axis(1) : tensor<1x1048576xf32> -> tensor<1x1xf32>, tensor<1x1xi32>
  return %v, %i : tensor<1x1xf32>, tensor<1x1xi32>
}

// The largest k (1024) of 1M.
// CHECK-LABEL: func.func @topk_1m_k1024(
// GFX942: #hkg.schedule<per_slice = workgroup, sample_every = 1, threads = 1024, unroll = 4, vector_width = 8>
// GFX1100: #hkg.schedule<per_slice = workgroup, sample_every = 1, threads = 1024, unroll = 4, vector_width = 8>
// SM90: #hkg.schedule<per_slice = workgroup, sample_every = 2, threads = 1024, unroll = 4, vector_width = 8>
func.func @topk_1m_k1024(%x: tensor<1x1048576xbf16>) -> (tensor<1x1024xbf16>, tensor<1x1024xi32>) {
  %v, %i = hkg.topk %x k(1024) axis(1) : tensor<1x1048576xbf16> -> tensor<1x1024xbf16>, tensor<1x1024xi32>
  return %v, %i : tensor<1x1024xbf16>, tensor<1x1024xi32>
}

// All 127 of 127 (prime; k above the wave mapping's 32): a workgroup of 128
// threads, 1-element accesses.
// CHECK-LABEL: func.func @topk_prime(
// CHECK: #hkg.schedule<per_slice = workgroup, sample_every = 1, threads = 128, unroll = 4, vector_width = 1>
func.func @topk_prime(%x: tensor<13x127xbf16>) -> (tensor<13x127xbf16>, tensor<13x127xi32>) {
  %v, %i = hkg.topk %x k(127) axis(1) : tensor<13x127xbf16> -> tensor<13x127xbf16>, tensor<13x127xi32>
  return %v, %i : tensor<13x127xbf16>, tensor<13x127xi32>
}
