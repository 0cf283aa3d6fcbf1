//===- KernelModels.cpp - the table of runtime models ---------------------===//
//
// Builds the table the runtime looks ops up in from KernelModels.def:
// adding an op family adds one line there.
//
//===----------------------------------------------------------------------===//

#include "Models/Models.h"
#include "hkg/Runtime/KernelModel.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "mlir/IR/Operation.h"
#include "mlir/Support/TypeID.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace hkg::rt;

namespace {
using KernelModelTable = llvm::DenseMap<mlir::TypeID, const KernelModel *>;
} // namespace

static const KernelModelTable &getKernelModelTable() {
  static const KernelModelTable table = [] {
    KernelModelTable t;
#define HKG_KERNEL_MODEL(OP, FN)                                               \
  {                                                                            \
    bool inserted =                                                            \
        t.try_emplace(mlir::TypeID::get<mlir::hkg::OP>(), &FN()).second;       \
    (void)inserted;                                                            \
    assert(inserted && "an op class registered twice");                        \
  }
#include "KernelModels.def"
    return t;
  }();
  return table;
}

const KernelModel *hkg::rt::lookupKernelModel(mlir::TypeID opClass) {
  return getKernelModelTable().lookup(opClass);
}

const KernelModel *hkg::rt::lookupKernelModel(mlir::Operation *op) {
  std::optional<mlir::RegisteredOperationName> name = op->getRegisteredInfo();
  return name ? lookupKernelModel(name->getTypeID()) : nullptr;
}

llvm::Expected<const KernelModel &>
hkg::rt::getKernelModel(mlir::Operation *op) {
  if (const KernelModel *model = lookupKernelModel(op))
    return *model;
  return llvm::createStringError(
      llvm::formatv("no runtime model for '{0}' (an op's model is registered "
                    "in lib/Runtime/KernelModels.def)",
                    op->getName()));
}
