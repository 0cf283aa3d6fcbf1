//===- HostWorkCacheTest.cpp - inputs and references kept across runs ----===//

#include "RuntimeTestUtils.h"

#include "hkg/Runtime/HostWorkCache.h"
#include "hkg/Runtime/RandomInputs.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace hkg::rt;
using namespace hkg::rt::testing;

namespace {
/// A fresh directory, removed at the end of the test.
struct ScratchDir {
  llvm::SmallString<128> path;
  ScratchDir() {
    EXPECT_FALSE(
        llvm::sys::fs::createUniqueDirectory("hkg-host-work-test", path));
  }
  ~ScratchDir() { llvm::sys::fs::remove_directories(path); }
};

constexpr llvm::StringLiteral kMatmul = R"(
  func.func @ref(%a: tensor<8x2xf32>, %b: tensor<2x2xf32>) -> tensor<8x2xf32> {
    %c = hkg.matmul %a, %b {schedule = #hkg.schedule<%s>} : tensor<8x2xf32>, tensor<2x2xf32> -> tensor<8x2xf32>
    return %c : tensor<8x2xf32>
  })";

ParsedOp parseMatmul(llvm::StringRef schedule) {
  std::string text = kMatmul.str();
  text.replace(text.find("%s"), 2, schedule.str());
  return parseOp(text);
}
} // namespace

// Every schedule of one op shares a key; another seed, another reference
// bound, another shape or no reference does not.
TEST(HostWorkCacheTest, KeyIgnoresTheScheduleOnly) {
  ParsedOp a = parseMatmul("tile_m = 16");
  ParsedOp b = parseMatmul("tile_m = 32, stages = 3");
  ASSERT_TRUE(a.op && b.op);
  std::string key = getHostWorkKey(a.op, 1, 8e9, true);
  EXPECT_EQ(key.size(), 16u);
  EXPECT_EQ(key, getHostWorkKey(b.op, 1, 8e9, true));
  EXPECT_NE(key, getHostWorkKey(a.op, 2, 8e9, true));
  EXPECT_NE(key, getHostWorkKey(a.op, 1, 1e3, true));
  EXPECT_NE(key, getHostWorkKey(a.op, 1, 8e9, false));
  ParsedOp c = parseOp(R"(
    func.func @ref(%a: tensor<8x4xf32>, %b: tensor<4x2xf32>) -> tensor<8x2xf32> {
      %c = hkg.matmul %a, %b : tensor<8x4xf32>, tensor<4x2xf32> -> tensor<8x2xf32>
      return %c : tensor<8x2xf32>
    })");
  ASSERT_TRUE(c.op);
  EXPECT_NE(key, getHostWorkKey(c.op, 1, 8e9, true));
}

// A stored entry comes back bit for bit: the inputs, the reference with
// its computed-row mask (a bounded reference) and its error scales.
TEST(HostWorkCacheTest, RoundTrip) {
  ParsedOp p = parseMatmul("tile_m = 16");
  ASSERT_TRUE(p.op);
  auto inputs = makeRandomInputs(p.op, 7);
  ASSERT_TRUE(static_cast<bool>(inputs)) << llvm::toString(inputs.takeError());
  ReferenceOptions options;
  options.maxMultiplyAdds = 3 * 2 * 2;
  auto ref = evaluateReference(p.op, *inputs, options);
  ASSERT_TRUE(static_cast<bool>(ref)) << llvm::toString(ref.takeError());
  ASSERT_FALSE(ref->outputs[0].computed.empty());
  ref->outputs[0].errorScale = {0.5, 0.25};

  ScratchDir dir;
  HostWork work{*inputs, *ref};
  std::string key = getHostWorkKey(p.op, 7, 12, true);
  ASSERT_FALSE(static_cast<bool>(storeHostWork(dir.path, key, work)));
  std::optional<HostWork> back = loadHostWork(dir.path, key);
  ASSERT_TRUE(back.has_value());
  ASSERT_EQ(back->inputs.size(), inputs->size());
  for (size_t i = 0; i < inputs->size(); ++i) {
    const HostTensor &x = (*inputs)[i], &y = back->inputs[i];
    EXPECT_EQ(x.getDType(), y.getDType());
    EXPECT_EQ(x.getShape(), y.getShape());
    ASSERT_EQ(x.getNumBytes(), y.getNumBytes());
    EXPECT_EQ(0, std::memcmp(x.data(), y.data(), x.getNumBytes()));
  }
  ASSERT_TRUE(back->reference.has_value());
  const ExpectedOutput &o = ref->outputs[0], &q = back->reference->outputs[0];
  EXPECT_EQ(o.tensor.getDType(), q.tensor.getDType());
  EXPECT_EQ(
      0, std::memcmp(o.tensor.data(), q.tensor.data(), o.tensor.getNumBytes()));
  EXPECT_EQ(o.computed, q.computed);
  EXPECT_EQ(o.errorScale, q.errorScale);

  // Without a reference, none comes back.
  HostWork inputsOnly{*inputs, std::nullopt};
  ASSERT_FALSE(static_cast<bool>(storeHostWork(dir.path, "other", inputsOnly)));
  std::optional<HostWork> noRef = loadHostWork(dir.path, "other");
  ASSERT_TRUE(noRef.has_value());
  EXPECT_FALSE(noRef->reference.has_value());
}

// A missing, foreign or truncated entry is a miss, not an error.
TEST(HostWorkCacheTest, BadEntriesAreMisses) {
  ParsedOp p = parseMatmul("tile_m = 16");
  ASSERT_TRUE(p.op);
  auto inputs = makeRandomInputs(p.op, 1);
  ASSERT_TRUE(static_cast<bool>(inputs));
  ScratchDir dir;
  EXPECT_FALSE(loadHostWork(dir.path, "absent").has_value());

  HostWork work{*inputs, std::nullopt};
  ASSERT_FALSE(static_cast<bool>(storeHostWork(dir.path, "k", work)));
  llvm::SmallString<128> path(dir.path);
  llvm::sys::path::append(path, "k.hostwork");
  ASSERT_TRUE(loadHostWork(dir.path, "k").has_value());
  auto whole = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(static_cast<bool>(whole));
  std::string bytes = (*whole)->getBuffer().str();
  auto rewrite = [&](llvm::StringRef contents) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << contents;
  };
  rewrite(llvm::StringRef(bytes).drop_back(5));
  EXPECT_FALSE(loadHostWork(dir.path, "k").has_value());
  rewrite("not a cache entry");
  EXPECT_FALSE(loadHostWork(dir.path, "k").has_value());
}
