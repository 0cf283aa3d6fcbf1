//===- PtxBitOps.h - PTX bit instructions NVVM has no op for ----*- C++ -*-===//
//
// prmt.b32 and lop3.b32 as inline PTX, for the W4A16 kernels' nibble
// extraction (MatmulW4A16MatrixCore.cpp, MatmulW4A16Tiled.cpp): the NVVM
// dialect has no op for them, and ptxas does not form them from the
// shifts, ands and ors they replace where two operands are immediates.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_PTXBITOPS_H
#define HKG_LIB_CONVERSION_HKGTOGPU_PTXBITOPS_H

#include "GPUBuildingBlocks.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::hkg {

/// prmt.b32: byte i of the result is byte (sel >> 4i) & 7 of {hi, lo}
/// (0-3: lo's bytes, 4-7: hi's).
inline Value permuteBytes(OpBuilder &b, Location loc, Value lo, Value hi,
                          Value sel) {
  auto op = LLVM::InlineAsmOp::create(
      b, loc, b.getI32Type(), ValueRange{lo, hi, sel},
      "prmt.b32 $0, $1, $2, $3;", "=r,r,r,r", /*has_side_effects=*/false,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
  return op.getResult(0);
}

/// (a & mask) | bits in one lop3.b32 (immLut 0xEA = (0xF0 & 0xCC) | 0xAA).
/// From an and and an or of two immediates ptxas makes two LOP3s: a SASS
/// LOP3 takes one immediate.
inline Value andOr(OpBuilder &b, Location loc, Value a, int64_t mask,
                   int64_t bits) {
  auto op = LLVM::InlineAsmOp::create(
      b, loc, b.getI32Type(),
      ValueRange{a, constI32(b, loc, mask), constI32(b, loc, bits)},
      "lop3.b32 $0, $1, $2, $3, 0xEA;", "=r,r,n,n", /*has_side_effects=*/false,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
  return op.getResult(0);
}

} // namespace mlir::hkg

#endif // HKG_LIB_CONVERSION_HKGTOGPU_PTXBITOPS_H
