//===- LowerToGPU.cpp - hkg ops to gpu.func kernels and launches ----------===//
//
// The driver of hkg-lower-to-gpu: for each hkg kernel op it checks the
// schedule, outlines one gpu.func kernel in its own gpu.module (the body is
// written by the op family's lowering), and replaces the op by a
// gpu.launch_func on bufferized operands.
//
//===----------------------------------------------------------------------===//

#include "GPUBuildingBlocks.h"
#include "KernelLowerings.h"

#include "hkg/Conversion/Passes.h"
#include "hkg/Dialect/Hkg/IR/DynamicDims.h"
#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/IR/Schedules/CommonKnobs.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "hkg-lower-to-gpu"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGLOWERTOGPUPASS
#include "hkg/Conversion/Passes.h.inc"
} // namespace mlir::hkg

using namespace mlir;
using namespace mlir::hkg;

static MemRefType bufferTypeOf(Type tensorType) {
  auto t = cast<RankedTensorType>(tensorType);
  return MemRefType::get(t.getShape(), t.getElementType());
}

/// The kernel parameter of a buffer: the buffer's memref when static; with
/// dynamic dims, its one-slice view (each dynamic dim 1), since the
/// bare-pointer ABI passes only the base pointer (docs/ABI.md). The kernel
/// re-views it with its size parameters.
static MemRefType paramTypeOf(Type tensorType) {
  auto t = cast<RankedTensorType>(tensorType);
  SmallVector<int64_t> shape(t.getShape());
  for (int64_t &d : shape)
    if (ShapedType::isDynamic(d))
      d = 1;
  return MemRefType::get(shape, t.getElementType());
}

/// `buffer` as the kernel parameter type `param` (paramTypeOf).
static Value viewAs(OpBuilder &b, Location loc, Value buffer,
                    MemRefType param) {
  if (buffer.getType() == param)
    return buffer;
  return reshapeView(b, loc, buffer, param.getShape());
}

/// A module holding just `op` as `func.func @ref`, printed: the reference a
/// runtime checks the kernel against.
static std::string buildSourceModule(Operation *op) {
  OpBuilder b(op->getContext());
  Location loc = op->getLoc();
  auto module = ModuleOp::create(b, loc);
  b.setInsertionPointToStart(module.getBody());
  auto fnType = b.getFunctionType(op->getOperandTypes(), op->getResultTypes());
  auto fn = func::FuncOp::create(b, loc, "ref", fnType);
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping map;
  map.map(op->getOperands(), entry->getArguments());
  Operation *clone = b.clone(*op, map);
  func::ReturnOp::create(b, loc, clone->getResults());
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  module->erase();
  return text;
}

static LogicalResult lowerBody(Operation *op, KernelContext &kc) {
  const KernelLoweringRegistry::Hook *lower = getKernelLowerings().lookup(op);
  if (!lower)
    return op->emitOpError("has no kernel lowering registered "
                           "(lib/Conversion/HkgToGPU/KernelLowerings.def)");
  return (*lower)(op, kc);
}

namespace mlir::hkg {
namespace {
struct HkgLowerToGPUPass final
    : impl::HkgLowerToGPUPassBase<HkgLowerToGPUPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult lowerOp(HkgKernelOpInterface op, const TargetInfo &target,
                        llvm::StringMap<int64_t> &counters);
};
} // namespace
} // namespace mlir::hkg

