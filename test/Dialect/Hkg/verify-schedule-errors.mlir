// RUN: hkg-opt %s --split-input-file --hkg-verify-schedule --verify-diagnostics

func.func @no_target(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{no target: pass the 'chip' option or set an 'hkg.target = #hkg.target<chip = ...>' attribute}}
  %0 = hkg.softmax %x axis(0) {schedule = #hkg.schedule<threads = 64>} : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// expected-error @below {{expected 'hkg.target' to be an #hkg.target<chip = ...> attribute, got #hkg.schedule<>}}
module attributes {hkg.target = #hkg.schedule<>} {
  func.func @schedule_as_target(%x: tensor<8xf32>) -> tensor<8xf32> {
    %0 = hkg.softmax %x axis(0) : tensor<8xf32> -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// A module without hkg ops needs no target.
func.func @no_kernels(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
