// hkg-compile runs the full pipeline on hkg ops: schedules are required.
// RUN: not hkg-compile %s --chip=gfx942 -o %t 2>&1 | FileCheck %s

func.func @softmax(%x: tensor<64x8192xbf16>) -> tensor<64x8192xbf16> {
  // CHECK: [[@LINE+1]]:8: error: 'hkg.softmax' op has no schedule; run hkg-default-schedule or hkg-autotune first
  %0 = hkg.softmax %x axis(1) : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
