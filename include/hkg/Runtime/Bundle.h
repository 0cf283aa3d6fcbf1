//===- Bundle.h - reading a kernel bundle's manifest -------------*- C++
//-*-===//
//
// A kernel bundle is a directory holding one binary per kernel and
// `manifest.json` (written by hkg-compile; the format is described in
// docs/ABI.md and docs/Runtime.md). This is its reader.
//
// A kernel with dynamic sizes (`?` dims in its op) has size parameters: its
// manifest entry says where each size is read from (`sizes`), which dims of
// its args each size gives (`{"size": i}` shape entries) and how its grid x
// follows from them (`grid_x`). KernelSpec::specialize turns it into a
// concrete kernel for given size values (Specialize.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_BUNDLE_H
#define HKG_RUNTIME_BUNDLE_H

#include "hkg/Runtime/Device.h"
#include "hkg/Runtime/HostTensor.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace hkg::rt {

/// The bundle format hkg-compile writes (`hkg_version` in manifest.json) and
/// the runtime reads; any other is refused.
inline constexpr llvm::StringLiteral kBundleVersion = "0.1";

/// The extent of a dim given by a size parameter, until
/// KernelSpec::specialize fills it in (mlir::ShapedType::kDynamic).
inline constexpr int64_t kDynamicDim = std::numeric_limits<int64_t>::min();

/// Launch extents CUDA and HIP accept (grid x, y and z).
inline constexpr int64_t kMaxGridX = 2147483647;
inline constexpr int64_t kMaxGridYZ = 65535;

/// A dim of an arg given by one of its kernel's size parameters (manifest
/// shape entry `{"size": i}`).
struct SizedDim {
  unsigned dim = 0;
  /// Index into KernelSpec::sizes.
  unsigned size = 0;
};

struct ArgSpec {
  bool isOutput = false;
  DType dtype = DType::F32;
  /// The extents; kDynamicDim where a size parameter gives the dim.
  llvm::SmallVector<int64_t> shape;
  /// The dims given by size parameters (empty for a static arg).
  llvm::SmallVector<SizedDim, 1> sizedDims;

  /// Of a static arg (one without sized dims).
  int64_t getNumElements() const;
  size_t getNumBytes() const { return getNumElements() * getDTypeSize(dtype); }
};

/// Where a size parameter's value can be read from a concrete set of
/// tensors: dim `dim` of arg `arg` (manifest `sizes` entry, an output's dim).
struct SizeSource {
  unsigned arg = 0;
  unsigned dim = 0;
};

/// The grid x of a kernel with size parameters (manifest `grid_x`):
/// ceil(N * mul / div) * times, N the product of the size values.
struct GridXRule {
  int64_t mul = 1;
  int64_t div = 1;
  int64_t times = 1;
};

struct KernelSpec {
  std::string name;
  /// `hkg.softmax`...
  std::string op;
  /// The binary's file name, relative to the bundle directory.
  std::string binary;
  /// The kernel's symbol in the binary.
  std::string entry;
  /// The launch grid. For a kernel with size parameters x is 0 until
  /// specialize computes it; after specialize x is 0 when the sizes leave
  /// nothing to compute (empty tensors): the launch is skipped.
  Dim3 grid = {1, 1, 1};
  Dim3 block = {1, 1, 1};
  unsigned ldsBytes = 0;
  /// Dynamic shared memory to launch with (manifest "dynamic_lds_bytes").
  unsigned dynamicLdsBytes = 0;
  std::vector<ArgSpec> args;
  /// The size parameters (manifest `sizes`; empty for a static kernel).
  std::vector<SizeSource> sizes;
  /// How grid x follows from the sizes (with size parameters only).
  GridXRule gridX;
  /// Set by specialize: the size values, passed to the kernel as signed
  /// 64-bit integers after the pointers (docs/ABI.md). Empty for a static
  /// kernel.
  llvm::SmallVector<int64_t> sizeValues;
  /// The reference module (one func holding the one hkg op); with size
  /// parameters its types hold `?` until specialize sets them.
  std::string source;
  llvm::json::Value schedule = nullptr;
  llvm::json::Value stats = nullptr;
  double compileMs = 0;

  /// Whether the kernel has size parameters still to be given values.
  bool hasSizeParameters() const { return !sizes.empty(); }
  /// Whether the launch is skipped: a specialized kernel whose sizes make
  /// its tensors empty.
  bool isEmptyLaunch() const { return grid[0] == 0; }

