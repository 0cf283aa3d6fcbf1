//===- DynamicApi.h - loading a vendor library's entry points -----*- C++
//-*-===//
//
// Shared by the CUDA and HIP backends: opens a library with dlopen (through
// llvm::sys::DynamicLibrary) and resolves named entry points, trying
// versioned names (`cuMemAlloc_v2`) first.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_RUNTIME_DYNAMICAPI_H
#define HKG_LIB_RUNTIME_DYNAMICAPI_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>
#include <string>

namespace hkg::rt::detail {

inline constexpr const char *kCudaLibrary = "libcuda.so.1";
inline constexpr const char *kCudaLibraryEnv = "HKG_CUDA_LIBRARY";
inline constexpr const char *kHipLibrary = "libamdhip64.so";
inline constexpr const char *kHipLibraryEnv = "HKG_HIP_LIBRARY";

/// The library `open` will try: `$envOverride` when set, else `defaultName`.
inline std::string getRuntimeLibraryName(llvm::StringRef defaultName,
                                         const char *envOverride) {
  const char *env = std::getenv(envOverride);
  return env && *env ? env : defaultName.str();
}

class DynamicApi {
public:
  /// Opens `defaultName`, or the library named by environment variable
  /// `envOverride` when set. On failure returns the dlerror text.
  llvm::Error open(llvm::StringRef defaultName, const char *envOverride) {
    libraryName = getRuntimeLibraryName(defaultName, envOverride);
    std::string error;
    library = llvm::sys::DynamicLibrary::getPermanentLibrary(
        libraryName.c_str(), &error);
    if (!library.isValid())
      return llvm::createStringError(
          llvm::formatv("{0} not loadable: {1}", libraryName, error));
    return llvm::Error::success();
  }

  /// Resolves the first of `names` the library exports into `fn`.
  template <typename Fn>
  llvm::Error resolve(Fn *&fn, llvm::ArrayRef<const char *> names) {
    for (const char *name : names) {
      if (void *addr = library.getAddressOfSymbol(name)) {
        fn = reinterpret_cast<Fn *>(addr);
        return llvm::Error::success();
      }
    }
    return llvm::createStringError(
        llvm::formatv("{0} does not export {1}: not a usable GPU runtime",
                      libraryName, names.front()));
  }

  const std::string &getLibraryName() const { return libraryName; }

private:
  std::string libraryName;
  llvm::sys::DynamicLibrary library;
};

} // namespace hkg::rt::detail

#endif // HKG_LIB_RUNTIME_DYNAMICAPI_H
