//===- LowerToGPU.cpp - hkg ops to gpu.func kernels and launches ----------===//
//
// The driver of hkg-lower-to-gpu: for each hkg kernel op it checks the
// schedule, outlines one gpu.func kernel in its own gpu.module (the body is
// written by the op family's lowering), and replaces the op by a
// gpu.launch_func on bufferized operands.
//
// An operand that is a slice view (hkg/Dialect/Hkg/IR/SliceViews.h) is
// passed as its root's whole buffer and re-viewed inside the kernel
// (SliceViews.h here) where the family reads such views
// (KernelLowerings.def); for the other families it is first copied by an
// hkg.elementwise identity kernel of its own. The view ops are erased once
// no op reads them.
//
//===----------------------------------------------------------------------===//

#include "GPUBuildingBlocks.h"
#include "KernelLowerings.h"
#include "SliceViews.h"

#include "hkg/Conversion/Passes.h"
#include "hkg/Dialect/Hkg/IR/DynamicDims.h"
#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/IR/Schedules/CommonKnobs.h"
#include "hkg/Dialect/Hkg/IR/SliceViews.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
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
/// runtime checks the kernel against. It takes what the kernel takes: an
/// operand read through a slice view (`views`) is its root, viewed by a copy
/// of the view ops.
static std::string buildSourceModule(Operation *op,
                                     ArrayRef<std::optional<SliceView>> views) {
  OpBuilder b(op->getContext());
  Location loc = op->getLoc();
  auto module = ModuleOp::create(b, loc);
  b.setInsertionPointToStart(module.getBody());
  SmallVector<Type> argTypes;
  for (auto [v, view] : llvm::zip(op->getOperands(), views))
    argTypes.push_back(view ? view->root.getType() : v.getType());
  auto fnType = b.getFunctionType(argTypes, op->getResultTypes());
  auto fn = func::FuncOp::create(b, loc, "ref", fnType);
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  SmallVector<Value> operands;
  for (auto [i, view] : llvm::enumerate(views)) {
    Value arg = entry->getArgument(i);
    if (!view) {
      operands.push_back(arg);
      continue;
    }
    IRMapping map;
    map.map(view->root, arg);
    for (Operation *viewOp : view->ops)
      b.clone(*viewOp, map);
    operands.push_back(map.lookup(op->getOperand(i)));
  }
  Operation *clone = b.clone(*op);
  clone->setOperands(operands);
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
  /// The slice view operand #i is read through, once the family reads it in
  /// place (a view it does not read is copied first: copyOperand); none for
  /// an operand that is no slice view.
  FailureOr<std::optional<SliceView>>
  prepareOperandView(HkgKernelOpInterface op, unsigned i,
                     const TargetInfo &target,
                     llvm::StringMap<int64_t> &counters);
  /// Replaces operand #i of `op`, read through `view`, by a copy of one of
  /// the view's slices (an hkg.elementwise identity kernel) under the view
  /// ops after it.
  LogicalResult copyOperand(HkgKernelOpInterface op, unsigned i,
                            const SliceView &view, const TargetInfo &target,
                            llvm::StringMap<int64_t> &counters);

  /// View ops that kernels read in place, erased when no op reads them.
  llvm::SetVector<Operation *> viewOps;
  /// The copies of slices made so far (copyOperand), by the copied value.
  DenseMap<Value, Value> copies;
};
} // namespace
} // namespace mlir::hkg

LogicalResult
HkgLowerToGPUPass::copyOperand(HkgKernelOpInterface op, unsigned i,
                               const SliceView &view, const TargetInfo &target,
                               llvm::StringMap<int64_t> &counters) {
  // Copy the last slice whose view ops make a memref of the root's buffer,
  // else the first (a slice of reshapes of a dense buffer always does), and
  // re-apply the view's ops after it to the copy: any readers of the same
  // slice can share the copy.
  ArrayRef<Operation *> ops = view.ops;
  MemRefType rootType = bufferTypeOf(view.root.getType());
  auto isSlice = [](Operation *o) { return isa<tensor::ExtractSliceOp>(o); };
  size_t cut = llvm::find_if(ops, isSlice) - ops.begin();
  for (size_t k = ops.size() - 1; k > cut; --k) {
    if (isSlice(ops[k]) &&
        succeeded(getSliceViewType(rootType, ops.take_front(k + 1)))) {
      cut = k;
      break;
    }
  }
  Value source = ops[cut]->getResult(0);
  ArrayRef<Operation *> rest = ops.drop_front(cut + 1);
  OpBuilder b(op);
  auto applyRest = [&](Value copied) {
    IRMapping map;
    map.map(source, copied);
    for (Operation *viewOp : rest)
      copied = b.clone(*viewOp, map)->getResult(0);
    op->setOperand(i, copied);
    viewOps.insert(view.ops.begin(), view.ops.end());
  };
  // An earlier copy of the same slice serves again.
  if (Value copied = copies.lookup(source);
      copied && copied.getParentBlock() == op->getBlock()) {
    applyRest(copied);
    return success();
  }
  Location loc = op->getLoc();
  auto type = cast<RankedTensorType>(source.getType());
  auto copy = ElementwiseOp::create(b, loc, type, ValueRange{source},
                                    /*indexing_maps=*/nullptr,
                                    /*schedule=*/nullptr);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body =
        b.createBlock(&copy.getBody(), {}, {type.getElementType()}, {loc});
    YieldOp::create(b, loc, body->getArgument(0));
  }
  auto copyOp = cast<HkgKernelOpInterface>(copy.getOperation());
  copyOp.setScheduleAttrTo(copyOp.getDefaultSchedule(target));
  // The copy's first reader, whose operand is the copied tensor once the
  // copy is lowered.
  Operation *reader = op;
  unsigned readerOperand = i;
  applyRest(copy.getResult());
  if (!rest.empty()) {
    reader = *copy->getUsers().begin();
    readerOperand = 0;
  }
  if (failed(lowerOp(copyOp, target, counters)))
    return failure();
  copies[source] = reader->getOperand(readerOperand);
  return success();
}

