//===- Toolkit.cpp - find the GPU toolchain pieces hkg needs --------------===//
//
// Upstream's ROCDL target reads `<toolkit>/amdgcn/bitcode/*.bc` and runs
// `<toolkit>/llvm/bin/ld.lld`; the NVVM target reads
// `<toolkit>/nvvm/libdevice/libdevice.10.bc` and runs `<toolkit>/bin/ptxas`
// (or ptxas from PATH). A ROCm or CUDA install has that layout; Debian spreads
// the same pieces over /usr/lib, so hkg links them into a per-user cache
// directory with the expected layout.
//
//===----------------------------------------------------------------------===//

#include "hkg/Target/Toolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

#include <mutex>

#include <unistd.h>

using namespace mlir::hkg;
using llvm::SmallString;
using llvm::StringRef;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

#ifndef HKG_LLVM_TOOLS_DIR
#define HKG_LLVM_TOOLS_DIR ""
#endif

static std::string getEnv(const char *name) {
  std::optional<std::string> value = llvm::sys::Process::GetEnv(name);
  return value ? *value : std::string();
}

static std::string join(StringRef a, const llvm::Twine &b,
                        const llvm::Twine &c = "", const llvm::Twine &d = "") {
  SmallString<256> p(a);
  path::append(p, b, c, d);
  return std::string(p);
}

static bool isFile(const llvm::Twine &p) { return fs::is_regular_file(p); }
static bool isExecutable(const llvm::Twine &p) {
  return fs::can_execute(p) && !fs::is_directory(p);
}

/// The per-user cache directory holding prepared toolkits
/// ($XDG_CACHE_HOME/hkg or ~/.cache/hkg), or "" when there is no home.
static std::string getCacheDir(StringRef leaf) {
  std::string base = getEnv("XDG_CACHE_HOME");
  if (base.empty()) {
    SmallString<256> home;
    if (path::home_directory(home))
      base = join(home, ".cache");
  }
  return base.empty() ? std::string() : join(base, "hkg", leaf);
}

/// The fallback when the cache directory cannot be written: a per-user
/// directory under the system's temporary directory.
static std::string getTempToolkitDir(StringRef leaf) {
  SmallString<256> tmp;
  path::system_temp_directory(/*ErasedOnReboot=*/true, tmp);
  return join(tmp, "hkg-" + llvm::Twine(::getuid()), leaf);
}

/// Makes `link` a symbolic link to `target`, replacing a stale link. Safe
/// against several hkg processes doing the same at once: the link is made
/// under a unique name and renamed into place.
static llvm::Error ensureLink(StringRef target, StringRef link) {
  SmallString<256> existing;
  if (!fs::real_path(link, existing)) {
    SmallString<256> wanted;
    if (!fs::real_path(target, wanted) && existing == wanted)
      return llvm::Error::success();
  }
  if (std::error_code ec = fs::create_directories(path::parent_path(link)))
    return llvm::createStringError(ec, "hkg: cannot create directory '%s': %s",
                                   path::parent_path(link).str().c_str(),
                                   ec.message().c_str());
  std::string tmp =
      (link + ".tmp" + llvm::Twine(llvm::sys::Process::getProcessId())).str();
  (void)fs::remove(tmp);
  if (std::error_code ec = fs::create_link(target, tmp))
    return llvm::createStringError(ec, "hkg: cannot create link '%s': %s",
                                   tmp.c_str(), ec.message().c_str());
  if (std::error_code ec = fs::rename(tmp, link)) {
    (void)fs::remove(tmp);
    return llvm::createStringError(ec, "hkg: cannot create link '%s': %s",
                                   link.str().c_str(), ec.message().c_str());
  }
  return llvm::Error::success();
}

/// Finds an executable: first in `dirs`, then (with `searchPath`) on PATH
/// under each of `names`.
static std::string findProgram(llvm::ArrayRef<std::string> dirs,
                               llvm::ArrayRef<StringRef> names,
                               bool searchPath = true) {
  for (const std::string &dir : dirs) {
    if (dir.empty())
      continue;
    for (StringRef name : names)
      if (isExecutable(join(dir, name)))
        return join(dir, name);
  }
  if (!searchPath)
    return "";
  for (StringRef name : names)
    if (llvm::ErrorOr<std::string> p = llvm::sys::findProgramByName(name))
      return *p;
  return "";
}

/// The directory holding the running executable (a static hkg build can ship
/// ld.lld or ptxas next to itself).
static std::string getExecutableDir() {
  static int anchor;
  std::string exe = fs::getMainExecutable(nullptr, &anchor);
  return exe.empty() ? std::string() : std::string(path::parent_path(exe));
}

