// RUN: hkg-opt %s --split-input-file --verify-diagnostics

func.func @query_rank(%q: tensor<4x64x16xf16>, %k: tensor<1x4x64x16xf16>, %v: tensor<1x4x64x16xf16>) -> tensor<1x4x64x16xf16> {
  // expected-error @below {{'hkg.attention' op expected 'query' of rank 4 [B, H, S, D], got rank 3}}
  %0 = hkg.attention %q, %k, %v : tensor<4x64x16xf16>, tensor<1x4x64x16xf16>, tensor<1x4x64x16xf16> -> tensor<1x4x64x16xf16>
  return %0 : tensor<1x4x64x16xf16>
}

// -----

func.func @key_rank(%q: tensor<1x4x64x16xf16>, %k: tensor<4x64x16xf16>, %v: tensor<1x4x64x16xf16>) -> tensor<1x4x64x16xf16> {
  // expected-error @below {{expected 'key' of rank 4 [B, H, S, D], got rank 3}}
  %0 = hkg.attention %q, %k, %v : tensor<1x4x64x16xf16>, tensor<4x64x16xf16>, tensor<1x4x64x16xf16> -> tensor<1x4x64x16xf16>
  return %0 : tensor<1x4x64x16xf16>
}

// -----

func.func @value_rank(%q: tensor<1x4x64x16xf16>, %k: tensor<1x4x64x16xf16>, %v: tensor<1x1x4x64x16xf16>) -> tensor<1x4x64x16xf16> {
  // expected-error @below {{expected 'value' of rank 4 [B, H, S, D], got rank 5}}
  %0 = hkg.attention %q, %k, %v : tensor<1x4x64x16xf16>, tensor<1x4x64x16xf16>, tensor<1x1x4x64x16xf16> -> tensor<1x4x64x16xf16>
  return %0 : tensor<1x4x64x16xf16>
}

// -----

func.func @result_rank(%q: tensor<1x4x64x16xf16>, %k: tensor<1x4x64x16xf16>, %v: tensor<1x4x64x16xf16>) -> tensor<4x64x16xf16> {
  // expected-error @below {{expected 'result' of rank 4 [B, H, S, D], got rank 3}}
  %0 = hkg.attention %q, %k, %v : tensor<1x4x64x16xf16>, tensor<1x4x64x16xf16>, tensor<1x4x64x16xf16> -> tensor<4x64x16xf16>
  return %0 : tensor<4x64x16xf16>
}

// -----

func.func @element_types(%q: tensor<1x4x64x16xf16>, %k: tensor<1x4x64x16xbf16>, %v: tensor<1x4x64x16xf16>) -> tensor<1x4x64x16xf16> {
  // expected-error @below {{expected 'query', 'key' and 'value' of one element type, got 'f16', 'bf16' and 'f16'}}
  %0 = hkg.attention %q, %k, %v : tensor<1x4x64x16xf16>, tensor<1x4x64x16xbf16>, tensor<1x4x64x16xf16> -> tensor<1x4x64x16xf16>
  return %0 : tensor<1x4x64x16xf16>
}

// -----

func.func @batch(%q: tensor<2x4x64x16xf16>, %k: tensor<1x4x64x16xf16>, %v: tensor<2x4x64x16xf16>) -> tensor<2x4x64x16xf16> {
  // expected-error @below {{expected one batch size B = 2, got 1 for 'key' and 2 for 'value'}}
  %0 = hkg.attention %q, %k, %v : tensor<2x4x64x16xf16>, tensor<1x4x64x16xf16>, tensor<2x4x64x16xf16> -> tensor<2x4x64x16xf16>
  return %0 : tensor<2x4x64x16xf16>
}

// -----

