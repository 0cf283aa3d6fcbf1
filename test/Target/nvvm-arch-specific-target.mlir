// RUN: hkg-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(hkg-nvvm-arch-specific-target))' | FileCheck %s

// A module with a kernel marked hkg.arch_specific (wgmma) moves to sm_90a
// with PTX 8.0 at least; a higher PTX version and the other target fields
// are kept.

// CHECK-LABEL: gpu.module @wgmma [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
gpu.module @wgmma [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">] {
  gpu.func @k() kernel attributes {hkg.arch_specific} {
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @newer [#nvvm.target<chip = "sm_90a", features = "+ptx85">]
gpu.module @newer [#nvvm.target<chip = "sm_90", features = "+ptx85">] {
  gpu.func @k() kernel attributes {hkg.arch_specific} {
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @nofeatures [#nvvm.target<chip = "sm_90a", features = "+ptx80">]
gpu.module @nofeatures [#nvvm.target<chip = "sm_90">] {
  gpu.func @k() kernel attributes {hkg.arch_specific} {
    gpu.return
  }
}

// -----

// hkg.ptx80 (bulk copies, proxy fences): PTX 8.0, the chip is kept; a
// higher PTX version too.

// CHECK-LABEL: gpu.module @bulk [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">]
gpu.module @bulk [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">] {
  gpu.func @k() kernel attributes {hkg.ptx80} {
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @bulknewer [#nvvm.target<chip = "sm_90", features = "+ptx85">]
gpu.module @bulknewer [#nvvm.target<chip = "sm_90", features = "+ptx85">] {
  gpu.func @k() kernel attributes {hkg.ptx80} {
    gpu.return
  }
}

// -----

// Both marks in one module: sm_90a with PTX 8.0.

// CHECK-LABEL: gpu.module @both [#nvvm.target<chip = "sm_90a", features = "+ptx80">]
gpu.module @both [#nvvm.target<chip = "sm_90", features = "+ptx78">] {
  gpu.func @a() kernel attributes {hkg.ptx80} {
    gpu.return
  }
  gpu.func @b() kernel attributes {hkg.arch_specific} {
    gpu.return
  }
}

// -----

// Without the mark nothing changes.

// CHECK-LABEL: gpu.module @plain [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">]
gpu.module @plain [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">] {
  gpu.func @k() kernel {
    gpu.return
  }
}
