// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu | FileCheck %s

// Slice views (docs/ABI.md, "Slice views"): a kernel reading a static
// tensor.extract_slice takes the sliced buffer whole, an identity-layout
// parameter, and views it inside with memref.subview (and the reshapes
// around the slice), so that its family lowering reads a strided memref.
// The host launches it on the buffer itself; the view ops are gone.

// A fused QKV projection's output split as a Llama layer does: q (the first
// 128 features, 4 heads of 32) rotated by RoPE, v (the last 64) squared
// by an elementwise op. RoPE streams q as [tokens, H*D] with rows 256
// elements apart; the elementwise kernel reads v's span at offset 192, one
// 8-wide vector within each row (row * 256 + column).
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @qkv_rope
// CHECK-SAME:    (%[[QKV:.*]]: tensor<64x256xbf16>
// CHECK-NOT:     tensor.extract_slice
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[B0:.*]] = bufferization.to_buffer %[[QKV]] read_only : tensor<64x256xbf16> to memref<64x256xbf16>
// CHECK:         gpu.launch_func  @hkg_rope_0::@hkg_rope_0 {{.*}} args(%[[B0]] : memref<64x256xbf16>,
// CHECK:         %[[B1:.*]] = bufferization.to_buffer %[[QKV]] read_only : tensor<64x256xbf16> to memref<64x256xbf16>
// CHECK:         gpu.launch_func  @hkg_elementwise_0::@hkg_elementwise_0 {{.*}} args(%[[B1]] : memref<64x256xbf16>, %{{.*}} : memref<1x64x64xbf16>)
// CHECK-NOT:     tensor.extract_slice
// CHECK:         return
// CHECK:       gpu.func @hkg_rope_0(%[[X:.*]]: memref<64x256xbf16>, %{{.*}}: memref<64x16xf32>, %{{.*}}: memref<64x16xf32>, %{{.*}}: memref<1x64x4x32xbf16>) kernel
// CHECK-SAME:    hkg.source = "module {\0A  func.func @ref(%arg0: tensor<64x256xbf16>, %arg1: tensor<64x16xf32>, %arg2: tensor<64x16xf32>) -> tensor<1x64x4x32xbf16> {\0A    %expanded = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [1, 64, 256] : tensor<64x256xbf16> into tensor<1x64x256xbf16>\0A    %extracted_slice = tensor.extract_slice %expanded[0, 0, 0] [1, 64, 128] [1, 1, 1]
// CHECK:         %[[E:.*]] = memref.expand_shape %[[X]] {{\[\[}}0, 1], [2]] output_shape [1, 64, 256] : memref<64x256xbf16> into memref<1x64x256xbf16>
// CHECK:         %[[S:.*]] = memref.subview %[[E]][0, 0, 0] [1, 64, 128] [1, 1, 1] : memref<1x64x256xbf16> to memref<1x64x128xbf16, strided<[16384, 256, 1]>>
// CHECK:         %[[Q4:.*]] = memref.expand_shape %[[S]] {{\[\[}}0], [1], [2, 3]] output_shape [1, 64, 4, 32] : memref<1x64x128xbf16, strided<[16384, 256, 1]>> into memref<1x64x4x32xbf16, strided<[16384, 256, 32, 1]>>
// CHECK:         %[[ROWS:.*]] = memref.collapse_shape %[[Q4]] {{\[\[}}0, 1], [2, 3]] : memref<1x64x4x32xbf16, strided<[16384, 256, 32, 1]>> into memref<64x128xbf16, strided<[256, 1]>>
// CHECK:         vector.load %[[ROWS]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x128xbf16, strided<[256, 1]>>, vector<8xbf16>
// CHECK:       gpu.func @hkg_elementwise_0(%[[Y:.*]]: memref<64x256xbf16>, %{{.*}}: memref<1x64x64xbf16>) kernel
// CHECK-SAME:    hkg.schedule = #hkg.schedule<threads = 256, unroll = 4, vector_width = 8>
// CHECK:         %[[E:.*]] = memref.expand_shape %[[Y]]
// CHECK:         %[[S:.*]] = memref.subview %[[E]][0, 0, 192] [1, 64, 64] [1, 1, 1] : memref<1x64x256xbf16> to memref<1x64x64xbf16, strided<[16384, 256, 1], offset: 192>>
// CHECK:         %[[SPAN:.*]] = memref.reinterpret_cast %[[S]] to offset: [192], sizes: [16192], strides: [1]
// CHECK:         %[[COL:.*]] = arith.remui %[[I:.*]], %c64
// CHECK:         %[[ROW:.*]] = arith.divui %[[I]], %c64
// CHECK:         %[[R:.*]] = arith.muli %[[ROW]], %c256
// CHECK:         %[[AT:.*]] = arith.addi %[[R]], %[[COL]]
// CHECK:         vector.load %[[SPAN]][%[[AT]]] {alignment = 16 : i64} : memref<16192xbf16, strided<[1], offset: 192>>, vector<8xbf16>
func.func @qkv_rope(%qkv: tensor<64x256xbf16>, %cos: tensor<64x16xf32>, %sin: tensor<64x16xf32>) -> (tensor<1x64x4x32xbf16>, tensor<1x64x64xbf16>) {
  %e = tensor.expand_shape %qkv [[0, 1], [2]] output_shape [1, 64, 256] : tensor<64x256xbf16> into tensor<1x64x256xbf16>
  %q = tensor.extract_slice %e[0, 0, 0] [1, 64, 128] [1, 1, 1] : tensor<1x64x256xbf16> to tensor<1x64x128xbf16>
  %v = tensor.extract_slice %e[0, 0, 192] [1, 64, 64] [1, 1, 1] : tensor<1x64x256xbf16> to tensor<1x64x64xbf16>
  %q4 = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [1, 64, 4, 32] : tensor<1x64x128xbf16> into tensor<1x64x4x32xbf16>
  %r = hkg.rope %q4, %cos, %sin neox offset(0) : tensor<1x64x4x32xbf16>, tensor<64x16xf32>, tensor<64x16xf32> -> tensor<1x64x4x32xbf16>
  %t = hkg.elementwise %v : tensor<1x64x64xbf16> -> tensor<1x64x64xbf16> {
  ^bb0(%a: bf16):
    %y = arith.mulf %a, %a : bf16
    hkg.yield %y : bf16
  }
  return %r, %t : tensor<1x64x4x32xbf16>, tensor<1x64x64xbf16>
}
}

