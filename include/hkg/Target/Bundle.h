//===- Bundle.h - compile kernels into a kernel bundle ----------*- C++ -*-===//
//
// A kernel bundle is a directory with one binary per kernel and a
// manifest.json describing how to launch each (docs/ABI.md). compileBundle
// runs the codegen pipeline kernel by kernel and collects binaries, ISA text
// and static statistics; writeBundle writes the directory.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TARGET_BUNDLE_H
#define HKG_TARGET_BUNDLE_H

#include "hkg/Target/LaunchPlan.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::hkg {

struct BundleOptions {
  /// Target chip (gfx942, sm_90, ...).
  std::string chip;
  /// hsaco (AMD), ptx or cubin (NVIDIA); empty: hsaco for AMD, ptx for
  /// NVIDIA.
  std::string format;
  unsigned optLevel = 3;
  /// Toolkit directory override (see Toolkit.h); empty: found by hkg.
  std::string toolkit;
  /// Attach the default schedule to hkg ops that carry none (otherwise such
  /// ops are an error).
  bool defaultSchedules = true;
  /// Leave ops that no kernel computes to the caller, listed in the
  /// manifest's `host_ops` (otherwise they are an error:
  /// hkg-reject-host-ops).
  bool allowHostOps = false;
  /// NVIDIA: width of `index` in the kernels. 64: always 64-bit; 0 (auto):
  /// 32-bit for every kernel that hkg::canUse32BitIndices accepts (at most
  /// 2^30 elements per memref, no nvgpu ops), else 64; 32: like auto, but a
  /// kernel that needs 64-bit indices is an error.
  unsigned indexBitwidth = 64;
  /// NVIDIA: when > 0, every kernel asks ptxas for at least this many
  /// resident workgroups per SM (`nvvm.minctasm`, PTX `.minnctapersm`), which
  /// caps its registers at 65536 / (block size * this).
  unsigned minBlocksPerSM = 0;
};

/// An ordered list of JSON members (the manifest keeps a readable order).
using JSONMembers = std::vector<std::pair<std::string, llvm::json::Value>>;

/// The manifest's name of an element type (`f32`, `bf16`, `i1`, ...): its
/// MLIR spelling. Kernel args and launch plan values are named alike.
std::string getDTypeName(Type elementType);

struct KernelArg {
  std::string role;  // input | output
  std::string dtype; // getDTypeName: f32, f16, bf16, i32, ...
  std::vector<int64_t> shape;
  /// Kernels with dynamic sizes: per dim, the size parameter it is (the
  /// manifest's `{"size": i}`), or -1 for the static extent in `shape`.
  /// Empty for a static kernel.
  std::vector<int64_t> sizeParams;
};

struct CompiledKernel {
  /// The gpu.module's name (hkg_<op>_<n>); the binary is `<name>.<ext>`.
  std::string name;
  /// The hkg op the kernel computes (`hkg.softmax`).
  std::string op;
  /// The kernel's symbol in the binary.
  std::string entry;
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
  /// Kernels with dynamic sizes (docs/ABI.md): the grid's x at launch is
  /// ceil(N * mul / div) * times for N the product of the sizes, [mul, div,
  /// times] (`grid[0]` is then unused); and, per size parameter in order,
  /// the (output) argument and dim it is read from.
  std::optional<std::array<int64_t, 3>> gridX;
  std::vector<std::pair<int64_t, int64_t>> sizes;
  /// Workgroups per thread-block cluster (sm_90; in the manifest only when
  /// not {1, 1, 1}). The binary carries it (.reqnctapercluster): an
  /// ordinary launch of `grid` runs the clusters.
  std::array<int64_t, 3> cluster = {1, 1, 1};
  /// Static LDS (shared memory) the kernel's IR declares.
  int64_t ldsBytes = 0;
  /// Dynamic shared memory the launch must provide (NVIDIA kernels needing
  /// more than 48 KiB; in the manifest only when not 0).
  int64_t dynamicLdsBytes = 0;
  JSONMembers schedule;
  std::vector<KernelArg> args;
  /// The hkg.source module text (reference semantics).
  std::string source;
  /// The code object, PTX or cubin bytes.
  std::string binary;
  /// AMD assembly or PTX text.
  std::string isa;
  JSONMembers stats;
  /// gpu dialect to binary, wall-clock milliseconds.
  double compileMs = 0;
  /// The same in CPU time of hkg and the tools it ran (ld.lld, ptxas).
  double compileCpuMs = 0;
  /// NVIDIA: the width of `index` the kernel was compiled with (32 or 64);
  /// 0 for AMD (not written).
  unsigned indexBitwidth = 0;
};

struct Bundle {
  std::string target;
  /// hsaco | ptx | cubin.
  std::string format;
  std::vector<CompiledKernel> kernels;
  /// With allowHostOps: the ops no kernel computes, left to the caller
  /// (op name, location), in program order.
  std::vector<std::pair<std::string, std::string>> hostOps;
  /// One per function that launches kernels, in module order (LaunchPlan.h).
  std::vector<LaunchPlan> plans;
  /// Time of the hkg-dialect part (verification, lowering to gpu), ms.
  double frontMs = 0;
};

/// Compiles every kernel of `module`: hkg ops are verified and lowered to
/// gpu.module kernels first; each gpu.module is then compiled on its own.
/// Errors are reported through the context's diagnostics.
FailureOr<Bundle> compileBundle(ModuleOp module, const BundleOptions &options);

/// Writes manifest.json for `bundle` (the format of docs/ABI.md).
void writeManifest(const Bundle &bundle, llvm::raw_ostream &os);

/// Writes the bundle directory: binaries, manifest.json and, with `emitIsa`,
/// the assembly (`<name>.s`) or PTX (`<name>.ptx`) next to each binary.
llvm::Error writeBundle(const Bundle &bundle, llvm::StringRef dir,
                        bool emitIsa);

/// Prints one line per kernel: launch dims, registers, LDS, scratch, spills,
/// occupancy and compile time.
void printReport(const Bundle &bundle, llvm::raw_ostream &os);

} // namespace mlir::hkg

#endif // HKG_TARGET_BUNDLE_H
