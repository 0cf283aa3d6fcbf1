// RUN: hkg-opt %s | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Grouped-query causal attention.
// CHECK-LABEL: func.func @attention_gqa_causal
// CHECK-SAME: (%[[Q:.*]]: tensor<4x32x4096x128xbf16>, %[[K:.*]]: tensor<4x8x4096x128xbf16>, %[[V:.*]]: tensor<4x8x4096x128xbf16>)
// CHECK: hkg.attention %[[Q]], %[[K]], %[[V]] causal : tensor<4x32x4096x128xbf16>, tensor<4x8x4096x128xbf16>, tensor<4x8x4096x128xbf16> -> tensor<4x32x4096x128xbf16>
// GENERIC-LABEL: sym_name = "attention_gqa_causal"
// GENERIC: "hkg.attention"(%{{.*}}, %{{.*}}, %{{.*}}) <{causal}>
func.func @attention_gqa_causal(%q: tensor<4x32x4096x128xbf16>, %k: tensor<4x8x4096x128xbf16>, %v: tensor<4x8x4096x128xbf16>) -> tensor<4x32x4096x128xbf16> {
  %0 = hkg.attention %q, %k, %v causal
      : tensor<4x32x4096x128xbf16>, tensor<4x8x4096x128xbf16>, tensor<4x8x4096x128xbf16> -> tensor<4x32x4096x128xbf16>
  return %0 : tensor<4x32x4096x128xbf16>
}

// Non-causal, explicit scale, value head dim differing from the key's,
// decode shape (Sq = 1 < Skv).
// CHECK-LABEL: func.func @attention_scale_dv
// CHECK: hkg.attention %{{.*}}, %{{.*}}, %{{.*}} scale(1.250000e-01) : tensor<2x4x1x64xf16>, tensor<2x4x256x64xf16>, tensor<2x4x256x32xf16> -> tensor<2x4x1x32xf16>
// GENERIC-LABEL: sym_name = "attention_scale_dv"
// GENERIC: <{scale = 1.250000e-01 : f32}>
func.func @attention_scale_dv(%q: tensor<2x4x1x64xf16>, %k: tensor<2x4x256x64xf16>, %v: tensor<2x4x256x32xf16>) -> tensor<2x4x1x32xf16> {
  %0 = hkg.attention %q, %k, %v scale(0.125)
      : tensor<2x4x1x64xf16>, tensor<2x4x256x64xf16>, tensor<2x4x256x32xf16> -> tensor<2x4x1x32xf16>
  return %0 : tensor<2x4x1x32xf16>
}

