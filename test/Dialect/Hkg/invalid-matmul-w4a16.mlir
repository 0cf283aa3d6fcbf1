// RUN: hkg-opt %s --split-input-file --verify-diagnostics

func.func @group_size(%x: tensor<1x96xbf16>, %w: tensor<8x48xi8>, %s: tensor<8x2xbf16>, %z: tensor<8x2xi8>) -> tensor<1x8xbf16> {
  // expected-error @below {{'hkg.matmul_w4a16' op expected 'group_size' of 32, 64 or 128, got 48}}
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(48) : tensor<1x96xbf16>, tensor<8x48xi8>, tensor<8x2xbf16>, tensor<8x2xi8> -> tensor<1x8xbf16>
  return %y : tensor<1x8xbf16>
}

// -----

func.func @k_not_multiple(%x: tensor<1x96xbf16>, %w: tensor<8x48xi8>, %s: tensor<8x1xbf16>, %z: tensor<8x1xi8>) -> tensor<1x8xbf16> {
  // expected-error @below {{'hkg.matmul_w4a16' op expected K (96, the input's dim 1) to be a multiple of 'group_size' (64)}}
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(64) : tensor<1x96xbf16>, tensor<8x48xi8>, tensor<8x1xbf16>, tensor<8x1xi8> -> tensor<1x8xbf16>
  return %y : tensor<1x8xbf16>
}

// -----

func.func @weights_unpacked(%x: tensor<1x64xbf16>, %w: tensor<8x64xi8>, %s: tensor<8x2xbf16>, %z: tensor<8x2xi8>) -> tensor<1x8xbf16> {
  // expected-error @below {{'hkg.matmul_w4a16' op expected 'weights' of shape [8, 32] ([N, K / 2]: two int4 values per byte along K), got [8, 64]}}
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) : tensor<1x64xbf16>, tensor<8x64xi8>, tensor<8x2xbf16>, tensor<8x2xi8> -> tensor<1x8xbf16>
  return %y : tensor<1x8xbf16>
}

// -----

func.func @scales_shape(%x: tensor<1x64xbf16>, %w: tensor<8x32xi8>, %s: tensor<8x1xbf16>, %z: tensor<8x2xi8>) -> tensor<1x8xbf16> {
  // expected-error @below {{'hkg.matmul_w4a16' op expected 'scales' of shape [8, 2] ([N, K / group_size]), got [8, 1]}}
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) : tensor<1x64xbf16>, tensor<8x32xi8>, tensor<8x1xbf16>, tensor<8x2xi8> -> tensor<1x8xbf16>
  return %y : tensor<1x8xbf16>
}

// -----

func.func @zeros_shape(%x: tensor<1x64xbf16>, %w: tensor<8x32xi8>, %s: tensor<8x2xbf16>, %z: tensor<2x8xi8>) -> tensor<1x8xbf16> {
  // expected-error @below {{'hkg.matmul_w4a16' op expected 'zeros' of shape [8, 2] ([N, K / group_size]), got [2, 8]}}
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) : tensor<1x64xbf16>, tensor<8x32xi8>, tensor<8x2xbf16>, tensor<2x8xi8> -> tensor<1x8xbf16>
  return %y : tensor<1x8xbf16>
}

// -----

func.func @result_shape(%x: tensor<2x64xbf16>, %w: tensor<8x32xi8>, %s: tensor<8x2xbf16>, %z: tensor<8x2xi8>) -> tensor<8x2xbf16> {
  // expected-error @below {{'hkg.matmul_w4a16' op expected 'result' of shape [2, 8] ([M, N]), got [8, 2]}}
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) : tensor<2x64xbf16>, tensor<8x32xi8>, tensor<8x2xbf16>, tensor<8x2xi8> -> tensor<8x2xbf16>
  return %y : tensor<8x2xbf16>
}

// -----

func.func @scale_type(%x: tensor<1x64xbf16>, %w: tensor<8x32xi8>, %s: tensor<8x2xf16>, %z: tensor<8x2xi8>) -> tensor<1x8xbf16> {
  // expected-error @below {{'hkg.matmul_w4a16' op expected 'scales' of the input's element type 'bf16', got 'f16'}}
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) : tensor<1x64xbf16>, tensor<8x32xi8>, tensor<8x2xf16>, tensor<8x2xi8> -> tensor<1x8xbf16>
  return %y : tensor<1x8xbf16>
}

// -----

func.func @rank(%x: tensor<2x1x64xbf16>, %w: tensor<8x32xi8>, %s: tensor<8x2xbf16>, %z: tensor<8x2xi8>) -> tensor<2x8xbf16> {
  // expected-error @below {{'hkg.matmul_w4a16' op expected 'input' of rank 2, got rank 3}}
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) : tensor<2x1x64xbf16>, tensor<8x32xi8>, tensor<8x2xbf16>, tensor<8x2xi8> -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

func.func @f32_input(%x: tensor<1x64xf32>, %w: tensor<8x32xi8>, %s: tensor<8x2xf32>, %z: tensor<8x2xi8>) -> tensor<1x8xf32> {
  // expected-error @below {{operand #0 must be ranked tensor of 16-bit float or bfloat16 type values, but got 'tensor<1x64xf32>'}}
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) : tensor<1x64xf32>, tensor<8x32xi8>, tensor<8x2xf32>, tensor<8x2xi8> -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}
