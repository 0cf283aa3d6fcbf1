// RUN: hkg-opt %s --hkg-verify-schedule=chip=sm_100 --verify-diagnostics

func.func @unknown_chip(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{unknown chip 'sm_100'; expected one of: gfx90a, gfx942, gfx950, gfx1100, gfx1151, gfx1201, gfx1250, sm_80, sm_90}}
  %0 = hkg.softmax %x axis(0) : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
