// RUN: hkg-opt %s --split-input-file --verify-diagnostics

func.func @rank3(%x: tensor<16x4x64xf32>, %c: tensor<16x32xf32>, %s: tensor<16x32xf32>) -> tensor<16x4x64xf32> {
  // expected-error @below {{'hkg.rope' op expected 'input' of rank 4 [B, S, H, D], got rank 3}}
  %0 = hkg.rope %x, %c, %s neox offset(0) : tensor<16x4x64xf32>, tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x4x64xf32>
  return %0 : tensor<16x4x64xf32>
}

// -----

func.func @odd_head_dim(%x: tensor<1x16x4x63xf32>, %c: tensor<16x31xf32>, %s: tensor<16x31xf32>) -> tensor<1x16x4x63xf32> {
  // expected-error @below {{expected the head dim D to be even, got 63}}
  %0 = hkg.rope %x, %c, %s neox offset(0) : tensor<1x16x4x63xf32>, tensor<16x31xf32>, tensor<16x31xf32> -> tensor<1x16x4x63xf32>
  return %0 : tensor<1x16x4x63xf32>
}

// -----

func.func @cos_sin_types(%x: tensor<1x16x4x64xf32>, %c: tensor<16x32xf32>, %s: tensor<16x32xf16>) -> tensor<1x16x4x64xf32> {
  // expected-error @below {{expected 'cos' and 'sin' of the same type, got 'tensor<16x32xf32>' and 'tensor<16x32xf16>'}}
  %0 = hkg.rope %x, %c, %s neox offset(0) : tensor<1x16x4x64xf32>, tensor<16x32xf32>, tensor<16x32xf16> -> tensor<1x16x4x64xf32>
  return %0 : tensor<1x16x4x64xf32>
}

// -----

// The tables hold D/2 (one entry per pair) or D (one per feature) columns,
// nothing in between or beyond.
func.func @table_width(%x: tensor<1x16x4x64xf32>, %c: tensor<16x48xf32>, %s: tensor<16x48xf32>) -> tensor<1x16x4x64xf32> {
  // expected-error @below {{expected 'cos' and 'sin' of shape [P, 32] or [P, 64] with P >= S + offset = 16, got [16, 48]}}
  %0 = hkg.rope %x, %c, %s gptj offset(0) : tensor<1x16x4x64xf32>, tensor<16x48xf32>, tensor<16x48xf32> -> tensor<1x16x4x64xf32>
  return %0 : tensor<1x16x4x64xf32>
}

// -----

func.func @table_width_double(%x: tensor<1x16x4x64xf32>, %c: tensor<16x128xf32>, %s: tensor<16x128xf32>) -> tensor<1x16x4x64xf32> {
  // expected-error @below {{expected 'cos' and 'sin' of shape [P, 32] or [P, 64] with P >= S + offset = 16, got [16, 128]}}
  %0 = hkg.rope %x, %c, %s neox offset(0) : tensor<1x16x4x64xf32>, tensor<16x128xf32>, tensor<16x128xf32> -> tensor<1x16x4x64xf32>
  return %0 : tensor<1x16x4x64xf32>
}

// -----

func.func @full_width_table_too_short(%x: tensor<1x16x4x64xf32>, %c: tensor<20x64xf32>, %s: tensor<20x64xf32>) -> tensor<1x16x4x64xf32> {
  // expected-error @below {{expected 'cos' and 'sin' of shape [P, 32] or [P, 64] with P >= S + offset = 24, got [20, 64]}}
  %0 = hkg.rope %x, %c, %s neox offset(8) : tensor<1x16x4x64xf32>, tensor<20x64xf32>, tensor<20x64xf32> -> tensor<1x16x4x64xf32>
  return %0 : tensor<1x16x4x64xf32>
}

// -----

func.func @table_too_short(%x: tensor<1x16x4x64xf32>, %c: tensor<20x32xf32>, %s: tensor<20x32xf32>) -> tensor<1x16x4x64xf32> {
  // expected-error @below {{expected 'cos' and 'sin' of shape [P, 32] or [P, 64] with P >= S + offset = 24, got [20, 32]}}
  %0 = hkg.rope %x, %c, %s neox offset(8) : tensor<1x16x4x64xf32>, tensor<20x32xf32>, tensor<20x32xf32> -> tensor<1x16x4x64xf32>
  return %0 : tensor<1x16x4x64xf32>
}

// -----

func.func @table_rank(%x: tensor<1x16x4x64xf32>, %c: tensor<512xf32>, %s: tensor<512xf32>) -> tensor<1x16x4x64xf32> {
  // expected-error @below {{expected 'cos' and 'sin' of shape [P, 32] or [P, 64] with P >= S + offset = 16, got [512]}}
  %0 = hkg.rope %x, %c, %s neox offset(0) : tensor<1x16x4x64xf32>, tensor<512xf32>, tensor<512xf32> -> tensor<1x16x4x64xf32>
  return %0 : tensor<1x16x4x64xf32>
}

// -----

func.func @result_type(%x: tensor<1x16x4x64xbf16>, %c: tensor<16x32xf32>, %s: tensor<16x32xf32>) -> tensor<1x16x4x64xf32> {
  // expected-error @below {{expected the result type to equal the input type 'tensor<1x16x4x64xbf16>', got 'tensor<1x16x4x64xf32>'}}
  %0 = hkg.rope %x, %c, %s neox offset(0) : tensor<1x16x4x64xbf16>, tensor<16x32xf32>, tensor<16x32xf32> -> tensor<1x16x4x64xf32>
  return %0 : tensor<1x16x4x64xf32>
}

// -----

func.func @negative_offset(%x: tensor<1x16x4x64xf32>, %c: tensor<16x32xf32>, %s: tensor<16x32xf32>) -> tensor<1x16x4x64xf32> {
  // expected-error @below {{'hkg.rope' op attribute 'offset' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0}}
  %0 = hkg.rope %x, %c, %s neox offset(-1) : tensor<1x16x4x64xf32>, tensor<16x32xf32>, tensor<16x32xf32> -> tensor<1x16x4x64xf32>
  return %0 : tensor<1x16x4x64xf32>
}

// -----

func.func @unknown_layout(%x: tensor<1x16x4x64xf32>, %c: tensor<16x32xf32>, %s: tensor<16x32xf32>) -> tensor<1x16x4x64xf32> {
  // expected-error @below {{expected string or keyword containing one of the following enum values for attribute 'layout' [neox, gptj]}}
  %0 = hkg.rope %x, %c, %s llama offset(0) : tensor<1x16x4x64xf32>, tensor<16x32xf32>, tensor<16x32xf32> -> tensor<1x16x4x64xf32>
  return %0 : tensor<1x16x4x64xf32>
}
