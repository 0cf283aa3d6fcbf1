//===- RecordsFuzzer.cpp - libFuzzer: the JSON-lines record importer ------===//
//
// hkg-tune import's path (lib/Tuner/Database.cpp, Signature.cpp): parse
// the records, rebuild each one's op from its signature and check its
// knobs against the op's schedule space. Records that are accepted must
// print back to JSON lines that parse to the same number of records.
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"
#include "hkg/Tuner/Database.h"
#include "hkg/Tuner/Signature.h"

#include "mlir/IR/MLIRContext.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<std::vector<TuningRecord>> records = parseRecordsJsonl(text);
  if (!records) {
    llvm::consumeError(records.takeError());
    return 0;
  }
  static MLIRContext *ctx = [] {
    auto *c = new MLIRContext(MLIRContext::Threading::DISABLED);
    loadTunerDialects(*c);
    return c;
  }();
  ScopedDiagnosticHandler silence(ctx, [](Diagnostic &) { return success(); });
  OpCatalog catalog(*ctx);
  for (const TuningRecord &r : *records) {
    HkgKernelOpInterface op = catalog.get(r.signature);
    if (!op)
      continue;
    llvm::consumeError(
        checkLegalSchedule(op, r.schedule, *lookupTarget(r.target)));
  }
  // What was accepted prints to records the reader accepts again.
  llvm::Expected<std::vector<TuningRecord>> again =
      parseRecordsJsonl(printRecordsJsonl(*records));
  if (!again || again->size() != records->size())
    std::abort();
  return 0;
}
