//===- HkgInterfaces.cpp - HkgKernelOpInterface and schedule checks -------===//

#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"

using namespace mlir;
using namespace mlir::hkg;

#include "hkg/Dialect/Hkg/IR/HkgInterfaces.cpp.inc"

LogicalResult mlir::hkg::detail::verifyKernelOpAttributes(Operation *op) {
  for (NamedAttribute attr : op->getDiscardableAttrs()) {
    StringRef name = attr.getName().getValue();
    if (name.contains('.'))
      continue;
    InFlightDiagnostic diag = op->emitOpError()
                              << "has unknown attribute '" << name << "'";
    if (std::optional<RegisteredOperationName> info = op->getRegisteredInfo())
      if (!info->getAttributeNames().empty()) {
        diag << "; expected only its own attributes (";
        llvm::interleaveComma(info->getAttributeNames(), diag,
                              [&](StringAttr a) { diag << a.getValue(); });
        diag << ") or a dialect's ('<dialect>.<name>')";
      }
    return diag;
  }
  return success();
}

LogicalResult
mlir::hkg::verifySchedule(HkgKernelOpInterface op, ScheduleAttr schedule,
                          const TargetInfo &target,
                          function_ref<InFlightDiagnostic()> emitError) {
  ScheduleSpace space = op.getScheduleSpace(target);
  StringRef opName = op->getName().getStringRef();
  if (schedule) {
    for (NamedAttribute knob : schedule.getKnobs()) {
      StringRef name = knob.getName().getValue();
      const KnobSpec *spec = space.lookup(name);
      if (!spec) {
        if (const std::string *why = space.unavailableReason(name))
          return emitError()
                 << "schedule knob '" << name << "' is not available for "
                 << opName << " on " << target.chip << ": " << *why;
        return emitError() << "unknown schedule knob '" << name << "' for "
                           << opName
                           << "; expected one of: " << space.knobNamesString();
      }
      KnobValue value;
      if (auto i = dyn_cast<IntegerAttr>(knob.getValue()))
        value = i.getInt();
      else if (auto s = dyn_cast<StringAttr>(knob.getValue()))
        value = s.getValue().str();
      // An integer where a keyword is expected (or the reverse) would print
      // like a legal value (`"8"` as 8): say which kind the knob takes.
      bool wantsInt = std::holds_alternative<int64_t>(spec->defaultValue);
      bool isInt = std::holds_alternative<int64_t>(value);
      if (wantsInt != isInt)
        return emitError()
               << "schedule knob '" << name << "' of " << opName << " takes "
               << (wantsInt ? "an integer" : "a keyword") << ", got "
               << (isInt ? toString(value) : "\"" + toString(value) + "\"")
               << "; expected one of: " << spec->legalValuesString();
      if (!spec->isLegal(value))
        return emitError() << "schedule knob '" << name
                           << "' = " << toString(value) << " is not legal for "
                           << opName << " on " << target.chip
                           << "; expected one of: "
                           << spec->legalValuesString();
    }
  }
  ResolvedSchedule resolved(space, schedule);
  return op.verifyScheduleConstraints(resolved, target, emitError);
}

ResolvedSchedule mlir::hkg::resolveSchedule(HkgKernelOpInterface op,
                                            const TargetInfo &target) {
  return ResolvedSchedule(op.getScheduleSpace(target),
                          op.getScheduleAttrOrNull());
}
