//===- Compile.cpp - compile a module's kernels for a bundle --------------===//
//
// Each gpu.module is cloned into a module of its own and compiled alone, so
// the compile time of every kernel is measured and one kernel's failure names
// that kernel. The pipeline runs to `format=isa`: the assembly is kept for
// reports, and turned into the binary the way upstream's format=bin does
// (ROCDL::assembleIsa + ROCDL::linkObjectCode with ld.lld for AMD; ptxas for
// NVIDIA cubins).
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/IR/HkgAttrs.h"
#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"
#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"
#include "hkg/Pipelines/Pipelines.h"
#include "hkg/Target/Bundle.h"
#include "hkg/Target/KernelStats.h"
#include "hkg/Target/Toolkit.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVM/ROCDL/Utils.h"

#include <chrono>

#include <sys/resource.h>

using namespace mlir;
using namespace mlir::hkg;

static double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// CPU time (user + system) of this process and its finished children
/// (ld.lld, ptxas), in ms: unlike wall time, it does not grow when other
/// jobs share the cores.
static double getCPUMs() {
  double ms = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    struct rusage usage;
    if (getrusage(who, &usage) != 0)
      continue;
    for (const struct timeval &tv : {usage.ru_utime, usage.ru_stime})
      ms += tv.tv_sec * 1e3 + tv.tv_usec * 1e-3;
  }
  return ms;
}

/// Bytes of one static memref (0 when the shape is dynamic).
static int64_t getMemRefBytes(MemRefType type) {
  if (!type.hasStaticShape())
    return 0;
  Type elem = type.getElementType();
  int64_t bits = 0;
  if (auto vec = dyn_cast<VectorType>(elem))
    bits = vec.getNumElements() * vec.getElementTypeBitWidth();
  else if (elem.isIndex())
    bits = 64;
  else if (elem.isIntOrFloat())
    bits = elem.getIntOrFloatBitWidth();
  return type.getNumElements() * llvm::divideCeil(bits, 8);
}

static bool isWorkgroupMemory(Attribute memorySpace) {
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(memorySpace))
    return gpuSpace.getValue() == gpu::AddressSpace::Workgroup;
  if (auto intSpace = dyn_cast_or_null<IntegerAttr>(memorySpace))
    return intSpace.getInt() == 3;
  return false;
}

/// Static LDS of `func`: its workgroup attributions plus the workgroup
/// memref.globals of its module.
static int64_t getStaticLDSBytes(gpu::GPUModuleOp module, gpu::GPUFuncOp func) {
  int64_t bytes = 0;
  for (BlockArgument arg : func.getWorkgroupAttributions())
    bytes += getMemRefBytes(cast<MemRefType>(arg.getType()));
  for (auto global : module.getOps<memref::GlobalOp>())
    if (isWorkgroupMemory(global.getType().getMemorySpace()))
      bytes += getMemRefBytes(global.getType());
  return bytes;
}

static JSONMembers getScheduleMembers(Attribute attr) {
  JSONMembers members;
  auto schedule = dyn_cast_or_null<ScheduleAttr>(attr);
  if (!schedule)
    return members;
  for (NamedAttribute knob : schedule.getKnobs()) {
    Attribute value = knob.getValue();
    if (auto i = dyn_cast<IntegerAttr>(value))
      members.emplace_back(knob.getName().str(), i.getInt());
    else if (auto s = dyn_cast<StringAttr>(value))
      members.emplace_back(knob.getName().str(), s.getValue().str());
    else if (auto sym = dyn_cast<FlatSymbolRefAttr>(value))
      members.emplace_back(knob.getName().str(), sym.getValue().str());
    else {
      std::string text;
      llvm::raw_string_ostream os(text);
      value.print(os);
      members.emplace_back(knob.getName().str(), text);
    }
  }
  return members;
}