/// The major version `ld.lld --version` reports ("LLD 22.1.8"), or 0.
static unsigned getLldMajorVersion(StringRef ldLld) {
  SmallString<128> out;
  if (fs::createTemporaryFile("hkg-lld", "txt", out))
    return 0;
  llvm::FileRemover remover(out);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(out),
                                          StringRef(out)};
  if (llvm::sys::ExecuteAndWait(ldLld, {"ld.lld", "--version"}, std::nullopt,
                                redirects) != 0)
    return 0;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
      llvm::MemoryBuffer::getFile(out);
  llvm::SmallVector<StringRef, 2> m;
  unsigned major = 0;
  if (text && llvm::Regex("LLD ([0-9]+)").match((*text)->getBuffer(), &m))
    m[1].getAsInteger(10, major);
  return major;
}

/// Makes a toolkit directory named `leaf` holding each `{target, relative
/// link path}` of `links`: in the cache directory, else in the temporary one.
static llvm::Expected<std::string>
prepareToolkitDir(StringRef leaf,
                  llvm::ArrayRef<std::pair<std::string, std::string>> links) {
  auto prepare = [&](StringRef dir) -> llvm::Error {
    for (const auto &[target, rel] : links)
      if (llvm::Error err = ensureLink(target, join(dir, rel)))
        return err;
    return llvm::Error::success();
  };
  std::string dir = getCacheDir(leaf);
  llvm::Error err =
      dir.empty() ? llvm::createStringError("hkg: no home") : prepare(dir);
  if (!err)
    return dir;
  std::string tmp = getTempToolkitDir(leaf);
  if (llvm::Error tmpErr = prepare(tmp)) {
    llvm::consumeError(std::move(tmpErr));
    return std::move(err);
  }
  llvm::consumeError(std::move(err));
  return tmp;
}

//===----------------------------------------------------------------------===//
// ROCm
//===----------------------------------------------------------------------===//

static bool isCompleteROCm(StringRef dir) {
  return !dir.empty() && isFile(join(dir, "amdgcn", "bitcode", "ocml.bc")) &&
         isExecutable(join(dir, "llvm", "bin", "ld.lld"));
}

static ROCmToolkit makeROCm(StringRef dir) {
  return {dir.str(), join(dir, "amdgcn", "bitcode"),
          join(dir, "llvm", "bin", "ld.lld")};
}

static llvm::Expected<ROCmToolkit> findROCmToolkit(StringRef override) {
  for (StringRef what : {"toolkit", "HKG_ROCM_PATH"}) {
    std::string dir =
        what == "toolkit" ? override.str() : getEnv("HKG_ROCM_PATH");
    if (dir.empty())
      continue;
    if (!isCompleteROCm(dir))
      return llvm::createStringError(
          "hkg: %s '%s' is not a ROCm toolkit (expected "
          "amdgcn/bitcode/ocml.bc and llvm/bin/ld.lld under it)",
          what.str().c_str(), dir.c_str());
    return makeROCm(dir);
  }
  std::string rocmPath = getEnv("ROCM_PATH");
  for (StringRef dir : {StringRef(rocmPath), StringRef("/opt/rocm")})
    if (isCompleteROCm(dir))
      return makeROCm(dir);

  // Assemble the pieces.
  std::string bitcodeDir;
  for (std::string dir :
       {join(rocmPath, "amdgcn", "bitcode"),
        std::string("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"),
        std::string("/usr/lib/aarch64-linux-gnu/amdgcn/bitcode"),
        std::string("/usr/lib/amdgcn/bitcode"),
        std::string("/opt/rocm/amdgcn/bitcode"),
        join(getExecutableDir(), "../lib", "amdgcn", "bitcode")}) {
    if (path::is_absolute(dir) && isFile(join(dir, "ocml.bc")) &&
        isFile(join(dir, "ockl.bc"))) {
      bitcodeDir = dir;
      break;
    }
  }
  if (bitcodeDir.empty())
    return llvm::createStringError(
        "hkg: AMD device bitcode (ocml.bc, ockl.bc) not found; install Debian "
        "package 'rocm-device-libs' (or set HKG_ROCM_PATH to a ROCm install)");

  // ld.lld of the LLVM hkg is built with (it must understand the code
  // object version that LLVM writes): from ROCm, LLVM's tools directory, next
  // to hkg, or `ld.lld-<major>` on PATH; a plain `ld.lld` on PATH only if its
  // version is recent enough.
  std::string versioned = "ld.lld-" + std::to_string(LLVM_VERSION_MAJOR);
  std::string ldLld =
      findProgram({rocmPath.empty() ? "" : join(rocmPath, "llvm", "bin"),
                   HKG_LLVM_TOOLS_DIR, getExecutableDir()},
                  {"ld.lld"}, /*searchPath=*/false);
  if (ldLld.empty())
    ldLld = findProgram({}, {versioned});
  if (ldLld.empty()) {
    std::string onPath = findProgram({}, {"ld.lld"});
    if (!onPath.empty()) {
      unsigned major = getLldMajorVersion(onPath);
      if (major < LLVM_VERSION_MAJOR)
        return llvm::createStringError(
            "hkg: ld.lld at '%s' is LLD %u, older than hkg's LLVM %u; "
            "install Debian package 'lld-%u'",
            onPath.c_str(), major, LLVM_VERSION_MAJOR, LLVM_VERSION_MAJOR);
      ldLld = onPath;
    }
  }
  if (ldLld.empty())
    return llvm::createStringError(
        "hkg: ld.lld not found; install Debian package 'lld-%u' (or 'lld')",
        LLVM_VERSION_MAJOR);

  llvm::Expected<std::string> dir =
      prepareToolkitDir("rocm-toolkit", {{bitcodeDir, "amdgcn/bitcode"},
                                         {ldLld, "llvm/bin/ld.lld"}});
  if (!dir)
    return dir.takeError();
  return makeROCm(*dir);
}

