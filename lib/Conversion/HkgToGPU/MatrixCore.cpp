//===- MatrixCore.cpp - warp-level matrix instructions shared by kernels --===//
//
// See MatrixCore.h.
//
//===----------------------------------------------------------------------===//

#include "MatrixCore.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hkg;

/// nvgpu.mma.sync of `shape` on the vector<4xf32> accumulator `accV`.
static Value nvgpuMmaSync(OpBuilder &b, Location loc, Value a, Value bv,
                          Value accV, ArrayRef<int64_t> shape, bool tf32) {
  // vector<4xf32> <-> vector<2x2xf32> by elements (vector.shape_cast has
  // no direct lowering in convert-gpu-to-nvvm).
  auto c2 = VectorType::get({2, 2}, b.getF32Type());
  SmallVector<Value> elems;
  for (int64_t i = 0; i < 4; ++i)
    elems.push_back(
        vector::ExtractOp::create(b, loc, accV, ArrayRef<int64_t>{i}));
  Value d = nvgpu::MmaSyncOp::create(
      b, loc, a, bv, vector::FromElementsOp::create(b, loc, c2, elems), shape,
      tf32);
  elems.clear();
  for (int64_t i = 0; i < 4; ++i)
    elems.push_back(
        vector::ExtractOp::create(b, loc, d, ArrayRef<int64_t>{i / 2, i % 2}));
  return vector::FromElementsOp::create(b, loc, accV.getType(), elems);
}

Value mlir::hkg::mmaSyncM16N8K8Tf32(OpBuilder &b, Location loc, Value a,
                                    Value bv, Value accV) {
  return nvgpuMmaSync(b, loc, a, bv, accV, {16, 8, 8}, /*tf32=*/true);
}

/// nvgpu.mma.sync handles f16; its conversion to NVVM cannot type bf16
/// operands, so bf16 goes to nvvm.mma.sync directly, with the fragments as
/// the .b32 registers PTX expects.
Value mlir::hkg::mmaSyncM16N8K16(OpBuilder &b, Location loc, Value a,
                                 Value bv, Value accV) {
  Type elemT = cast<VectorType>(a.getType()).getElementType();
  if (elemT.isF16())
    return nvgpuMmaSync(b, loc, a, bv, accV, {16, 8, 16}, /*tf32=*/false);
  auto i32Vec = VectorType::get({1}, b.getI32Type());
  auto regs = [&](Value frag) {
    SmallVector<Value> r;
    int64_t rows = cast<VectorType>(frag.getType()).getDimSize(0);
    for (int64_t i = 0; i < rows; ++i) {
      Value pair =
          vector::ExtractOp::create(b, loc, frag, ArrayRef<int64_t>{i});
      Value word = vector::BitCastOp::create(b, loc, i32Vec, pair);
      r.push_back(
          vector::ExtractOp::create(b, loc, word, ArrayRef<int64_t>{0}));
    }
    return r;
  };
  SmallVector<Value> cRegs;
  for (int64_t i = 0; i < 4; ++i)
    cRegs.push_back(
        vector::ExtractOp::create(b, loc, accV, ArrayRef<int64_t>{i}));
  Type f32 = b.getF32Type();
  auto resType = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                  {f32, f32, f32, f32});
  Value d = NVVM::MmaOp::create(
      b, loc, resType, regs(a), regs(bv), cRegs, ArrayRef<int64_t>{16, 8, 16},
      std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                    NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> outs;
  for (int64_t i = 0; i < 4; ++i)
    outs.push_back(LLVM::ExtractValueOp::create(b, loc, d, i));
  return vector::FromElementsOp::create(b, loc, accV.getType(), outs);
}

std::pair<Value, Value> mlir::hkg::splitLdMatrixX4(OpBuilder &b, Location loc,
                                                   Value v) {
  Type elemT = cast<VectorType>(v.getType()).getElementType();
  auto fragType = VectorType::get({2, 2}, elemT);
  // Row extracts and inserts: a 2-D extract_strided_slice does not lower in
  // convert-gpu-to-nvvm.
  Value halves[2];
  for (int64_t h = 0; h < 2; ++h) {
    Value frag =
        arith::ConstantOp::create(b, loc, fragType, b.getZeroAttr(fragType));
    for (int64_t r = 0; r < 2; ++r) {
      Value row =
          vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{2 * h + r});
      frag = vector::InsertOp::create(b, loc, row, frag, ArrayRef<int64_t>{r});
    }
    halves[h] = frag;
  }
  return {halves[0], halves[1]};
}

Value mlir::hkg::maskToTf32(OpBuilder &b, Location loc, Value x, int64_t bias) {
  Type i32 = b.getI32Type();
  Type intT = i32;
  if (auto vt = dyn_cast<VectorType>(x.getType()))
    intT = vt.clone(i32);
  auto constant = [&](int64_t v) -> Value {
    TypedAttr attr = b.getI32IntegerAttr(v);
    if (auto vt = dyn_cast<VectorType>(intT))
      attr = DenseElementsAttr::get(vt, attr);
    return arith::ConstantOp::create(b, loc, attr);
  };
  Value bits = arith::BitcastOp::create(b, loc, intT, x);
  if (bias)
    bits = arith::AddIOp::create(b, loc, bits, constant(bias));
  Value masked = arith::AndIOp::create(b, loc, bits, constant(~0x1fff));
  return arith::BitcastOp::create(b, loc, x.getType(), masked);
}
