// hkg-compile's errors name the offending thing and what is expected.

// RUN: rm -rf %t && mkdir -p %t/empty
// RUN: not hkg-compile %s --chip=gfx9000 -o %t/a 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: unknown chip 'gfx9000'; expected one of: gfx90a, gfx942,

// RUN: not hkg-compile %s --chip=gfx942 --format=ptx -o %t/b 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: format 'ptx' is not available for gfx942; expected hsaco

// RUN: not hkg-compile %s --chip=gfx942 --toolkit=%t/empty -o %t/c 2>&1 | FileCheck %s --check-prefix=TOOLKIT -DDIR=%t/empty
// TOOLKIT: error: hkg: toolkit '[[DIR]]' is not a ROCm toolkit (expected amdgcn/bitcode/ocml.bc and llvm/bin/ld.lld under it)

// RUN: not hkg-compile %s --chip=gfx942 -o %t/d 2>&1 | FileCheck %s --check-prefix=LAUNCH
// RUN: not hkg-compile %s --chip=sm_90 --format=hsaco -o %t/e 2>&1 | FileCheck %s --check-prefix=NVFORMAT
// NVFORMAT: error: format 'hsaco' is not available for sm_90; expected ptx or cubin

module attributes {gpu.container_module} {
  gpu.module @fine {
    gpu.func @fine(%out: memref<4xf32>) kernel attributes {
        known_block_size = array<i32: 4, 1, 1>,
        known_grid_size = array<i32: 1, 1, 1>} {
      gpu.return
    }
  }
  gpu.module @no_launch_dims {
    // LAUNCH: [[@LINE+1]]:5: error: kernel has no known_block_size and known_grid_size (or hkg.grid_x); a bundle's launch dims are fixed at compile time or computed by its manifest's rule
    gpu.func @no_launch_dims(%out: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// Without --chip the module's hkg.target attribute is needed.
// RUN: not hkg-compile %s -o %t/f 2>&1 | FileCheck %s --check-prefix=NOCHIP
// NOCHIP: error: no target: pass --chip or set an 'hkg.target = #hkg.target<chip = ...>' attribute on the module