/// Fills what the manifest says about `func` from its IR.
static LogicalResult describeKernel(gpu::GPUModuleOp module,
                                    gpu::GPUFuncOp func,
                                    CompiledKernel &kernel) {
  kernel.entry = func.getName().str();
  std::optional<DenseI32ArrayAttr> block = func.getKnownBlockSizeAttr();
  std::optional<DenseI32ArrayAttr> grid = func.getKnownGridSizeAttr();
  // A kernel with dynamic sizes has its grid's x computed at launch
  // (hkg.grid_x) and y, z of 1.
  auto gridX = func->getAttrOfType<DenseI64ArrayAttr>("hkg.grid_x");
  auto argSizes = func->getAttrOfType<ArrayAttr>("hkg.arg_sizes");
  if (!block || !*block || (!gridX && (!grid || !*grid)))
    return func.emitError("kernel has no known_block_size and "
                          "known_grid_size (or hkg.grid_x); a bundle's launch "
                          "dims are fixed at compile time or computed by its "
                          "manifest's rule");
  if (gridX && !argSizes)
    return func.emitError("kernel has hkg.grid_x but no hkg.arg_sizes");
  for (int i = 0; i < 3; ++i) {
    kernel.block[i] = (*block)[i];
    kernel.grid[i] = gridX ? (i == 0 ? 0 : 1) : (*grid)[i];
  }
  if (gridX)
    kernel.gridX = {gridX[0], gridX[1], gridX[2]};
  if (std::optional<DenseI32ArrayAttr> cluster =
          func.getKnownClusterSizeAttr();
      cluster && *cluster)
    for (int i = 0; i < 3; ++i)
      kernel.cluster[i] = (*cluster)[i];
  if (auto op = func->getAttrOfType<StringAttr>("hkg.op"))
    kernel.op = op.getValue().str();
  if (auto source = func->getAttrOfType<StringAttr>("hkg.source"))
    kernel.source = source.getValue().str();
  kernel.schedule = getScheduleMembers(func->getAttr("hkg.schedule"));
  kernel.ldsBytes = getStaticLDSBytes(module, func);
  if (auto dyn = func->getAttrOfType<IntegerAttr>("hkg.dynamic_lds_bytes"))
    kernel.dynamicLdsBytes = dyn.getInt();

  auto roles = func->getAttrOfType<ArrayAttr>("hkg.arg_roles");
  // The buffers, then (kernels with sizes) one i64 per size parameter.
  unsigned numBuffers = argSizes ? argSizes.size() : func.getNumArguments();
  if (roles && roles.size() != numBuffers)
    return func.emitError("hkg.arg_roles has ")
           << roles.size() << " entries for " << numBuffers << " buffers";
  int64_t numSizes = 0;
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    if (i >= numBuffers) {
      if (!type.isInteger(64))
        return func.emitError("kernel argument #")
               << i << " is " << type << "; expected an i64 size parameter";
      ++numSizes;
      continue;
    }
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref || !memref.hasStaticShape())
      return func.emitError("kernel argument #")
             << i << " is " << type
             << "; expected a static-shape memref (bare-pointer ABI)";
    KernelArg arg;
    arg.role = "inout";
    if (roles)
      if (auto role = dyn_cast<StringAttr>(roles[i]))
        arg.role = role.getValue().str();
    arg.dtype = getDTypeName(memref.getElementType());
    arg.shape.assign(memref.getShape().begin(), memref.getShape().end());
    if (argSizes) {
      auto params = dyn_cast<DenseI64ArrayAttr>(argSizes[i]);
      if (!params || params.size() != memref.getRank())
        return func.emitError("hkg.arg_sizes entry #")
               << i << " does not give one size parameter (or -1) per dim";
      arg.sizeParams.assign(params.asArrayRef().begin(),
                            params.asArrayRef().end());
    }
    kernel.args.push_back(std::move(arg));
  }
  if (!argSizes)
    return success();
  // Where each size is read: its first dim among the outputs.
  kernel.sizes.assign(numSizes, {-1, -1});
  for (auto [i, arg] : llvm::enumerate(kernel.args)) {
    if (arg.role != "output")
      continue;
    for (auto [d, param] : llvm::enumerate(arg.sizeParams))
      if (param >= 0 && param < numSizes && kernel.sizes[param].first < 0)
        kernel.sizes[param] = {static_cast<int64_t>(i),
                               static_cast<int64_t>(d)};
  }
  for (auto [param, where] : llvm::enumerate(kernel.sizes))
    if (where.first < 0)
      return func.emitError("size parameter #")
             << param << " is no dim of an output";
  return success();
}

