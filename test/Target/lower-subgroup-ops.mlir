// RUN: hkg-opt %s --pass-pipeline='builtin.module(gpu.module(hkg-lower-subgroup-ops{chip=sm_90}))' | FileCheck %s --check-prefix=NV
// RUN: hkg-opt %s --pass-pipeline='builtin.module(gpu.module(hkg-lower-subgroup-ops{chip=gfx942}))' | FileCheck %s --check-prefix=DPP64
// RUN: hkg-opt %s --pass-pipeline='builtin.module(gpu.module(hkg-lower-subgroup-ops{chip=gfx1201}))' | FileCheck %s --check-prefix=DPP32
// RUN: hkg-opt %s --pass-pipeline='builtin.module(gpu.module(hkg-lower-subgroup-ops{chip=gfx942 use-dpp=false}))' | FileCheck %s --check-prefix=SHUFFLE64

gpu.module @kernels {
  // NV-LABEL: gpu.func @reduce_f32
  // NV-COUNT-5: gpu.shuffle xor
  // NV-NOT: gpu.shuffle
  // NV-NOT: gpu.subgroup_reduce
  // NV: gpu.return
  // DPP64-LABEL: gpu.func @reduce_f32
  // DPP64: amdgpu.dpp
  // DPP64: rocdl.readlane
  // DPP64-NOT: gpu.subgroup_reduce
  // DPP64: gpu.return
  // DPP32-LABEL: gpu.func @reduce_f32
  // DPP32: amdgpu.dpp
  // DPP32-NOT: gpu.subgroup_reduce
  // DPP32: gpu.return
  // SHUFFLE64-LABEL: gpu.func @reduce_f32
  // SHUFFLE64-COUNT-6: gpu.shuffle xor
  // SHUFFLE64-NOT: gpu.subgroup_reduce
  // SHUFFLE64: gpu.return
  gpu.func @reduce_f32(%x: f32) -> f32 {
    %r = gpu.subgroup_reduce maxnumf %x : (f32) -> f32
    gpu.return %r : f32
  }

  // A 64-bit vector is reduced as two 32-bit halves.
  // NV-LABEL: gpu.func @reduce_vector
  // NV-COUNT-10: gpu.shuffle xor {{.*}} : i32
  // NV-NOT: gpu.shuffle
  // NV-NOT: gpu.subgroup_reduce
  // NV: gpu.return
  gpu.func @reduce_vector(%x: vector<4xf16>) -> vector<4xf16> {
    %r = gpu.subgroup_reduce add %x : (vector<4xf16>) -> vector<4xf16>
    gpu.return %r : vector<4xf16>
  }

  // NV-LABEL: gpu.func @subgroup_size
  // NV: %[[C:.*]] = arith.constant 32 : index
  // NV: gpu.return %[[C]]
  // DPP64-LABEL: gpu.func @subgroup_size
  // DPP64: %[[C:.*]] = arith.constant 64 : index
  // DPP64: gpu.return %[[C]]
  // DPP32-LABEL: gpu.func @subgroup_size
  // DPP32: %[[C:.*]] = arith.constant 32 : index
  // DPP32: gpu.return %[[C]]
  gpu.func @subgroup_size() -> index {
    %n = gpu.subgroup_size : index
    gpu.return %n : index
  }

  // 64-bit shuffles (the i64 scans of top-p sampling) become two 32-bit
  // shuffles on every target.
  // NV-LABEL: gpu.func @shuffle_i64
  // NV-COUNT-2: gpu.shuffle up %{{.*}} : i32
  // NV-NOT: gpu.shuffle up %{{.*}} : i64
  // DPP64-LABEL: gpu.func @shuffle_i64
  // DPP64-COUNT-2: gpu.shuffle up %{{.*}} : i32
  // DPP64-NOT: gpu.shuffle up %{{.*}} : i64
  gpu.func @shuffle_i64(%x: i64, %out: memref<i64>) kernel {
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %r, %valid = gpu.shuffle up %x, %c1, %c32 : i64
    memref.store %r, %out[] : memref<i64>
    gpu.return
  }
}
