//===- ManifestFuzzer.cpp - libFuzzer: the bundle manifest reader ---------===//
//
// hkg-run's manifest.json reader (lib/Runtime/Bundle.cpp): any input must
// give a bundle or an error, and a bundle's kernels must name binaries
// inside the bundle directory.
//
//===----------------------------------------------------------------------===//

#include "hkg/Runtime/Bundle.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<hkg::rt::Bundle> bundle =
      hkg::rt::parseManifest(text, "/fuzz/bundle");
  if (!bundle) {
    llvm::consumeError(bundle.takeError());
    return 0;
  }
  // The reader's promise (docs/ABI.md): no binary outside the bundle.
  for (const hkg::rt::KernelSpec &k : bundle->kernels) {
    if (llvm::sys::path::is_absolute(k.binary))
      std::abort();
    for (llvm::StringRef part : llvm::make_range(
             llvm::sys::path::begin(k.binary), llvm::sys::path::end(k.binary)))
      if (part == "..")
        std::abort();
  }
  return 0;
}
