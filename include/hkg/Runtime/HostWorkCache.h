//===- HostWorkCache.h - inputs and references kept across runs -*- C++ -*-===//
//
// What a kernel's run computes on the host before the device is touched:
// the seeded random inputs and the float64 reference. Both depend on the op
// (its types, attributes and bodies) and the seed, not on the schedule, so
// the candidates of one op that hkg-tune measures one after another, each in
// its own worker process, can share them: the first run stores them in a
// cache directory (RunOptions::hostCacheDir, `hkg-run --host-cache`) and the
// others load them instead of recomputing them. The outputs are still
// poisoned, launched and checked on every run.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_HOSTWORKCACHE_H
#define HKG_RUNTIME_HOSTWORKCACHE_H

#include "hkg/Runtime/HostTensor.h"
#include "hkg/Runtime/Reference.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace hkg::rt {

/// The host work of one run: the kernel's inputs (makeRandomInputs) and,
/// when the check uses it, the reference (evaluateReference).
struct HostWork {
  llvm::SmallVector<HostTensor> inputs;
  std::optional<ReferenceResult> reference;
};

/// The host work of the last op a process ran, kept in memory: a serving
/// worker (`hkg-run --serve`) measuring one candidate after another of one
/// op reuses it without reading or copying anything (RunOptions::memo).
struct HostWorkMemo {
  /// getHostWorkKey of `work`; empty while there is none.
  std::string key;
  HostWork work;
};

/// The cache key of `op`'s host work: a hash of the op as printed in the
/// generic form without its `schedule` attribute (so that every schedule
/// of one op shares it), the seed, the reference's work bound and whether
/// a reference is wanted, as 16 hex digits.
std::string getHostWorkKey(mlir::Operation *op, uint64_t seed,
                           double maxReferenceMultiplyAdds, bool withReference);

/// The host work stored under `key` in `dir`, or nullopt when there is none
/// (a missing, truncated or foreign file is a miss, never an error).
std::optional<HostWork> loadHostWork(llvm::StringRef dir, llvm::StringRef key);

/// Stores `work` under `key` in `dir` (created if needed), through a
/// temporary file renamed into place, so that concurrent runs never read a
/// partial entry.
llvm::Error storeHostWork(llvm::StringRef dir, llvm::StringRef key,
                          const HostWork &work);

} // namespace hkg::rt

#endif // HKG_RUNTIME_HOSTWORKCACHE_H
