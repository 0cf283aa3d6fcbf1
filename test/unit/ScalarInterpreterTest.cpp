//===- ScalarInterpreterTest.cpp - element body interpreter --------------===//

#include "RuntimeTestUtils.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"
#include "hkg/Runtime/ScalarInterpreter.h"

#include <cmath>

using namespace hkg::rt;
using namespace hkg::rt::testing;

/// Wraps an element body over `n` f32 inputs of shape [4] in a module.
static std::string elementwiseModule(llvm::StringRef argType,
                                     llvm::StringRef resultType,
                                     llvm::StringRef body, unsigned n = 1) {
  std::string args, operands, types, blockArgs;
  for (unsigned i = 0; i < n; ++i) {
    std::string sep = i ? ", " : "";
    args +=
        sep + "%a" + std::to_string(i) + ": tensor<4x" + argType.str() + ">";
    operands += sep + "%a" + std::to_string(i);
    types += sep + "tensor<4x" + argType.str() + ">";
    blockArgs += sep + "%x" + std::to_string(i) + ": " + argType.str();
  }
  return "func.func @ref(" + args + ") -> tensor<4x" + resultType.str() +
         "> {\n  %y = hkg.elementwise " + operands + " : " + types +
         " -> tensor<4x" + resultType.str() + "> {\n  ^bb0(" + blockArgs +
         "):\n" + body.str() + "\n  }\n  return %y : tensor<4x" +
         resultType.str() + ">\n}\n";
}

static llvm::Expected<ScalarProgram> compileBody(const ParsedOp &p) {
  auto op = llvm::cast<mlir::hkg::ElementwiseOp>(p.op);
  return ScalarProgram::compile(op.getBody().front());
}

TEST(ScalarInterpreterTest, GeluTanh) {
  ParsedOp p = parseOp(elementwiseModule("f32", "f32", R"(
    %c = arith.constant 0.7978845608 : f32
    %k = arith.constant 0.044715 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %x3 = arith.mulf %x0, %x0 : f32
    %x3b = arith.mulf %x3, %x0 : f32
    %t = math.fma %k, %x3b, %x0 : f32
    %u = arith.mulf %c, %t : f32
    %th = math.tanh %u : f32
    %s = arith.addf %one, %th : f32
    %h = arith.mulf %half, %x0 : f32
    %r = arith.mulf %h, %s : f32
    hkg.yield %r : f32)"));
  ASSERT_TRUE(p.op);
  auto program = compileBody(p);
  ASSERT_TRUE(static_cast<bool>(program))
      << llvm::toString(program.takeError());
  EXPECT_FALSE(program->needsPositiveInputs());
  for (double x : {-3.0, -1.0, 0.0, 0.5, 2.0}) {
    double c = 0.7978845608, k = 0.044715;
    double expected = 0.5 * x * (1 + std::tanh(c * (x + k * x * x * x)));
    EXPECT_NEAR(program->evaluate({x}), expected, 1e-7) << "x = " << x;
  }
  EXPECT_EQ(program->evaluate({0.0}), 0.0);
}

TEST(ScalarInterpreterTest, ReluWithCmpfSelectAndMaximumf) {
  ParsedOp p = parseOp(elementwiseModule("f32", "f32", R"(
    %zero = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %x0, %zero : f32
    %r = arith.select %pos, %x0, %zero : f32
    %m = arith.maximumf %r, %x1 : f32
    hkg.yield %m : f32)",
                                         2));
  ASSERT_TRUE(p.op);
  auto program = compileBody(p);
  ASSERT_TRUE(static_cast<bool>(program))
      << llvm::toString(program.takeError());
  EXPECT_EQ(program->evaluate({-2.0, -5.0}), 0.0);
  EXPECT_EQ(program->evaluate({3.0, -5.0}), 3.0);
  EXPECT_EQ(program->evaluate({3.0, 4.0}), 4.0);
  EXPECT_TRUE(std::isnan(program->evaluate({3.0, NAN}))); // maximumf: NaN wins.
}

TEST(ScalarInterpreterTest, MaxnumIgnoresNaN) {
  ParsedOp p = parseOp(elementwiseModule("f32", "f32", R"(
    %m = arith.maxnumf %x0, %x1 : f32
    hkg.yield %m : f32)",
                                         2));
  ASSERT_TRUE(p.op);
  auto program = compileBody(p);
  ASSERT_TRUE(static_cast<bool>(program))
      << llvm::toString(program.takeError());
  EXPECT_EQ(program->evaluate({NAN, 2.0}), 2.0);
}

