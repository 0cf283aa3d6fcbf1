//===- IreeProgram.h - hkg kernels as IREE custom dispatches ----*- C++ -*-===//
//
// hkg-compile --emit=iree writes, next to the kernel bundle, an IREE input
// program: the input module with each hkg kernel op run as a custom dispatch
// of the bundle's binary (a `hal.executable.source` whose object is the
// kernel's PTX or code object) and every other op left to IREE's own
// codegen. docs/IREE.md describes the flow and the ABI match.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TARGET_IREEPROGRAM_H
#define HKG_TARGET_IREEPROGRAM_H

#include "hkg/Target/Bundle.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::hkg {

/// The file hkg-compile --emit=iree writes in the bundle directory.
inline constexpr llvm::StringLiteral kIreeProgramFileName = "iree_input.mlir";

/// Writes the IREE input program of `module`, a module after
/// hkg-outline-kernel-ops (each hkg kernel op in an `hkg.outlined` function),
/// to `os`. `bundle` holds the kernels and launch plans compiled from a copy
/// of it. Each outlined function becomes the `flow.dispatch` ops of its plan,
/// each kernel a `hal.executable.source` whose object path is the binary's
/// file name in the bundle directory (iree-compile finds it through
/// `--iree-hal-executable-object-search-path=<bundle>`); the other functions
/// are printed as they are, with the `hkg.*` module attributes dropped.
/// Fails, naming the kernel, on what IREE cannot run yet (a kernel with
/// size parameters, a cubin).
LogicalResult writeIreeProgram(ModuleOp module, const Bundle &bundle,
                               llvm::raw_ostream &os);

} // namespace mlir::hkg

#endif // HKG_TARGET_IREEPROGRAM_H