  /// The grid for `sizeValues` (one per size parameter, non-negative): x by
  /// the grid_x rule, 0 when their product is 0. Errors name the kernel on
  /// a wrong count, a negative value, and an x past kMaxGridX or one whose
  /// arithmetic overflows 64 bits.
  llvm::Expected<Dim3> computeGrid(llvm::ArrayRef<int64_t> sizeValues) const;

  /// The concrete kernel for `sizeValues`: every sized dim filled in (the
  /// byte counts must fit 64 bits), the grid computed, sizeValues set (the
  /// scalars to pass), no size parameters left, and the source specialized
  /// (its func's and op's types set to the concrete shapes with the MLIR
  /// API, then verified: the op's verifier checks they agree). Sizes whose
  /// product is 0 give an empty launch (isEmptyLaunch) whose source keeps
  /// its `?`: hkg ops refuse zero-size dims, and there is nothing to check.
  /// A static kernel specializes to itself with no values and is an error
  /// with any.
  llvm::Expected<KernelSpec>
  specialize(llvm::ArrayRef<int64_t> sizeValues) const;
};

/// A buffer or view of a launch plan (manifest `plans`, docs/ABI.md
/// "Launch plan").
struct PlanValueSpec {
  enum class Kind { Input, Output, Intermediate, View };
  std::string name;
  Kind kind = Kind::Input;
  DType dtype = DType::F32;
  /// The extents; kDynamicDim where a plan size parameter gives the dim.
  llvm::SmallVector<int64_t> shape;
  /// The dims given by plan size parameters (SizedDim::size indexes
  /// PlanSpec::sizes).
  llvm::SmallVector<SizedDim, 1> sizedDims;
  /// Input: the function argument it is.
  unsigned argument = 0;
  /// Intermediate of static shape: its offset in the arena (-1: allocated
  /// on its own).
  int64_t offset = -1;
  /// View: the index (into PlanSpec::values) of the storage it views.
  unsigned of = 0;
};

struct PlanStepSpec {
  /// Index into Bundle::kernels.
  unsigned kernel = 0;
  /// Per kernel buffer argument, the index of the plan value it is.
  llvm::SmallVector<unsigned> args;
  /// Per kernel size parameter, the plan size parameter it takes.
  llvm::SmallVector<unsigned> sizes;
};

/// The launch plan of one function (manifest `plans` entry).
struct PlanSpec {
  std::string function;
  /// Set when the function has no plan: why.
  std::string noPlan;
  /// The plan's size parameters: (input argument, dim) each is read from.
  std::vector<SizeSource> sizes;
  /// Inputs, kernel-written buffers and views.
  std::vector<PlanValueSpec> values;
  /// The inputs in argument order, and per function result the value it is
  /// (indices into values).
  std::vector<unsigned> inputs;
  std::vector<unsigned> outputs;
  int64_t arenaBytes = 0;
  std::vector<PlanStepSpec> steps;

  /// The storage a value is (itself, or what it views).
  unsigned getStorage(unsigned value) const {
    return values[value].kind == PlanValueSpec::Kind::View ? values[value].of
                                                           : value;
  }
};

struct Bundle {
  /// The directory holding manifest.json and the binaries.
  std::string directory;
  std::string version;
  /// Chip (`gfx942`, `sm_90`).
  std::string target;
  /// `hsaco`, `ptx` or `cubin`.
  std::string format;
  std::vector<KernelSpec> kernels;
  /// The functions' launch plans (empty when the manifest has none).
  std::vector<PlanSpec> plans;

  std::string getBinaryPath(const KernelSpec &kernel) const;
  /// The kernel named `name`, or nullptr.
  const KernelSpec *lookup(llvm::StringRef name) const;
};

/// Reads `path` (a bundle directory or its manifest.json). Errors name the
/// offending field, e.g. "kernels[2].args[0].dtype: expected one of f32,
/// f16, bf16, i32, i64, got 'f8'".
llvm::Expected<Bundle> loadBundle(llvm::StringRef path);

/// Parses manifest text; `directory` is recorded for binary paths.
llvm::Expected<Bundle> parseManifest(llvm::StringRef text,
                                     llvm::StringRef directory);

} // namespace hkg::rt

#endif // HKG_RUNTIME_BUNDLE_H
