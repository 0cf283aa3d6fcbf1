//===- NVPTXStats.cpp - registers and spills of NVIDIA kernels ------------===//
//
// Runs `ptxas -v` on PTX and parses its report:
//
//   ptxas info    : Compiling entry function 'k' for 'sm_90'
//   ptxas info    : Function properties for k
//       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 16 registers, used 1 barriers, 64 bytes smem, ...
//
//===----------------------------------------------------------------------===//

#include "hkg/Target/KernelStats.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::hkg;
using llvm::StringRef;

/// Returns the number before `unit` in `line` ("16 registers" -> 16).
static unsigned numberBefore(StringRef line, StringRef unit) {
  llvm::Regex re(("([0-9]+) " + unit).str());
  llvm::SmallVector<StringRef, 2> m;
  unsigned value = 0;
  if (re.match(line, &m))
    m[1].getAsInteger(10, value);
  return value;
}

llvm::SmallVector<NVPTXKernelStats> mlir::hkg::parsePtxasLog(StringRef log) {
  llvm::SmallVector<NVPTXKernelStats> result;
  llvm::Regex entry("Compiling entry function '([^']+)'");
  llvm::SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines) {
    llvm::SmallVector<StringRef, 2> m;
    if (entry.match(line, &m)) {
      result.push_back(NVPTXKernelStats{m[1].str()});
      continue;
    }
    if (result.empty())
      continue;
    NVPTXKernelStats &s = result.back();
    if (line.contains("bytes stack frame")) {
      s.stackFrameBytes = numberBefore(line, "bytes stack frame");
      s.spillStoreBytes = numberBefore(line, "bytes spill stores");
      s.spillLoadBytes = numberBefore(line, "bytes spill loads");
    } else if (line.contains(" registers")) {
      s.registers = numberBefore(line, "registers");
      s.sharedBytes = numberBefore(line, "bytes smem");
    }
  }
  return result;
}

llvm::Expected<std::string>
mlir::hkg::runPtxas(StringRef ptxas, StringRef chip, StringRef ptx,
                    unsigned optLevel,
                    llvm::SmallVectorImpl<NVPTXKernelStats> &stats) {
  llvm::SmallString<128> ptxFile, cubinFile, logFile;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("hkg", "ptx", fd, ptxFile))
    return llvm::createStringError(ec, "hkg: cannot create a temporary file");
  llvm::FileRemover ptxRemover(ptxFile);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << ptx;
  }
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("hkg", "cubin", cubinFile))
    return llvm::createStringError(ec, "hkg: cannot create a temporary file");
  llvm::FileRemover cubinRemover(cubinFile);
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("hkg", "log", logFile))
    return llvm::createStringError(ec, "hkg: cannot create a temporary file");
  llvm::FileRemover logRemover(logFile);

  std::string arch = ("-arch=" + chip).str();
  std::string opt = "-O" + std::to_string(std::min(optLevel, 3u));
  llvm::SmallVector<StringRef> args = {"ptxas", arch, opt,      "-v",
                                       ptxFile, "-o", cubinFile};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logFile),
                                          StringRef(logFile)};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &message);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> log =
      llvm::MemoryBuffer::getFile(logFile);
  StringRef logText = log ? (*log)->getBuffer() : StringRef();
  if (rc != 0)
    return llvm::createStringError("hkg: ptxas failed: %s%s", message.c_str(),
                                   logText.str().c_str());
  stats.append(parsePtxasLog(logText));
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> cubin =
      llvm::MemoryBuffer::getFile(cubinFile, /*IsText=*/false);
  if (!cubin)
    return llvm::createStringError(cubin.getError(),
                                   "hkg: ptxas wrote no cubin");
  return (*cubin)->getBuffer().str();
}
