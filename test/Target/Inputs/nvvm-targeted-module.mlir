// A gpu.module that already targets NVVM (refused by the ROCDL pipeline).
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    gpu.func @k(%out: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
