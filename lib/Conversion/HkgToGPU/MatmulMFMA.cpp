//===- MatmulMFMA.cpp - matmul inner product with MFMA (CDNA) -------------===//
//
// mma = mfma_MxNxK (CDNA, wave64): amdgpu.mfma on per-lane fragments. For
// lane l, with G = 64 / M lane groups and kPer = K / G values per lane:
//   A[l % M][g * kPer + i], B[g * kPer + i][l % N], g = l / M;
//   C[(i / 4) * 4G + 4g + i % 4][l % N].
//
//===----------------------------------------------------------------------===//

#include "MatmulAMDMatrixCore.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::matmul;

namespace {

class MfmaCore final : public AMDMatrixCore {
public:
  using AMDMatrixCore::AMDMatrixCore;

protected:
  LaneK laneK() override {
    int64_t groups = t.waveSize / t.mmaM;
    int64_t kPer = t.mmaK / groups;
    return {mul(div(t.lane, t.mmaM), kPer), kPer};
  }
  Value multiply(Value a, Value bv, Value acc) override {
    return amdgpu::MFMAOp::create(b, loc, acc.getType(), t.mmaM, t.mmaN, t.mmaK,
                                  /*blocks=*/1, a, bv, acc);
  }
  Value resultRow(Value g, int64_t e) override {
    int64_t groups = t.waveSize / t.mmaN;
    return add(mul(g, 4), (e / 4) * 4 * groups + e % 4);
  }
};

} // namespace

std::unique_ptr<MatrixCore> mlir::hkg::matmul::createMfmaCore(KernelState &t) {
  return std::make_unique<MfmaCore>(t);
}
