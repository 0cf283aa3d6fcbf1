//===- HkgInterfaces.td - HkgKernelOpInterface -------------*- tablegen -*-===//

#ifndef HKG_INTERFACES_TD
#define HKG_INTERFACES_TD

include "mlir/IR/OpBase.td"

def HkgKernelOpInterface : OpInterface<"HkgKernelOpInterface"> {
  let cppNamespace = "::mlir::hkg";
  let description = [{
    Implemented by every hkg op that becomes one GPU kernel. It is the only
    way passes and the tuner learn about an op:

    - `getScheduleSpace(target)`: the knobs the op accepts and their legal
      values on `target`;
    - `getDefaultSchedule(target)`: a schedule that is legal on `target` and
      reasonably fast without tuning;
    - `verifyScheduleConstraints(schedule, target, emitError)`: constraints
      between knobs, or between knobs and the op's shapes and the target's
      resources (checked after every knob was found legal on its own);
    - `getCostFeatures()`: flops, bytes moved, shapes and element type, for
      roofline reports and the tuner's model;
    - `getDynamicResultDims()` and `getResultDimsOfOperand(i)`: which result
      dims may be dynamic (`?`) and which operand dims equal which result
      dims, so that one kernel serves every size (docs/ABI.md).
  }];

  // Every kernel op refuses attributes it does not declare: a misspelt or
  // misplaced attribute (`{axis = 1}` on hkg.rmsnorm) would otherwise be
  // carried along and do nothing. Dialect-prefixed ones are their dialect's
  // to verify (`hkg.*`: HkgDialect::verifyOperationAttribute).
  let verify = [{
    return ::mlir::hkg::detail::verifyKernelOpAttributes($_op);
  }];

  let methods = [
    InterfaceMethod<
      "Returns the knobs this op accepts and their legal values on `target`.",
      "::mlir::hkg::ScheduleSpace", "getScheduleSpace",
      (ins "const ::mlir::hkg::TargetInfo &":$target)>,
    InterfaceMethod<
      "Returns the default schedule of this op on `target`.",
      "::mlir::hkg::ScheduleAttr", "getDefaultSchedule",
      (ins "const ::mlir::hkg::TargetInfo &":$target),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        return ::mlir::hkg::ResolvedSchedule(
            $_op.getScheduleSpace(target), nullptr).toAttr($_op->getContext());
      }]>,
    InterfaceMethod<
      "Checks constraints between knobs, shapes and target resources.",
      "::llvm::LogicalResult", "verifyScheduleConstraints",
      (ins "const ::mlir::hkg::ResolvedSchedule &":$schedule,
           "const ::mlir::hkg::TargetInfo &":$target,
           "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError),
      /*methodBody=*/"",
      /*defaultImplementation=*/"return ::mlir::success();">,
    InterfaceMethod<
      "Returns the op's cost features (flops, bytes moved, shapes, dtype).",
      "::mlir::hkg::CostFeatures", "getCostFeatures">,
    InterfaceMethod<
      [{Returns the result dims that may be dynamic (`?`): the batch, row or
        sequence dims a kernel serves at every size. Default: none.}],
      "::llvm::SmallVector<int64_t>", "getDynamicResultDims", (ins),
      /*methodBody=*/"",
      /*defaultImplementation=*/"return {};">,
    InterfaceMethod<
      [{Returns, for each dim of operand #`operand`, the result dim it always
        equals (-1: none). A dynamic operand dim must be such a dim of a
        dynamic result dim, and every dynamic result dim must be one of some
        operand: the launch reads the result's sizes from the operands.}],
      "::llvm::SmallVector<int64_t>", "getResultDimsOfOperand",
      (ins "unsigned":$operand),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        auto t = ::llvm::cast<::mlir::ShapedType>(
            $_op->getOperand(operand).getType());
        return ::llvm::SmallVector<int64_t>(t.getRank(), -1);
      }]>,
    InterfaceMethod<
      "Returns the schedule attached to the op, or null.",
      "::mlir::hkg::ScheduleAttr", "getScheduleAttrOrNull", (ins),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        return $_op->template getAttrOfType<::mlir::hkg::ScheduleAttr>(
            "schedule");
      }]>,
    InterfaceMethod<
      "Attaches `schedule` to the op.",
      "void", "setScheduleAttrTo", (ins "::mlir::hkg::ScheduleAttr":$schedule),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{ $_op->setAttr("schedule", schedule); }]>,
  ];
}

#endif // HKG_INTERFACES_TD
