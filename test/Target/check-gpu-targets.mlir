// RUN: hkg-opt %s --split-input-file --hkg-check-gpu-targets=kind=rocdl --verify-diagnostics | FileCheck %s
// A gpu.module that already targets the other GPU kind is refused by the
// pipelines with an error and a non-zero exit (hkg-to-rocdl used to print a
// libdevice error for it and exit 0).
// RUN: not hkg-opt %S/Inputs/nvvm-targeted-module.mlir --pass-pipeline='builtin.module(hkg-to-rocdl{chip=gfx942})' 2>&1 | FileCheck %s --check-prefix=PIPE
// PIPE: error: gpu.module @k already targets #nvvm.target<chip = "sm_90">; the ROCDL pipeline compiles modules without a target or with #rocdl.target ones only
// RUN: not hkg-opt %S/Inputs/rocdl-targeted-module.mlir --pass-pipeline='builtin.module(hkg-to-nvvm{chip=sm_90})' 2>&1 | FileCheck %s --check-prefix=PIPE-NVVM
// PIPE-NVVM: error: gpu.module @k already targets #rocdl.target<chip = "gfx942">; the NVVM pipeline compiles modules without a target or with #nvvm.target ones only
// RUN: not hkg-opt %S/Inputs/rocdl-targeted-module.mlir --hkg-check-gpu-targets=kind=amd 2>&1 | FileCheck %s --check-prefix=KIND
// KIND: error: hkg-check-gpu-targets: kind 'amd' is not rocdl or nvvm

// Modules without a target, or with the pipeline's own, pass unchanged.
// CHECK-LABEL: gpu.module @plain {
// CHECK-LABEL: gpu.module @own [#rocdl.target<chip = "gfx942">]
module attributes {gpu.container_module} {
  gpu.module @plain {
    gpu.func @k() kernel { gpu.return }
  }
  gpu.module @own [#rocdl.target<chip = "gfx942">] {
    gpu.func @k() kernel { gpu.return }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{gpu.module @nv already targets #nvvm.target<chip = "sm_90">; the ROCDL pipeline compiles modules without a target or with #rocdl.target ones only}}
  gpu.module @nv [#nvvm.target<chip = "sm_90">] {
    gpu.func @k() kernel { gpu.return }
  }
}
