//===- BroadcastMaps.cpp - which result dims an operand follows -----------===//

#include "hkg/Dialect/Hkg/IR/BroadcastMaps.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::hkg;

/// An extent as a diagnostic prints it: `?` for a dynamic one.
static std::string extentStr(int64_t extent) {
  return ShapedType::isDynamic(extent) ? "?" : std::to_string(extent);
}

static std::string dimsStr(ArrayRef<unsigned> dims) {
  std::string s = "(";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(dims, os, [&](unsigned d) { os << "d" << d; });
  os << ")";
  return s;
}

LogicalResult mlir::hkg::checkBroadcastMap(AffineMap map,
                                           ArrayRef<int64_t> operand,
                                           ArrayRef<int64_t> result,
                                           std::string &why) {
  llvm::raw_string_ostream os(why);
  if (map.getNumSymbols() != 0 || map.getNumDims() != result.size()) {
    os << "expected a map of the result's " << result.size()
       << " dims and no symbols, got " << map;
    return failure();
  }
  if (map.getNumResults() != operand.size()) {
    os << "expected one map result per operand dim (" << operand.size()
       << "), got " << map.getNumResults() << " in " << map;
    return failure();
  }
  llvm::SmallBitVector used(result.size());
  for (auto [k, expr] : llvm::enumerate(map.getResults())) {
    if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
      if (c.getValue() != 0) {
        os << "map result #" << k << " is the constant " << c.getValue()
           << "; only 0 is allowed (for an operand dim of extent 1)";
        return failure();
      }
      if (operand[k] != 1) {
        os << "map result #" << k << " is the constant 0 but operand dim " << k
           << " has extent " << extentStr(operand[k])
           << " (only a dim of extent 1 broadcasts)";
        return failure();
      }
      continue;
    }
    auto d = dyn_cast<AffineDimExpr>(expr);
    if (!d) {
      os << "map result #" << k << " (" << expr
         << ") must be a result dim or the constant 0";
      return failure();
    }
    unsigned j = d.getPosition();
    if (used.test(j)) {
      os << "result dim d" << j << " is used twice in " << map;
      return failure();
    }
    used.set(j);
    if (operand[k] != result[j]) {
      os << "operand dim " << k << " has extent " << extentStr(operand[k])
         << " but follows result dim d" << j << " of extent "
         << extentStr(result[j]);
      return failure();
    }
  }
  return success();
}

/// Every way to place the `operand` dims of extent other than 1 on an
/// increasing sequence of `result` dims of equal extents (at most `limit`).
static void placements(ArrayRef<int64_t> operand, ArrayRef<int64_t> result,
                       unsigned k, unsigned from,
                       SmallVector<unsigned> &current,
                       SmallVector<SmallVector<unsigned>> &all, size_t limit) {
  if (all.size() >= limit)
    return;
  if (k == operand.size()) {
    all.push_back(current);
    return;
  }
  if (operand[k] == 1) {
    current.push_back(~0u); // broadcast: no result dim
    placements(operand, result, k + 1, from, current, all, limit);
    current.pop_back();
    return;
  }
  for (unsigned j = from; j < result.size(); ++j) {
    if (result[j] != operand[k])
      continue;
    current.push_back(j);
    placements(operand, result, k + 1, j + 1, current, all, limit);
    current.pop_back();
  }
}

