//===- TargetLookup.cpp - find the target a pass compiles for -------------===//

#include "hkg/Dialect/Hkg/IR/HkgAttrs.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::hkg;

FailureOr<const TargetInfo *> mlir::hkg::getTargetFor(Operation *op,
                                                      StringRef chip) {
  if (!chip.empty()) {
    if (const TargetInfo *t = lookupTarget(chip))
      return t;
    return op->emitError("unknown chip '")
           << chip << "'; expected one of: " << getKnownChipsString();
  }
  for (Operation *cur = op; cur; cur = cur->getParentOp()) {
    Attribute attr = cur->getAttr("hkg.target");
    if (!attr)
      continue;
    auto target = dyn_cast<TargetAttr>(attr);
    if (!target)
      return cur->emitError("expected 'hkg.target' to be an "
                            "#hkg.target<chip = ...> attribute, got ")
             << attr;
    // TargetAttr's verifier rejects unknown chips, but an attribute built
    // with TargetAttr::get in C++ skips it: never hand out a null target.
    if (const TargetInfo *t = lookupTarget(target.getChip()))
      return t;
    return cur->emitError("unknown chip '")
           << target.getChip()
           << "' in 'hkg.target'; expected one of: " << getKnownChipsString();
  }
  return op->emitError("no target: pass the 'chip' option or set an "
                       "'hkg.target = #hkg.target<chip = ...>' attribute");
}
