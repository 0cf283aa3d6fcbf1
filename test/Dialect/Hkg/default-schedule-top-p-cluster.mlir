// RUN: hkg-opt %s --split-input-file --hkg-default-schedule=chip=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule=chip=sm_80 | FileCheck %s --check-prefix=SM80

// top-p's default `ctas_per_row`: 4 (a cluster of four workgroups of 512
// threads per row) while four workgroups per row take at most 3/4 of the
// SMs (sm_90: 132 SMs, so up to 24 rows), else 2 (a cluster of two) while
// two workgroups per row fit the SMs in one wave (up to 66 rows), 1 above
// that and on targets without clusters (measured on the H200:
// SamplingSchedule.cpp).

// SM90-LABEL: func.func @rows1(
// SM90: ctas_per_row = 4,{{.*}} threads = 512,
// SM80-LABEL: func.func @rows1(
// SM80: ctas_per_row = 1,{{.*}} threads = 1024,
func.func @rows1(%l: tensor<1x128256xf32>) -> tensor<1xi32> {
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(7) : tensor<1x128256xf32> -> tensor<1xi32>
  return %0 : tensor<1xi32>
}

// -----

// SM90-LABEL: func.func @rows24(
// SM90: ctas_per_row = 4,{{.*}} threads = 512,
func.func @rows24(%l: tensor<24x128256xf32>) -> tensor<24xi32> {
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(7) : tensor<24x128256xf32> -> tensor<24xi32>
  return %0 : tensor<24xi32>
}

// -----

// SM90-LABEL: func.func @rows25(
// SM90: ctas_per_row = 2,{{.*}} threads = 1024,
func.func @rows25(%l: tensor<25x128256xf32>) -> tensor<25xi32> {
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(7) : tensor<25x128256xf32> -> tensor<25xi32>
  return %0 : tensor<25xi32>
}

// -----

// The row splits in halves but not in quarters of whole vectors (V = 1000
// takes vector_width = 4; 1000 = 2 * 4 * 125): two workgroups per row.
// SM90-LABEL: func.func @halves_only(
// SM90: ctas_per_row = 2
func.func @halves_only(%l: tensor<4x1000xf32>) -> tensor<4xi32> {
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(7) : tensor<4x1000xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// SM90-LABEL: func.func @rows64(
// SM90: ctas_per_row = 2
// SM80-LABEL: func.func @rows64(
// SM80: ctas_per_row = 1
func.func @rows64(%l: tensor<64x128256xf32>) -> tensor<64xi32> {
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(7) : tensor<64x128256xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}

// -----

// SM90-LABEL: func.func @rows66(
// SM90: ctas_per_row = 2
func.func @rows66(%l: tensor<66x32000xf32>) -> tensor<66xi32> {
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(7) : tensor<66x32000xf32> -> tensor<66xi32>
  return %0 : tensor<66xi32>
}

// -----

// SM90-LABEL: func.func @rows67(
// SM90: ctas_per_row = 1
func.func @rows67(%l: tensor<67x32000xf32>) -> tensor<67xi32> {
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(7) : tensor<67x32000xf32> -> tensor<67xi32>
  return %0 : tensor<67xi32>
}

// -----

// SM90-LABEL: func.func @rows256(
// SM90: ctas_per_row = 1
func.func @rows256(%l: tensor<256x32000xf32>) -> tensor<256xi32> {
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(7) : tensor<256x32000xf32> -> tensor<256xi32>
  return %0 : tensor<256xi32>
}

// -----

// The row does not split into halves of whole vectors (V = 1001 takes
// vector_width = 1; 1001 is odd): one workgroup per row.
// SM90-LABEL: func.func @odd_vocab(
// SM90: ctas_per_row = 1
func.func @odd_vocab(%l: tensor<8x1001xf32>) -> tensor<8xi32> {
  %0 = hkg.top_p_sample %l p(0.9) temperature(1.0) seed(7) : tensor<8x1001xf32> -> tensor<8xi32>
  return %0 : tensor<8xi32>
}
