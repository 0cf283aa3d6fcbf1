//===- OpRegistry.h - per-op-class tables of family hooks -------*- C++ -*-===//
//
// A table from op classes to one hook each (a lowering, a reference, an
// input generator...), filled by the op families in one place per role, so
// that code shared by every op reaches an op's family through a lookup
// instead of a switch over op classes.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_SUPPORT_OPREGISTRY_H
#define HKG_SUPPORT_OPREGISTRY_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/TypeID.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>

namespace hkg {

template <typename Signature>
class OpRegistry;

/// Hooks `R(Operation *, Args...)`, registered per op class and looked up by
/// an op's registered TypeID.
template <typename R, typename... Args>
class OpRegistry<R(mlir::Operation *, Args...)> {
public:
  using Hook = std::function<R(mlir::Operation *, Args...)>;

  /// Registers `hook`, called with the op cast to `OpTy`.
  template <typename OpTy, typename F>
  void add(F hook) {
    bool inserted =
        hooks
            .try_emplace(mlir::TypeID::get<OpTy>(),
                         [hook](mlir::Operation *op, Args... args) -> R {
                           return hook(llvm::cast<OpTy>(op),
                                       std::forward<Args>(args)...);
                         })
            .second;
    (void)inserted;
    assert(inserted && "an op class registered twice");
  }

  /// The hook of `op`'s class, or null where none was registered.
  const Hook *lookup(mlir::Operation *op) const {
    std::optional<mlir::RegisteredOperationName> name =
        op->getRegisteredInfo();
    if (!name)
      return nullptr;
    auto it = hooks.find(name->getTypeID());
    return it == hooks.end() ? nullptr : &it->second;
  }

private:
  llvm::DenseMap<mlir::TypeID, Hook> hooks;
};

} // namespace hkg

#endif // HKG_SUPPORT_OPREGISTRY_H