func.func @key_head_dim(%q: tensor<1x4x64x16xf16>, %k: tensor<1x4x64x32xf16>, %v: tensor<1x4x64x16xf16>) -> tensor<1x4x64x16xf16> {
  // expected-error @below {{expected 'key' head dim to equal 'query' head dim 16, got 32}}
  %0 = hkg.attention %q, %k, %v : tensor<1x4x64x16xf16>, tensor<1x4x64x32xf16>, tensor<1x4x64x16xf16> -> tensor<1x4x64x16xf16>
  return %0 : tensor<1x4x64x16xf16>
}

// -----

func.func @value_heads_length(%q: tensor<1x4x64x16xf16>, %k: tensor<1x4x64x16xf16>, %v: tensor<1x2x32x16xf16>) -> tensor<1x4x64x16xf16> {
  // expected-error @below {{expected 'value' heads and length [4, 64] to match 'key', got [2, 32]}}
  %0 = hkg.attention %q, %k, %v : tensor<1x4x64x16xf16>, tensor<1x4x64x16xf16>, tensor<1x2x32x16xf16> -> tensor<1x4x64x16xf16>
  return %0 : tensor<1x4x64x16xf16>
}

// -----

func.func @gqa_heads(%q: tensor<1x6x64x16xf16>, %k: tensor<1x4x64x16xf16>, %v: tensor<1x4x64x16xf16>) -> tensor<1x6x64x16xf16> {
  // expected-error @below {{expected query heads (6) to be a multiple of key/value heads (4)}}
  %0 = hkg.attention %q, %k, %v : tensor<1x6x64x16xf16>, tensor<1x4x64x16xf16>, tensor<1x4x64x16xf16> -> tensor<1x6x64x16xf16>
  return %0 : tensor<1x6x64x16xf16>
}

// -----

// Zero key/value heads must be an error, not a division by zero (the
// zero-size dim is refused first, for every kernel op).
func.func @zero_kv_heads(%q: tensor<1x4x64x16xf16>, %k: tensor<1x0x64x16xf16>, %v: tensor<1x0x64x16xf16>) -> tensor<1x4x64x16xf16> {
  // expected-error @below {{'hkg.attention' op expected operand #1 to have no zero-size dim, got 'tensor<1x0x64x16xf16>'}}
  %0 = hkg.attention %q, %k, %v : tensor<1x4x64x16xf16>, tensor<1x0x64x16xf16>, tensor<1x0x64x16xf16> -> tensor<1x4x64x16xf16>
  return %0 : tensor<1x4x64x16xf16>
}

// -----

func.func @causal_sq_above_skv(%q: tensor<1x4x128x16xf16>, %k: tensor<1x4x64x16xf16>, %v: tensor<1x4x64x16xf16>) -> tensor<1x4x128x16xf16> {
  // expected-error @below {{expected Sq <= Skv with 'causal', got Sq = 128 and Skv = 64}}
  %0 = hkg.attention %q, %k, %v causal : tensor<1x4x128x16xf16>, tensor<1x4x64x16xf16>, tensor<1x4x64x16xf16> -> tensor<1x4x128x16xf16>
  return %0 : tensor<1x4x128x16xf16>
}

// -----

func.func @result_shape(%q: tensor<1x4x64x16xf16>, %k: tensor<1x4x64x16xf16>, %v: tensor<1x4x64x8xf16>) -> tensor<1x4x64x16xf16> {
  // expected-error @below {{expected result shape [1, 4, 64, 8] [B, Hq, Sq, Dv], got [1, 4, 64, 16]}}
  %0 = hkg.attention %q, %k, %v : tensor<1x4x64x16xf16>, tensor<1x4x64x16xf16>, tensor<1x4x64x8xf16> -> tensor<1x4x64x16xf16>
  return %0 : tensor<1x4x64x16xf16>
}

// -----

func.func @scale_negative(%q: tensor<1x4x64x16xf16>, %k: tensor<1x4x64x16xf16>, %v: tensor<1x4x64x16xf16>) -> tensor<1x4x64x16xf16> {
  // expected-error @below {{expected 'scale' > 0 and finite, got -1.000000e+00}}
  %0 = hkg.attention %q, %k, %v scale(-1.0) : tensor<1x4x64x16xf16>, tensor<1x4x64x16xf16>, tensor<1x4x64x16xf16> -> tensor<1x4x64x16xf16>
  return %0 : tensor<1x4x64x16xf16>
}

