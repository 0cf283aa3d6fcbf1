//===- ModelUtils.cpp - numeric helpers shared by the op models -----------===//

#include "ModelUtils.h"

#include "llvm/Support/Parallel.h"

#include <algorithm>
#include <functional>
#include <numeric>

using namespace hkg::rt;
using namespace hkg::rt::models;

std::vector<double> models::toDoubles(const HostTensor &t) {
  std::vector<double> v(t.getNumElements());
  t.toDoubles(v.data());
  return v;
}

void models::forEach(int64_t n, llvm::function_ref<void(int64_t)> fn) {
  llvm::parallelFor(0, n, [&](size_t i) { fn(static_cast<int64_t>(i)); });
}

int64_t models::product(llvm::ArrayRef<int64_t> dims) {
  return std::accumulate(dims.begin(), dims.end(), int64_t(1),
                         std::multiplies<int64_t>());
}

std::vector<int64_t> models::pickRows(int64_t numRows, double rowCost,
                                      const ReferenceOptions &options) {
  int64_t count = numRows;
  if (options.maxMultiplyAdds > 0 && rowCost > 0)
    count = std::clamp<int64_t>(
        static_cast<int64_t>(options.maxMultiplyAdds / rowCost), 2, numRows);
  std::vector<int64_t> rows;
  if (count >= numRows) {
    rows.resize(numRows);
    std::iota(rows.begin(), rows.end(), 0);
    return rows;
  }
  for (int64_t i = 0; i < count; ++i)
    rows.push_back(i * (numRows - 1) / (count - 1));
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

ReferenceResult models::makeF64Result(llvm::ArrayRef<int64_t> shape) {
  ReferenceResult result;
  result.outputs.emplace_back();
  result.outputs.back().tensor = HostTensor(DType::F64, shape);
  return result;
}

void models::markRows(ExpectedOutput &output, llvm::ArrayRef<int64_t> rows,
                      int64_t numRows, int64_t rowSize) {
  if (static_cast<int64_t>(rows.size()) == numRows)
    return;
  output.computed.assign(numRows * rowSize, false);
  for (int64_t r : rows)
    std::fill_n(output.computed.begin() + r * rowSize, rowSize, true);
}