/// Runs the gpu-dialect pipeline on `module` (holding one gpu.module) to
/// format=isa and returns the assembly / PTX text.
static FailureOr<std::string> compileToISA(ModuleOp module,
                                           const TargetInfo &target,
                                           const BundleOptions &options,
                                           unsigned indexBitwidth) {
  PassManager pm(module.getContext());
  llvm::Error err = llvm::Error::success();
  if (target.isAMD()) {
    HkgToROCDLPipelineOptions opts;
    opts.chip = target.chip.str();
    opts.optLevel = options.optLevel;
    opts.format = "isa";
    opts.toolkit = options.toolkit;
    err = buildHkgGPUToROCDLPipeline(pm, opts);
  } else {
    HkgToNVVMPipelineOptions opts;
    opts.chip = target.chip.str();
    opts.optLevel = options.optLevel;
    opts.format = "isa";
    opts.toolkit = options.toolkit;
    opts.indexBitwidth = indexBitwidth;
    err = buildHkgGPUToNVVMPipeline(pm, opts);
  }
  if (err)
    return emitError(module.getLoc(), llvm::toString(std::move(err)));
  if (failed(pm.run(module)))
    return failure();
  for (auto binary : module.getOps<gpu::BinaryOp>())
    for (auto object : binary.getObjects().getAsRange<gpu::ObjectAttr>())
      return object.getObject().getValue().str();
  return emitError(module.getLoc(), "the pipeline produced no gpu.binary");
}

static void addAMDStats(const TargetInfo &target, const AMDGPUKernelStats &s,
                        CompiledKernel &kernel) {
  JSONMembers &m = kernel.stats;
  m.emplace_back("vgpr", s.vgprCount);
  m.emplace_back("sgpr", s.sgprCount);
  m.emplace_back("agpr", s.agprCount);
  m.emplace_back("lds_bytes", s.groupSegmentBytes);
  m.emplace_back("scratch_bytes", s.privateSegmentBytes);
  m.emplace_back("vgpr_spill", s.vgprSpillCount);
  m.emplace_back("sgpr_spill", s.sgprSpillCount);
  m.emplace_back("wave_size", s.wavefrontSize);
  unsigned workgroupSize = kernel.block[0] * kernel.block[1] * kernel.block[2];
  llvm::Expected<Occupancy> occ =
      computeAMDGPUOccupancy(target, s, workgroupSize);
  if (!occ) {
    llvm::consumeError(occ.takeError());
    return;
  }
  m.emplace_back("occupancy_waves_per_simd", occ->wavesPerSIMD);
  m.emplace_back("occupancy_limiter", occ->limiter.str());
}

static void addNVPTXStats(const NVPTXKernelStats &s, CompiledKernel &kernel) {
  JSONMembers &m = kernel.stats;
  m.emplace_back("registers", s.registers);
  m.emplace_back("spill_bytes", s.spillStoreBytes);
  m.emplace_back("spill_load_bytes", s.spillLoadBytes);
  m.emplace_back("stack_bytes", s.stackFrameBytes);
  // Static (ptxas) plus dynamic shared memory: what a workgroup occupies.
  m.emplace_back("shared_bytes", s.sharedBytes + kernel.dynamicLdsBytes);
}

