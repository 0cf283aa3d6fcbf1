// A gpu.module that already targets ROCDL (refused by the NVVM pipeline).
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx942">] {
    gpu.func @k(%out: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
