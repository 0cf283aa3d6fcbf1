// REQUIRES: cuda
// RUN: hkg-opt %S/../Target/Inputs/kernels.mlir --pass-pipeline='builtin.module(hkg-gpu-to-nvvm{chip=sm_90})' | FileCheck %s
// CHECK:     gpu.binary @hkg_softmax_0 [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, {{.*}}assembly = "{{.*}}.target sm_90{{.*}}.entry hkg_softmax_0{{.*}}ld.global.v4.b32
// CHECK:     gpu.binary @hkg_elementwise_1 [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, {{.*}}assembly = "{{.*}}.entry hkg_elementwise_1{{.*}}ld.global.v4.b32
// CHECK-NOT: gpu.module

// RUN: not hkg-opt %S/../Target/Inputs/kernels.mlir --pass-pipeline='builtin.module(hkg-gpu-to-nvvm{chip=gfx942})' 2>&1 | FileCheck %s --check-prefix=VENDOR
// VENDOR: hkg: 'gfx942' is not an NVIDIA chip hkg knows; expected one of: sm_80, sm_90

// With ptxas, format=bin gives cubins (ELF files).
// RUN: %if ptxas %{ hkg-opt %S/../Target/Inputs/kernels.mlir --pass-pipeline='builtin.module(hkg-gpu-to-nvvm{chip=sm_90 format=bin})' | FileCheck %s --check-prefix=CUBIN %}
// CUBIN: gpu.binary @hkg_softmax_0 [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, {{.*}}bin = "\7FELF
// CUBIN: gpu.binary @hkg_elementwise_1 [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, {{.*}}bin = "\7FELF