// -----

// Attention reading q, k and v as head ranges of one [B, 8, S, D] tensor:
// three parameters on the same buffer, each viewed at its head offset;
// cp.async copies 16-byte chunks from the strided views.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: func.func @attention_heads
// CHECK-NOT:     tensor.extract_slice
// CHECK:         gpu.launch_func  @hkg_attention_0::@hkg_attention_0 {{.*}} args(%{{.*}} : memref<1x8x128x64xbf16>, %{{.*}} : memref<1x8x128x64xbf16>, %{{.*}} : memref<1x8x128x64xbf16>, %{{.*}} : memref<1x4x128x64xbf16>)
// CHECK:       gpu.func @hkg_attention_0(%[[Q:.*]]: memref<1x8x128x64xbf16>, %[[K:.*]]: memref<1x8x128x64xbf16>, %[[V:.*]]: memref<1x8x128x64xbf16>, %{{.*}}: memref<1x4x128x64xbf16>)
// CHECK:         %[[QV:.*]] = memref.subview %[[Q]][0, 0, 0, 0] [1, 4, 128, 64] [1, 1, 1, 1] : memref<1x8x128x64xbf16> to memref<1x4x128x64xbf16, strided<[65536, 8192, 64, 1]>>
// CHECK:         %[[KV:.*]] = memref.subview %[[K]][0, 4, 0, 0] [1, 2, 128, 64] [1, 1, 1, 1] : memref<1x8x128x64xbf16> to memref<1x2x128x64xbf16, strided<[65536, 8192, 64, 1], offset: 32768>>
// CHECK:         %[[VV:.*]] = memref.subview %[[V]][0, 6, 0, 0] [1, 2, 128, 64] [1, 1, 1, 1] : memref<1x8x128x64xbf16> to memref<1x2x128x64xbf16, strided<[65536, 8192, 64, 1], offset: 49152>>
// CHECK:         nvgpu.device_async_copy %[[QV]][
// CHECK:         nvgpu.device_async_copy %[[KV]][
// CHECK:         nvgpu.device_async_copy %[[VV]][
func.func @attention_heads(%qkv: tensor<1x8x128x64xbf16>) -> tensor<1x4x128x64xbf16> {
  %q = tensor.extract_slice %qkv[0, 0, 0, 0] [1, 4, 128, 64] [1, 1, 1, 1] : tensor<1x8x128x64xbf16> to tensor<1x4x128x64xbf16>
  %k = tensor.extract_slice %qkv[0, 4, 0, 0] [1, 2, 128, 64] [1, 1, 1, 1] : tensor<1x8x128x64xbf16> to tensor<1x2x128x64xbf16>
  %v = tensor.extract_slice %qkv[0, 6, 0, 0] [1, 2, 128, 64] [1, 1, 1, 1] : tensor<1x8x128x64xbf16> to tensor<1x2x128x64xbf16>
  %o = hkg.attention %q, %k, %v causal : tensor<1x4x128x64xbf16>, tensor<1x2x128x64xbf16>, tensor<1x2x128x64xbf16> -> tensor<1x4x128x64xbf16>
  return %o : tensor<1x4x128x64xbf16>
}
}

