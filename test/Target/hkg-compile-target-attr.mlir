// Without --chip, hkg-compile compiles for the module's hkg.target.
// RUN: rm -rf %t
// RUN: hkg-compile %s -o %t
// RUN: FileCheck %s --input-file=%t/manifest.json
// CHECK: "target": "gfx1201",
// CHECK: "wave_size": 32,

module attributes {gpu.container_module, hkg.target = #hkg.target<chip = "gfx1201">} {
  gpu.module @k {
    gpu.func @k(%out: memref<256xf32>) kernel attributes {
        known_block_size = array<i32: 256, 1, 1>,
        known_grid_size = array<i32: 1, 1, 1>} {
      %tid = gpu.thread_id x
      %c = arith.constant 1.0 : f32
      memref.store %c, %out[%tid] : memref<256xf32>
      gpu.return
    }
  }
}
