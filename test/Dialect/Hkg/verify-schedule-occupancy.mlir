// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule --verify-diagnostics

// The `occupancy` knob of the row ops (ScheduleUtils.h): no more workgroups
// than the CU (SM) holds waves for, and only where the code generator takes
// the hint (NVIDIA, CDNA).

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @too_many_waves(%x: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
  // expected-error @below {{'hkg.softmax' op schedule knob 'occupancy' = 3 asks for 3 x 32 waves per compute unit; sm_90 holds at most 64}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<threads = 1024, occupancy = 3>} : tensor<64x8192xf32> -> tensor<64x8192xf32>
  return %0 : tensor<64x8192xf32>
}
}

// -----

module attributes {hkg.target = #hkg.target<chip = "gfx1100">} {
func.func @no_hint_on_rdna(%x: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
  // expected-error @below {{schedule knob 'occupancy' = 2 is not legal}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<occupancy = 2>} : tensor<64x8192xf32> -> tensor<64x8192xf32>
  return %0 : tensor<64x8192xf32>
}
}
