// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu | FileCheck %s

// Kernel pointers are plain by default; hkg.no_alias (the caller promises
// that no output overlaps another argument) makes every pointer llvm.noalias
// and the inputs llvm.readonly (docs/ABI.md).

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @rmsnorm(%x: tensor<64x4096xbf16>, %w: tensor<4096xbf16>) -> tensor<64x4096xbf16> {
    %0 = hkg.rmsnorm %x weight(%w : tensor<4096xbf16>) eps(1.0e-06) {hkg.no_alias} : tensor<64x4096xbf16> -> tensor<64x4096xbf16>
    return %0 : tensor<64x4096xbf16>
  }
}
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0(
// CHECK-SAME:    %{{[a-z0-9]+}}: memref<64x4096xbf16> {llvm.noalias, llvm.readonly},
// CHECK-SAME:    %{{[a-z0-9]+}}: memref<4096xbf16> {llvm.noalias, llvm.readonly},
// CHECK-SAME:    %{{[a-z0-9]+}}: memref<64x4096xbf16> {llvm.noalias})

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @matmul_bias(%x: tensor<256x512xbf16>, %w: tensor<256x512xbf16>, %bias: tensor<1x256xbf16>) -> tensor<256x256xbf16> {
    %0 = hkg.matmul %x, %w epilogue(%bias : tensor<1x256xbf16>) {hkg.no_alias, transpose_b}
        : tensor<256x512xbf16>, tensor<256x512xbf16> -> tensor<256x256xbf16> {
    ^bb0(%acc: f32, %b: bf16):
      %bf = arith.extf %b : bf16 to f32
      %s = arith.addf %acc, %bf : f32
      %r = arith.truncf %s : f32 to bf16
      hkg.yield %r : bf16
    }
    return %0 : tensor<256x256xbf16>
  }
}
// CHECK-LABEL: gpu.func @hkg_matmul_0(
// CHECK-SAME:    %{{[a-z0-9]+}}: memref<256x512xbf16> {llvm.noalias, llvm.readonly},
// CHECK-SAME:    %{{[a-z0-9]+}}: memref<256x512xbf16> {llvm.noalias, llvm.readonly},
// CHECK-SAME:    %{{[a-z0-9]+}}: memref<1x256xbf16> {llvm.noalias, llvm.readonly},
// CHECK-SAME:    %{{[a-z0-9]+}}: memref<256x256xbf16> {llvm.noalias})

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @plain(%x: tensor<64x4096xbf16>, %w: tensor<4096xbf16>) -> tensor<64x4096xbf16> {
    %0 = hkg.rmsnorm %x weight(%w : tensor<4096xbf16>) eps(1.0e-06) : tensor<64x4096xbf16> -> tensor<64x4096xbf16>
    return %0 : tensor<64x4096xbf16>
  }
}
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0(
// CHECK-SAME:    %{{[a-z0-9]+}}: memref<64x4096xbf16>, %{{[a-z0-9]+}}: memref<4096xbf16>, %{{[a-z0-9]+}}: memref<64x4096xbf16>) workgroup
