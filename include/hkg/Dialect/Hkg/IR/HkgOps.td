//===- HkgOps.td - hkg operations --------------------------*- tablegen -*-===//

#ifndef HKG_OPS_TD
#define HKG_OPS_TD

include "hkg/Dialect/Hkg/IR/HkgBase.td"
include "hkg/Dialect/Hkg/IR/HkgAttrs.td"
include "hkg/Dialect/Hkg/IR/HkgInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// Every kernel op: pure, implements the kernel interface, may carry a
/// schedule. `kernelMethods`: interface methods with defaults the op
/// implements itself (Hkg_DynamicDimMethods: ops that take dynamic dims).
class Hkg_KernelOp<string mnemonic, list<Trait> traits = [],
                   list<string> kernelMethods = []>
    : Hkg_Op<mnemonic, !listconcat(traits, [Pure,
        DeclareOpInterfaceMethods<HkgKernelOpInterface,
          !listconcat(["verifyScheduleConstraints"], kernelMethods)>])> {
  let hasVerifier = 1;
}

defvar Hkg_DynamicDimMethods = ["getDynamicResultDims",
                                "getResultDimsOfOperand"];

//===----------------------------------------------------------------------===//
// hkg.yield
//===----------------------------------------------------------------------===//

def Hkg_YieldOp : Hkg_Op<"yield", [Pure, ReturnLike, Terminator,
    ParentOneOf<["ElementwiseOp", "MatmulOp", "ReduceOp"]>]> {
  let summary = "yields the element computed by a body or epilogue region";
  let description = [{
    Terminates the body of `hkg.elementwise`, the epilogue of `hkg.matmul`
    and the prologue and epilogue of `hkg.reduce`, yielding the scalars the
    region computes: the output element, or (a reduce's prologue) one value
    per reduction kind.

    ```mlir
    hkg.yield %y : bf16
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Op families in their own files: one include each.
//===----------------------------------------------------------------------===//

include "hkg/Dialect/Hkg/IR/Ops/MatmulOp.td"
include "hkg/Dialect/Hkg/IR/Ops/MatmulW4A16Op.td"
include "hkg/Dialect/Hkg/IR/Ops/ElementwiseOp.td"
include "hkg/Dialect/Hkg/IR/Ops/RowOps.td"
include "hkg/Dialect/Hkg/IR/Ops/RopeOp.td"
include "hkg/Dialect/Hkg/IR/Ops/TopPSampleOp.td"
include "hkg/Dialect/Hkg/IR/Ops/AttentionOp.td"
include "hkg/Dialect/Hkg/IR/Ops/TopKOp.td"

#endif // HKG_OPS_TD
