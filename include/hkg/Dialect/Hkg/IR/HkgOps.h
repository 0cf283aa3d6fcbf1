//===- HkgOps.h - hkg operations --------------------------------*- C++ -*-===//

#ifndef HKG_DIALECT_HKG_IR_HKGOPS_H
#define HKG_DIALECT_HKG_IR_HKGOPS_H

#include "hkg/Dialect/Hkg/IR/HkgAttrs.h"
#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"
#include "hkg/Dialect/Hkg/IR/HkgTraits.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "hkg/Dialect/Hkg/IR/HkgOps.h.inc"

#endif // HKG_DIALECT_HKG_IR_HKGOPS_H
