//===- HkgAttrs.h - hkg attributes ------------------------------*- C++ -*-===//

#ifndef HKG_DIALECT_HKG_IR_HKGATTRS_H
#define HKG_DIALECT_HKG_IR_HKGATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "hkg/Dialect/Hkg/IR/HkgEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "hkg/Dialect/Hkg/IR/HkgAttrs.h.inc"

#endif // HKG_DIALECT_HKG_IR_HKGATTRS_H