llvm::Expected<ROCmToolkit> mlir::hkg::getROCmToolkit(StringRef override) {
  if (!override.empty())
    return findROCmToolkit(override);
  static std::mutex mutex;
  static std::optional<ROCmToolkit> cached;
  std::lock_guard<std::mutex> lock(mutex);
  if (cached)
    return *cached;
  llvm::Expected<ROCmToolkit> found = findROCmToolkit("");
  if (found)
    cached = *found;
  return found;
}

//===----------------------------------------------------------------------===//
// CUDA
//===----------------------------------------------------------------------===//

static std::string libdeviceUnder(StringRef dir) {
  return join(dir, "nvvm", "libdevice", "libdevice.10.bc");
}

static llvm::Expected<CUDAToolkit> findCUDAToolkit(StringRef override) {
  auto make = [](StringRef dir) {
    std::string ptxas = findProgram({join(dir, "bin")}, {"ptxas"});
    return CUDAToolkit{dir.str(), libdeviceUnder(dir), ptxas};
  };
  for (StringRef what : {"toolkit", "HKG_CUDA_PATH"}) {
    std::string dir =
        what == "toolkit" ? override.str() : getEnv("HKG_CUDA_PATH");
    if (dir.empty())
      continue;
    if (!isFile(libdeviceUnder(dir)))
      return llvm::createStringError(
          "hkg: %s '%s' is not a CUDA toolkit (expected "
          "nvvm/libdevice/libdevice.10.bc under it)",
          what.str().c_str(), dir.c_str());
    return make(dir);
  }
  for (std::string dir :
       {getEnv("CUDA_PATH"), getEnv("CUDA_HOME"),
        std::string("/usr/local/cuda"), std::string("/opt/cuda")})
    if (!dir.empty() && isFile(libdeviceUnder(dir)))
      return make(dir);

  // Debian's nvidia-cuda-toolkit.
  std::string libdevice =
      "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc";
  if (!isFile(libdevice))
    return llvm::createStringError(
        "hkg: CUDA libdevice (libdevice.10.bc) not found; install Debian "
        "package 'nvidia-cuda-toolkit' or CUDA (or set HKG_CUDA_PATH)");
  std::vector<std::pair<std::string, std::string>> links = {
      {libdevice, "nvvm/libdevice/libdevice.10.bc"}};
  std::string ptxas = findProgram({getExecutableDir()}, {"ptxas"});
  if (!ptxas.empty())
    links.push_back({ptxas, "bin/ptxas"});
  llvm::Expected<std::string> dir = prepareToolkitDir("cuda-toolkit", links);
  if (!dir)
    return dir.takeError();
  return make(*dir);
}

llvm::Expected<CUDAToolkit> mlir::hkg::getCUDAToolkit(StringRef override) {
  if (!override.empty())
    return findCUDAToolkit(override);
  static std::mutex mutex;
  static std::optional<CUDAToolkit> cached;
  std::lock_guard<std::mutex> lock(mutex);
  if (cached)
    return *cached;
  llvm::Expected<CUDAToolkit> found = findCUDAToolkit("");
  if (found)
    cached = *found;
  return found;
}