// -----

func.func @dynamic_key(%q: tensor<1x4x64x16xf16>, %k: tensor<1x4x?x16xf16>, %v: tensor<1x4x64x16xf16>) -> tensor<1x4x64x16xf16> {
  // expected-error @below {{expected operand #1 to have a static shape, got 'tensor<1x4x?x16xf16>'}}
  %0 = hkg.attention %q, %k, %v : tensor<1x4x64x16xf16>, tensor<1x4x?x16xf16>, tensor<1x4x64x16xf16> -> tensor<1x4x64x16xf16>
  return %0 : tensor<1x4x64x16xf16>
}

// -----

// layout(bshd): the messages name its dim order, and the dims are read in it.
func.func @bshd_query_rank(%q: tensor<64x4x16xf16>, %k: tensor<1x64x4x16xf16>, %v: tensor<1x64x4x16xf16>) -> tensor<1x64x4x16xf16> {
  // expected-error @below {{expected 'query' of rank 4 [B, S, H, D], got rank 3}}
  %0 = hkg.attention %q, %k, %v layout(bshd) : tensor<64x4x16xf16>, tensor<1x64x4x16xf16>, tensor<1x64x4x16xf16> -> tensor<1x64x4x16xf16>
  return %0 : tensor<1x64x4x16xf16>
}

// -----

// [B, S, H, D] value with the key's length but other heads.
func.func @bshd_value_heads(%q: tensor<1x64x4x16xf16>, %k: tensor<1x32x4x16xf16>, %v: tensor<1x32x2x16xf16>) -> tensor<1x64x4x16xf16> {
  // expected-error @below {{expected 'value' heads and length [4, 32] to match 'key', got [2, 32]}}
  %0 = hkg.attention %q, %k, %v layout(bshd) : tensor<1x64x4x16xf16>, tensor<1x32x4x16xf16>, tensor<1x32x2x16xf16> -> tensor<1x64x4x16xf16>
  return %0 : tensor<1x64x4x16xf16>
}

// -----

// Read as bhsd these would be 64 query heads over 32 key/value heads; as
// bshd they are 6 over 4.
func.func @bshd_gqa_heads(%q: tensor<1x64x6x16xf16>, %k: tensor<1x32x4x16xf16>, %v: tensor<1x32x4x16xf16>) -> tensor<1x64x6x16xf16> {
  // expected-error @below {{expected query heads (6) to be a multiple of key/value heads (4)}}
  %0 = hkg.attention %q, %k, %v layout(bshd) : tensor<1x64x6x16xf16>, tensor<1x32x4x16xf16>, tensor<1x32x4x16xf16> -> tensor<1x64x6x16xf16>
  return %0 : tensor<1x64x6x16xf16>
}

// -----

func.func @bshd_causal_sq_above_skv(%q: tensor<1x128x4x16xf16>, %k: tensor<1x64x4x16xf16>, %v: tensor<1x64x4x16xf16>) -> tensor<1x128x4x16xf16> {
  // expected-error @below {{expected Sq <= Skv with 'causal', got Sq = 128 and Skv = 64}}
  %0 = hkg.attention %q, %k, %v causal layout(bshd) : tensor<1x128x4x16xf16>, tensor<1x64x4x16xf16>, tensor<1x64x4x16xf16> -> tensor<1x128x4x16xf16>
  return %0 : tensor<1x128x4x16xf16>
}

// -----