// CHECK-LABEL: func.func @attention_causal_scale_schedule
// CHECK: hkg.attention %{{.*}}, %{{.*}}, %{{.*}} causal scale(5.000000e-01) {schedule = #hkg.schedule<mma = none, tile_kv = 32, tile_q = 32, waves = 2>} : tensor<1x2x64x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32> -> tensor<1x2x64x16xf32>
func.func @attention_causal_scale_schedule(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x128x16xf32>, %v: tensor<1x2x128x16xf32>) -> tensor<1x2x64x16xf32> {
  %0 = hkg.attention %q, %k, %v causal scale(0.5) {schedule = #hkg.schedule<tile_q = 32, tile_kv = 32, waves = 2, mma = none>}
      : tensor<1x2x64x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32> -> tensor<1x2x64x16xf32>
  return %0 : tensor<1x2x64x16xf32>
}

// The bshd layout: [B, S, H, D] operands and result (GQA 32 over 8 heads,
// a 2048-token prefill).
// CHECK-LABEL: func.func @attention_bshd
// CHECK-SAME: (%[[Q:.*]]: tensor<1x2048x32x128xbf16>, %[[K:.*]]: tensor<1x2048x8x128xbf16>, %[[V:.*]]: tensor<1x2048x8x128xbf16>)
// CHECK: hkg.attention %[[Q]], %[[K]], %[[V]] causal layout(bshd) : tensor<1x2048x32x128xbf16>, tensor<1x2048x8x128xbf16>, tensor<1x2048x8x128xbf16> -> tensor<1x2048x32x128xbf16>
// GENERIC-LABEL: sym_name = "attention_bshd"
// GENERIC: "hkg.attention"(%{{.*}}, %{{.*}}, %{{.*}}) <{causal, layout = 1 : i32}>
func.func @attention_bshd(%q: tensor<1x2048x32x128xbf16>, %k: tensor<1x2048x8x128xbf16>, %v: tensor<1x2048x8x128xbf16>) -> tensor<1x2048x32x128xbf16> {
  %0 = hkg.attention %q, %k, %v causal layout(bshd)
      : tensor<1x2048x32x128xbf16>, tensor<1x2048x8x128xbf16>, tensor<1x2048x8x128xbf16> -> tensor<1x2048x32x128xbf16>
  return %0 : tensor<1x2048x32x128xbf16>
}

// bshd decode (Sq = 1) with a scale, a value head dim of its own and a
// schedule; an explicit bhsd.
// CHECK-LABEL: func.func @attention_layouts_scale_schedule
// CHECK: hkg.attention %{{.*}}, %{{.*}}, %{{.*}} scale(1.250000e-01) layout(bshd) {schedule = #hkg.schedule<mma = none, tile_kv = 32, tile_q = 16, waves = 1>} : tensor<2x1x4x64xf16>, tensor<2x256x2x64xf16>, tensor<2x256x2x32xf16> -> tensor<2x1x4x32xf16>
// CHECK: hkg.attention %{{.*}}, %{{.*}}, %{{.*}} causal layout(bhsd) : tensor<2x4x1x64xf16>, tensor<2x2x256x64xf16>, tensor<2x2x256x32xf16> -> tensor<2x4x1x32xf16>
// GENERIC-LABEL: sym_name = "attention_layouts_scale_schedule"
// GENERIC: <{layout = 1 : i32, scale = 1.250000e-01 : f32, schedule = #hkg.schedule<mma = none, tile_kv = 32, tile_q = 16, waves = 1>}>
// GENERIC: <{causal, layout = 0 : i32}>
func.func @attention_layouts_scale_schedule(%q: tensor<2x1x4x64xf16>, %k: tensor<2x256x2x64xf16>, %v: tensor<2x256x2x32xf16>,
    %q2: tensor<2x4x1x64xf16>, %k2: tensor<2x2x256x64xf16>, %v2: tensor<2x2x256x32xf16>) -> (tensor<2x1x4x32xf16>, tensor<2x4x1x32xf16>) {
  %0 = hkg.attention %q, %k, %v scale(0.125) layout(bshd) {schedule = #hkg.schedule<tile_q = 16, tile_kv = 32, waves = 1, mma = none>}
      : tensor<2x1x4x64xf16>, tensor<2x256x2x64xf16>, tensor<2x256x2x32xf16> -> tensor<2x1x4x32xf16>
  %1 = hkg.attention %q2, %k2, %v2 causal layout(bhsd)
      : tensor<2x4x1x64xf16>, tensor<2x2x256x64xf16>, tensor<2x2x256x32xf16> -> tensor<2x4x1x32xf16>
  return %0, %1 : tensor<2x1x4x32xf16>, tensor<2x4x1x32xf16>
}

// Additive masks: one per batch and head, and a key-padding row per batch
// (f32 beside bf16 operands) with causal and bshd.
// CHECK-LABEL: func.func @attention_mask
// CHECK-SAME: (%[[Q:.*]]: tensor<2x4x64x32xbf16>, %[[K:.*]]: tensor<2x4x64x32xbf16>, %[[M:.*]]: tensor<2x4x64x64xbf16>, %[[Q2:.*]]: tensor<2x64x4x32xbf16>, %[[K2:.*]]: tensor<2x128x2x32xbf16>, %[[P:.*]]: tensor<2x1x1x128xf32>)
// CHECK: hkg.attention %[[Q]], %[[K]], %[[K]] mask(%[[M]] : tensor<2x4x64x64xbf16>) : tensor<2x4x64x32xbf16>, tensor<2x4x64x32xbf16>, tensor<2x4x64x32xbf16> -> tensor<2x4x64x32xbf16>
// CHECK: hkg.attention %[[Q2]], %[[K2]], %[[K2]] mask(%[[P]] : tensor<2x1x1x128xf32>) causal layout(bshd) : tensor<2x64x4x32xbf16>, tensor<2x128x2x32xbf16>, tensor<2x128x2x32xbf16> -> tensor<2x64x4x32xbf16>
// GENERIC-LABEL: sym_name = "attention_mask"
// GENERIC: "hkg.attention"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (tensor<2x4x64x32xbf16>, tensor<2x4x64x32xbf16>, tensor<2x4x64x32xbf16>, tensor<2x4x64x64xbf16>)
// GENERIC: "hkg.attention"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{causal, layout = 1 : i32}> : (tensor<2x64x4x32xbf16>, tensor<2x128x2x32xbf16>, tensor<2x128x2x32xbf16>, tensor<2x1x1x128xf32>)
func.func @attention_mask(%q: tensor<2x4x64x32xbf16>, %k: tensor<2x4x64x32xbf16>, %m: tensor<2x4x64x64xbf16>,
    %q2: tensor<2x64x4x32xbf16>, %k2: tensor<2x128x2x32xbf16>, %p: tensor<2x1x1x128xf32>) -> (tensor<2x4x64x32xbf16>, tensor<2x64x4x32xbf16>) {
  %0 = hkg.attention %q, %k, %k mask(%m : tensor<2x4x64x64xbf16>)
      : tensor<2x4x64x32xbf16>, tensor<2x4x64x32xbf16>, tensor<2x4x64x32xbf16> -> tensor<2x4x64x32xbf16>
  %1 = hkg.attention %q2, %k2, %k2 mask(%p : tensor<2x1x1x128xf32>) causal layout(bshd)
      : tensor<2x64x4x32xbf16>, tensor<2x128x2x32xbf16>, tensor<2x128x2x32xbf16> -> tensor<2x64x4x32xbf16>
  return %0, %1 : tensor<2x4x64x32xbf16>, tensor<2x64x4x32xbf16>
}
