//===- ManifestFuzzer.cpp - libFuzzer: the bundle manifest reader ---------===//
//
// hkg-run's manifest.json reader (lib/Runtime/Bundle.cpp): any input must
// give a bundle or an error, a bundle's kernels must name binaries inside
// the bundle directory, and a kernel's size parameters must be consistent
// (each names an output dim that is that size; every sized dim names one).
//
//===----------------------------------------------------------------------===//

#include "hkg/Runtime/Bundle.h"

#include "llvm/ADT/STLExtras.h"
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
    for (unsigned i = 0; i < k.sizes.size(); ++i) {
      const hkg::rt::SizeSource &size = k.sizes[i];
      const hkg::rt::ArgSpec &arg = k.args.at(size.arg);
      if (!arg.isOutput ||
          llvm::none_of(arg.sizedDims, [&](const hkg::rt::SizedDim &d) {
            return d.dim == size.dim && d.size == i;
          }))
        std::abort();
    }
    for (const hkg::rt::ArgSpec &arg : k.args)
      for (const hkg::rt::SizedDim &d : arg.sizedDims)
        if (d.size >= k.sizes.size() || d.dim >= arg.shape.size() ||
            arg.shape[d.dim] != hkg::rt::kDynamicDim)
          std::abort();
    if (k.hasSizeParameters() != (k.grid[0] == 0))
      std::abort();
  }
  return 0;
}
