//===- Toolkit.h - find the GPU toolchain pieces hkg needs ------*- C++ -*-===//
//
// hkg finds its own toolchain pieces: the AMD device bitcode (Debian's
// rocm-device-libs or a ROCm install), ld.lld (Debian's lld), and for NVIDIA
// CUDA's libdevice and, optionally, ptxas. Upstream's ROCDL and NVVM targets
// expect one "toolkit" directory laid out like ROCm or CUDA; when the pieces
// are spread over the system (as Debian installs them) hkg prepares such a
// directory of symbolic links in a per-user cache. A missing piece is one
// error line naming the package that provides it.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TARGET_TOOLKIT_H
#define HKG_TARGET_TOOLKIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir::hkg {

/// A directory laid out as upstream's ROCDL target expects:
/// `<dir>/amdgcn/bitcode/{ocml,ockl,...}.bc` and `<dir>/llvm/bin/ld.lld`.
struct ROCmToolkit {
  std::string dir;
  std::string bitcodeDir;
  std::string ldLld;
};

/// A directory laid out as upstream's NVVM target expects:
/// `<dir>/nvvm/libdevice/libdevice.10.bc` and optionally `<dir>/bin/ptxas`.
struct CUDAToolkit {
  std::string dir;
  std::string libdevice;
  /// Empty when no ptxas was found (PTX output still works).
  std::string ptxas;
};

/// Finds or prepares the AMD toolkit directory. `override` (a pipeline
/// option) wins; else `HKG_ROCM_PATH`, a complete ROCm install (`ROCM_PATH`,
/// /opt/rocm), and finally the Debian pieces linked under
/// `$XDG_CACHE_HOME/hkg/rocm-toolkit` (or ~/.cache/...). The result is cached.
llvm::Expected<ROCmToolkit> getROCmToolkit(llvm::StringRef override = "");

/// Finds or prepares the CUDA toolkit directory. `override` wins; else
/// `HKG_CUDA_PATH`, `CUDA_PATH`, `CUDA_HOME`, /usr/local/cuda, /opt/cuda, and
/// Debian's nvidia-cuda-toolkit linked under
/// `$XDG_CACHE_HOME/hkg/cuda-toolkit`.
llvm::Expected<CUDAToolkit> getCUDAToolkit(llvm::StringRef override = "");

} // namespace mlir::hkg

#endif // HKG_TARGET_TOOLKIT_H
