//===- HkgBase.td - hkg dialect definition -----------------*- tablegen -*-===//
//
// The hkg dialect: one op per AI kernel, each carrying a tunable schedule.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_BASE_TD
#define HKG_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Hkg_Dialect : Dialect {
  let name = "hkg";
  let cppNamespace = "::mlir::hkg";
  let summary = "Tunable AI kernels for AMD (and NVIDIA) GPUs";
  let description = [{
    The `hkg` dialect describes AI operators (matmul with fused epilogues,
    elementwise chains, reductions, softmax, normalizations, rotary
    embeddings, top-p sampling, attention) at the level of *one GPU kernel
    per op*. Ops take and return builtin ranked tensors of float elements
    (and integer ones where they mean something: masks, targets, packed
    values); batch, row and token dims may be dynamic (`?`) where an op says
    so, one kernel then serving every size (docs/ABI.md).

    Every op implements `HkgKernelOpInterface`: it knows its schedule space
    (the tunable knobs and their legal values for a given target), its
    default schedule, how to verify a schedule, and its cost features
    (flops, bytes moved). Passes and the tuner talk to ops only through that
    interface, so adding an op never edits the tuner.

    A schedule is an `#hkg.schedule<...>` attribute stored in the op's
    `schedule` attribute; a target is an `#hkg.target<chip = "...">`
    attribute, usually placed on the module as `hkg.target`.

    Design guidelines:
    - an op is a kernel boundary: fusion happens by regions (elementwise
      bodies, matmul epilogues), not by chaining ops;
    - GELU, SiLU, bias-add, SwiGLU... are `hkg.elementwise` bodies, not ops;
    - verifiers name the offending operand or attribute and the legal range.
  }];
  let useDefaultAttributePrinterParser = 1;
  // Every `hkg.*` attribute that may sit on an op outside the op's own
  // properties. HkgDialect::verifyOperationAttribute checks each one's type
  // and the ops it may sit on, and refuses any other `hkg.*` name.
  let hasOperationAttrVerify = 1;
  let discardableAttrs = (ins
    // On a module (or any op above the kernels): the target to compile for.
    "::mlir::hkg::TargetAttr":$target,
    // On a kernel op: the caller promises that no output overlaps another
    // argument; every kernel pointer gets `llvm.noalias`, the inputs
    // `llvm.readonly`.
    "::mlir::UnitAttr":$no_alias,
    // Cache hints on the streaming kernels (ops with the
    // HkgCacheHints trait), for side-by-side measurements: loads and stores
    // nontemporal, or the loads' L2 eviction policy ("first", "last",
    // "normal"). Exclusive.
    "::mlir::UnitAttr":$streaming_access,
    "::mlir::StringAttr":$load_eviction,
    // On a norm with row_cache = registers (ops with the HkgColumnPrefetch
    // trait): load the weight / bias vectors in the row's first pass.
    "::mlir::UnitAttr":$prefetch_columns,
    // On a row op with a register row cache (HkgRowCacheForm trait): force
    // the bf16 row's form in registers, f32 conversions or packed. Exclusive.
    "::mlir::UnitAttr":$row_f32_cache,
    "::mlir::UnitAttr":$row_bf16_cache,
    // On a kernel op with dynamic dims (`?`): the extent its schedule is
    // chosen for (every dynamic dim is assumed to be this; the kernel serves
    // every size). The tuner sets it to the bucket it tunes
    // (docs/Tuning.md); without it, kDefaultSizeHint (DynamicDims.h).
    "::mlir::IntegerAttr":$size_hint,
    // On a func.func: hkg-outline-kernel-ops made it to hold one kernel op
    // (and the view ops of its operands); hkg-compile --emit=iree replaces
    // its body by the custom dispatches of its launch plan.
    "::mlir::UnitAttr":$outlined,
    // Kernel metadata that hkg-lower-to-gpu writes on each gpu.func: the op
    // it came from, its resolved schedule, the role of each argument, the
    // op as a module (the runtime's reference), the dynamic LDS bytes, and
    // the NVVM pipeline's markers for sm_90a and PTX ISA 8.0 kernels.
    "::mlir::StringAttr":$op,
    "::mlir::hkg::ScheduleAttr":$schedule,
    "::mlir::ArrayAttr":$arg_roles,
    "::mlir::StringAttr":$source,
    "::mlir::IntegerAttr":$dynamic_lds_bytes,
    // Kernels with dynamic sizes (docs/ABI.md): per argument, per dim, the
    // size parameter the dim is (-1: static); and the launch-time rule of
    // the grid's x, [mul, div, times]: ceil(N * mul / div) * times, N the
    // product of the sizes.
    "::mlir::ArrayAttr":$arg_sizes,
    "::mlir::DenseI64ArrayAttr":$grid_x,
    "::mlir::UnitAttr":$arch_specific,
    "::mlir::UnitAttr":$ptx80
  );
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

/// Kernel ops that accept the cache-hint attributes (`hkg.streaming_access`,
/// `hkg.load_eviction`).
def Hkg_CacheHints : NativeOpTrait<"HkgCacheHints"> {
  let cppNamespace = "::mlir::hkg::KernelTrait";
}
/// Kernel ops whose loads default to the evict-last L2 policy on Hopper
/// (measured faster there; docs/perf/README.md).
def Hkg_EvictLastOnHopper : NativeOpTrait<"HkgEvictLastOnHopper"> {
  let cppNamespace = "::mlir::hkg::KernelTrait";
}
/// Row ops whose register row cache can hold a bf16 row packed or as f32
/// (`hkg.row_f32_cache`, `hkg.row_bf16_cache`).
def Hkg_RowCacheForm : NativeOpTrait<"HkgRowCacheForm"> {
  let cppNamespace = "::mlir::hkg::KernelTrait";
}
/// Norms whose weight / bias loads can move into the row's first pass
/// (`hkg.prefetch_columns`).
def Hkg_ColumnPrefetch : NativeOpTrait<"HkgColumnPrefetch"> {
  let cppNamespace = "::mlir::hkg::KernelTrait";
}

class Hkg_Op<string mnemonic, list<Trait> traits = []>
    : Op<Hkg_Dialect, mnemonic, traits>;

class Hkg_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Hkg_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

/// Element types hkg kernels compute on.
def Hkg_FloatElement : AnyTypeOf<[F32, F16, BF16]>;
def Hkg_FloatTensor : RankedTensorOf<[F32, F16, BF16]>;
/// What hkg.matmul multiplies: floats, 8-bit floats (OCP f8E4M3FN / f8E5M2,
/// and the FNUZ forms gfx942 takes) and signed 8-bit integers (i8, signless
/// read as signed), the 8-bit types accumulated in f32 or i32.
def Hkg_MatmulOperandTensor
    : RankedTensorOf<[F32, F16, BF16, F8E4M3FN, F8E5M2, F8E4M3FNUZ,
                      F8E5M2FNUZ, I8]>;
/// What hkg.matmul writes: a float, or the exact i32 sums of i8 operands.
def Hkg_MatmulResultTensor : RankedTensorOf<[F32, F16, BF16, I32]>;
/// Element types an elementwise op reads and writes: floats (f64 where a
/// user asks for it), masks (i1), packed or narrow integers (i8), targets and
/// indices (i32, i64).
def Hkg_ElementwiseTensor
    : RankedTensorOf<[F64, F32, F16, BF16, I1, I8, I32, I64]>;
/// What a reduction writes: a float, or the i32 / i64 position of an
/// argmax / argmin.
def Hkg_ReduceResultTensor : RankedTensorOf<[F32, F16, BF16, I32, I64]>;

#endif // HKG_BASE_TD
