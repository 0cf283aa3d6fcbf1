// Kernels whose occupancy is limited by one resource each, for
// test/Target/ROCDL/occupancy.test. Register use is forced with inline-asm
// clobbers; the expected occupancy is what llc prints (`; Occupancy:`) for
// the same register counts and LDS size.
module attributes {gpu.container_module} {
  // 200 VGPRs: gfx942 512/alignTo(200, 8) = 2; gfx1100 1536/alignTo(200, 24) = 7.
  gpu.module @vgpr_bound {
    gpu.func @vgpr_bound(%out: memref<256xf32>) kernel attributes {
        known_block_size = array<i32: 256, 1, 1>,
        known_grid_size = array<i32: 1, 1, 1>} {
      llvm.inline_asm has_side_effects "", "~{v199}" : () -> ()
      gpu.return
    }
  }
  // s99 in use: 106 SGPRs with VCC, flat scratch and XNACK; the GFX9 SGPR
  // table gives 7 waves on gfx942 (RDNA has no SGPR limit).
  gpu.module @sgpr_bound {
    gpu.func @sgpr_bound(%out: memref<256xf32>) kernel attributes {
        known_block_size = array<i32: 256, 1, 1>,
        known_grid_size = array<i32: 1, 1, 1>} {
      llvm.inline_asm has_side_effects "", "~{s99}" : () -> ()
      gpu.return
    }
  }
  // 40 KiB of LDS, 256 threads: gfx942 one workgroup (4 waves) per CU = 1 per
  // SIMD; gfx950 (160 KiB) 4; gfx1100 (128 KiB per WGP, 8 waves of 32) 6.
  gpu.module @lds_bound {
    gpu.func @lds_bound(%out: memref<256xf32>)
        workgroup(%tile: memref<10240xf32, #gpu.address_space<workgroup>>)
        kernel attributes {
        known_block_size = array<i32: 256, 1, 1>,
        known_grid_size = array<i32: 1, 1, 1>} {
      %c10239 = arith.constant 10239 : index
      %tid = gpu.thread_id x
      %f = arith.index_cast %tid : index to i32
      %v = arith.sitofp %f : i32 to f32
      memref.store %v, %tile[%tid] : memref<10240xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %j = arith.subi %c10239, %tid : index
      %w = memref.load %tile[%j] : memref<10240xf32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%tid] : memref<256xf32>
      gpu.return
    }
  }
}