/// Turns the ISA of `kernel` into its binary and reads the static stats.
static LogicalResult finishKernel(ModuleOp compiled, const TargetInfo &target,
                                  const Bundle &bundle,
                                  const BundleOptions &options,
                                  CompiledKernel &kernel) {
  auto emitErr = [&] { return emitError(compiled.getLoc()); };
  if (target.isAMD()) {
    auto binary = *compiled.getOps<gpu::BinaryOp>().begin();
    auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    auto rocdl = cast<ROCDL::ROCDLTargetAttr>(object.getTarget());
    FailureOr<SmallVector<char, 0>> isaObject =
        ROCDL::assembleIsa(kernel.isa, rocdl.getTriple(), rocdl.getChip(),
                           rocdl.getFeatures(), emitErr);
    if (failed(isaObject))
      return failure();
    llvm::Expected<ROCmToolkit> toolkit = getROCmToolkit(options.toolkit);
    if (!toolkit)
      return emitErr() << llvm::toString(toolkit.takeError());
    FailureOr<SmallVector<char, 0>> hsaco =
        ROCDL::linkObjectCode(*isaObject, toolkit->dir, emitErr);
    if (failed(hsaco))
      return failure();
    kernel.binary.assign(hsaco->begin(), hsaco->end());
    llvm::Expected<SmallVector<AMDGPUKernelStats>> stats =
        readAMDGPUKernelStats(kernel.binary);
    if (!stats)
      return emitErr() << llvm::toString(stats.takeError());
    for (const AMDGPUKernelStats &s : *stats)
      if (s.name == kernel.entry)
        addAMDStats(target, s, kernel);
    return success();
  }

  kernel.binary = kernel.isa;
  llvm::Expected<CUDAToolkit> toolkit = getCUDAToolkit(options.toolkit);
  if (!toolkit)
    return emitErr() << llvm::toString(toolkit.takeError());
  if (toolkit->ptxas.empty())
    return success();
  SmallVector<NVPTXKernelStats> stats;
  // ptxas compiles for the PTX's own target (sm_90a for wgmma kernels).
  std::string arch = target.chip.str();
  if (StringRef(kernel.isa).contains(".target " + arch + "a"))
    arch += "a";
  llvm::Expected<std::string> cubin = runPtxas(
      toolkit->ptxas, arch, kernel.isa, options.optLevel, stats);
  if (!cubin)
    return emitErr() << llvm::toString(cubin.takeError());
  if (bundle.format == "cubin")
    kernel.binary = std::move(*cubin);
  for (const NVPTXKernelStats &s : stats)
    if (s.name == kernel.entry)
      addNVPTXStats(s, kernel);
  return success();
}

