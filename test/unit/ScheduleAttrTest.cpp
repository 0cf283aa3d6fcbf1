//===- ScheduleAttrTest.cpp - #hkg.schedule verification ------------------===//
//
// The rules of ScheduleAttr::verify that the textual parser cannot reach (it
// only builds i64 integers and strings): attributes built in C++.
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/IR/HkgAttrs.h"
#include "hkg/Dialect/Hkg/IR/HkgDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::hkg;

namespace {
class ScheduleAttrTest : public ::testing::Test {
protected:
  ScheduleAttrTest() : b(&ctx) { ctx.loadDialect<HkgDialect>(); }

  /// Builds a schedule with one knob through getChecked and returns the
  /// diagnostic it produced ("" when it verified).
  std::string check(Attribute value, ScheduleAttr *out = nullptr) {
    std::string message;
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      message = d.str();
      return success();
    });
    auto knobs = b.getDictionaryAttr({b.getNamedAttr("vector_width", value)});
    ScheduleAttr attr = ScheduleAttr::getChecked(
        [&] { return emitError(UnknownLoc::get(&ctx)); }, &ctx, knobs);
    if (out)
      *out = attr;
    return message;
  }

  MLIRContext ctx;
  Builder b;
};
} // namespace

TEST_F(ScheduleAttrTest, AcceptsI64AndKeywords) {
  ScheduleAttr attr;
  EXPECT_EQ(check(b.getI64IntegerAttr(8), &attr), "");
  ASSERT_TRUE(attr);
  EXPECT_EQ(attr.getInt("vector_width"), 8);
  EXPECT_EQ(attr.getKeyword("vector_width"), std::nullopt);
  EXPECT_EQ(check(b.getStringAttr("wide"), &attr), "");
  EXPECT_EQ(attr.getKeyword("vector_width"), "wide");
  EXPECT_EQ(attr.getInt("vector_width"), std::nullopt);
  EXPECT_EQ(attr.getInt("threads"), std::nullopt);
}

TEST_F(ScheduleAttrTest, RejectsOtherIntegerWidths) {
  ScheduleAttr attr;
  EXPECT_EQ(check(b.getI32IntegerAttr(8), &attr),
            "knob 'vector_width' must be a 64-bit integer, got 8 : i32");
  EXPECT_FALSE(attr);
}

TEST_F(ScheduleAttrTest, RejectsOtherAttributes) {
  ScheduleAttr attr;
  EXPECT_EQ(check(b.getF32FloatAttr(1.5), &attr),
            "knob 'vector_width' must be an integer or a keyword, got "
            "1.500000e+00 : f32");
  EXPECT_FALSE(attr);
}
