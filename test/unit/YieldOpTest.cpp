//===- YieldOpTest.cpp - hkg.yield's own verifier -------------------------===//
//
// hkg.yield's operand-count rule cannot fire from textual IR: its parent op
// verifies first and already rejects a body that does not yield exactly one
// value. Builders can still create such a yield, so check the rule directly.
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::hkg;

TEST(YieldOp, VerifiesItsOperandCount) {
  MLIRContext ctx;
  ctx.loadDialect<HkgDialect>();
  OpBuilder b(&ctx);
  Block block;
  Value v = block.addArgument(b.getF32Type(), UnknownLoc::get(&ctx));
  b.setInsertionPointToEnd(&block);

  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    message = d.str();
    return success();
  });
  auto one = YieldOp::create(b, UnknownLoc::get(&ctx), ValueRange{v});
  EXPECT_TRUE(succeeded(one.verify()));
  EXPECT_EQ(message, "");

  auto two = YieldOp::create(b, UnknownLoc::get(&ctx), ValueRange{v, v});
  EXPECT_TRUE(failed(two.verify()));
  EXPECT_EQ(message,
            "'hkg.yield' op expected exactly one yielded value, got 2");
  two->erase();
  one->erase();
}
