//===- Wgmma.cpp - NVIDIA warpgroup MMA as inline PTX ---------------------===//
//
// See Wgmma.h.
//
//===----------------------------------------------------------------------===//

#include "Wgmma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <string>

using namespace mlir;
using namespace mlir::hkg;

Value wgmma::sharedAddress(OpBuilder &b, Location loc, Value buf) {
  Value p = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buf);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), p);
}

Value wgmma::descriptor(OpBuilder &b, Location loc, Value addr,
                        int64_t leadingBytes) {
  Type i64 = b.getI64Type();
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  };
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, addr, cst(0x3FFFF)), cst(4));
  int64_t fixed = (int64_t((leadingBytes >> 4) & 0x3FFF) << 16) |
                  (int64_t(1024 >> 4) << 32) | (int64_t(1) << 62);
  return arith::OrIOp::create(b, loc, start, cst(fixed));
}

static LLVM::InlineAsmOp inlineAsm(OpBuilder &b, Location loc, TypeRange types,
                                   ValueRange operands, StringRef text,
                                   StringRef constraints) {
  return LLVM::InlineAsmOp::create(
      b, loc, types, operands, text, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, /*asm_dialect=*/nullptr,
      /*operand_attrs=*/nullptr);
}

void wgmma::sideEffectAsm(OpBuilder &b, Location loc, StringRef text) {
  inlineAsm(b, loc, TypeRange{}, ValueRange{}, text, "");
}

Type wgmma::accumulatorType(MLIRContext *ctx, int64_t n) {
  return LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(n, Float32Type::get(ctx)));
}

/// The elements of struct `s`.
static SmallVector<Value> elements(OpBuilder &b, Location loc, Value s) {
  auto type = cast<LLVM::LLVMStructType>(s.getType());
  SmallVector<Value> out;
  for (int64_t i = 0, e = type.getBody().size(); i < e; ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, s, i));
  return out;
}

/// Output constraints `outs` (e.g. "=f" per output), then `middle`, then one
/// input tied to each output.
static std::string tiedConstraints(ArrayRef<StringRef> outs, StringRef middle) {
  std::string c;
  for (StringRef o : outs)
    c += o.str() + ",";
  c += middle.str();
  for (size_t i = 0; i < outs.size(); ++i)
    c += (c.back() == ',' ? "" : ",") + std::to_string(i);
  return c;
}

std::pair<Value, SmallVector<Value>> wgmma::tiedAsm(OpBuilder &b, Location loc,
                                                    StringRef text, Value acc,
                                                    ValueRange regs) {
  SmallVector<Value> operands = elements(b, loc, acc);
  int64_t n = operands.size();
  llvm::append_range(operands, regs);
  SmallVector<Type> types;
  SmallVector<StringRef> outs;
  for (Value v : operands) {
    types.push_back(v.getType());
    outs.push_back(v.getType().isF32() ? "=f" : "=r");
  }
  Type resultType = LLVM::LLVMStructType::getLiteral(b.getContext(), types);
  Value all =
      inlineAsm(b, loc, resultType, operands, text, tiedConstraints(outs, ""))
          .getResult(0);
  if (regs.empty())
    return {all, {}};
  SmallVector<Value> parts = elements(b, loc, all);
  Value newAcc = LLVM::PoisonOp::create(b, loc, acc.getType());
  for (int64_t i = 0; i < n; ++i)
    newAcc = LLVM::InsertValueOp::create(b, loc, newAcc, parts[i], i);
  return {newAcc, SmallVector<Value>(parts.begin() + n, parts.end())};
}

Value wgmma::mmaAsync(OpBuilder &b, Location loc, StringRef type, Value acc,
                      Value aDesc, ValueRange aRegs, Value bDesc, bool transB) {
  SmallVector<Value> accs = elements(b, loc, acc);
  int64_t n = accs.size();
  auto reg = [](int64_t i) { return "$" + std::to_string(i); };
  std::string d;
  for (int64_t i = 0; i < n; ++i)
    d += (i ? ", " : "") + reg(i);
  // Operands after the outputs: A (a descriptor, or four registers), B's
  // descriptor, scale-d (1: accumulate).
  SmallVector<Value> operands;
  std::string a, middle;
  if (aRegs.empty()) {
    operands.push_back(aDesc);
    a = reg(n);
    middle = "l,";
  } else {
    assert(aRegs.size() == 4 && "an m64k16 A fragment is 4 x b32");
    llvm::append_range(operands, aRegs);
    a = "{" + reg(n) + ", " + reg(n + 1) + ", " + reg(n + 2) + ", " +
        reg(n + 3) + "}";
    middle = "r,r,r,r,";
  }
  int64_t next = n + operands.size();
  operands.push_back(bDesc);
  operands.push_back(arith::ConstantOp::create(b, loc, b.getI32Type(),
                                               b.getI32IntegerAttr(1)));
  middle += "l,r,";
  // imm-scale-a, imm-scale-b (1: not negated), then imm-trans-a (A in LDS
  // only) and imm-trans-b.
  std::string immediates = aRegs.empty() ? ", 1, 1, 0, " : ", 1, 1, ";
  immediates += transB ? "1" : "0";
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, " + reg(next + 1) +
                     ", 0;\nwgmma.mma_async.sync.aligned.m64n" +
                     std::to_string(2 * n) + "k16.f32." + type.str() + "." +
                     type.str() + " {" + d + "}, " + a + ", " + reg(next) +
                     ", p" + immediates + ";\n}";
  llvm::append_range(operands, accs);
  SmallVector<StringRef> outs(n, "=f");
  return inlineAsm(b, loc, acc.getType(), operands, text,
                   tiedConstraints(outs, middle))
      .getResult(0);
}
