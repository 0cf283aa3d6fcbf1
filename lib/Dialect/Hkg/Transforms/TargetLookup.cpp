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
    return lookupTarget(target.getChip());
  }
  return op->emitError("no target: pass the 'chip' option or set an "
                       "'hkg.target = #hkg.target<chip = ...>' attribute");
}
