//===- MatmulWMMA.cpp - matmul inner product with WMMA (RDNA) -------------===//
//
// mma = wmma_16x16x16 (gfx11, gfx12; wave32): amdgpu.wmma on per-lane
// fragments. For lane l:
//  - gfx11 (inputs replicated in both half-waves): A[l % 16][i],
//    B[i][l % 16], i < 16; C[2i + l / 16][l % 16];
//  - gfx12: A[l % 16][8h + i], B[8h + i][l % 16], i < 8, h = l / 16;
//    C[i + 8h][l % 16].
//
//===----------------------------------------------------------------------===//

#include "MatmulAMDMatrixCore.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::matmul;

namespace {

class WmmaCore final : public AMDMatrixCore {
public:
  using AMDMatrixCore::AMDMatrixCore;

protected:
  bool isGfx11() const { return t.target.chip.starts_with("gfx11"); }
  LaneK laneK() override {
    if (isGfx11())
      return {c(0), 16};
    return {mul(div(t.lane, 16), 8), 8};
  }
  Value multiply(Value a, Value bv, Value acc) override {
    return amdgpu::WMMAOp::create(b, loc, acc.getType(), t.mmaM, t.mmaN, t.mmaK,
                                  a, bv, acc);
  }
  Value resultRow(Value g, int64_t e) override {
    if (isGfx11())
      return add(g, 2 * e);
    return add(mul(g, 8), e);
  }
};

} // namespace

std::unique_ptr<MatrixCore> mlir::hkg::matmul::createWmmaCore(KernelState &t) {
  return std::make_unique<WmmaCore>(t);
}
