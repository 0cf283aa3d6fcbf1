//===- CAPISupport.h - shared helpers of the C API --------------*- C++ -*-===//

#ifndef HKG_LIB_CAPI_CAPISUPPORT_H
#define HKG_LIB_CAPI_CAPISUPPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace hkg::capi {

/// A malloc'ed, NUL-terminated copy of `text` (freed with hkgStringFree).
char *toCString(llvm::StringRef text);

/// nullptr for success, else the error's message as toCString gives it.
char *toCString(llvm::Error error);

/// The object an options argument holds: empty for NULL or "", an error
/// ("options: ...") for text that is not a JSON object.
llvm::Expected<llvm::json::Object> parseOptions(const char *json);

} // namespace hkg::capi

#endif // HKG_LIB_CAPI_CAPISUPPORT_H
