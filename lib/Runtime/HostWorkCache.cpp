//===- HostWorkCache.cpp - inputs and references kept across runs ---------===//
//
// An entry is one file, `<key>.hostwork`: a magic line, then the inputs and
// the reference's outputs, each tensor as its dtype name, rank, shape and
// raw bytes, each output followed by its `computed` mask and `errorScale`
// (lengths first). Integers are little-endian 64-bit.
//
//===----------------------------------------------------------------------===//

#include "hkg/Runtime/HostWorkCache.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/EndianStream.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstring>

using namespace hkg::rt;

static constexpr llvm::StringLiteral kMagic = "hkg-host-work 1\n";

std::string hkg::rt::getHostWorkKey(mlir::Operation *op, uint64_t seed,
                                    double maxReferenceMultiplyAdds,
                                    bool withReference) {
  // The op without its schedule, printed on its own (operands as generic
  // names): the same text for every schedule of one op.
  mlir::Operation *clone = op->clone();
  clone->removeAttr("schedule");
  std::string text;
  llvm::raw_string_ostream os(text);
  clone->print(os, mlir::OpPrintingFlags().printGenericOpForm());
  clone->destroy();
  // What the kernel's inputs are: the operands' own types, or for an operand
  // read through a slice view, the view's root and the view itself.
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i) {
    os << "\ninput " << i << " " << getKernelInputType(op, i);
    if (mlir::Operation *def = op->getOperand(i).getDefiningOp()) {
      os << " ";
      def->print(os, mlir::OpPrintingFlags().printGenericOpForm());
    }
  }
  os << "\nseed " << seed << "\nmax-ref-madds "
     << llvm::formatv("{0:e6}", maxReferenceMultiplyAdds) << "\nreference "
     << withReference << "\n";
  return llvm::formatv("{0:x-16}", llvm::xxh3_64bits(text)).str();
}

static std::string entryPath(llvm::StringRef dir, llvm::StringRef key) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key + ".hostwork");
  return std::string(path);
}

namespace {
class Writer {
public:
  explicit Writer(llvm::raw_ostream &os) : os(os) {}
  void u64(uint64_t v) {
    llvm::support::endian::write<uint64_t>(os, v, llvm::endianness::little);
  }
  void bytes(const void *data, size_t n) {
    os.write(static_cast<const char *>(data), n);
  }
  void tensor(const HostTensor &t) {
    llvm::StringRef name = getDTypeName(t.getDType());
    u64(name.size());
    bytes(name.data(), name.size());
    u64(t.getRank());
    for (int64_t d : t.getShape())
      u64(static_cast<uint64_t>(d));
    u64(t.getNumBytes());
    bytes(t.data(), t.getNumBytes());
  }

private:
  llvm::raw_ostream &os;
};

class Reader {
public:
  explicit Reader(llvm::StringRef buf) : buf(buf) {}
  bool ok() const { return good; }
  uint64_t u64() {
    if (!take(8))
      return 0;
    return llvm::support::endian::read64le(buf.data() + pos - 8);
  }
  const char *bytes(uint64_t n) {
    if (!take(n))
      return nullptr;
    return buf.data() + pos - n;
  }
  std::optional<HostTensor> tensor() {
    uint64_t nameLen = u64();
    const char *name = bytes(nameLen);
    if (!name)
      return std::nullopt;
    std::optional<DType> type = parseDType(llvm::StringRef(name, nameLen));
    uint64_t rank = u64();
    if (!type || !good || rank > 64)
      return fail();
    llvm::SmallVector<int64_t> shape;
    for (uint64_t i = 0; i < rank; ++i)
      shape.push_back(static_cast<int64_t>(u64()));
    uint64_t n = u64();
    if (!good)
      return fail();
    HostTensor t(*type, shape);
    const char *data = bytes(n);
    if (!data || n != t.getNumBytes())
      return fail();
    std::memcpy(t.data(), data, n);
    return t;
  }

private:
  bool take(uint64_t n) {
    if (!good || n > buf.size() - pos) {
      good = false;
      return false;
    }
    pos += n;
    return true;
  }
  std::nullopt_t fail() {
    good = false;
    return std::nullopt;
  }
  llvm::StringRef buf;
  size_t pos = 0;
  bool good = true;
};
} // namespace

std::optional<HostWork> hkg::rt::loadHostWork(llvm::StringRef dir,
                                              llvm::StringRef key) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(entryPath(dir, key), /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return std::nullopt;
  llvm::StringRef buf = (*file)->getBuffer();
  if (!buf.consume_front(kMagic))
    return std::nullopt;
  Reader r(buf);
  HostWork work;
  uint64_t numInputs = r.u64();
  for (uint64_t i = 0; r.ok() && i < numInputs; ++i) {
    std::optional<HostTensor> t = r.tensor();
    if (!t)
      return std::nullopt;
    work.inputs.push_back(std::move(*t));
  }
  uint64_t hasReference = r.u64();
  if (r.ok() && hasReference) {
    ReferenceResult ref;
    uint64_t numOutputs = r.u64();
    for (uint64_t i = 0; r.ok() && i < numOutputs; ++i) {
      ExpectedOutput out;
      std::optional<HostTensor> t = r.tensor();
      if (!t)
        return std::nullopt;
      out.tensor = std::move(*t);
      uint64_t numComputed = r.u64();
      const char *computed = r.bytes(numComputed);
      if (!computed)
        return std::nullopt;
      out.computed.assign(computed, computed + numComputed);
      uint64_t numScales = r.u64();
      const char *scales = r.bytes(numScales * sizeof(double));
      if (!scales)
        return std::nullopt;
      out.errorScale.resize(numScales);
      std::memcpy(out.errorScale.data(), scales, numScales * sizeof(double));
      ref.outputs.push_back(std::move(out));
    }
    work.reference = std::move(ref);
  }
  if (!r.ok())
    return std::nullopt;
  return work;
}

llvm::Error hkg::rt::storeHostWork(llvm::StringRef dir, llvm::StringRef key,
                                   const HostWork &work) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(ec, "cannot create host cache directory '" +
                                           dir + "': " + ec.message());
  std::string path = entryPath(dir, key);
  llvm::SmallString<256> temp;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(path + ".%%%%%%.tmp", fd, temp))
    return llvm::createStringError(ec, "cannot create a file in '" + dir +
                                           "': " + ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << kMagic;
    Writer w(os);
    w.u64(work.inputs.size());
    for (const HostTensor &t : work.inputs)
      w.tensor(t);
    w.u64(work.reference ? 1 : 0);
    if (work.reference) {
      w.u64(work.reference->outputs.size());
      for (const ExpectedOutput &out : work.reference->outputs) {
        w.tensor(out.tensor);
        w.u64(out.computed.size());
        std::string mask(out.computed.begin(), out.computed.end());
        w.bytes(mask.data(), mask.size());
        w.u64(out.errorScale.size());
        w.bytes(out.errorScale.data(), out.errorScale.size() * sizeof(double));
      }
    }
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return llvm::createStringError(ec, "cannot write '" + temp +
                                             "': " + ec.message());
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    return llvm::createStringError(ec, "cannot rename '" + temp + "' to '" +
                                           path + "': " + ec.message());
  }
  return llvm::Error::success();
}
