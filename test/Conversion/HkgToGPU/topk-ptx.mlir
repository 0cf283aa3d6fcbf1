// The top-k kernels go through the upstream NVVM backend (sm_90 PTX).
// REQUIRES: libdevice
// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | hkg-opt %to_sm90_ptx | FileCheck %s --check-prefix=SM90

// SM90:        gpu.binary @hkg_topk_0
// SM90-SAME:     ld.global.v4
// SM90-SAME:     atom.shared.add.u32
// SM90-SAME:     bar.sync
// SM90-SAME:     shfl.sync.up.b32
// SM90:        gpu.binary @hkg_topk_1

func.func @logits(%x: tensor<64x128256xf32>) -> (tensor<64x50xf32>, tensor<64x50xi32>) {
  %v, %i = hkg.topk %x k(50) axis(1) : tensor<64x128256xf32> -> tensor<64x50xf32>, tensor<64x50xi32>
  return %v, %i : tensor<64x50xf32>, tensor<64x50xi32>
}
func.func @strided(%x: tensor<2x1000x8xf16>) -> (tensor<2x10x8xf16>, tensor<2x10x8xi64>) {
  %v, %i = hkg.topk %x k(10) axis(1) : tensor<2x1000x8xf16> -> tensor<2x10x8xf16>, tensor<2x10x8xi64>
  return %v, %i : tensor<2x10x8xf16>, tensor<2x10x8xi64>
}
