//===- CheckGPULimits.cpp - no type larger than a GPU can hold ------------===//
//
// A gpu.func using vector<2^40 x f32> sent hkg-to-rocdl and hkg-to-nvvm into
// the LLVM backend for minutes. This pass refuses such types up front, with
// a diagnostic naming the type and the bound (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "hkg/Target/Passes.h"

#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APInt.h"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGCHECKGPULIMITSPASS
#include "hkg/Target/Passes.h.inc"
} // namespace mlir::hkg

using namespace mlir;

/// Most bytes a tensor or memref type may hold: more than any device's
/// memory, and far from overflowing the int64 size arithmetic downstream.
static constexpr uint64_t kMaxShapedBytes = uint64_t(1) << 48;

/// Bits of one element of `type` (at least 8 for a memory type), or 0 for
/// element types without a fixed width (index, opaque types).
static uint64_t getElementBits(Type type) {
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth();
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * getElementBits(complex.getElementType());
  if (auto vector = dyn_cast<VectorType>(type)) {
    uint64_t bits = getElementBits(vector.getElementType());
    for (int64_t dim : vector.getShape())
      bits *= static_cast<uint64_t>(dim);
    return bits;
  }
  return 64; // index and pointers
}

/// The product of `shape` times `elementBits`, or nullopt on overflow.
static std::optional<llvm::APInt> getTotalBits(ArrayRef<int64_t> shape,
                                               uint64_t elementBits) {
  llvm::APInt total(128, elementBits);
  for (int64_t dim : shape) {
    bool overflow = false;
    total = total.umul_ov(llvm::APInt(128, static_cast<uint64_t>(dim)),
                          overflow);
    if (overflow)
      return std::nullopt;
  }
  return total;
}

namespace mlir::hkg {
namespace {
struct HkgCheckGPULimitsPass final
    : impl::HkgCheckGPULimitsPassBase<HkgCheckGPULimitsPass> {
  using Base::Base;

  /// Emits an error at `op` for the first type in `type` past a bound.
  LogicalResult checkType(Operation *op, Type type, const TargetInfo &target) {
    uint64_t vectorBits = uint64_t(4) * target.maxRegistersPerThread * 32;
    LogicalResult result = success();
    type.walk([&](Type inner) {
      if (failed(result))
        return WalkResult::interrupt();
      auto shaped = dyn_cast<ShapedType>(inner);
      if (!shaped || !shaped.hasRank() ||
          !isa<VectorType, RankedTensorType, MemRefType>(inner))
        return WalkResult::advance();
      // Dynamic dims are sized at run time; count the static ones.
      SmallVector<int64_t> dims;
      for (int64_t dim : shaped.getShape())
        if (!ShapedType::isDynamic(dim))
          dims.push_back(dim);
      uint64_t elementBits = getElementBits(shaped.getElementType());
      std::optional<llvm::APInt> bits = getTotalBits(dims, elementBits);
      if (isa<VectorType>(inner)) {
        if (bits && bits->ule(vectorBits))
          return WalkResult::advance();
        op->emitOpError() << "uses " << inner << ", which holds "
                          << (bits ? llvm::toString(*bits, 10, false)
                                   : std::string("more than 2^128"))
                          << " bits; a " << target.chip
                          << " lane holds at most " << vectorBits
                          << " bits of registers (4 x "
                          << target.maxRegistersPerThread << " x 32)";
        result = failure();
        return WalkResult::interrupt();
      }
      if (bits && bits->ule(llvm::APInt(128, kMaxShapedBytes) * 8))
        return WalkResult::advance();
      op->emitOpError() << "uses " << inner
                        << ", which holds more than 2^48 bytes";
      result = failure();
      return WalkResult::interrupt();
    });
    return result;
  }

  void runOnOperation() override {
    const TargetInfo *target = lookupTarget(chip);
    if (!target) {
      getOperation().emitError("hkg-check-gpu-limits: unknown chip '")
          << chip << "'";
      return signalPassFailure();
    }
    WalkResult walk = getOperation().walk([&](Operation *op) {
      for (Type type : op->getResultTypes())
        if (failed(checkType(op, type, *target)))
          return WalkResult::interrupt();
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            if (failed(checkType(op, arg.getType(), *target)))
              return WalkResult::interrupt();
      // Types held in attributes: a function's type, a global's type.
      WalkResult attrs = op->getAttrDictionary().walk([&](Type type) {
        if (isa<ShapedType>(type) && failed(checkType(op, type, *target)))
          return WalkResult::interrupt();
        return WalkResult::advance();
      });
      return attrs.wasInterrupted() ? WalkResult::interrupt()
                                    : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::hkg
