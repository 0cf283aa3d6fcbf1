//===- HkgDialect.cpp - hkg dialect registration --------------------------===//

#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/IR/HkgAttrs.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "llvm/ADT/STLExtras.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::hkg;

#include "hkg/Dialect/Hkg/IR/HkgOpsDialect.cpp.inc"

void HkgDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "hkg/Dialect/Hkg/IR/HkgOps.cpp.inc"
      >();
  registerAttributes();
}

//===----------------------------------------------------------------------===//
// Discardable attributes
//===----------------------------------------------------------------------===//

/// The `hkg.*` attributes HkgBase.td declares, for the message that refuses
/// any other.
static constexpr llvm::StringLiteral kDeclaredAttributes[] = {
    HkgDialect::TargetAttrHelper::getNameStr(),
    HkgDialect::NoAliasAttrHelper::getNameStr(),
    HkgDialect::StreamingAccessAttrHelper::getNameStr(),
    HkgDialect::LoadEvictionAttrHelper::getNameStr(),
    HkgDialect::PrefetchColumnsAttrHelper::getNameStr(),
    HkgDialect::RowF32CacheAttrHelper::getNameStr(),
    HkgDialect::RowBf16CacheAttrHelper::getNameStr(),
    HkgDialect::SizeHintAttrHelper::getNameStr(),
    HkgDialect::OutlinedAttrHelper::getNameStr(),
    HkgDialect::OpAttrHelper::getNameStr(),
    HkgDialect::ScheduleAttrHelper::getNameStr(),
    HkgDialect::ArgRolesAttrHelper::getNameStr(),
    HkgDialect::SourceAttrHelper::getNameStr(),
    HkgDialect::DynamicLdsBytesAttrHelper::getNameStr(),
    HkgDialect::ArgSizesAttrHelper::getNameStr(),
    HkgDialect::GridXAttrHelper::getNameStr(),
    HkgDialect::ArchSpecificAttrHelper::getNameStr(),
    HkgDialect::Ptx80AttrHelper::getNameStr(),
};

namespace {
/// Checks one `hkg.*` attribute on one op.
class AttributeChecker {
public:
  AttributeChecker(Operation *op, NamedAttribute attr)
      : op(op), name(attr.getName().getValue()), value(attr.getValue()) {}

  LogicalResult check() {
    using D = HkgDialect;
    if (name == D::TargetAttrHelper::getNameStr())
      return expect(isa<TargetAttr>(value), "an #hkg.target<chip = ...> attribute");
    if (name == D::NoAliasAttrHelper::getNameStr())
      return failure(failed(expectUnit()) || failed(onKernelOps()));
    if (name == D::OutlinedAttrHelper::getNameStr())
      return failure(failed(expectUnit()) || failed(onFunctions()));
    if (name == D::StreamingAccessAttrHelper::getNameStr())
      return failure(failed(expectUnit()) ||
                     failed(onOpsWith<KernelTrait::HkgCacheHints>(
                         "the streaming kernels (hkg.elementwise, hkg.reduce, "
                         "hkg.softmax, hkg.layernorm, hkg.rmsnorm)")) ||
                     failed(exclusiveWith(
                         D::LoadEvictionAttrHelper::getNameStr())));
    if (name == D::LoadEvictionAttrHelper::getNameStr())
      return checkLoadEviction();
    if (name == D::PrefetchColumnsAttrHelper::getNameStr())
      return failure(failed(expectUnit()) ||
                     failed(onOpsWith<KernelTrait::HkgColumnPrefetch>(
                         "hkg.layernorm and hkg.rmsnorm")));
    if (name == D::RowF32CacheAttrHelper::getNameStr() ||
        name == D::RowBf16CacheAttrHelper::getNameStr())
      return failure(
          failed(expectUnit()) ||
          failed(onOpsWith<KernelTrait::HkgRowCacheForm>(
              "hkg.softmax, hkg.layernorm and hkg.rmsnorm")) ||
          failed(exclusiveWith(name == D::RowF32CacheAttrHelper::getNameStr()
                                   ? D::RowBf16CacheAttrHelper::getNameStr()
                                   : D::RowF32CacheAttrHelper::getNameStr())));
    if (name == D::SizeHintAttrHelper::getNameStr()) {
      auto i = dyn_cast<IntegerAttr>(value);
      return failure(failed(expect(i && i.getValue().isStrictlyPositive(),
                                   "a positive integer")) ||
                     failed(onKernelOps()));
    }
    if (name == D::ArgSizesAttrHelper::getNameStr()) {
      auto a = dyn_cast<ArrayAttr>(value);
      bool ok = a && llvm::all_of(a, [](Attribute e) {
                  return isa<DenseI64ArrayAttr>(e);
                });
      return failure(
          failed(expect(ok, "an array of i64 arrays (one per argument)")) ||
          failed(kernelMetadata()));
    }
    if (name == D::GridXAttrHelper::getNameStr()) {
      auto a = dyn_cast<DenseI64ArrayAttr>(value);
      bool ok = a && a.size() == 3 &&
                llvm::all_of(a.asArrayRef(), [](int64_t v) { return v > 0; });
      return failure(
          failed(expect(ok, "three positive integers [mul, div, times]")) ||
          failed(kernelMetadata()));
    }
    if (name == D::OpAttrHelper::getNameStr() ||
        name == D::SourceAttrHelper::getNameStr())
      return failure(failed(expect(isa<StringAttr>(value), "a string")) ||
                     failed(kernelMetadata()));
    if (name == D::ScheduleAttrHelper::getNameStr())
      return failure(failed(expect(isa<ScheduleAttr>(value),
                                   "an #hkg.schedule attribute")) ||
                     failed(kernelMetadata()));
    if (name == D::ArgRolesAttrHelper::getNameStr())
      return failure(failed(checkArgRoles()) || failed(kernelMetadata()));
    if (name == D::DynamicLdsBytesAttrHelper::getNameStr()) {
      auto i = dyn_cast<IntegerAttr>(value);
      return failure(
          failed(expect(i && !i.getValue().isNegative(),
                        "a non-negative integer")) ||
          failed(kernelMetadata()));
    }
    if (name == D::ArchSpecificAttrHelper::getNameStr() ||
        name == D::Ptx80AttrHelper::getNameStr())
      return failure(failed(expectUnit()) || failed(kernelMetadata()));
    InFlightDiagnostic diag = op->emitOpError()
                              << "has unknown attribute '" << name
                              << "'; the hkg dialect's attributes are ";
    llvm::interleaveComma(kDeclaredAttributes, diag);
    return diag;
  }

private:
  LogicalResult expect(bool ok, StringRef what) {
    if (ok)
      return success();
    return op->emitOpError() << "expected '" << name << "' to be " << what
                             << ", got " << value;
  }
  LogicalResult expectUnit() { return expect(isa<UnitAttr>(value), "a unit attribute"); }