TEST(ScalarInterpreterTest, TruncfRoundsToBf16) {
  ParsedOp p = parseOp(elementwiseModule("bf16", "bf16", R"(
    %e = arith.extf %x0 : bf16 to f32
    %d = arith.constant 0.001 : f32
    %s = arith.addf %e, %d : f32
    %r = arith.truncf %s : f32 to bf16
    hkg.yield %r : bf16)"));
  ASSERT_TRUE(p.op);
  auto program = compileBody(p);
  ASSERT_TRUE(static_cast<bool>(program))
      << llvm::toString(program.takeError());
  // 1.001 is not a bf16 value: it rounds back to 1.0 (bf16 spacing 2^-7).
  EXPECT_EQ(program->evaluate({1.0}), 1.0);
  // 1.005 + 0.001: nearest bf16 is 1.0078125.
  EXPECT_EQ(program->evaluate({1.005}), 1.0078125);
}

TEST(ScalarInterpreterTest, LogMarksPositiveDomain) {
  ParsedOp p = parseOp(elementwiseModule("f32", "f32", R"(
    %l = math.log %x0 : f32
    %s = math.sqrt %l : f32
    hkg.yield %s : f32)"));
  ASSERT_TRUE(p.op);
  auto program = compileBody(p);
  ASSERT_TRUE(static_cast<bool>(program))
      << llvm::toString(program.takeError());
  EXPECT_TRUE(program->needsPositiveInputs());
  EXPECT_NEAR(program->evaluate({std::exp(4.0)}), 2.0, 1e-12);
}

TEST(ScalarInterpreterTest, UnsupportedOpIsNamed) {
  ParsedOp p = parseOp(elementwiseModule("f32", "f32", R"(
    %i = arith.fptosi %x0 : f32 to i32
    %j = math.ctlz %i : i32
    %r = arith.sitofp %j : i32 to f32
    hkg.yield %r : f32)"));
  ASSERT_TRUE(p.op);
  auto program = compileBody(p);
  ASSERT_FALSE(static_cast<bool>(program));
  std::string message = llvm::toString(program.takeError());
  EXPECT_NE(message.find("unsupported op 'math.ctlz'"), std::string::npos)
      << message;
  EXPECT_NE(message.find("arith.addf"), std::string::npos) << message;
}

TEST(ScalarInterpreterTest, IntegersWrapToTheirWidth) {
  ParsedOp p = parseOp(elementwiseModule("i8", "i8", R"(
    %c = arith.constant 100 : i8
    %s = arith.addi %x0, %c : i8
    hkg.yield %s : i8)"));
  ASSERT_TRUE(p.op);
  auto program = compileBody(p);
  ASSERT_TRUE(static_cast<bool>(program))
      << llvm::toString(program.takeError());
  EXPECT_EQ(program->evaluate({27}), 127);
  EXPECT_EQ(program->evaluate({28}), -128); // wraps like the device's i8
  EXPECT_EQ(program->evaluate({-100}), 0);
}

TEST(ScalarInterpreterTest, UnsignedOpsReadTheOperandWidth) {
  ParsedOp p = parseOp(elementwiseModule("i8", "f32", R"(
    %c2 = arith.constant 2 : i8
    %d = arith.divui %x0, %c2 : i8
    %m = arith.maxui %d, %x0 : i8
    %f = arith.uitofp %m : i8 to f32
    hkg.yield %f : f32)"));
  ASSERT_TRUE(p.op);
  auto program = compileBody(p);
  ASSERT_TRUE(static_cast<bool>(program))
      << llvm::toString(program.takeError());
  // -2 as u8 is 254: 254 / 2 = 127, max_u(127, 254) = 254.
  EXPECT_EQ(program->evaluate({-2}), 254);
  EXPECT_EQ(program->evaluate({6}), 6);
}

TEST(ScalarInterpreterTest, SignedShiftsCompareAndI1) {
  ParsedOp p = parseOp(elementwiseModule("i32", "f32", R"(
    %c1 = arith.constant 1 : i32
    %h = arith.shrsi %x0, %c1 : i32
    %u = arith.shrui %x0, %c1 : i32
    %lt = arith.cmpi slt, %h, %u : i32
    %one = arith.constant 1.0 : f32
    %mone = arith.sitofp %lt : i1 to f32
    %f = arith.sitofp %h : i32 to f32
    %r = arith.addf %f, %mone : f32
    hkg.yield %r : f32)"));
  ASSERT_TRUE(p.op);
  auto program = compileBody(p);
  ASSERT_TRUE(static_cast<bool>(program))
      << llvm::toString(program.takeError());
  // -8 >>s 1 = -4; -8 >>u 1 = 2147483644: -4 < that, so i1 true, whose
  // sitofp is -1: -4 + -1.
  EXPECT_EQ(program->evaluate({-8}), -5);
  // 8: 4 == 4, false: 4 + 0.
  EXPECT_EQ(program->evaluate({8}), 4);
}

TEST(ScalarInterpreterTest, IndexReadsTheElementIndex) {
  ParsedOp p = parseOp(elementwiseModule("f32", "f32", R"(
    %i = hkg.index 0
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %r = arith.addf %x0, %f : f32
    hkg.yield %r : f32)"));
  ASSERT_TRUE(p.op);
  auto program = compileBody(p);
  ASSERT_TRUE(static_cast<bool>(program))
      << llvm::toString(program.takeError());
  EXPECT_TRUE(program->readsIndex());
  int64_t index[] = {3};
  EXPECT_EQ(program->evaluate({0.5}, index), 3.5);
}
