//===- Passes.h - hkg passes on the gpu dialect -----------------*- C++ -*-===//

#ifndef HKG_TARGET_PASSES_H
#define HKG_TARGET_PASSES_H

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::hkg {

#define GEN_PASS_DECL
#include "hkg/Target/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "hkg/Target/Passes.h.inc"

} // namespace mlir::hkg

#endif // HKG_TARGET_PASSES_H