FailureOr<std::optional<SliceView>>
HkgLowerToGPUPass::prepareOperandView(HkgKernelOpInterface op, unsigned i,
                                      const TargetInfo &target,
                                      llvm::StringMap<int64_t> &counters) {
  // Each copy removes a slice from the view: this ends.
  while (std::optional<SliceView> view = getSliceView(op->getOperand(i))) {
    // A slice with dynamic offsets, sizes or shapes is no view: it stays a
    // host op (hkg-reject-host-ops refuses it unless host ops are allowed)
    // and the kernel reads its result.
    if (!isStaticSliceView(*view))
      return std::optional<SliceView>();
    FailureOr<MemRefType> type =
        getSliceViewType(bufferTypeOf(view->root.getType()), view->ops);
    const SliceViewSupportRegistry::Hook *takes =
        getSliceViewSupport().lookup(op);
    if (succeeded(type) && takes && (*takes)(op, i, *type)) {
      viewOps.insert(view->ops.begin(), view->ops.end());
      return std::optional<SliceView>(std::move(*view));
    }
    // hkg.elementwise reads every view that makes a memref, the copies' too.
    if (succeeded(type) && isa<ElementwiseOp>(op))
      return op->emitOpError("operand #")
             << i << " is a slice view of layout " << *type
             << ", which hkg.elementwise does not read";
    if (failed(copyOperand(op, i, *view, target, counters)))
      return failure();
  }
  return std::optional<SliceView>();
}

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
  // Operands read through slice views: their roots are the kernel's
  // parameters.
  SmallVector<std::optional<SliceView>> views;
  for (unsigned i = 0; i < op->getNumOperands(); ++i) {
    FailureOr<std::optional<SliceView>> view =
        prepareOperandView(op, i, target, counters);
    if (failed(view))
      return failure();
    views.push_back(std::move(*view));
  }
  OpBuilder b(ctx);
  // The kernel's name: hkg_<op>_<n>, n counting per op kind.
  StringRef opName = op->getName().stripDialect();
  std::string name = ("hkg_" + opName + "_" + Twine(counters[opName]++)).str();

  // Its signature: inputs, then the result, then one i64 per size
  // parameter (the result's dynamic dims, DynamicDims.h).
  SmallVector<Type> argTypes;
  SmallVector<Attribute> roles;
  for (auto [v, view] : llvm::zip(op->getOperands(), views)) {
    argTypes.push_back(paramTypeOf(view ? view->root.getType() : v.getType()));
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
    // A slice view of its root's buffer, strided (static: no size
    // parameter).
    if (i < views.size() && views[i]) {
      kc.args.push_back(buildSliceView(b, loc, arg, views[i]->ops));
      continue;
    }
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
    // A parameter a slice view reads through is its static root: no size
    // parameter for any of its dims (the body indexes the view by the
    // operand's sizes, kc.argSizes).
    SmallVector<SmallVector<int64_t>> paramSizes(argSizes);
    for (auto [i, view] : llvm::enumerate(views))
      if (view)
        paramSizes[i].assign(
            cast<RankedTensorType>(view->root.getType()).getRank(), -1);
    func->setAttr(HkgDialect::ArgSizesAttrHelper::getNameStr(),
                  b.getArrayAttr(llvm::map_to_vector(
                      paramSizes, [&](ArrayRef<int64_t> dims) -> Attribute {
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
                b.getStringAttr(buildSourceModule(op, views)));

  // The host side: bufferize operands, allocate the result, read the
  // sizes, launch.
  b.setInsertionPoint(op);
  SmallVector<Value> sizes;
  for (const SizeSource &src : sizeSources)
    sizes.push_back(
        tensor::DimOp::create(b, loc, op->getOperand(src.operand), src.dim));
  SmallVector<Value> operands;
  for (auto [i, v] : llvm::enumerate(op->getOperands())) {
    Value tensor = views[i] ? views[i]->root : v;
    Value buffer = bufferization::ToBufferOp::create(
        b, loc, bufferTypeOf(tensor.getType()), tensor, b.getUnitAttr());
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
  viewOps.clear();
  copies.clear();
  bool failed = false;
  for (HkgKernelOpInterface op : ops) {
    FailureOr<const TargetInfo *> target = getTargetFor(op, chip);
    if (::mlir::failed(target) ||
        ::mlir::failed(lowerOp(op, **target, counters)))
      failed = true;
  }
  if (failed) {
    signalPassFailure();
    return;
  }
  // The slice views the kernels now read in place (and the views that were
  // copied) are left without readers: no host op stays for them.
  for (bool erased = true; erased;) {
    erased = false;
    for (Operation *viewOp : viewOps.takeVector()) {
      if (viewOp->use_empty()) {
        viewOp->erase();
        erased = true;
        continue;
      }
      viewOps.insert(viewOp);
    }
  }
}
