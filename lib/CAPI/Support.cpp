//===- Support.cpp - hkg's C API: versions and strings --------------------===//

#include "hkg-c/Hkg.h"

#include "CAPISupport.h"

#include "hkg/Runtime/Bundle.h"
#include "hkg/Support/InputLimits.h"

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

llvm::Expected<llvm::json::Object> hkg::capi::parseOptions(const char *json) {
  if (!json || !*json)
    return llvm::json::Object();
  llvm::Expected<llvm::json::Value> value = ::hkg::parseJSON(json);
  if (!value)
    return llvm::createStringError("options: " +
                                   llvm::toString(value.takeError()));
  llvm::json::Object *object = value->getAsObject();
  if (!object)
    return llvm::createStringError("options: expected a JSON object");
  return std::move(*object);
}

const char *hkgGetVersion(void) { return HKG_VERSION_STRING; }
const char *hkgGetBundleVersion(void) { return hkg::rt::kBundleVersion.data(); }
int hkgGetCAPIVersion(void) { return HKG_CAPI_VERSION; }
void hkgStringFree(char *string) { std::free(string); }
