// RUN: hkg-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(hkg-lower-subgroup-ops))' | FileCheck %s
// RUN: not hkg-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(hkg-lower-subgroup-ops{chip=gfx9000}))' 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: unknown chip 'gfx9000'; expected one of: gfx90a, gfx942,

// The wave size comes from the chip option or an hkg.target attribute.
// expected-error @below {{no target: pass the 'chip' option or set an 'hkg.target = #hkg.target<chip = ...>' attribute}}
gpu.module @no_target {
  gpu.func @reduce(%x: f32) -> f32 {
    %r = gpu.subgroup_reduce add %x : (f32) -> f32
    gpu.return %r : f32
  }
}

// -----

// With an hkg.target the pass runs without the option.
// CHECK-LABEL: gpu.func @size
// CHECK:         %[[C:.*]] = arith.constant 32 : index
// CHECK:         gpu.return %[[C]]
gpu.module @with_target attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  gpu.func @size() -> index {
    %n = gpu.subgroup_size : index
    gpu.return %n : index
  }
}
