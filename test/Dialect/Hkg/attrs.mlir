// RUN: hkg-opt %s | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | hkg-opt | FileCheck %s

// #hkg.target on a module, #hkg.schedule in every spelling the parser takes:
// integers (also negative), bare keywords, quoted strings, quoted knob names,
// and the empty schedule. Knobs print sorted by name.

// CHECK: module attributes {hkg.target = #hkg.target<chip = "gfx942">}
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  // CHECK-LABEL: func.func @schedules
  // CHECK-SAME: empty = #hkg.schedule<>
  // CHECK-SAME: ints = #hkg.schedule<a = 1, b = -2, c = 9223372036854775807>
  // CHECK-SAME: keywords = #hkg.schedule<mma = mfma_16x16x16, row_cache = registers>
  // CHECK-SAME: quoted = #hkg.schedule<"knob with space" = "a value", plain = "two words">
  func.func @schedules() attributes {
      empty = #hkg.schedule<>,
      ints = #hkg.schedule<c = 9223372036854775807, b = -2, a = 1>,
      keywords = #hkg.schedule<row_cache = registers, mma = mfma_16x16x16>,
      quoted = #hkg.schedule<"plain" = "two words", "knob with space" = "a value">} {
    return
  }

  // Every chip of the target table is a valid #hkg.target.
  // CHECK-LABEL: func.func @targets
  // CHECK-SAME: t0 = #hkg.target<chip = "gfx90a">
  // CHECK-SAME: t1 = #hkg.target<chip = "gfx942">
  // CHECK-SAME: t2 = #hkg.target<chip = "gfx950">
  // CHECK-SAME: t3 = #hkg.target<chip = "gfx1100">
  // CHECK-SAME: t4 = #hkg.target<chip = "gfx1151">
  // CHECK-SAME: t5 = #hkg.target<chip = "gfx1201">
  // CHECK-SAME: t6 = #hkg.target<chip = "gfx1250">
  // CHECK-SAME: t7 = #hkg.target<chip = "sm_80">
  // CHECK-SAME: t8 = #hkg.target<chip = "sm_90">
  func.func @targets() attributes {
      t0 = #hkg.target<chip = "gfx90a">, t1 = #hkg.target<chip = "gfx942">,
      t2 = #hkg.target<chip = "gfx950">, t3 = #hkg.target<chip = "gfx1100">,
      t4 = #hkg.target<chip = "gfx1151">, t5 = #hkg.target<chip = "gfx1201">,
      t6 = #hkg.target<chip = "gfx1250">, t7 = #hkg.target<chip = "sm_80">,
      t8 = #hkg.target<chip = "sm_90">} {
    return
  }
}
