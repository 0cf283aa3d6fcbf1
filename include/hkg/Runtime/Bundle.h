//===- Bundle.h - reading a kernel bundle's manifest -------------*- C++
//-*-===//
//
// A kernel bundle is a directory holding one binary per kernel and
// `manifest.json` (written by hkg-compile; the format is described in
// docs/Runtime.md and in the PREAMBLE contract). This is its reader.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_BUNDLE_H
#define HKG_RUNTIME_BUNDLE_H

#include "llvm/ADT/StringRef.h"
#include "hkg/Runtime/Device.h"
#include "hkg/Runtime/HostTensor.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace hkg::rt {

/// The bundle format hkg-compile writes (`hkg_version` in manifest.json) and
/// the runtime reads; any other is refused.
inline constexpr llvm::StringLiteral kBundleVersion = "0.1";

struct ArgSpec {
  bool isOutput = false;
  DType dtype = DType::F32;
  llvm::SmallVector<int64_t> shape;

  int64_t getNumElements() const;
  size_t getNumBytes() const { return getNumElements() * getDTypeSize(dtype); }
};

struct KernelSpec {
  std::string name;
  /// `hkg.softmax`...
  std::string op;
  /// The binary's file name, relative to the bundle directory.
  std::string binary;
  /// The kernel's symbol in the binary.
  std::string entry;
  Dim3 grid = {1, 1, 1};
  Dim3 block = {1, 1, 1};
  unsigned ldsBytes = 0;
  /// Dynamic shared memory to launch with (manifest "dynamic_lds_bytes").
  unsigned dynamicLdsBytes = 0;
  std::vector<ArgSpec> args;
  /// The reference module (one func holding the one hkg op).
  std::string source;
  llvm::json::Value schedule = nullptr;
  llvm::json::Value stats = nullptr;
  double compileMs = 0;
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
