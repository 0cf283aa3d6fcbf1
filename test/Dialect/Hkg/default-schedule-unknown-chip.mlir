// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx9999 --verify-diagnostics

// The chip option names a chip the target table does not know.
func.func @unknown_chip(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{unknown chip 'gfx9999'; expected one of: gfx90a, gfx942, gfx950, gfx1100, gfx1151, gfx1201, gfx1250, sm_80, sm_90}}
  %0 = hkg.softmax %x axis(0) : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
