//===- Support.cpp - hkg's C API: versions and strings --------------------===//

#include "hkg-c/Hkg.h"

#include "CAPISupport.h"

#include "hkg/Runtime/Bundle.h"

#include <cstdlib>
#include <cstring>

char *hkg::capi::toCString(llvm::StringRef text) {
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';
  return copy;
}

char *hkg::capi::toCString(llvm::Error error) {
  if (!error)
    return nullptr;
  return toCString(llvm::toString(std::move(error)));
}

const char *hkgGetVersion(void) { return HKG_VERSION_STRING; }
const char *hkgGetBundleVersion(void) { return hkg::rt::kBundleVersion.data(); }
int hkgGetCAPIVersion(void) { return HKG_CAPI_VERSION; }
void hkgStringFree(char *string) { std::free(string); }
