//===- InputLimits.h - bounds on what hkg's tools accept --------*- C++ -*-===//
//
// The MLIR parser and llvm::json::parse recurse once per nesting level, so a
// file of 100000 `[` overflows the stack and the tool dies with SIGSEGV.
// hkg's tools read every file through these helpers instead: a cheap scan
// refuses input nested deeper than kMaxInputNesting levels before any parser
// sees it, and the tools run their work on a thread with a large stack, so
// that whatever recursion remains (verifiers, printers, passes walking
// nested regions) has room. A watchdog turns a runaway compilation into an
// error instead of a hang.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_SUPPORT_INPUTLIMITS_H
#define HKG_SUPPORT_INPUTLIMITS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace hkg {

/// The deepest bracket nesting hkg's tools accept. hkg's own files nest
/// fewer than 20 levels.
constexpr unsigned kMaxInputNesting = 1000;

/// The stack runOnLargeStack gives its function (reserved, not committed).
constexpr unsigned kLargeStackBytes = 512u << 20;

/// How brackets are told from text: MLIR skips `// ...` comments (and a
/// `// -----` line starts a new split-input-file chunk) and does not count
/// the `>` of `->` or of `>=`; JSON has neither.
enum class InputSyntax { MLIR, JSON };

/// Returns an error "input nested deeper than N levels (line L, column C)"
/// if `text` opens more than `maxDepth` brackets ((, [, {, and < in MLIR)
/// without closing them; text in string literals is not counted.
llvm::Error checkInputNesting(llvm::StringRef text, InputSyntax syntax,
                              unsigned maxDepth = kMaxInputNesting);

/// llvm::json::parse, after checkInputNesting.
llvm::Expected<llvm::json::Value> parseJSON(llvm::StringRef text);

/// Runs `fn` on a thread with a kLargeStackBytes stack and returns its
/// result: tools call their real main through it.
int runOnLargeStack(llvm::function_ref<int()> fn);

/// While alive, bounds the process's wall-clock time: after `seconds` (0:
/// never) it prints `message` to stderr and ends the process with exit
/// status 1.
class Watchdog {
public:
  Watchdog(unsigned seconds, std::string message);
  ~Watchdog();
  Watchdog(const Watchdog &) = delete;
  Watchdog &operator=(const Watchdog &) = delete;

private:
  std::mutex mutex;
  std::condition_variable cancelled;
  bool done = false;
  std::thread thread;
};

} // namespace hkg

#endif // HKG_SUPPORT_INPUTLIMITS_H