// -----

// A family that reads identity layouts only (softmax) gets a copy: an
// hkg.elementwise identity kernel reads the slice in place (through the
// reshape before it) and writes a dense buffer, which the softmax reads
// under the reshape after the slice, as a plain view. A second reader of
// the same slice reuses the copy.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @softmax_copy
// CHECK-SAME:    (%[[X:.*]]: tensor<64x96xf32>)
// CHECK:         %[[B:.*]] = bufferization.to_buffer %[[X]] read_only : tensor<64x96xf32> to memref<64x96xf32>
// CHECK:         %[[C:.*]] = memref.alloc() : memref<64x32xf32>
// CHECK:         gpu.launch_func  @hkg_elementwise_0::@hkg_elementwise_0 {{.*}} args(%[[B]] : memref<64x96xf32>, %[[C]] : memref<64x32xf32>)
// CHECK:         %[[CT:.*]] = bufferization.to_tensor %[[C]]
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[CT]] {{\[\[}}0], [1, 2]] output_shape [64, 4, 8]
// CHECK:         %[[EB:.*]] = bufferization.to_buffer %[[E]] read_only : tensor<64x4x8xf32> to memref<64x4x8xf32>
// CHECK:         gpu.launch_func  @hkg_softmax_0::@hkg_softmax_0 {{.*}} args(%[[EB]] : memref<64x4x8xf32>,
// CHECK:         %[[CB:.*]] = bufferization.to_buffer %[[CT]] read_only : tensor<64x32xf32> to memref<64x32xf32>
// CHECK:         gpu.launch_func  @hkg_softmax_1::@hkg_softmax_1 {{.*}} args(%[[CB]] : memref<64x32xf32>,
// CHECK-NOT:     gpu.launch_func
// CHECK:         return
// CHECK:       gpu.func @hkg_elementwise_0(%[[A:.*]]: memref<64x96xf32>, %{{.*}}: memref<64x32xf32>)
// CHECK:         memref.subview %[[A]][0, 32] [64, 32] [1, 1] : memref<64x96xf32> to memref<64x32xf32, strided<[96, 1], offset: 32>>
func.func @softmax_copy(%x: tensor<64x96xf32>) -> (tensor<64x4x8xf32>, tensor<64x32xf32>) {
  %s = tensor.extract_slice %x[0, 32] [64, 32] [1, 1] : tensor<64x96xf32> to tensor<64x32xf32>
  %e = tensor.expand_shape %s [[0], [1, 2]] output_shape [64, 4, 8] : tensor<64x32xf32> into tensor<64x4x8xf32>
  %t = hkg.softmax %e axis(2) : tensor<64x4x8xf32> -> tensor<64x4x8xf32>
  %u = hkg.softmax %s axis(1) : tensor<64x32xf32> -> tensor<64x32xf32>
  return %t, %u : tensor<64x4x8xf32>, tensor<64x32xf32>
}
}

// -----

// RoPE reads x as [tokens, H*D]: a slice along D has no such view (its
// heads do not follow each other), so it is copied; so is a k slice whose
// rows start 72 bytes into the buffer, which attention (16-byte chunks)
// does not read in place, and the same slice as v reuses that copy. An
// elementwise kernel reads any slice in place: at offset 1 its vectors
// claim 4-byte alignment only.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: func.func @rope_d_slice
// CHECK:         gpu.launch_func  @hkg_elementwise_0::@hkg_elementwise_0 {{.*}} args(%{{.*}} : memref<1x64x4x64xbf16>, %{{.*}} : memref<1x64x4x32xbf16>)
// CHECK:         gpu.launch_func  @hkg_rope_0::@hkg_rope_0 {{.*}} args(%{{.*}} : memref<1x64x4x32xbf16>,
func.func @rope_d_slice(%x: tensor<1x64x4x64xbf16>, %cos: tensor<64x16xf32>, %sin: tensor<64x16xf32>) -> tensor<1x64x4x32xbf16> {
  %q = tensor.extract_slice %x[0, 0, 0, 32] [1, 64, 4, 32] [1, 1, 1, 1] : tensor<1x64x4x64xbf16> to tensor<1x64x4x32xbf16>
  %r = hkg.rope %q, %cos, %sin neox offset(0) : tensor<1x64x4x32xbf16>, tensor<64x16xf32>, tensor<64x16xf32> -> tensor<1x64x4x32xbf16>
  return %r : tensor<1x64x4x32xbf16>
}

