//===- Wgmma.h - NVIDIA warpgroup MMA as inline PTX -------------*- C++ -*-===//
//
// sm_90a's warpgroup MMA (wgmma.mma_async and its fences) as inline PTX, for
// the kernels that use it (AttentionWgmma.cpp). Operands in LDS are named by
// matrix descriptors of the 128-byte-swizzle layout: 128-byte rows whose
// 16-byte chunks are XOR-swizzled by row % 8, in 1024-byte aligned buffers.
// The accumulators of an m64nNk16 instruction are N / 2 f32 per thread, one
// LLVM struct: warp w of the warpgroup holds its rows 16w .. 16w + 15, and
// element 4j + 2h + e is (row lane / 4 + 8h, column 8j + 2 (lane % 4) + e),
// mma.sync's m16n8 C layout for every 8 columns (PTX ISA, "wgmma D
// fragments"). An A operand in registers is mma.sync's m16n8k16 A fragment
// per warp: 4 x b32 (rows lane / 4 and + 8, columns 2 (lane % 4) + {0, 1} and
// + 8).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_WGMMA_H
#define HKG_LIB_CONVERSION_HKGTOGPU_WGMMA_H

#include "mlir/IR/Builders.h"

#include <utility>

namespace mlir::hkg::wgmma {

/// The shared-memory address of LDS buffer `buf` (its aligned pointer) as
/// i64.
Value sharedAddress(OpBuilder &b, Location loc, Value buf);

/// A matrix descriptor (PTX ISA, "Matrix Descriptor Format") of the
/// 128-byte-swizzle tile at shared address `addr` (i64): the start address
/// >> 4, the leading byte offset >> 4 (`leadingBytes`: from one 64-element
/// panel to the next of an MN-major operand; K-major operands do not use
/// it), the stride byte offset 1024 >> 4 (eight 128-byte rows, the swizzle
/// atom), swizzle mode 1 (128 bytes).
Value descriptor(OpBuilder &b, Location loc, Value addr,
                 int64_t leadingBytes = 16);

/// Inline PTX `text` with side effects and no operands
/// (wgmma.commit_group, fence.proxy.async).
void sideEffectAsm(OpBuilder &b, Location loc, StringRef text);

/// The LLVM struct of `n` f32 accumulators.
Type accumulatorType(MLIRContext *ctx, int64_t n);

/// Inline PTX `text` (wgmma.fence, wgmma.wait_group) that reads and rewrites
/// the accumulator struct `acc` and the i32 registers `regs` in place (tied
/// operands), so that they are computed before it and nothing moves or
/// copies them across it. Returns the new struct and registers.
std::pair<Value, SmallVector<Value>> tiedAsm(OpBuilder &b, Location loc,
                                             StringRef text, Value acc,
                                             ValueRange regs = {});

/// acc += A B with one wgmma.mma_async.sync.aligned.m64nNk16.f32 of 16-bit
/// operands `type` ("bf16" or "f16"), N = 2 x acc's elements. A is the
/// descriptor `a` (K-major) when `aRegs` is empty, else the four b32
/// registers `aRegs`; B is the descriptor `bDesc`, MN-major when `transB`
/// (imm-trans-b = 1).
Value mmaAsync(OpBuilder &b, Location loc, StringRef type, Value acc,
               Value aDesc, ValueRange aRegs, Value bDesc, bool transB);

} // namespace mlir::hkg::wgmma

#endif // HKG_LIB_CONVERSION_HKGTOGPU_WGMMA_H