FailureOr<AffineMap> mlir::hkg::inferBroadcastMap(MLIRContext *ctx,
                                                  ArrayRef<int64_t> operand,
                                                  ArrayRef<int64_t> result,
                                                  std::string &why) {
  llvm::raw_string_ostream os(why);
  unsigned rank = result.size();
  SmallVector<AffineExpr> exprs;
  if (operand.size() == rank) {
    // Same rank: dim by dim, extent 1 broadcasting.
    for (unsigned j = 0; j < rank; ++j) {
      if (operand[j] == result[j]) {
        exprs.push_back(getAffineDimExpr(j, ctx));
        continue;
      }
      if (operand[j] != 1) {
        os << "operand dim " << j << " has extent " << extentStr(operand[j])
           << " where the result has " << extentStr(result[j])
           << " (expected equal, or 1 to broadcast)";
        return failure();
      }
      exprs.push_back(getAffineConstantExpr(0, ctx));
    }
    return AffineMap::get(rank, 0, exprs, ctx);
  }
  if (operand.size() > rank) {
    os << "the operand has rank " << operand.size()
       << ", more than the result's " << rank;
    return failure();
  }
  // Lower rank: the operand's dims line up with the result's trailing dims
  // (extent 1 broadcasting), and that must be the only increasing placement
  // of its dims on the result's: otherwise the shape does not say what the
  // user meant.
  unsigned offset = rank - operand.size();
  SmallVector<unsigned> current;
  SmallVector<SmallVector<unsigned>> all;
  placements(operand, result, 0, 0, current, all, /*limit=*/3);
  auto placed = [](ArrayRef<unsigned> p) {
    SmallVector<unsigned> dims;
    for (unsigned j : p)
      if (j != ~0u)
        dims.push_back(j);
    return dims;
  };
  for (auto [k, extent] : llvm::enumerate(operand)) {
    if (extent == 1 || extent == result[offset + k])
      continue;
    os << "its dims are not a suffix of the result's (dim " << k
       << " has extent " << extentStr(extent) << ", result dim d" << offset + k
       << " has " << extentStr(result[offset + k]) << ")";
    if (!all.empty())
      os << " (it fits result dims " << dimsStr(placed(all.front())) << ")";
    return failure();
  }
  if (all.size() > 1) {
    os << "it can follow result dims " << dimsStr(placed(all[0])) << " or "
       << dimsStr(placed(all[1])) << (all.size() > 2 ? " (or others)" : "");
    return failure();
  }
  for (auto [k, extent] : llvm::enumerate(operand))
    exprs.push_back(extent == 1 ? getAffineConstantExpr(0, ctx)
                                : getAffineDimExpr(offset + k, ctx));
  return AffineMap::get(rank, 0, exprs, ctx);
}

SmallVector<int64_t>
mlir::hkg::operandStridesPerResultDim(AffineMap map,
                                      ArrayRef<int64_t> operand) {
  SmallVector<int64_t> strides(map.getNumDims(), 0);
  int64_t stride = 1;
  for (int k = static_cast<int>(operand.size()) - 1; k >= 0; --k) {
    if (auto d = dyn_cast<AffineDimExpr>(map.getResult(k)))
      strides[d.getPosition()] += stride;
    stride *= operand[k];
  }
  return strides;
}

BroadcastAccess mlir::hkg::classifyBroadcastAccess(ArrayRef<int64_t> strides,
                                                   ArrayRef<int64_t> result) {
  // Compare with the result's own strides, dims of extent 1 zeroed in both.
  SmallVector<int64_t> own(result.size(), 0), theirs(strides);
  int64_t stride = 1;
  for (int j = static_cast<int>(result.size()) - 1; j >= 0; --j) {
    if (result[j] == 1) {
      theirs[j] = 0;
      continue;
    }
    own[j] = stride;
    stride *= result[j];
  }
  if (theirs == own)
    return BroadcastAccess::Flat;
  unsigned lead = 0;
  while (lead < theirs.size() && theirs[lead] == 0)
    ++lead;
  if (ArrayRef<int64_t>(theirs).drop_front(lead) ==
      ArrayRef<int64_t>(own).drop_front(lead))
    return BroadcastAccess::Trailing;
  return BroadcastAccess::Strided;
}

FailureOr<std::array<int64_t, 3>>
mlir::hkg::getEpilogueView(AffineMap map, ArrayRef<int64_t> operand,
                           ArrayRef<int64_t> result, std::string &why) {
  llvm::raw_string_ostream os(why);
  SmallVector<int64_t> strides = operandStridesPerResultDim(map, operand);
  size_t r = result.size();
  if (r < 2 || strides.size() != r) {
    os << "expected a map from the result's " << r << " dims";
    return failure();
  }
  auto follows = [&](size_t d) { return result[d] > 1 && strides[d] != 0; };
  int64_t cols = follows(r - 1) ? result[r - 1] : 1;
  if (follows(r - 1) && strides[r - 1] != 1) {
    os << "it must be contiguous along n (the result's last dim)";
    return failure();
  }
  int64_t rows = follows(r - 2) ? result[r - 2] : 1;
  if (follows(r - 2) && strides[r - 2] != cols) {
    os << "it must follow m and n in that order, row-major (a transposed "
          "read is not an epilogue operand)";
    return failure();
  }
  int64_t batch = 1;
  bool outer = false;
  for (int64_t d = static_cast<int64_t>(r) - 3; d >= 0; --d) {
    if (result[d] == 1)
      continue;
    if (!follows(d)) {
      outer = true;
      continue;
    }
    if (outer || strides[d] != rows * cols * batch) {
      os << "the batch dims it follows must be the result's innermost "
            "ones, in order";
      return failure();
    }
    batch *= result[d];
  }
  return std::array<int64_t, 3>{batch, rows, cols};
}
