// RUN: hkg-opt %s --split-input-file --verify-diagnostics \
// RUN:   --hkg-check-gpu-limits=chip=gfx942

// Types a GPU cannot hold are refused before lowering: a gpu.func with a
// vector of 2^40 elements used to keep hkg-to-rocdl / hkg-to-nvvm in the LLVM
// backend for minutes (issue 23).

gpu.module @m {
  // expected-error @below {{'gpu.func' op uses 'vector<1099511627776xf32>', which holds 35184372088832 bits; a gfx942 lane holds at most 65536 bits of registers (4 x 512 x 32)}}
  gpu.func @k(%a: vector<1099511627776xf32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<4xf32>) kernel {
    // expected-error @below {{'arith.constant' op uses 'vector<4096xf32>', which holds 131072 bits}}
    %c = arith.constant dense<1.0> : vector<4096xf32>
    gpu.return
  }
}

// -----

// Element counts past 64 bits are refused, not wrapped.
// expected-error @below {{'func.func' op uses 'tensor<4294967296x4294967296x2xf32>', which holds more than 2^48 bytes}}
func.func @f(%a: tensor<4294967296x4294967296x2xf32>) {
  return
}

// -----

// A memref larger than any device's memory.
// expected-error @below {{'memref.global' op uses 'memref<281474976710657xi8>', which holds more than 2^48 bytes}}
memref.global "private" @g : memref<281474976710657xi8>

// -----

// What a kernel really uses passes: registers-sized vectors, large and
// dynamic buffers.
gpu.module @m {
  gpu.func @k(%a: memref<?x65536xf32>, %b: memref<1073741824xf16>) kernel {
    %c = arith.constant dense<1.0> : vector<8x8xf32>
    %d = arith.constant dense<1.0> : vector<2048xf32>
    gpu.return
  }
}