FailureOr<Bundle> mlir::hkg::compileBundle(ModuleOp module,
                                           const BundleOptions &options) {
  const TargetInfo *target = lookupTarget(options.chip);
  if (!target)
    return emitError(module.getLoc(), "unknown chip '")
           << options.chip << "'; expected one of: " << getKnownChipsString();
  Bundle bundle;
  bundle.target = options.chip;
  bundle.format = options.format;
  if (bundle.format.empty())
    bundle.format = target->isAMD() ? "hsaco" : "ptx";
  bool formatOk = target->isAMD()
                      ? bundle.format == "hsaco"
                      : (bundle.format == "ptx" || bundle.format == "cubin");
  if (!formatOk)
    return emitError(module.getLoc(), "format '")
           << bundle.format << "' is not available for " << options.chip
           << "; expected " << (target->isAMD() ? "hsaco" : "ptx or cubin");
  if (bundle.format == "cubin") {
    llvm::Expected<CUDAToolkit> toolkit = getCUDAToolkit(options.toolkit);
    if (!toolkit)
      return emitError(module.getLoc(), llvm::toString(toolkit.takeError()));
    if (toolkit->ptxas.empty())
      return emitError(module.getLoc(),
                       "hkg: format 'cubin' needs ptxas, which was not found; "
                       "install Debian package 'nvidia-cuda-toolkit' or CUDA");
  }

  // A program: linalg raised to hkg ops, elementwise ops fused into the
  // epilogues they follow.
  {
    PassManager pm(module.getContext());
    buildHkgFromLinalgPipeline(pm);
    if (failed(pm.run(module)))
      return failure();
  }

  // Ops no kernel computes: an error, or (allowHostOps) left to the
  // caller and listed in the manifest.
  if (!options.allowHostOps) {
    PassManager pm(module.getContext());
    pm.addPass(createHkgRejectHostOpsPass());
    if (failed(pm.run(module)))
      return failure();
  }
  llvm::StringSet<> hostOpFunctions;
  for (Operation *op : getHostOps(module)) {
    if (auto func = op->getParentOfType<func::FuncOp>())
      hostOpFunctions.insert(func.getSymName());
    std::string loc;
    llvm::raw_string_ostream os(loc);
    if (auto fl = dyn_cast<FileLineColLoc>(op->getLoc()))
      os << fl.getFilename().getValue() << ":" << fl.getLine() << ":"
         << fl.getColumn();
    else
      op->getLoc().print(os);
    bundle.hostOps.emplace_back(op->getName().getStringRef().str(), loc);
  }

  // The hkg-dialect part: verify schedules, lower hkg ops to gpu kernels.
  auto start = std::chrono::steady_clock::now();
  bool hasHkgOps =
      module.walk([](HkgKernelOpInterface) { return WalkResult::interrupt(); })
          .wasInterrupted();
  if (hasHkgOps) {
    PassManager pm(module.getContext());
    if (options.defaultSchedules) {
      HkgDefaultSchedulePassOptions defaults;
      defaults.chip = options.chip;
      pm.addPass(createHkgDefaultSchedulePass(defaults));
    }
    buildHkgToGPUPipeline(pm, options.chip, /*allowHostOps=*/true);
    if (failed(pm.run(module)))
      return failure();
    WalkResult left = module.walk([](HkgKernelOpInterface op) {
      op.emitOpError("was not lowered to a gpu kernel by hkg-lower-to-gpu");
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      return failure();
  }
  bundle.frontMs = msSince(start);
  bundle.plans = extractLaunchPlans(module, hostOpFunctions);

  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
    SmallVector<gpu::GPUFuncOp> funcs;
    for (auto func : gpuModule.getOps<gpu::GPUFuncOp>())
      if (func.isKernel())
        funcs.push_back(func);
    if (funcs.empty())
      continue;
    if (funcs.size() != 1)
      return gpuModule.emitError("expected one kernel per gpu.module, got ")
             << funcs.size();
    CompiledKernel kernel;
    kernel.name = gpuModule.getName().str();
    if (failed(describeKernel(gpuModule, funcs.front(), kernel)))
      return failure();

    start = std::chrono::steady_clock::now();
    double cpuStart = getCPUMs();
    OwningOpRef<ModuleOp> single = ModuleOp::create(gpuModule.getLoc());
    (*single)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                       UnitAttr::get(module.getContext()));
    OpBuilder builder = OpBuilder::atBlockEnd(single->getBody());
    Operation *cloned = builder.clone(*gpuModule);
    if (!target->isAMD() && options.minBlocksPerSM > 0)
      cloned->walk([&](gpu::GPUFuncOp f) {
        if (f.isKernel())
          f->setAttr("nvvm.minctasm",
                     builder.getI32IntegerAttr(options.minBlocksPerSM));
      });
    unsigned indexBitwidth = 64;
    if (!target->isAMD() && options.indexBitwidth != 64) {
      if (options.indexBitwidth != 0 && options.indexBitwidth != 32)
        return gpuModule.emitError("index bitwidth must be 0 (auto), 32 or "
                                   "64, not ")
               << options.indexBitwidth;
      if (canUse32BitIndices(gpuModule))
        indexBitwidth = 32;
      else if (options.indexBitwidth == 32)
        return gpuModule.emitError(
            "32-bit indices requested, but the kernel has a memref of more "
            "than 2^30 elements, a dynamic shape, nvgpu ops, or a global "
            "memref's address taken as an index");
    }
    if (!target->isAMD())
      kernel.indexBitwidth = indexBitwidth;
    FailureOr<std::string> isa =
        compileToISA(*single, *target, options, indexBitwidth);
    if (failed(isa))
      return failure();
    kernel.isa = std::move(*isa);
    if (failed(finishKernel(*single, *target, bundle, options, kernel)))
      return failure();
    kernel.compileMs = msSince(start);
    kernel.compileCpuMs = getCPUMs() - cpuStart;
    bundle.kernels.push_back(std::move(kernel));
  }
  if (bundle.kernels.empty())
    return emitError(module.getLoc(), "no kernels to compile");
  return bundle;
}
