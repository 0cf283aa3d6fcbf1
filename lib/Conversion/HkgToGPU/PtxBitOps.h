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

/// One pure PTX instruction with an i32 result.
inline Value pureI32Asm(OpBuilder &b, Location loc, ValueRange operands,
                        StringRef text, StringRef constraints) {
  return LLVM::InlineAsmOp::create(
             b, loc, b.getI32Type(), operands, text, constraints,
             /*has_side_effects=*/false, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None, /*asm_dialect=*/nullptr,
             /*operand_attrs=*/nullptr)
      .getResult(0);
}

/// prmt.b32: byte i of the result is byte (sel >> 4i) & 7 of {hi, lo}
/// (0-3: lo's bytes, 4-7: hi's).
inline Value permuteBytes(OpBuilder &b, Location loc, Value lo, Value hi,
                          Value sel) {
  return pureI32Asm(b, loc, {lo, hi, sel}, "prmt.b32 $0, $1, $2, $3;",
                    "=r,r,r,r");
}

/// (a & mask) | bits in one lop3.b32 (immLut 0xEA = (0xF0 & 0xCC) | 0xAA).
/// From an and and an or of two immediates ptxas makes two LOP3s: a SASS
/// LOP3 takes one immediate.
inline Value andOr(OpBuilder &b, Location loc, Value a, int64_t mask,
                   int64_t bits) {
  return pureI32Asm(b, loc, {a, constI32(b, loc, mask), constI32(b, loc, bits)},
                    "lop3.b32 $0, $1, $2, $3, 0xEA;", "=r,r,n,n");
}

} // namespace mlir::hkg

#endif // HKG_LIB_CONVERSION_HKGTOGPU_PTXBITOPS_H
