// RUN: hkg-opt %s --split-input-file --verify-diagnostics
// The matmul case also through every tool that used to die on it (SIGFPE in
// the matmul lowering): a diagnostic and exit code 1.
// RUN: not hkg-compile %S/Inputs/zero-size-matmul.mlir --chip=gfx942 -o %t.bundle 2>&1 | FileCheck %s
// RUN: not hkg-opt %S/Inputs/zero-size-matmul.mlir --pass-pipeline='builtin.module(hkg-to-rocdl{chip=gfx942})' 2>&1 | FileCheck %s
// RUN: not hkg-opt %S/Inputs/zero-size-matmul.mlir --pass-pipeline='builtin.module(hkg-to-nvvm{chip=sm_90})' 2>&1 | FileCheck %s
// CHECK: error: 'hkg.matmul' op expected operand #0 to have no zero-size dim, got 'tensor<0x64xbf16>'

// An empty tensor is not a kernel: every kernel op refuses a zero-size dim
// on an operand or a result, before any lowering divides by it.

func.func @matmul_zero_m(%a: tensor<0x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<0x64xbf16> {
  // expected-error @below {{'hkg.matmul' op expected operand #0 to have no zero-size dim, got 'tensor<0x64xbf16>'}}
  %0 = hkg.matmul %a, %b : tensor<0x64xbf16>, tensor<64x64xbf16> -> tensor<0x64xbf16>
  return %0 : tensor<0x64xbf16>
}

// -----

func.func @softmax_empty_rows(%x: tensor<8x0xf32>) -> tensor<8x0xf32> {
  // expected-error @below {{'hkg.softmax' op expected operand #0 to have no zero-size dim, got 'tensor<8x0xf32>'}}
  %0 = hkg.softmax %x axis(1) : tensor<8x0xf32> -> tensor<8x0xf32>
  return %0 : tensor<8x0xf32>
}

// -----

func.func @rmsnorm_zero_rows(%x: tensor<0x4096xbf16>, %w: tensor<4096xbf16>) -> tensor<0x4096xbf16> {
  // expected-error @below {{'hkg.rmsnorm' op expected operand #0 to have no zero-size dim, got 'tensor<0x4096xbf16>'}}
  %0 = hkg.rmsnorm %x weight(%w : tensor<4096xbf16>) eps(1.0e-06) : tensor<0x4096xbf16> -> tensor<0x4096xbf16>
  return %0 : tensor<0x4096xbf16>
}

// -----

func.func @topk_zero_slices(%x: tensor<0x128xf32>) -> (tensor<0x4xf32>, tensor<0x4xi32>) {
  // expected-error @below {{'hkg.topk' op expected operand #0 to have no zero-size dim, got 'tensor<0x128xf32>'}}
  %v, %i = hkg.topk %x k(4) axis(1) : tensor<0x128xf32> -> tensor<0x4xf32>, tensor<0x4xi32>
  return %v, %i : tensor<0x4xf32>, tensor<0x4xi32>
}