LogicalResult HkgLowerToGPUPass::lowerOp(HkgKernelOpInterface op,
                                         const TargetInfo &target,
                                         llvm::StringMap<int64_t> &counters) {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  Location loc = op->getLoc();
  ScheduleAttr schedule = op.getScheduleAttrOrNull();
  if (!schedule)
    return op->emitOpError("has no schedule; run hkg-default-schedule (or "
                           "hkg-autotune) before hkg-lower-to-gpu");
  if (failed(verifySchedule(op, schedule, target,
                            [&] { return op->emitOpError(); })))
    return failure();
  ResolvedSchedule resolved = resolveSchedule(op, target);
  OpBuilder b(ctx);
  // The kernel's name: hkg_<op>_<n>, n counting per op kind.
  StringRef opName = op->getName().stripDialect();
  std::string name = ("hkg_" + opName + "_" + Twine(counters[opName]++)).str();

  // Its signature: inputs, then the result, then one i64 per size
  // parameter (the result's dynamic dims, DynamicDims.h).
  SmallVector<Type> argTypes;
  SmallVector<Attribute> roles;
  for (Type t : op->getOperandTypes()) {
    argTypes.push_back(paramTypeOf(t));
    roles.push_back(StringAttr::get(ctx, "input"));
  }
  for (Type t : op->getResultTypes()) {
    argTypes.push_back(paramTypeOf(t));
    roles.push_back(StringAttr::get(ctx, "output"));
  }
  unsigned numBuffers = argTypes.size();
  SmallVector<SizeSource> sizeSources;
  SmallVector<SmallVector<int64_t>> argSizes;
  if (hasDynamicDims(op)) {
    sizeSources = getSizeSources(op);
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      argSizes.push_back(getOperandSizeParams(op, i));
    argSizes.push_back(getResultSizeParams(op));
    argTypes.append(sizeSources.size(), b.getI64Type());
  }

  b.setInsertionPointToEnd(module.getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, loc, name);
  b.setInsertionPointToStart(gpuModule.getBody());
  auto func =
      gpu::GPUFuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  // `hkg.no_alias` (HkgBase.td): the caller promises that no output
  // overlaps another argument (inputs are only read, as always): every
  // pointer gets `llvm.noalias` and the inputs `llvm.readonly`, so that
  // NVIDIA loads the inputs (but the cache-policy stream loads, which are
  // inline PTX) through ld.global.nc and ptxas may hoist a norm's column
  // loads above the stores before them. Not the default: it costs registers
  // and measured slower on some memory-bound ops (docs/perf/README.md).
  if (op->hasAttr(HkgDialect::NoAliasAttrHelper::getNameStr())) {
    unsigned numInputs = op->getNumOperands();
    for (unsigned i = 0; i < argTypes.size(); ++i) {
      func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                      b.getUnitAttr());
      if (i < numInputs)
        func.setArgAttr(i, LLVM::LLVMDialect::getReadonlyAttrName(),
                        b.getUnitAttr());
    }
  }
  // `hkg.load_eviction` tells hkg-nvvm-streaming-access which cache
  // policy the kernel's nontemporal loads take (instead of `.cs`).
  StreamingAccess streaming = streamingAccessOf(op, target);
  if (streaming == StreamingAccess::LoadsEvictFirst ||
      streaming == StreamingAccess::LoadsEvictLast)
    func->setAttr(HkgDialect::LoadEvictionAttrHelper::getNameStr(),
                  b.getStringAttr(streaming == StreamingAccess::LoadsEvictFirst
                                      ? "first"
                                      : "last"));
  b.setInsertionPointToStart(&func.getBody().front());
  auto ret = gpu::ReturnOp::create(b, loc);
  b.setInsertionPoint(ret);

  KernelContext kc{b, loc, func, target, resolved, {}};
  for (unsigned i = numBuffers; i < argTypes.size(); ++i)
    kc.sizes.push_back(arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                                  func.getArgument(i)));
  kc.argSizes = argSizes;
  for (unsigned i = 0; i < numBuffers; ++i) {
    Value arg = func.getArgument(i);
    if (argSizes.empty()) {
      kc.args.push_back(arg);
      continue;
    }
    // Re-view a buffer with dynamic dims at its full extent.
    auto type = cast<MemRefType>(arg.getType());
    SmallVector<OpFoldResult> shape;
    bool dynamic = false;
    for (auto [d, param] : llvm::enumerate(argSizes[i])) {
      dynamic |= param >= 0;
      shape.push_back(param >= 0 ? OpFoldResult(kc.sizes[param])
                                 : b.getIndexAttr(type.getDimSize(d)));
    }
    kc.args.push_back(dynamic ? reshapeView(b, loc, arg, shape) : arg);
  }
  if (failed(lowerBody(op, kc))) {
    gpuModule->erase();
    return failure();
  }
  if (kc.hasSizes() && !kc.gridX) {
    gpuModule->erase();
    return op->emitOpError("has dynamic dims, which the lowering of its "
                           "schedule does not support yet (make them static)");
  }
  // NVIDIA: more than 48 KiB of LDS goes to dynamic shared memory (the
  // schedule verifiers allow up to the chip's per-workgroup maximum).
  int64_t dynamicLds = 0;
  if (target.isNVIDIA()) {
    FailureOr<int64_t> moved = moveLdsToDynamicSharedMemory(
        func, kNvidiaStaticSharedMemoryBytes, target.ldsBytesPerWorkgroup);
    if (failed(moved)) {
      gpuModule->erase();
      return failure();
    }
    dynamicLds = *moved;
  }
  if (dynamicLds > 0)
    func->setAttr(HkgDialect::DynamicLdsBytesAttrHelper::getNameStr(), b.getI64IntegerAttr(dynamicLds));

  auto toI32 = [&](ArrayRef<int64_t> dims) {
    SmallVector<int32_t> v(dims.begin(), dims.end());
    return b.getDenseI32ArrayAttr(v);
  };
  func.setKnownBlockSizeAttr(toI32(kc.block));
  if (kc.gridX) {
    // The grid's x is computed at launch; the manifest says how.
    func->setAttr(HkgDialect::GridXAttrHelper::getNameStr(),
                  b.getDenseI64ArrayAttr(*kc.gridX));
    func->setAttr(HkgDialect::ArgSizesAttrHelper::getNameStr(),
                  b.getArrayAttr(llvm::map_to_vector(
                      argSizes, [&](ArrayRef<int64_t> dims) -> Attribute {
                        return b.getDenseI64ArrayAttr(dims);
                      })));
  } else {
    func.setKnownGridSizeAttr(toI32(kc.grid));
  }
  if (kc.cluster != std::array<int64_t, 3>{1, 1, 1})
    func.setKnownClusterSizeAttr(toI32(kc.cluster));
  // The `occupancy` knob (ScheduleUtils.h): workgroups per CU (SM) the code
  // generator must leave registers for.
  if (int64_t occupancy = resolved.getOr(kOccupancy, 0)) {
    if (target.isNVIDIA()) {
      func->setAttr("nvvm.minctasm", b.getI32IntegerAttr(occupancy));
    } else {
      int64_t threads = kc.block[0] * kc.block[1] * kc.block[2];
      int64_t waves = llvm::divideCeil(threads, target.waveSize);
      constexpr int64_t kSimdsPerCU = 4;
      func->setAttr("rocdl.waves_per_eu",
                    b.getI32IntegerAttr(
                        llvm::divideCeil(occupancy * waves, kSimdsPerCU)));
    }
  }
  func->setAttr(HkgDialect::OpAttrHelper::getNameStr(),
                b.getStringAttr(op->getName().getStringRef()));
  func->setAttr(HkgDialect::ScheduleAttrHelper::getNameStr(),
                resolved.toAttr(ctx));
  func->setAttr(HkgDialect::ArgRolesAttrHelper::getNameStr(),
                b.getArrayAttr(roles));
  func->setAttr(HkgDialect::SourceAttrHelper::getNameStr(),
                b.getStringAttr(buildSourceModule(op)));

  // The host side: bufferize operands, allocate the result, read the
  // sizes, launch.
  b.setInsertionPoint(op);
  SmallVector<Value> sizes;
  for (const SizeSource &src : sizeSources)
    sizes.push_back(
        tensor::DimOp::create(b, loc, op->getOperand(src.operand), src.dim));
  SmallVector<Value> operands;
  for (auto [i, v] : llvm::enumerate(op->getOperands())) {
    Value buffer = bufferization::ToBufferOp::create(
        b, loc, bufferTypeOf(v.getType()), v, b.getUnitAttr());
    operands.push_back(viewAs(b, loc, buffer, cast<MemRefType>(argTypes[i])));
  }
  SmallVector<Value> results;
  for (Type t : op->getResultTypes()) {
    // The result's dynamic dims are the sizes, in order.
    Value alloc = memref::AllocOp::create(b, loc, bufferTypeOf(t), sizes);
    unsigned i = operands.size();
    operands.push_back(viewAs(b, loc, alloc, cast<MemRefType>(argTypes[i])));
    results.push_back(alloc);
  }
  for (Value size : sizes)
    operands.push_back(
        arith::IndexCastOp::create(b, loc, b.getI64Type(), size));
  auto dim3 = [&](ArrayRef<int64_t> d) {
    return gpu::KernelDim3{constIndex(b, loc, d[0]), constIndex(b, loc, d[1]),
                           constIndex(b, loc, d[2])};
  };
  gpu::KernelDim3 grid = dim3(kc.grid);
  if (kc.gridX) {
    // ceil(N * mul / div) * times, N the product of the sizes.
    auto [mul, div, times] = *kc.gridX;
    Value n = constIndex(b, loc, mul);
    for (Value size : sizes)
      n = arith::MulIOp::create(b, loc, n, size);
    Value x = arith::CeilDivUIOp::create(b, loc, n, constIndex(b, loc, div));
    grid.x = arith::MulIOp::create(b, loc, x, constIndex(b, loc, times));
  }
  Value dynamicSize;
  if (dynamicLds > 0)
    dynamicSize = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                               dynamicLds);
  gpu::LaunchFuncOp::create(b, loc, func, grid, dim3(kc.block), dynamicSize,
                            operands);
  SmallVector<Value> tensors;
  for (auto [buf, t] : llvm::zip(results, op->getResultTypes()))
    tensors.push_back(bufferization::ToTensorOp::create(
        b, loc, t, buf, /*restrict=*/b.getUnitAttr(),
        /*writable=*/b.getUnitAttr()));
  op->replaceAllUsesWith(tensors);
  op->erase();
  return success();
}

void HkgLowerToGPUPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<HkgKernelOpInterface> ops;
  module.walk([&](HkgKernelOpInterface op) { ops.push_back(op); });
  if (ops.empty())
    return;
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(&getContext()));
  llvm::StringMap<int64_t> counters;
  bool failed = false;
  for (HkgKernelOpInterface op : ops) {
    FailureOr<const TargetInfo *> target = getTargetFor(op, chip);
    if (::mlir::failed(target) ||
        ::mlir::failed(lowerOp(op, **target, counters)))
      failed = true;
  }
  if (failed)
    signalPassFailure();
}
