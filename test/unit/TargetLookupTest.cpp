//===- TargetLookupTest.cpp - getTargetFor on attributes built in C++ -----===//

#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Dialect/Hkg/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::hkg;

TEST(TargetLookup, UncheckedUnknownChipIsAnError) {
  MLIRContext ctx;
  ctx.loadDialect<HkgDialect, func::FuncDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
      %0 = hkg.softmax %x axis(0) : tensor<8xf32> -> tensor<8xf32>
      return %0 : tensor<8xf32>
    })mlir",
                                                             &ctx);
  ASSERT_TRUE(module);
  SoftmaxOp op;
  module->walk([&](SoftmaxOp s) { op = s; });
  ASSERT_TRUE(op);

  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    message = d.str();
    return success();
  });
  // TargetAttr::get skips the verifier that rejects unknown chips.
  (*module)->setAttr("hkg.target", TargetAttr::get(&ctx, "gfx9999"));
  EXPECT_TRUE(failed(getTargetFor(op, "")));
  EXPECT_NE(message.find("unknown chip 'gfx9999' in 'hkg.target'"),
            std::string::npos)
      << message;

  (*module)->setAttr("hkg.target", TargetAttr::get(&ctx, "gfx942"));
  FailureOr<const TargetInfo *> t = getTargetFor(op, "");
  ASSERT_TRUE(succeeded(t));
  EXPECT_EQ((*t)->chip, "gfx942");
  // The chip option wins over the attribute.
  t = getTargetFor(op, "sm_90");
  ASSERT_TRUE(succeeded(t));
  EXPECT_EQ((*t)->chip, "sm_90");
}
