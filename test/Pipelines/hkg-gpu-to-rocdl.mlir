// The registered gpu-dialect pipelines, through hkg-opt: code objects (bin)
// and assembly (isa) for AMD, PTX for NVIDIA, embedded in gpu.binary ops.

// RUN: hkg-opt %S/../Target/Inputs/kernels.mlir --pass-pipeline='builtin.module(hkg-gpu-to-rocdl{chip=gfx942})' | FileCheck %s --check-prefix=BIN
// BIN:     gpu.binary @hkg_softmax_0 [#gpu.object<#rocdl.target<O = 3, chip = "gfx942">, bin = "\7FELF
// BIN:     gpu.binary @hkg_elementwise_1 [#gpu.object<#rocdl.target<O = 3, chip = "gfx942">, bin = "\7FELF
// BIN-NOT: gpu.module

// RUN: hkg-opt %S/../Target/Inputs/kernels.mlir --pass-pipeline='builtin.module(hkg-gpu-to-rocdl{chip=gfx1201 format=isa opt-level=2})' | FileCheck %s --check-prefix=ISA
// ISA:     gpu.binary @hkg_softmax_0 [#gpu.object<#rocdl.target<chip = "gfx1201", flags = {no_wave64}>, assembly = "{{.*}}.amdgcn_target \22amdgcn-amd-amdhsa--gfx1201\22{{.*}}global_load_b128{{.*}}.amdhsa_wavefront_size32 1

// RUN: hkg-opt %S/../Target/Inputs/kernels.mlir --pass-pipeline='builtin.module(hkg-gpu-to-rocdl{chip=gfx942 format=isa use-dpp=false})' | FileCheck %s --check-prefix=NODPP
// NODPP:     gpu.binary @hkg_softmax_0
// NODPP-NOT: _dpp
// NODPP:     gpu.binary @hkg_elementwise_1

// RUN: not hkg-opt %S/../Target/Inputs/kernels.mlir --pass-pipeline='builtin.module(hkg-gpu-to-rocdl{chip=sm_90})' 2>&1 | FileCheck %s --check-prefix=VENDOR
// VENDOR: hkg: 'sm_90' is not an AMD chip hkg knows; expected one of: gfx90a, gfx942, gfx950, gfx1100, gfx1151, gfx1201, gfx1250

// RUN: not hkg-opt %S/../Target/Inputs/kernels.mlir --pass-pipeline='builtin.module(hkg-gpu-to-rocdl{chip=gfx942 toolkit=/nonexistent})' 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// TOOLKIT: hkg: toolkit '/nonexistent' is not a ROCm toolkit (expected amdgcn/bitcode/ocml.bc and llvm/bin/ld.lld under it)
