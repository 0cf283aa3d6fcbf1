//===- HkgTraits.h - traits of hkg kernel ops -------------------*- C++ -*-===//
//
// Marker traits (HkgBase.td) saying which of the dialect's discardable
// attributes a kernel op accepts, so that the dialect's verifier and the
// lowering ask the op instead of listing op classes.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_DIALECT_HKG_IR_HKGTRAITS_H
#define HKG_DIALECT_HKG_IR_HKGTRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::hkg::KernelTrait {

/// Accepts `hkg.streaming_access` and `hkg.load_eviction`.
template <typename ConcreteType>
class HkgCacheHints
    : public ::mlir::OpTrait::TraitBase<ConcreteType, HkgCacheHints> {};

/// Loads default to the evict-last L2 policy on Hopper.
template <typename ConcreteType>
class HkgEvictLastOnHopper
    : public ::mlir::OpTrait::TraitBase<ConcreteType, HkgEvictLastOnHopper> {};

/// Accepts `hkg.row_f32_cache` and `hkg.row_bf16_cache`.
template <typename ConcreteType>
class HkgRowCacheForm
    : public ::mlir::OpTrait::TraitBase<ConcreteType, HkgRowCacheForm> {};

/// Accepts `hkg.prefetch_columns`.
template <typename ConcreteType>
class HkgColumnPrefetch
    : public ::mlir::OpTrait::TraitBase<ConcreteType, HkgColumnPrefetch> {};

} // namespace mlir::hkg::KernelTrait

#endif // HKG_DIALECT_HKG_IR_HKGTRAITS_H
