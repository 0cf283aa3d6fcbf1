// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --verify-diagnostics

func.func @no_target(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{no target: pass the 'chip' option or set an 'hkg.target = #hkg.target<chip = ...>' attribute}}
  %0 = hkg.softmax %x axis(0) : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// expected-error @below {{expected 'hkg.target' to be an #hkg.target<chip = ...> attribute, got "gfx942"}}
module attributes {hkg.target = "gfx942"} {
  func.func @string_target(%x: tensor<8xf32>) -> tensor<8xf32> {
    %0 = hkg.softmax %x axis(0) : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// A schedule the op already carries is verified like hkg-verify-schedule
// does.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @illegal_existing(%x: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @below {{'hkg.softmax' op schedule knob 'threads' = 32 is not legal for hkg.softmax on gfx942; expected one of: 64, 128, 256, 512, 1024}}
    %0 = hkg.softmax %x axis(0) {schedule = #hkg.schedule<threads = 32>} : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// Every op is checked, not only the first bad one.
module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @two_bad(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    // expected-error @below {{unknown schedule knob 'tile_m' for hkg.softmax}}
    %0 = hkg.softmax %x axis(0) {schedule = #hkg.schedule<tile_m = 32>} : tensor<8xf32> -> tensor<8xf32>
    // expected-error @below {{unknown schedule knob 'tile_n' for hkg.softmax}}
    %1 = hkg.softmax %x axis(0) {schedule = #hkg.schedule<tile_n = 32>} : tensor<8xf32> -> tensor<8xf32>
    return %0, %1 : tensor<8xf32>, tensor<8xf32>
  }
}
