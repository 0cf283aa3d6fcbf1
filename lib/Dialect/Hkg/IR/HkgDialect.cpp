//===- HkgDialect.cpp - hkg dialect registration --------------------------===//

#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/IR/HkgAttrs.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::hkg;

#include "hkg/Dialect/Hkg/IR/HkgOpsDialect.cpp.inc"

void HkgDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "hkg/Dialect/Hkg/IR/HkgOps.cpp.inc"
      >();
  registerAttributes();
}
