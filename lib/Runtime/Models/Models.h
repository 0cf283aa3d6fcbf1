//===- Models.h - the families' model functions -----------------*- C++ -*-===//
//
// Declares every `const KernelModel &FN()` named in KernelModels.def; each
// family defines its own in lib/Runtime/Models/<Family>Model(s).cpp.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_RUNTIME_MODELS_MODELS_H
#define HKG_LIB_RUNTIME_MODELS_MODELS_H

#include "hkg/Runtime/KernelModel.h"

namespace hkg::rt {
#define HKG_KERNEL_MODEL(OP, FN) const KernelModel &FN();
#include "../KernelModels.def"
} // namespace hkg::rt

#endif // HKG_LIB_RUNTIME_MODELS_MODELS_H
