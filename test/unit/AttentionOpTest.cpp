//===- AttentionOpTest.cpp - hkg.attention's builder and layout accessors -===//
//
// Frontends build hkg.attention from C++ (create(..., causal, scale, layout,
// schedule)); check that argument order and that getShape() reads the dims
// of either layout.
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::hkg;

namespace {

/// Builds hkg.attention on block arguments of the given shapes.
struct AttentionBuilder {
  MLIRContext ctx;
  OpBuilder b{&ctx};
  Block block;
  Location loc = UnknownLoc::get(&ctx);

  AttentionBuilder() {
    ctx.loadDialect<HkgDialect>();
    b.setInsertionPointToEnd(&block);
  }

  AttentionOp build(ArrayRef<int64_t> q, ArrayRef<int64_t> kv,
                    ArrayRef<int64_t> out, AttentionLayoutAttr layout) {
    Type bf16 = b.getBF16Type();
    Value qv = block.addArgument(RankedTensorType::get(q, bf16), loc);
    Value kvv = block.addArgument(RankedTensorType::get(kv, bf16), loc);
    return AttentionOp::create(b, loc, RankedTensorType::get(out, bf16), qv,
                               kvv, kvv, /*mask=*/Value(),
                               /*causal=*/b.getUnitAttr(),
                               /*scale=*/b.getF32FloatAttr(0.125), layout,
                               /*schedule=*/nullptr);
  }
};

} // namespace

TEST(AttentionOp, BshdShapeFromTheBuilder) {
  AttentionBuilder ab;
  auto layout = AttentionLayoutAttr::get(&ab.ctx, AttentionLayout::Bshd);
  // [B, S, H, D]: 2 batches, 16 queries over 32 heads, 64 keys over 8.
  AttentionOp op =
      ab.build({2, 16, 32, 128}, {2, 64, 8, 128}, {2, 16, 32, 128}, layout);
  EXPECT_TRUE(succeeded(op.verify()));
  EXPECT_EQ(op.getLayoutOrDefault(), AttentionLayout::Bshd);
  AttentionOp::Shape s = op.getShape();
  EXPECT_EQ(s.batch, 2);
  EXPECT_EQ(s.qHeads, 32);
  EXPECT_EQ(s.kvHeads, 8);
  EXPECT_EQ(s.qLen, 16);
  EXPECT_EQ(s.kvLen, 64);
  EXPECT_EQ(s.headDim, 128);
  EXPECT_EQ(s.valueDim, 128);
  EXPECT_TRUE(op.getCausal());
  EXPECT_EQ(op.getEffectiveScale(), 0.125f);
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  EXPECT_NE(text.find("causal scale(1.250000e-01) layout(bshd) :"),
            std::string::npos)
      << text;
}

TEST(AttentionOp, NoLayoutIsBhsd) {
  AttentionBuilder ab;
  AttentionOp op = ab.build({2, 32, 16, 128}, {2, 8, 64, 128}, {2, 32, 16, 128},
                            /*layout=*/nullptr);
  EXPECT_TRUE(succeeded(op.verify()));
  EXPECT_FALSE(op.getLayout().has_value());
  EXPECT_EQ(op.getLayoutOrDefault(), AttentionLayout::Bhsd);
  AttentionOp::Shape s = op.getShape();
  EXPECT_EQ(s.qHeads, 32);
  EXPECT_EQ(s.kvHeads, 8);
  EXPECT_EQ(s.qLen, 16);
  EXPECT_EQ(s.kvLen, 64);
}
