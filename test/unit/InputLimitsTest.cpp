//===- InputLimitsTest.cpp - hkg/Support/InputLimits.h --------------------===//

#include "hkg/Support/InputLimits.h"

#include "gtest/gtest.h"

#include <string>

using namespace hkg;

namespace {

std::string errorOf(llvm::StringRef text, InputSyntax syntax,
                    unsigned maxDepth) {
  llvm::Error e = checkInputNesting(text, syntax, maxDepth);
  return e ? llvm::toString(std::move(e)) : std::string();
}

TEST(InputLimitsTest, CountsOpenBrackets) {
  EXPECT_EQ(errorOf("[[[]]]", InputSyntax::JSON, 3), "");
  EXPECT_EQ(errorOf("[[[[]]]]", InputSyntax::JSON, 3),
            "input nested deeper than 3 levels (line 1, column 4)");
  // Closed brackets do not count: depth, not number.
  EXPECT_EQ(errorOf("[][][][][][]", InputSyntax::JSON, 1), "");
  EXPECT_EQ(errorOf("{\n ({\n  [x]})}", InputSyntax::MLIR, 3),
            "input nested deeper than 3 levels (line 3, column 3)");
}

TEST(InputLimitsTest, SkipsStringsAndComments) {
  EXPECT_EQ(errorOf("\"[[[[\\\"[[[[\"", InputSyntax::JSON, 1), "");
  EXPECT_EQ(errorOf("// ((((((\nx", InputSyntax::MLIR, 1), "");
  // A `// -----` line starts a new --split-input-file chunk.
  EXPECT_EQ(errorOf("((\n// -----\n((", InputSyntax::MLIR, 2), "");
  // JSON has no comments.
  EXPECT_NE(errorOf("// [[[", InputSyntax::JSON, 2), "");
}

TEST(InputLimitsTest, AngleBracketsInMLIR) {
  EXPECT_EQ(errorOf("<<<>>>", InputSyntax::JSON, 1), "");
  EXPECT_NE(errorOf("<<<>>>", InputSyntax::MLIR, 2), "");
  // `->` and `>=` close nothing: an affine map or set cannot hide openers.
  EXPECT_EQ(errorOf("affine_map<(d0) -> (d0)>", InputSyntax::MLIR, 2), "");
  EXPECT_NE(errorOf("[<(d0) -> (d0) [<", InputSyntax::MLIR, 3), "");
  EXPECT_NE(errorOf("[<d0 >= 0 [<", InputSyntax::MLIR, 3), "");
}

TEST(InputLimitsTest, ParseJSONRefusesDeepInput) {
  std::string deep(100000, '[');
  llvm::Expected<llvm::json::Value> v = parseJSON(deep);
  ASSERT_FALSE(static_cast<bool>(v));
  EXPECT_EQ(llvm::toString(v.takeError()),
            "input nested deeper than 1000 levels (line 1, column 1001)");
  llvm::Expected<llvm::json::Value> ok = parseJSON("{\"a\": [1, [2]]}");
  ASSERT_TRUE(static_cast<bool>(ok));
}

TEST(InputLimitsTest, RunOnLargeStackReturnsTheResult) {
  // Deep enough to overflow an 8 MiB stack (about 64 MiB of frames).
  std::function<int(int)> recurse = [&](int n) -> int {
    volatile char frame[4096];
    frame[0] = static_cast<char>(n);
    return n == 0 ? frame[0] : recurse(n - 1) + 1;
  };
  EXPECT_EQ(runOnLargeStack([&] { return recurse(16000); }), 16000);
}

} // namespace
