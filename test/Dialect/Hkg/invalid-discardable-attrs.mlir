// RUN: hkg-opt %s --split-input-file --verify-diagnostics

// The attributes an hkg op may carry besides its own: the dialect's declared
// `hkg.*` attributes (HkgBase.td), each checked for its type and the ops it
// may sit on, and other dialects' prefixed attributes. Anything else is an
// error naming the attribute.

func.func @unknown_plain(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{'hkg.rmsnorm' op has unknown attribute 'axis'; expected only its own attributes (axes, eps, schedule) or a dialect's ('<dialect>.<name>')}}
  %0 = hkg.rmsnorm %x weight(%w : tensor<8xf32>) eps(1.0e-05) {axis = 1} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @unknown_hkg(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{'hkg.softmax' op has unknown attribute 'hkg.streaming'; the hkg dialect's attributes are hkg.target, hkg.no_alias, hkg.streaming_access,}}
  %0 = hkg.softmax %x axis(1) {hkg.streaming} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// An hkg.* attribute on an op of another dialect is the hkg dialect's to check.
// expected-error @below {{'func.func' op has unknown attribute 'hkg.nonsense'}}
func.func @unknown_on_func() attributes {hkg.nonsense} {
  return
}

// -----

func.func @bad_load_eviction(%x: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  // expected-error @below {{'hkg.softmax' op expected 'hkg.load_eviction' to be "first", "last" or "normal", got "evict_last"}}
  %y = hkg.softmax %x axis(1) {hkg.load_eviction = "evict_last"} : tensor<64x4096xf32> -> tensor<64x4096xf32>
  return %y : tensor<64x4096xf32>
}

// -----

func.func @load_eviction_and_streaming(%x: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  // expected-error @below {{'hkg.softmax' op has both 'hkg.load_eviction' and 'hkg.streaming_access'; expected at most one of them}}
  %y = hkg.softmax %x axis(1) {hkg.load_eviction = "last", hkg.streaming_access} : tensor<64x4096xf32> -> tensor<64x4096xf32>
  return %y : tensor<64x4096xf32>
}

// -----

func.func @streaming_access_not_unit(%x: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  // expected-error @below {{'hkg.softmax' op expected 'hkg.streaming_access' to be a unit attribute, got "loads"}}
  %y = hkg.softmax %x axis(1) {hkg.streaming_access = "loads"} : tensor<64x4096xf32> -> tensor<64x4096xf32>
  return %y : tensor<64x4096xf32>
}

// -----

func.func @load_eviction_on_rope(%x: tensor<1x16x4x128xbf16>, %c: tensor<16x64xf32>, %s: tensor<16x64xf32>) -> tensor<1x16x4x128xbf16> {
  // expected-error @below {{'hkg.rope' op does not accept 'hkg.load_eviction'; it is supported on the streaming kernels (hkg.elementwise, hkg.reduce, hkg.softmax, hkg.layernorm, hkg.rmsnorm) only}}
  %y = hkg.rope %x, %c, %s neox offset(0) {hkg.load_eviction = "last"} : tensor<1x16x4x128xbf16>, tensor<16x64xf32>, tensor<16x64xf32> -> tensor<1x16x4x128xbf16>
  return %y : tensor<1x16x4x128xbf16>
}

// -----

func.func @prefetch_on_softmax(%x: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  // expected-error @below {{'hkg.softmax' op does not accept 'hkg.prefetch_columns'; it is supported on hkg.layernorm and hkg.rmsnorm only}}
  %y = hkg.softmax %x axis(1) {hkg.prefetch_columns} : tensor<64x4096xf32> -> tensor<64x4096xf32>
  return %y : tensor<64x4096xf32>
}

// -----

func.func @both_row_forms(%x: tensor<4x8xbf16>, %w: tensor<8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @below {{'hkg.rmsnorm' op has both 'hkg.row_bf16_cache' and 'hkg.row_f32_cache'; expected at most one of them}}
  %0 = hkg.rmsnorm %x weight(%w : tensor<8xbf16>) eps(1.0e-05) {hkg.row_f32_cache, hkg.row_bf16_cache} : tensor<4x8xbf16> -> tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

func.func @row_form_on_reduce(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @below {{'hkg.reduce' op does not accept 'hkg.row_bf16_cache'; it is supported on hkg.softmax, hkg.layernorm and hkg.rmsnorm only}}
  %0 = hkg.reduce sum %x axes = [1] {hkg.row_bf16_cache} : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @below {{'func.func' op expected 'hkg.no_alias' on an hkg kernel op only}}
func.func @no_alias_on_func() attributes {hkg.no_alias} {
  return
}

// -----

func.func @metadata_on_op(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{'hkg.softmax' op does not accept 'hkg.source': it is kernel metadata that hkg-lower-to-gpu writes on a gpu.func}}
  %0 = hkg.softmax %x axis(1) {hkg.source = "module {}"} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// expected-error @below {{'func.func' op expected 'hkg.arg_roles' to be an array of "input" / "output" strings, got ["input", "scratch"]}}
func.func @bad_roles() attributes {hkg.arg_roles = ["input", "scratch"]} {
  return
}

// -----

// expected-error @below {{'func.func' op expected 'hkg.dynamic_lds_bytes' to be a non-negative integer, got -1 : i64}}
func.func @negative_lds() attributes {hkg.dynamic_lds_bytes = -1} {
  return
}
