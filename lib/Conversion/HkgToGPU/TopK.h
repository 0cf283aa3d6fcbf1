//===- TopK.h - the top-k family's kernel pieces ----------------*- C++ -*-===//
//
// What the two mappings of hkg.topk share: a workgroup per slice (TopK.cpp)
// and a wave per slice (TopKWave.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_TOPK_H
#define HKG_LIB_CONVERSION_HKGTOGPU_TOPK_H

#include "GPUBuildingBlocks.h"

namespace mlir::hkg {

/// The unsigned i32 key (scalar or vector, like `x`) of float `x` whose
/// order is the numbers' order: negative numbers with all bits flipped,
/// positive ones with the sign bit set, every NaN 0xffffffff (above every
/// number, as in torch.topk). No element has key 0.
Value topKKeyOf(OpBuilder &b, Location loc, Value x);

/// The number of `elementType` whose key is `key` (exact).
Value topKValueOfKey(OpBuilder &b, Location loc, Value key, Type elementType);

/// hkg.topk with `per_slice = wave`: each wave selects one short slice in
/// registers, k rounds of a wave-wide argmax.
LogicalResult lowerTopKPerWave(TopKOp op, KernelContext &kc);

} // namespace mlir::hkg

#endif // HKG_LIB_CONVERSION_HKGTOGPU_TOPK_H
