//===- CAPISupport.h - shared helpers of the C API --------------*- C++ -*-===//

#ifndef HKG_LIB_CAPI_CAPISUPPORT_H
#define HKG_LIB_CAPI_CAPISUPPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace hkg::capi {

/// A malloc'ed, NUL-terminated copy of `text` (freed with hkgStringFree).
char *toCString(llvm::StringRef text);

/// nullptr for success, else the error's message as toCString gives it.
char *toCString(llvm::Error error);

} // namespace hkg::capi

#endif // HKG_LIB_CAPI_CAPISUPPORT_H
