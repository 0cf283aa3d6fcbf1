// RUN: hkg-opt %s --split-input-file --verify-diagnostics --hkg-lower-to-gpu=chip=gfx942

func.func @missing_schedule(%x: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  // expected-error @below {{'hkg.softmax' op has no schedule; run hkg-default-schedule (or hkg-autotune) before hkg-lower-to-gpu}}
  %y = hkg.softmax %x axis(1) : tensor<64x4096xf32> -> tensor<64x4096xf32>
  return %y : tensor<64x4096xf32>
}

// -----

func.func @illegal_vector_width(%x: tensor<1024xbf16>) -> tensor<1024xbf16> {
  // expected-error @below {{schedule knob 'vector_width' = 3 is not legal}}
  %y = hkg.elementwise %x {schedule = #hkg.schedule<vector_width = 3, threads = 256, unroll = 1>}
      : tensor<1024xbf16> -> tensor<1024xbf16> {
  ^bb0(%a: bf16):
    hkg.yield %a : bf16
  }
  return %y : tensor<1024xbf16>
}

// -----

func.func @unknown_knob(%x: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  // expected-error @below {{unknown schedule knob 'tile_m'}}
  %y = hkg.softmax %x axis(1) {schedule = #hkg.schedule<tile_m = 64>} : tensor<64x4096xf32> -> tensor<64x4096xf32>
  return %y : tensor<64x4096xf32>
}

// -----

func.func @row_too_long_for_registers(%x: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  // expected-error @below {{schedule knob 'row_cache' = registers needs 4096 registers per thread for rows of 4096 elements (vector_width = 4, 1 threads per row); expected at most 64}}
  %y = hkg.softmax %x axis(1) {schedule = #hkg.schedule<threads = 64, rows_per_block = 64, row_cache = registers>} : tensor<64x4096xf32> -> tensor<64x4096xf32>
  return %y : tensor<64x4096xf32>
}

// -----

func.func @matmul_split_k(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'split_k' = 512 is not legal for hkg.matmul on gfx942; expected one of: 1, 2, 4, 8, 16, 32, 64, 128, 256}}
  %c = hkg.matmul %a, %b {schedule = #hkg.schedule<split_k = 512>} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xbf16>
  return %c : tensor<64x64xbf16>
}

// -----

func.func @captured_value(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %two = arith.constant 2.0 : f32
  // expected-error @below {{body uses a value defined outside it}}
  %y = hkg.elementwise %x {schedule = #hkg.schedule<>} : tensor<1024xf32> -> tensor<1024xf32> {
  ^bb0(%a: f32):
    %m = arith.mulf %a, %two : f32
    hkg.yield %m : f32
  }
  return %y : tensor<1024xf32>
}

// -----

// The cluster reduction of split_k needs thread-block clusters (sm_90); the
// workspace serves every target.
func.func @split_k_without_clusters(%a: tensor<16x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<16x4096xbf16> {
  // expected-error @below {{'hkg.matmul' op schedule knob 'split_k_reduce' = cluster is not legal for hkg.matmul on gfx942; expected one of: workspace}}
  %c = hkg.matmul %a, %b {transpose_b, schedule = #hkg.schedule<split_k = 2, split_k_reduce = cluster>} : tensor<16x4096xbf16>, tensor<4096x4096xbf16> -> tensor<16x4096xbf16>
  return %c : tensor<16x4096xbf16>
}
