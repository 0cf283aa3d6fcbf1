// What --emit=iree refuses, before writing a program IREE would run wrong.

// IREE passes dispatch constants as 32-bit kernel parameters; a kernel with
// dynamic sizes takes 64-bit ones.
// RUN: not hkg-compile %s --chip=gfx942 --emit=iree -o %t 2>&1 | FileCheck %s --check-prefix=DYN
// DYN: error: outlined function @dynamic_hkg_0 has dynamic sizes: IREE passes dispatch constants as 32-bit kernel parameters, hkg's kernels take 64-bit sizes

// RUN: not hkg-compile %s --chip=sm_90 --format=cubin --emit=iree -o %t 2>&1 | FileCheck %s --check-prefix=CUBIN
// CUBIN: hkg-compile: error: --emit=iree takes PTX (IREE's CUDA target embeds it), not --format=cubin

// RUN: not hkg-compile %s --chip=gfx942 --emit=vmfb -o %t 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: hkg-compile: error: --emit=vmfb is not 'bundle' or 'iree'

func.func @dynamic(%x: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %s = hkg.softmax %x axis(1) : tensor<?x1024xf32> -> tensor<?x1024xf32>
  return %s : tensor<?x1024xf32>
}
