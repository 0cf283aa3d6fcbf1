//===- Passes.h - hkg conversion passes -------------------------*- C++ -*-===//

#ifndef HKG_CONVERSION_PASSES_H
#define HKG_CONVERSION_PASSES_H

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::hkg {

#define GEN_PASS_DECL
#include "hkg/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "hkg/Conversion/Passes.h.inc"

} // namespace mlir::hkg

#endif // HKG_CONVERSION_PASSES_H
