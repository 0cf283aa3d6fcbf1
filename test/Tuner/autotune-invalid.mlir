// A missing or corrupt database or model is a clear error, not a crash.
// RUN: not hkg-opt %s --hkg-autotune="device=none db=%t.does-not-exist.sqlite" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: echo "this is not a database, only some text long enough to read" > %t.corrupt.sqlite
// RUN: not hkg-opt %s --hkg-autotune="device=none db=%t.corrupt.sqlite" 2>&1 | FileCheck %s --check-prefix=CORRUPT
// RUN: not hkg-opt %s --hkg-autotune="device=auto db=%t.corrupt.sqlite" 2>&1 | FileCheck %s --check-prefix=CORRUPT
// RUN: not hkg-opt %s --hkg-autotune="device=none model=%t.no-model.json" 2>&1 | FileCheck %s --check-prefix=NOMODEL
// RUN: echo "{not json" > %t.bad-model.json
// RUN: not hkg-opt %s --hkg-autotune="device=none model=%t.bad-model.json" 2>&1 | FileCheck %s --check-prefix=BADMODEL
// RUN: not hkg-opt %s --hkg-autotune="device=gpu" 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not hkg-opt %s --hkg-autotune="device=none chip=gfx9000" 2>&1 | FileCheck %s --check-prefix=CHIP

// MISSING: error: hkg-autotune: tuning database '{{.*}}does-not-exist.sqlite' does not exist
// CORRUPT: error: hkg-autotune: tuning database '{{.*}}corrupt.sqlite': file is not a database
// NOMODEL: error: hkg-autotune: cannot load policy model '{{.*}}no-model.json'
// BADMODEL: error: hkg-autotune: cannot load policy model '{{.*}}bad-model.json'
// DEVICE: error: hkg-autotune: unknown device 'gpu'; expected auto or none
// CHIP: error: unknown chip 'gfx9000'; expected one of:

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @softmax(%x: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
    %0 = hkg.softmax %x axis(1) : tensor<64x8192xf32> -> tensor<64x8192xf32>
    return %0 : tensor<64x8192xf32>
  }
}
