//===- InputLimits.cpp - bounds on what hkg's tools accept ----------------===//

#include "hkg/Support/InputLimits.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <chrono>
#include <cstdlib>

using namespace hkg;
using llvm::StringRef;

static bool isOpener(char c, InputSyntax syntax) {
  return c == '(' || c == '[' || c == '{' ||
         (c == '<' && syntax == InputSyntax::MLIR);
}

static char closerOf(char opener) {
  switch (opener) {
  case '(':
    return ')';
  case '[':
    return ']';
  case '{':
    return '}';
  default:
    return '>';
  }
}

llvm::Error hkg::checkInputNesting(StringRef text, InputSyntax syntax,
                                   unsigned maxDepth) {
  // The open brackets; a closer that does not match the innermost one is
  // not counted (it is an error the parser reports), so that `>=` in an
  // affine set or `->` in a map cannot hide an opener.
  llvm::SmallVector<char> open;
  size_t line = 1, lineStart = 0;
  bool mlir = syntax == InputSyntax::MLIR;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      lineStart = i + 1;
      continue;
    }
    if (c == '"') {
      for (++i; i < e && text[i] != '"'; ++i) {
        if (text[i] == '\\')
          ++i;
        else if (text[i] == '\n')
          ++line, lineStart = i + 1;
      }
      continue;
    }
    if (mlir && c == '/' && i + 1 < e && text[i + 1] == '/') {
      size_t end = std::min(text.find('\n', i), e);
      // hkg-opt --split-input-file parses each chunk on its own.
      if (text.substr(i, end - i).starts_with("// -----"))
        open.clear();
      i = end - 1;
      continue;
    }
    if (isOpener(c, syntax)) {
      open.push_back(c);
      if (open.size() > maxDepth)
        return llvm::createStringError(
            llvm::formatv("input nested deeper than {0} levels (line {1}, "
                          "column {2})",
                          maxDepth, line, i - lineStart + 1)
                .str());
      continue;
    }
    if (open.empty() || c != closerOf(open.back()))
      continue;
    if (c == '>' && ((i > 0 && text[i - 1] == '-') ||
                     (i + 1 < e && text[i + 1] == '=')))
      continue;
    open.pop_back();
  }
  return llvm::Error::success();
}

llvm::Expected<llvm::json::Value> hkg::parseJSON(StringRef text) {
  if (llvm::Error e = checkInputNesting(text, InputSyntax::JSON))
    return std::move(e);
  return llvm::json::parse(text);
}

int hkg::runOnLargeStack(llvm::function_ref<int()> fn) {
  int result = 1;
  llvm::thread worker(std::optional<unsigned>(kLargeStackBytes),
                      [&] { result = fn(); });
  worker.join();
  return result;
}

Watchdog::Watchdog(unsigned seconds, std::string message) {
  if (seconds == 0)
    return;
  thread = std::thread([this, seconds, message = std::move(message)] {
    std::unique_lock<std::mutex> lock(mutex);
    if (cancelled.wait_for(lock, std::chrono::seconds(seconds),
                           [this] { return done; }))
      return;
    llvm::errs() << message << "\n";
    llvm::errs().flush();
    std::_Exit(1);
  });
}

Watchdog::~Watchdog() {
  if (!thread.joinable())
    return;
  {
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
  }
  cancelled.notify_all();
  thread.join();
}