// A bhsd-shaped result for bshd operands.
func.func @bshd_result_shape(%q: tensor<1x64x4x16xf16>, %k: tensor<1x64x4x16xf16>, %v: tensor<1x64x4x8xf16>) -> tensor<1x4x64x8xf16> {
  // expected-error @below {{expected result shape [1, 64, 4, 8] [B, Sq, Hq, Dv], got [1, 4, 64, 8]}}
  %0 = hkg.attention %q, %k, %v layout(bshd) : tensor<1x64x4x16xf16>, tensor<1x64x4x16xf16>, tensor<1x64x4x8xf16> -> tensor<1x4x64x8xf16>
  return %0 : tensor<1x4x64x8xf16>
}

// -----

func.func @unknown_layout(%q: tensor<1x4x64x16xf16>, %k: tensor<1x4x64x16xf16>, %v: tensor<1x4x64x16xf16>) -> tensor<1x4x64x16xf16> {
  // expected-error @below {{expected string or keyword containing one of the following enum values for attribute 'layout' [bhsd, bshd]}}
  %0 = hkg.attention %q, %k, %v layout(sbhd) : tensor<1x4x64x16xf16>, tensor<1x4x64x16xf16>, tensor<1x4x64x16xf16> -> tensor<1x4x64x16xf16>
  return %0 : tensor<1x4x64x16xf16>
}

// -----

func.func @mask_rank(%q: tensor<1x4x64x16xf16>, %k: tensor<1x4x64x16xf16>, %m: tensor<64x64xf16>) -> tensor<1x4x64x16xf16> {
  // expected-error @below {{expected 'mask' of rank 4 [B, Hq, Sq, Skv] (any dim 1 to broadcast), got rank 2}}
  %0 = hkg.attention %q, %k, %k mask(%m : tensor<64x64xf16>) : tensor<1x4x64x16xf16>, tensor<1x4x64x16xf16>, tensor<1x4x64x16xf16> -> tensor<1x4x64x16xf16>
  return %0 : tensor<1x4x64x16xf16>
}

// -----

// A mask is [B, Hq, Sq, Skv] in the bshd layout too: [1, 64, 4, 32] is the
// operands' order, not the mask's.
func.func @mask_bshd_order(%q: tensor<1x64x4x16xf16>, %k: tensor<1x32x4x16xf16>, %m: tensor<1x64x4x32xf16>) -> tensor<1x64x4x16xf16> {
  // expected-error @below {{expected 'mask' dim 1 (Hq) to be 4 or 1 to broadcast, got 64 (the mask is [B, Hq, Sq, Skv] = [1, 4, 64, 32] in every layout)}}
  %0 = hkg.attention %q, %k, %k mask(%m : tensor<1x64x4x32xf16>) layout(bshd) : tensor<1x64x4x16xf16>, tensor<1x32x4x16xf16>, tensor<1x32x4x16xf16> -> tensor<1x64x4x16xf16>
  return %0 : tensor<1x64x4x16xf16>
}

// -----

func.func @mask_keys(%q: tensor<2x4x64x16xf16>, %k: tensor<2x4x128x16xf16>, %m: tensor<2x1x1x64xf32>) -> tensor<2x4x64x16xf16> {
  // expected-error @below {{expected 'mask' dim 3 (Skv) to be 128 or 1 to broadcast, got 64}}
  %0 = hkg.attention %q, %k, %k mask(%m : tensor<2x1x1x64xf32>) : tensor<2x4x64x16xf16>, tensor<2x4x128x16xf16>, tensor<2x4x128x16xf16> -> tensor<2x4x64x16xf16>
  return %0 : tensor<2x4x64x16xf16>
}

// -----

func.func @mask_int(%q: tensor<1x4x64x16xf16>, %k: tensor<1x4x64x16xf16>, %m: tensor<1x1x64x64xi1>) -> tensor<1x4x64x16xf16> {
  // expected-error @below {{operand #3 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<1x1x64x64xi1>'}}
  %0 = hkg.attention %q, %k, %k mask(%m : tensor<1x1x64x64xi1>) : tensor<1x4x64x16xf16>, tensor<1x4x64x16xf16>, tensor<1x4x64x16xf16> -> tensor<1x4x64x16xf16>
  return %0 : tensor<1x4x64x16xf16>
}
