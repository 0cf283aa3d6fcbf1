//===- HkgDialect.h - hkg dialect -------------------------------*- C++ -*-===//

#ifndef HKG_DIALECT_HKG_IR_HKGDIALECT_H
#define HKG_DIALECT_HKG_IR_HKGDIALECT_H

#include "hkg/Dialect/Hkg/IR/HkgAttrs.h"

#include "mlir/IR/Dialect.h"

#include "hkg/Dialect/Hkg/IR/HkgOpsDialect.h.inc"

#endif // HKG_DIALECT_HKG_IR_HKGDIALECT_H