  LogicalResult onKernelOps() {
    if (isa<HkgKernelOpInterface>(op))
      return success();
    return op->emitOpError() << "expected '" << name
                             << "' on an hkg kernel op only";
  }

  LogicalResult onFunctions() {
    if (isa<FunctionOpInterface>(op))
      return success();
    return op->emitOpError() << "expected '" << name
                             << "' on a function only";
  }

  template <template <typename> class Trait>
  LogicalResult onOpsWith(StringRef which) {
    if (op->hasTrait<Trait>())
      return success();
    return op->emitOpError() << "does not accept '" << name
                             << "'; it is supported on " << which << " only";
  }

  LogicalResult exclusiveWith(StringRef other) {
    if (!op->hasAttr(other))
      return success();
    return op->emitOpError() << "has both '" << name << "' and '" << other
                             << "'; expected at most one of them";
  }

  /// Attributes hkg-lower-to-gpu writes on the kernels it builds: never on
  /// an hkg op.
  LogicalResult kernelMetadata() {
    if (op->getDialect() == nullptr ||
        !isa<HkgDialect>(op->getDialect()))
      return success();
    return op->emitOpError() << "does not accept '" << name
                             << "': it is kernel metadata that "
                                "hkg-lower-to-gpu writes on a gpu.func";
  }

  LogicalResult checkLoadEviction() {
    auto s = dyn_cast<StringAttr>(value);
    if (failed(expect(s && llvm::is_contained(
                               ArrayRef<StringRef>{"first", "last", "normal"},
                               s.getValue()),
                      "\"first\", \"last\" or \"normal\"")))
      return failure();
    // The lowering also marks the gpu.func it builds with the policy for
    // hkg-nvvm-streaming-access.
    if (!isa<HkgKernelOpInterface>(op))
      return success();
    return failure(failed(onOpsWith<KernelTrait::HkgCacheHints>(
                       "the streaming kernels (hkg.elementwise, hkg.reduce, "
                       "hkg.softmax, hkg.layernorm, hkg.rmsnorm)")) ||
                   failed(exclusiveWith(
                       HkgDialect::StreamingAccessAttrHelper::getNameStr())));
  }

  LogicalResult checkArgRoles() {
    auto roles = dyn_cast<ArrayAttr>(value);
    bool ok = roles && llvm::all_of(roles, [](Attribute r) {
                auto s = dyn_cast<StringAttr>(r);
                return s && (s.getValue() == "input" || s.getValue() == "output");
              });
    return expect(ok, "an array of \"input\" / \"output\" strings");
  }

  Operation *op;
  StringRef name;
  Attribute value;
};
} // namespace

LogicalResult HkgDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  return AttributeChecker(op, attr).check();
}