// CHECK-LABEL: func.func @attention_misaligned
// CHECK:         gpu.launch_func  @hkg_elementwise_1::@hkg_elementwise_1 {{.*}} args(%{{.*}} : memref<1x4x128x80xf16>, %{{.*}} : memref<1x4x128x32xf16>)
// CHECK-NOT:     gpu.launch_func  @hkg_elementwise
// CHECK:         gpu.launch_func  @hkg_attention_0::@hkg_attention_0 {{.*}} args(%{{.*}} : memref<1x4x128x80xf16>, %{{.*}} : memref<1x4x128x32xf16>, %{{.*}} : memref<1x4x128x32xf16>, %{{.*}} : memref<1x4x128x32xf16>)
func.func @attention_misaligned(%qkv: tensor<1x4x128x80xf16>) -> tensor<1x4x128x32xf16> {
  %q = tensor.extract_slice %qkv[0, 0, 0, 0] [1, 4, 128, 32] [1, 1, 1, 1] : tensor<1x4x128x80xf16> to tensor<1x4x128x32xf16>
  %k = tensor.extract_slice %qkv[0, 0, 0, 36] [1, 4, 128, 32] [1, 1, 1, 1] : tensor<1x4x128x80xf16> to tensor<1x4x128x32xf16>
  %o = hkg.attention %q, %k, %k : tensor<1x4x128x32xf16>, tensor<1x4x128x32xf16>, tensor<1x4x128x32xf16> -> tensor<1x4x128x32xf16>
  return %o : tensor<1x4x128x32xf16>
}

// CHECK-LABEL: func.func @elementwise_misaligned
// CHECK:         gpu.launch_func  @hkg_elementwise_2::@hkg_elementwise_2 {{.*}} args(%{{.*}} : memref<64x67xf32>, %{{.*}} : memref<64x64xf32>)
// CHECK:       gpu.func @hkg_elementwise_2(
// CHECK:         %[[S:.*]] = memref.subview %{{.*}}[0, 1] [64, 64] [1, 1] : memref<64x67xf32> to memref<64x64xf32, strided<[67, 1], offset: 1>>
// CHECK:         %[[SPAN:.*]] = memref.reinterpret_cast %[[S]] to offset: [1], sizes: [4285], strides: [1]
// CHECK:         vector.load %[[SPAN]][%{{.*}}] {alignment = 4 : i64} : memref<4285xf32, strided<[1], offset: 1>>, vector<4xf32>
func.func @elementwise_misaligned(%x: tensor<64x67xf32>) -> tensor<64x64xf32> {
  %s = tensor.extract_slice %x[0, 1] [64, 64] [1, 1] : tensor<64x67xf32> to tensor<64x64xf32>
  %t = hkg.elementwise %s : tensor<64x64xf32> -> tensor<64x64xf32> {
  ^bb0(%a: f32):
    %y = math.tanh %a : f32
    hkg.yield %y : f32
  }
  return %t : tensor<64x64xf32>
}
}

// -----

// A slice at a dynamic offset is no view: it stays a host op, bufferized
// there, and the kernel reads its result as a dense buffer of the slice's
// shape (hkg-reject-host-ops refuses it first unless host ops are allowed).
// CHECK-LABEL: func.func @dynamic_slice
// CHECK:         %[[S:.*]] = tensor.extract_slice %arg0[%arg1, 0] [8, 64] [1, 1] : tensor<64x64xf32> to tensor<8x64xf32>
// CHECK:         %[[B:.*]] = bufferization.to_buffer %[[S]] read_only : tensor<8x64xf32> to memref<8x64xf32>
// CHECK:         gpu.launch_func @hkg_softmax_{{[0-9]+}}::@hkg_softmax_{{[0-9]+}} {{.*}} args(%[[B]] : memref<8x64xf32>,
// CHECK:       gpu.func @hkg_softmax_{{[0-9]+}}(%{{.*}}: memref<8x64xf32>, %{{.*}}: memref<8x64xf32>) kernel
// CHECK-NOT:     memref.subview
// CHECK:         gpu.return
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
func.func @dynamic_slice(%x: tensor<64x64xf32>, %i: index) -> tensor<8x64xf32> {
  %h = tensor.extract_slice %x[%i, 0] [8, 64] [1, 1] : tensor<64x64xf32> to tensor<8x64xf32>
  %s = hkg.softmax %h axis(1) : tensor<8x64xf32> -> tensor<8x64xf32>
  return %s : tensor<8x64xf32>
}
}
