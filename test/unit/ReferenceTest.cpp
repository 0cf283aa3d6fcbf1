//===- ReferenceTest.cpp - host references against hand-computed cases ---===//

#include "RuntimeTestUtils.h"

#include "hkg/Runtime/Check.h"
#include "hkg/Runtime/Models/Sampling.h"

#include <array>
#include <cmath>
#include <string>

using namespace hkg::rt;
using namespace hkg::rt::testing;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::Pointwise;

static auto near(std::vector<double> expected, double tol = 1e-12) {
  return Pointwise(DoubleNear(tol), expected);
}

TEST(ReferenceTest, Matmul) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
      %c = hkg.matmul %a, %b : tensor<2x3xf32>, tensor<3x2xf32> -> tensor<2x2xf32>
      return %c : tensor<2x2xf32>
    })");
  HostTensor a = makeTensor(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor b = makeTensor(DType::F32, {3, 2}, {7, 8, 9, 10, 11, 12});
  // [1 2 3; 4 5 6] x [7 8; 9 10; 11 12] = [58 64; 139 154]
  EXPECT_THAT(evaluate(p, {a, b}), ElementsAre(58, 64, 139, 154));
}

// 8-bit operands: the reference multiplies the exact values the codes hold
// (fp8 decoded, i8 as integers), an fp8 matmul with per-tensor and
// per-column scales in its epilogue, an i8 one to exact i32 sums and,
// through an i32 accumulator, to floats.
TEST(ReferenceTest, MatmulFp8WithScales) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%a: tensor<2x3xf8E4M3FN>, %b: tensor<2x3xf8E4M3FN>, %s: tensor<f32>, %w: tensor<1x2xf32>) -> tensor<2x2xf32> {
      %c = hkg.matmul %a, %b epilogue(%s, %w : tensor<f32>, tensor<1x2xf32>) {transpose_b}
          : tensor<2x3xf8E4M3FN>, tensor<2x3xf8E4M3FN> -> tensor<2x2xf32> {
      ^bb0(%acc: f32, %t: f32, %x: f32):
        %m = arith.mulf %acc, %t : f32
        %r = arith.mulf %m, %x : f32
        hkg.yield %r : f32
      }
      return %c : tensor<2x2xf32>
    })");
  // 0.3 is held as 0.3125 (e4m3: 1.25 x 2^-2), 448 exactly.
  HostTensor a = makeTensor(DType::F8E4M3FN, {2, 3}, {1, 0.3, -2, 448, 0, 1});
  HostTensor b = makeTensor(DType::F8E4M3FN, {2, 3}, {1, 2, 0.5, -1, 1, 0.25});
  HostTensor s = makeTensor(DType::F32, {}, {0.5});
  HostTensor w = makeTensor(DType::F32, {1, 2}, {2, -4});
  // A B^T = [1 + 0.625 - 1, -1 + 0.3125 - 0.5; 448 + 0.5, -448 + 0.25]
  //       = [0.625, -1.1875; 448.5, -447.75], times 0.5 and [2, -4].
  EXPECT_THAT(evaluate(p, {a, b, s, w}),
              ElementsAre(0.625, 2.375, 448.5, 895.5));
}

TEST(ReferenceTest, MatmulInt8) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%a: tensor<2x2xi8>, %b: tensor<2x2xi8>) -> tensor<2x2xi32> {
      %c = hkg.matmul %a, %b : tensor<2x2xi8>, tensor<2x2xi8> -> tensor<2x2xi32>
      return %c : tensor<2x2xi32>
    })");
  HostTensor a = makeTensor(DType::I8, {2, 2}, {127, -128, 3, -7});
  HostTensor b = makeTensor(DType::I8, {2, 2}, {-128, 2, 127, 5});
  // [127 -128; 3 -7] x [-128 2; 127 5] = [-32512, -386; -1273, -29].
  EXPECT_THAT(evaluate(p, {a, b}), ElementsAre(-32512, -386, -1273, -29));
}

TEST(ReferenceTest, MatmulInt8DequantizedInTheEpilogue) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%a: tensor<2x2xi8>, %b: tensor<2x2xi8>, %s: tensor<2x1xf32>) -> tensor<2x2xf32> {
      %d = hkg.matmul %a, %b epilogue(%s : tensor<2x1xf32>)
          : tensor<2x2xi8>, tensor<2x2xi8> -> tensor<2x2xf32> {
      ^bb0(%acc: i32, %x: f32):
        %f = arith.sitofp %acc : i32 to f32
        %r = arith.mulf %f, %x : f32
        hkg.yield %r : f32
      }
      return %d : tensor<2x2xf32>
    })");
  HostTensor a = makeTensor(DType::I8, {2, 2}, {127, -128, 3, -7});
  HostTensor b = makeTensor(DType::I8, {2, 2}, {-128, 2, 127, 5});
  HostTensor s = makeTensor(DType::F32, {2, 1}, {0.5, -2});
  EXPECT_THAT(evaluate(p, {a, b, s}), ElementsAre(-16256, -193, 2546, 58));
}

TEST(ReferenceTest, MatmulPerRowEpilogue) {
  // A per-row scale of a square result, said by its map.
  ParsedOp p = parseOp(R"(
    func.func @ref(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %s: tensor<2xf32>) -> tensor<2x2xf32> {
      %c = hkg.matmul %a, %b epilogue(%s : tensor<2xf32>)
          {indexing_maps = [affine_map<(d0, d1) -> (d0)>]}
          : tensor<2x3xf32>, tensor<3x2xf32> -> tensor<2x2xf32> {
      ^bb0(%acc: f32, %v: f32):
        %m = arith.mulf %acc, %v : f32
        hkg.yield %m : f32
      }
      return %c : tensor<2x2xf32>
    })");
  HostTensor a = makeTensor(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor b = makeTensor(DType::F32, {3, 2}, {7, 8, 9, 10, 11, 12});
  HostTensor s = makeTensor(DType::F32, {2}, {2, -1});
  // [58 64; 139 154] with row 0 doubled and row 1 negated.
  EXPECT_THAT(evaluate(p, {a, b, s}), ElementsAre(116, 128, -139, -154));
}

TEST(ReferenceTest, MatmulTransposedBatchedWithBiasEpilogue) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%a: tensor<2x3x2xf32>, %b: tensor<2x2x3xf32>, %bias: tensor<1x1x2xf32>) -> tensor<2x2x2xf32> {
      %c = hkg.matmul %a, %b epilogue(%bias : tensor<1x1x2xf32>) {transpose_a, transpose_b}
          : tensor<2x3x2xf32>, tensor<2x2x3xf32> -> tensor<2x2x2xf32> {
      ^bb0(%acc: f32, %x: f32):
        %s = arith.addf %acc, %x : f32
        hkg.yield %s : f32
      }
      return %c : tensor<2x2x2xf32>
    })");
  // Batch 0: A^T = [1 2 3; 4 5 6] (stored as [[1 4] [2 5] [3 6]]),
  //          B^T = [7 8; 9 10; 11 12] (stored as [[7 9 11] [8 10 12]]).
  // Batch 1: A^T = identity-ish [1 0 0; 0 1 0], B^T = [1 2; 3 4; 5 6].
  HostTensor a = makeTensor(DType::F32, {2, 3, 2},
                            {1, 4, 2, 5, 3, 6, /*b1*/ 1, 0, 0, 1, 0, 0});
  HostTensor b = makeTensor(DType::F32, {2, 2, 3},
                            {7, 9, 11, 8, 10, 12, /*b1*/ 1, 3, 5, 2, 4, 6});
  HostTensor bias = makeTensor(DType::F32, {1, 1, 2}, {0.5, -1});
  EXPECT_THAT(evaluate(p, {a, b, bias}),
              ElementsAre(58.5, 63, 139.5, 153, /*b1*/ 1.5, 1, 3.5, 3));
}

// W given as [N, K] (transpose_b) gives the same bits as W as [K, N]: the
// two layouts sum each output over k in the same order (N = 11: a block of
// eight outputs and a tail of three).
TEST(ReferenceTest, MatmulTransposedBSameBitsAsPlain) {
  ParsedOp plain = parseOp(R"(
    func.func @ref(%a: tensor<5x37xf32>, %b: tensor<37x11xf32>) -> tensor<5x11xf32> {
      %c = hkg.matmul %a, %b : tensor<5x37xf32>, tensor<37x11xf32> -> tensor<5x11xf32>
      return %c : tensor<5x11xf32>
    })");
  ParsedOp transposed = parseOp(R"(
    func.func @ref(%a: tensor<5x37xf32>, %b: tensor<11x37xf32>) -> tensor<5x11xf32> {
      %c = hkg.matmul %a, %b {transpose_b} : tensor<5x37xf32>, tensor<11x37xf32> -> tensor<5x11xf32>
      return %c : tensor<5x11xf32>
    })");
  HostTensor a(DType::F32, {5, 37}), b(DType::F32, {37, 11}),
      bt(DType::F32, {11, 37});
  for (int i = 0; i < 5 * 37; ++i)
    a.set(i, std::sin(0.37 * i) * 3.1);
  for (int kk = 0; kk < 37; ++kk)
    for (int j = 0; j < 11; ++j) {
      double v = std::cos(0.11 * (kk * 11 + j)) * 1.7 + 1e-3 * j;
      b.set(kk * 11 + j, v);
      bt.set(j * 37 + kk, v);
    }
  std::vector<double> expected = evaluate(plain, {a, b});
  std::vector<double> got = evaluate(transposed, {a, bt});
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i], expected[i]) << "element " << i;
}

TEST(ReferenceTest, MatmulRowSubsetWhenBounded) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%a: tensor<8x2xf32>, %b: tensor<2x2xf32>) -> tensor<8x2xf32> {
      %c = hkg.matmul %a, %b : tensor<8x2xf32>, tensor<2x2xf32> -> tensor<8x2xf32>
      return %c : tensor<8x2xf32>
    })");
  HostTensor a(DType::F32, {8, 2}), b(DType::F32, {2, 2});
  for (int i = 0; i < 16; ++i)
    a.set(i, i);
  for (int i = 0; i < 4; ++i)
    b.set(i, i == 0 || i == 3); // identity
  ReferenceOptions options;
  options.maxMultiplyAdds = 3 * 2 * 2; // three rows of 2x2 multiply-adds
  auto r = evaluateReference(p.op, {a, b}, options);
  ASSERT_TRUE(static_cast<bool>(r)) << llvm::toString(r.takeError());
  // Rows 0, 3 and 7 are computed (an even spread, first and last included).
  std::vector<bool> expectedRows = {1, 0, 0, 1, 0, 0, 0, 1};
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(r->outputs[0].isComputed(i), expectedRows[i / 2])
        << "element " << i;
    if (r->outputs[0].isComputed(i))
      EXPECT_EQ(r->outputs[0].tensor.get(i), i);
  }
}

TEST(ReferenceTest, ElementwiseBroadcastsSuffixInputs) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%x: tensor<2x3xf16>, %b: tensor<3xf16>) -> tensor<2x3xf32> {
      %y = hkg.elementwise %x, %b : tensor<2x3xf16>, tensor<3xf16> -> tensor<2x3xf32> {
      ^bb0(%a: f16, %c: f16):
        %af = arith.extf %a : f16 to f32
        %cf = arith.extf %c : f16 to f32
        %s = arith.mulf %af, %cf : f32
        hkg.yield %s : f32
      }
      return %y : tensor<2x3xf32>
    })");
  HostTensor x = makeTensor(DType::F16, {2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor b = makeTensor(DType::F16, {3}, {10, 100, 0.5});
  EXPECT_THAT(evaluate(p, {x, b}), ElementsAre(10, 200, 1.5, 40, 500, 3));
}

TEST(ReferenceTest, ElementwisePerRowAndTransposedMaps) {
  // A square [2, 2] result: the [2] input is read per row, the second
  // [2, 2] input transposed.
  ParsedOp p = parseOp(R"(
    func.func @ref(%x: tensor<2x2xf32>, %s: tensor<2xf32>, %t: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %y = hkg.elementwise %x, %s, %t {indexing_maps = [
          affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
          affine_map<(d0, d1) -> (d1, d0)>]}
          : tensor<2x2xf32>, tensor<2xf32>, tensor<2x2xf32> -> tensor<2x2xf32> {
      ^bb0(%a: f32, %b: f32, %c: f32):
        %m = arith.mulf %a, %b : f32
        %r = arith.addf %m, %c : f32
        hkg.yield %r : f32
      }
      return %y : tensor<2x2xf32>
    })");
  HostTensor x = makeTensor(DType::F32, {2, 2}, {1, 2, 3, 4});
  HostTensor s = makeTensor(DType::F32, {2}, {10, 100});
  HostTensor t = makeTensor(DType::F32, {2, 2}, {0.5, 0.25, 0.125, 0.0625});
  // y[i][j] = x[i][j] * s[i] + t[j][i]
  EXPECT_THAT(evaluate(p, {x, s, t}),
              ElementsAre(10.5, 20.125, 300.25, 400.0625));
}

TEST(ReferenceTest, ElementwiseIndexAndPackedInts) {
  // Unpacks the low / high nibble of each i8 by column parity, masked to
  // the lower triangle by hkg.index.
  ParsedOp p = parseOp(R"(
    func.func @ref(%p: tensor<2x3xi8>) -> tensor<2x3xi32> {
      %y = hkg.elementwise %p : tensor<2x3xi8> -> tensor<2x3xi32> {
      ^bb0(%a: i8):
        %r = hkg.index 0
        %c = hkg.index 1
        %c1 = arith.constant 1 : index
        %odd = arith.andi %c, %c1 : index
        %oddi = arith.index_cast %odd : index to i8
        %c4 = arith.constant 4 : i8
        %sh = arith.muli %oddi, %c4 : i8
        %n = arith.shrui %a, %sh : i8
        %c15 = arith.constant 15 : i8
        %nib = arith.andi %n, %c15 : i8
        %w = arith.extui %nib : i8 to i32
        %keep = arith.cmpi ule, %c, %r : index
        %zero = arith.constant 0 : i32
        %o = arith.select %keep, %w, %zero : i32
        hkg.yield %o : i32
      }
      return %y : tensor<2x3xi32>
    })");
  // 0xA7 is -89 as an i8: low nibble 7, high nibble 10.
  HostTensor packed =
      makeTensor(DType::I8, {2, 3}, {-89, -89, -89, -89, -89, -89});
  EXPECT_THAT(evaluate(p, {packed}), ElementsAre(7, 0, 0, 7, 10, 0));
}

TEST(ReferenceTest, ElementwiseRankZero) {
  // A rank-0 result is one element; a rank-0 input broadcasts into any
  // result.
  ParsedOp scalar = parseOp(R"(
    func.func @ref(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
      %z = hkg.elementwise %x, %y : tensor<f32>, tensor<f32> -> tensor<f32> {
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        hkg.yield %s : f32
      }
      return %z : tensor<f32>
    })");
  HostTensor x = makeTensor(DType::F32, {}, {1.5});
  HostTensor y = makeTensor(DType::F32, {}, {-4});
  EXPECT_THAT(evaluate(scalar, {x, y}), ElementsAre(-2.5));
  ParsedOp broadcast = parseOp(R"(
    func.func @ref(%x: tensor<f32>, %y: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %z = hkg.elementwise %x, %y : tensor<f32>, tensor<2x2xf32> -> tensor<2x2xf32> {
      ^bb0(%a: f32, %b: f32):
        %s = arith.mulf %a, %b : f32
        hkg.yield %s : f32
      }
      return %z : tensor<2x2xf32>
    })");
  HostTensor m = makeTensor(DType::F32, {2, 2}, {1, 2, 3, 4});
  EXPECT_THAT(evaluate(broadcast, {x, m}), ElementsAre(1.5, 3, 4.5, 6));
}

TEST(ReferenceTest, Reduce) {
  ParsedOp sum = parseOp(R"(
    func.func @ref(%x: tensor<2x2x2xf32>) -> tensor<2xf32> {
      %s = hkg.reduce sum %x axes = [1, 2] : tensor<2x2x2xf32> -> tensor<2xf32>
      return %s : tensor<2xf32>
    })");
  HostTensor x = makeTensor(DType::F32, {2, 2, 2}, {1, 2, 3, 4, -1, -2, 8, 0});
  EXPECT_THAT(evaluate(sum, {x}), ElementsAre(10, 5));
  ParsedOp max = parseOp(R"(
    func.func @ref(%x: tensor<2x2x2xf32>) -> tensor<2x2xf32> {
      %s = hkg.reduce max %x axes = [2] : tensor<2x2x2xf32> -> tensor<2x2xf32>
      return %s : tensor<2x2xf32>
    })");
  EXPECT_THAT(evaluate(max, {x}), ElementsAre(2, 4, -1, 8));
}

TEST(ReferenceTest, ReduceEveryDimToRankZero) {
  ParsedOp sum = parseOp(R"(
    func.func @ref(%x: tensor<2x3xf32>) -> tensor<f32> {
      %s = hkg.reduce sum %x axes = [0, 1] : tensor<2x3xf32> -> tensor<f32>
      return %s : tensor<f32>
    })");
  HostTensor x = makeTensor(DType::F32, {2, 3}, {1, 2, 3, 4, 5, -6});
  EXPECT_THAT(evaluate(sum, {x}), ElementsAre(9));
  ParsedOp argmax = parseOp(R"(
    func.func @ref(%x: tensor<6xf32>) -> tensor<i64> {
      %s = hkg.reduce argmax %x axes = [0] : tensor<6xf32> -> tensor<i64>
      return %s : tensor<i64>
    })");
  HostTensor v = makeTensor(DType::F32, {6}, {1, 2, 3, 4, 5, -6});
  EXPECT_THAT(evaluate(argmax, {v}), ElementsAre(4));
}

TEST(ReferenceTest, ReduceMiddleAndLeadingAxes) {
  // [2, 3, 2]: sum over the middle axis, keeping it; max over the first.
  ParsedOp middle = parseOp(R"(
    func.func @ref(%x: tensor<2x3x2xf32>) -> tensor<2x1x2xf32> {
      %s = hkg.reduce sum %x axes = [1] : tensor<2x3x2xf32> -> tensor<2x1x2xf32>
      return %s : tensor<2x1x2xf32>
    })");
  HostTensor x = makeTensor(DType::F32, {2, 3, 2},
                            {1, 2, 3, 4, 5, 6, /*o1*/ 10, 20, 30, 40, 50, 60});
  EXPECT_THAT(evaluate(middle, {x}), ElementsAre(9, 12, 90, 120));
  ParsedOp leading = parseOp(R"(
    func.func @ref(%x: tensor<2x3x2xf32>) -> tensor<3x2xf32> {
      %s = hkg.reduce max %x axes = [0] : tensor<2x3x2xf32> -> tensor<3x2xf32>
      return %s : tensor<3x2xf32>
    })");
  HostTensor y = makeTensor(DType::F32, {2, 3, 2},
                            {1, -2, 3, 4, 5, 6, /*o1*/ -1, 0, 7, 1, -5, 9});
  EXPECT_THAT(evaluate(leading, {y}), ElementsAre(1, 0, 7, 4, 5, 9));
}

TEST(ReferenceTest, ReduceArgmaxArgmin) {
  // Ties go to the first position; a NaN beats every number, for argmin
  // too (PyTorch).
  ParsedOp argmax = parseOp(R"(
    func.func @ref(%x: tensor<3x4xf32>) -> tensor<3xi64> {
      %s = hkg.reduce argmax %x axes = [1] : tensor<3x4xf32> -> tensor<3xi64>
      return %s : tensor<3xi64>
    })");
  double nan = std::nan("");
  HostTensor x = makeTensor(DType::F32, {3, 4},
                            {1, 5, 5, 2, /*r1*/ -1, nan, 7, nan,
                             /*r2*/ -3, -3, -3, -3});
  EXPECT_THAT(evaluate(argmax, {x}), ElementsAre(1, 1, 0));
  ParsedOp argmin = parseOp(R"(
    func.func @ref(%x: tensor<3x4xf32>) -> tensor<4xi32> {
      %s = hkg.reduce argmin %x axes = [0] : tensor<3x4xf32> -> tensor<4xi32>
      return %s : tensor<4xi32>
    })");
  EXPECT_THAT(evaluate(argmin, {x}), ElementsAre(2, 1, 2, 1));
}

TEST(ReferenceTest, ReduceLogSumExpAndCrossEntropy) {
  ParsedOp lse = parseOp(R"(
    func.func @ref(%x: tensor<2x2xf32>) -> tensor<2xf32> {
      %s = hkg.reduce logsumexp %x axes = [1] : tensor<2x2xf32> -> tensor<2xf32>
      return %s : tensor<2xf32>
    })");
  double ln2 = std::log(2.0);
  // log(e^0 + e^ln2) = log 3; log(2 e^1000) = 1000 + log 2 (no overflow).
  HostTensor x = makeTensor(DType::F32, {2, 2}, {0, ln2, 1000, 1000});
  EXPECT_THAT(evaluate(lse, {x}), near({std::log(3.0), 1000 + ln2}, 1e-7));
  // logsumexp(x) - x[target] per row.
  ParsedOp ce = parseOp(R"(
    func.func @ref(%x: tensor<2x2xf32>, %t: tensor<2xi64>) -> tensor<2xf32> {
      %s = hkg.reduce logsumexp, sum %x ins(%t : tensor<2xi64>) axes = [1]
          {indexing_maps = [affine_map<(d0, d1) -> (d0)>]}
          : tensor<2x2xf32> -> tensor<2xf32>
        prologue {
        ^bb0(%v: f32, %tg: i64):
          %j = hkg.index 1
          %ji = arith.index_cast %j : index to i64
          %hit = arith.cmpi eq, %ji, %tg : i64
          %zero = arith.constant 0.0 : f32
          %pick = arith.select %hit, %v, %zero : f32
          hkg.yield %v, %pick : f32, f32
        } epilogue {
        ^bb0(%l: f32, %p: f32):
          %r = arith.subf %l, %p : f32
          hkg.yield %r : f32
        }
      return %s : tensor<2xf32>
    })");
  HostTensor t = makeTensor(DType::I64, {2}, {1, 0});
  EXPECT_THAT(evaluate(ce, {x, t}), near({std::log(3.0) - ln2, ln2}, 1e-7));
}

TEST(ReferenceTest, ReduceVarianceDownColumns) {
  // Two sums (x, x^2) down the middle axis, the variance in the epilogue.
  ParsedOp var = parseOp(R"(
    func.func @ref(%x: tensor<1x4x2xf32>) -> tensor<1x2xf32> {
      %s = hkg.reduce sum, sum %x axes = [1] : tensor<1x4x2xf32> -> tensor<1x2xf32>
        prologue {
        ^bb0(%v: f32):
          %q = arith.mulf %v, %v : f32
          hkg.yield %v, %q : f32, f32
        } epilogue {
        ^bb0(%a: f32, %b: f32):
          %n = arith.constant 4.0 : f32
          %m = arith.divf %a, %n : f32
          %m2 = arith.divf %b, %n : f32
          %mm = arith.mulf %m, %m : f32
          %v = arith.subf %m2, %mm : f32
          hkg.yield %v : f32
        }
      return %s : tensor<1x2xf32>
    })");
  HostTensor x = makeTensor(DType::F32, {1, 4, 2}, {1, 0, 2, 0, 3, 5, 4, 5});
  // Column 0: 1..4, variance 1.25; column 1: 0, 0, 5, 5, variance 6.25.
  EXPECT_THAT(evaluate(var, {x}), near({1.25, 6.25}, 1e-12));
}

TEST(ReferenceTest, LogSoftmax) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %y = hkg.softmax log %x axis(0) : tensor<2x2xf32> -> tensor<2x2xf32>
      return %y : tensor<2x2xf32>
    })");
  double ln2 = std::log(2.0);
  // Down column 0: [0, ln 2] -> log [1/3, 2/3]; column 1: equal -> log 1/2.
  EXPECT_THAT(evaluate(p, {makeTensor(DType::F32, {2, 2}, {0, 5, ln2, 5})}),
              near({std::log(1.0 / 3), -ln2, std::log(2.0 / 3), -ln2}, 1e-7));
}

TEST(ReferenceTest, SoftmaxAnyAxis) {
  ParsedOp last = parseOp(R"(
    func.func @ref(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %y = hkg.softmax %x axis(1) : tensor<2x2xf32> -> tensor<2x2xf32>
      return %y : tensor<2x2xf32>
    })");
  double ln2 = std::log(2.0);
  // Softmax over [0, ln 2] is [1/3, 2/3]; over equal values, [1/2, 1/2].
  EXPECT_THAT(evaluate(last, {makeTensor(DType::F32, {2, 2}, {0, ln2, 5, 5})}),
              near({1.0 / 3, 2.0 / 3, 0.5, 0.5}, 1e-7));
  ParsedOp first = parseOp(R"(
    func.func @ref(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %y = hkg.softmax %x axis(0) : tensor<2x2xf32> -> tensor<2x2xf32>
      return %y : tensor<2x2xf32>
    })");
  // Columns [0, 5] and [ln 2, 5].
  double e5 = std::exp(5.0);
  EXPECT_THAT(
      evaluate(first, {makeTensor(DType::F32, {2, 2}, {0, ln2, 5, 5})}),
      near({1 / (1 + e5), 2 / (2 + e5), e5 / (1 + e5), e5 / (2 + e5)}, 1e-7));
}

TEST(ReferenceTest, LayerNormWithWeightAndBias) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%x: tensor<1x4xf32>, %w: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<1x4xf32> {
      %y = hkg.layernorm %x weight(%w : tensor<4xf32>) bias(%b : tensor<4xf32>) eps(1.0e-20)
          : tensor<1x4xf32> -> tensor<1x4xf32>
      return %y : tensor<1x4xf32>
    })");
  // [1 2 3 4]: mean 2.5, variance 1.25.
  double s = 1 / std::sqrt(1.25);
  EXPECT_THAT(evaluate(p, {makeTensor(DType::F32, {1, 4}, {1, 2, 3, 4}),
                           makeTensor(DType::F32, {4}, {1, 1, 2, 2}),
                           makeTensor(DType::F32, {4}, {0, 1, 0, 1})}),
              near({-1.5 * s, -0.5 * s + 1, 0.5 * s * 2, 1.5 * s * 2 + 1}));
}

TEST(ReferenceTest, LayerNormWithoutAffine) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %y = hkg.layernorm %x eps(1.0e-20) : tensor<2x2xf32> -> tensor<2x2xf32>
      return %y : tensor<2x2xf32>
    })");
  EXPECT_THAT(evaluate(p, {makeTensor(DType::F32, {2, 2}, {1, 3, -2, 6})}),
              near({-1, 1, -1, 1}));
}

TEST(ReferenceTest, RMSNorm) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%x: tensor<1x2xf32>, %w: tensor<2xf32>) -> tensor<1x2xf32> {
      %y = hkg.rmsnorm %x weight(%w : tensor<2xf32>) eps(1.0e-20) : tensor<1x2xf32> -> tensor<1x2xf32>
      return %y : tensor<1x2xf32>
    })");
  // [3 4]: mean square 12.5.
  double r = std::sqrt(12.5);
  EXPECT_THAT(evaluate(p, {makeTensor(DType::F32, {1, 2}, {3, 4}),
                           makeTensor(DType::F32, {2}, {1, 2})}),
              near({3 / r, 8 / r}));
}

TEST(ReferenceTest, RMSNormWithoutWeightOverAnInnerAxis) {
  // Over axis 0 of [2, 2]: each column normalized on its own.
  ParsedOp p = parseOp(R"(
    func.func @ref(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %y = hkg.rmsnorm %x axes = [0] eps(1.0e-20) : tensor<2x2xf32> -> tensor<2x2xf32>
      return %y : tensor<2x2xf32>
    })");
  // Columns [3 4] (mean square 12.5) and [1 1] (1).
  double r = std::sqrt(12.5);
  EXPECT_THAT(evaluate(p, {makeTensor(DType::F32, {2, 2}, {3, 1, 4, 1})}),
              near({3 / r, 1, 4 / r, 1}));
}

TEST(ReferenceTest, LayerNormOverTrailingAxesWithTheirShapedWeight) {
  // Over [2, 2] of [1, 2, 2]: one row of 4, the weight and bias at the
  // flat position.
  ParsedOp p = parseOp(R"(
    func.func @ref(%x: tensor<1x2x2xf32>, %w: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<1x2x2xf32> {
      %y = hkg.layernorm %x axes = [1, 2] weight(%w : tensor<2x2xf32>) bias(%b : tensor<2x2xf32>) eps(1.0e-20)
          : tensor<1x2x2xf32> -> tensor<1x2x2xf32>
      return %y : tensor<1x2x2xf32>
    })");
  // [1 2 3 4]: mean 2.5, variance 1.25.
  double r = 1 / std::sqrt(1.25);
  EXPECT_THAT(evaluate(p, {makeTensor(DType::F32, {1, 2, 2}, {1, 2, 3, 4}),
                           makeTensor(DType::F32, {2, 2}, {1, 2, 3, 4}),
                           makeTensor(DType::F32, {2, 2}, {0, 0, 0, 10})}),
              near({-1.5 * r, -0.5 * 2 * r, 0.5 * 3 * r, 1.5 * 4 * r + 10}));
}

TEST(ReferenceTest, LayerNormOverAnInnerAxisWeightFollowsTheAxis) {
  // Over the C = 2 channels of [1, 2, 3]: each of the 3 columns normalized
  // down C, the weight and bias indexed by the channel.
  ParsedOp p = parseOp(R"(
    func.func @ref(%x: tensor<1x2x3xf32>, %w: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<1x2x3xf32> {
      %y = hkg.layernorm %x axes = [1] weight(%w : tensor<2xf32>) bias(%b : tensor<2xf32>) eps(1.0e-20)
          : tensor<1x2x3xf32> -> tensor<1x2x3xf32>
      return %y : tensor<1x2x3xf32>
    })");
  // Columns (1, 3), (2, 6), (0, 10): each normalizes to (-1, 1).
  EXPECT_THAT(
      evaluate(p, {makeTensor(DType::F32, {1, 2, 3}, {1, 2, 0, 3, 6, 10}),
                   makeTensor(DType::F32, {2}, {2, 3}),
                   makeTensor(DType::F32, {2}, {100, 200})}),
      near({98, 98, 98, 203, 203, 203}));
}

static const char *ropeModule(bool neox) {
  return neox ? R"(
    func.func @ref(%x: tensor<1x1x1x4xf32>, %c: tensor<3x2xf32>, %s: tensor<3x2xf32>) -> tensor<1x1x1x4xf32> {
      %y = hkg.rope %x, %c, %s neox offset(2)
          : tensor<1x1x1x4xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<1x1x1x4xf32>
      return %y : tensor<1x1x1x4xf32>
    })"
              : R"(
    func.func @ref(%x: tensor<1x1x1x4xf32>, %c: tensor<3x2xf32>, %s: tensor<3x2xf32>) -> tensor<1x1x1x4xf32> {
      %y = hkg.rope %x, %c, %s gptj offset(2)
          : tensor<1x1x1x4xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<1x1x1x4xf32>
      return %y : tensor<1x1x1x4xf32>
    })";
}

TEST(ReferenceTest, RopeNeoxAndGptjWithOffset) {
  // Token 0 with offset 2 reads table row 2: pair 0 rotates by 90 degrees
  // (cos 0, sin 1), pair 1 by 180 degrees (cos -1, sin 0).
  HostTensor x = makeTensor(DType::F32, {1, 1, 1, 4}, {1, 2, 3, 4});
  HostTensor c = makeTensor(DType::F32, {3, 2}, {9, 9, 9, 9, 0, -1});
  HostTensor s = makeTensor(DType::F32, {3, 2}, {9, 9, 9, 9, 1, 0});
  // neox pairs (x0, x2) = (1, 3) and (x1, x3) = (2, 4):
  //   (1, 3) by 90 deg -> (-3, 1); (2, 4) by 180 deg -> (-2, -4).
  EXPECT_THAT(evaluate(parseOp(ropeModule(true)), {x, c, s}),
              ElementsAre(-3, -2, 1, -4));
  // gptj pairs (x0, x1) = (1, 2) and (x2, x3) = (3, 4):
  //   (1, 2) by 90 deg -> (-2, 1); (3, 4) by 180 deg -> (-3, -4).
  EXPECT_THAT(evaluate(parseOp(ropeModule(false)), {x, c, s}),
              ElementsAre(-2, 1, -3, -4));
}

/// A tensor of `shape` holding values from a fixed pseudo-random sequence in
/// [-1, 1), distinct per `seed`.
static HostTensor pseudoRandom(llvm::ArrayRef<int64_t> shape, unsigned seed) {
  HostTensor t(DType::F32, shape);
  uint32_t state = 2654435761u * (seed + 1);
  for (int64_t i = 0, e = t.getNumElements(); i < e; ++i) {
    state = state * 1664525u + 1013904223u;
    // 24 bits: exactly representable in f32.
    t.set(i, static_cast<double>(state >> 8) / (1 << 23) - 1.0);
  }
  return t;
}

/// hkg.rope of [2, 3, 2, 8] features with [5, width] tables and offset 1.
static std::string ropeSource(const std::string &layout, int64_t width) {
  std::string table = "tensor<5x" + std::to_string(width) + "xf32>";
  std::string x = "tensor<2x3x2x8xf32>";
  return "func.func @ref(%x: " + x + ", %c: " + table + ", %s: " + table +
         ") -> " + x + " {\n  %y = hkg.rope %x, %c, %s " + layout +
         " offset(1) : " + x + ", " + table + ", " + table + " -> " + x +
         "\n  return %y : " + x + "\n}";
}

TEST(ReferenceTest, RopeFullWidthEachOutputUsesItsOwnEntry) {
  // D = 4, one token, table row 1 (offset 1). neox pairs (x0, x2), (x1, x3):
  // out0 = x0 c0 - x2 s0, out2 = x2 c2 + x0 s2 (and likewise 1 and 3);
  // gptj pairs (x0, x1), (x2, x3): out0 = x0 c0 - x1 s0, out1 = x1 c1 +
  // x0 s1, ...
  auto source = [](const std::string &layout) {
    return R"(
    func.func @ref(%x: tensor<1x1x1x4xf32>, %c: tensor<2x4xf32>, %s: tensor<2x4xf32>) -> tensor<1x1x1x4xf32> {
      %y = hkg.rope %x, %c, %s )" +
           layout + R"( offset(1)
          : tensor<1x1x1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32> -> tensor<1x1x1x4xf32>
      return %y : tensor<1x1x1x4xf32>
    })";
  };
  HostTensor x = makeTensor(DType::F32, {1, 1, 1, 4}, {1, 2, 3, 4});
  HostTensor c = makeTensor(DType::F32, {2, 4}, {9, 9, 9, 9, 1, 2, 3, 4});
  HostTensor s = makeTensor(DType::F32, {2, 4}, {9, 9, 9, 9, 5, 6, 7, 8});
  // neox: 1*1 - 3*5, 2*2 - 4*6, 3*3 + 1*7, 4*4 + 2*8.
  EXPECT_THAT(evaluate(parseOp(source("neox")), {x, c, s}),
              ElementsAre(-14, -20, 16, 32));
  // gptj: 1*1 - 2*5, 2*2 + 1*6, 3*3 - 4*7, 4*4 + 3*8.
  EXPECT_THAT(evaluate(parseOp(source("gptj")), {x, c, s}),
              ElementsAre(-9, 10, -19, 40));
}

TEST(ReferenceTest, RopeFullWidthEqualsHalfWidthOnDuplicatedTables) {
  // [P, D/2] tables widened to [P, D] with each pair's entry at both of its
  // features' indices: cat(t, t) for neox (Hugging Face's layout), each
  // entry twice in a row for gptj.
  HostTensor x = pseudoRandom({2, 3, 2, 8}, 0);
  HostTensor c = pseudoRandom({5, 4}, 1), s = pseudoRandom({5, 4}, 2);
  for (bool neox : {true, false}) {
    HostTensor cFull(DType::F32, {5, 8}), sFull(DType::F32, {5, 8});
    for (int64_t p = 0; p < 5; ++p)
      for (int64_t e = 0; e < 8; ++e) {
        int64_t k = neox ? e % 4 : e / 2;
        cFull.set(p * 8 + e, c.get(p * 4 + k));
        sFull.set(p * 8 + e, s.get(p * 4 + k));
      }
    std::string layout = neox ? "neox" : "gptj";
    std::vector<double> half =
        evaluate(parseOp(ropeSource(layout, 4)), {x, c, s});
    std::vector<double> full =
        evaluate(parseOp(ropeSource(layout, 8)), {x, cFull, sFull});
    ASSERT_EQ(half.size(), 2u * 3 * 2 * 8) << layout;
    EXPECT_THAT(full, ElementsAreArray(half)) << layout;
  }
}

TEST(ReferenceTest, AttentionBshdEqualsBhsdOnTransposedData) {
  // GQA (4 query heads over 2), causal with Skv > Sq, D != Dv, two batches:
  // the bshd reference on [B, S, H, D] data is the bhsd reference on the
  // same data transposed, transposed back.
  const int64_t b = 2, hq = 4, hkv = 2, sq = 3, skv = 5, d = 4, dv = 3;
  auto tensorType = [](std::array<int64_t, 4> shape) {
    return "tensor<" + std::to_string(shape[0]) + "x" +
           std::to_string(shape[1]) + "x" + std::to_string(shape[2]) + "x" +
           std::to_string(shape[3]) + "xf32>";
  };
  auto source = [&](bool bshd) {
    auto shape = [&](int64_t h, int64_t len, int64_t dim) {
      return tensorType(bshd ? std::array<int64_t, 4>{b, len, h, dim}
                             : std::array<int64_t, 4>{b, h, len, dim});
    };
    std::string q = shape(hq, sq, d), k = shape(hkv, skv, d),
                v = shape(hkv, skv, dv), o = shape(hq, sq, dv);
    return "func.func @ref(%q: " + q + ", %k: " + k + ", %v: " + v + ") -> " +
           o + " {\n  %o = hkg.attention %q, %k, %v causal" +
           (bshd ? " layout(bshd)" : "") + " : " + q + ", " + k + ", " + v +
           " -> " + o + "\n  return %o : " + o + "\n}";
  };
  // Swaps dims 1 and 2 of a rank-4 tensor.
  auto transpose = [](const HostTensor &t) {
    llvm::ArrayRef<int64_t> in = t.getShape();
    HostTensor out(DType::F32, {in[0], in[2], in[1], in[3]});
    for (int64_t i0 = 0; i0 < in[0]; ++i0)
      for (int64_t i1 = 0; i1 < in[1]; ++i1)
        for (int64_t i2 = 0; i2 < in[2]; ++i2)
          for (int64_t i3 = 0; i3 < in[3]; ++i3)
            out.set(((i0 * in[2] + i2) * in[1] + i1) * in[3] + i3,
                    t.get(((i0 * in[1] + i1) * in[2] + i2) * in[3] + i3));
    return out;
  };
  HostTensor q = pseudoRandom({b, hq, sq, d}, 3),
             k = pseudoRandom({b, hkv, skv, d}, 4),
             v = pseudoRandom({b, hkv, skv, dv}, 5);
  std::vector<double> bhsd = evaluate(parseOp(source(false)), {q, k, v});
  std::vector<double> bshd = evaluate(
      parseOp(source(true)), {transpose(q), transpose(k), transpose(v)});
  ASSERT_EQ(bhsd.size(), static_cast<size_t>(b * hq * sq * dv));
  // The same sums in the same order: equal to the bit.
  std::vector<double> want(bhsd.size());
  for (int64_t bi = 0; bi < b; ++bi)
    for (int64_t h = 0; h < hq; ++h)
      for (int64_t i = 0; i < sq; ++i)
        for (int64_t c = 0; c < dv; ++c)
          want[((bi * sq + i) * hq + h) * dv + c] =
              bhsd[((bi * hq + h) * sq + i) * dv + c];
  EXPECT_THAT(bshd, ElementsAreArray(want));
}

TEST(ReferenceTest, AttentionCausalWithGroupedHeads) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%q: tensor<1x2x3x1xf32>, %k: tensor<1x1x3x1xf32>, %v: tensor<1x1x3x2xf32>) -> tensor<1x2x3x2xf32> {
      %o = hkg.attention %q, %k, %v causal
          : tensor<1x2x3x1xf32>, tensor<1x1x3x1xf32>, tensor<1x1x3x2xf32> -> tensor<1x2x3x2xf32>
      return %o : tensor<1x2x3x2xf32>
    })");
  // Head 0: q = 0, so scores are equal: row i averages v[0..i].
  // Head 1 shares the one kv head (GQA); q = [ln 2, 0, 0], k = [1, 1, 1]
  // (scale 1/sqrt(1)): row 0 sees only key 0; rows 1-2 have equal scores.
  double ln2 = std::log(2.0);
  HostTensor q = makeTensor(DType::F32, {1, 2, 3, 1}, {0, 0, 0, ln2, 0, 0});
  HostTensor k = makeTensor(DType::F32, {1, 1, 3, 1}, {1, 1, 1});
  HostTensor v = makeTensor(DType::F32, {1, 1, 3, 2}, {1, 10, 2, 20, 6, 60});
  EXPECT_THAT(
      evaluate(p, {q, k, v}),
      near({1, 10, 1.5, 15, 3, 30, /*h1*/ 1, 10, 1.5, 15, 3, 30}, 1e-6));
}

TEST(ReferenceTest, AttentionNonCausalScale) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%q: tensor<1x1x1x1xf32>, %k: tensor<1x1x2x1xf32>, %v: tensor<1x1x2x1xf32>) -> tensor<1x1x1x1xf32> {
      %o = hkg.attention %q, %k, %v scale(0.5)
          : tensor<1x1x1x1xf32>, tensor<1x1x2x1xf32>, tensor<1x1x2x1xf32> -> tensor<1x1x1x1xf32>
      return %o : tensor<1x1x1x1xf32>
    })");
  // Scores 0.5 * 2 * [0, ln 4] = [0, ln 4]: weights [1/5, 4/5].
  HostTensor q = makeTensor(DType::F32, {1, 1, 1, 1}, {2});
  HostTensor k = makeTensor(DType::F32, {1, 1, 2, 1}, {0, std::log(4.0)});
  HostTensor v = makeTensor(DType::F32, {1, 1, 2, 1}, {10, 20});
  EXPECT_THAT(evaluate(p, {q, k, v}), near({2 + 16}, 1e-5));
}

TEST(ReferenceTest, AttentionAdditiveMaskBroadcastWithCausal) {
  // A key-padding mask [B, 1, 1, Skv] per batch, with causal: query i sees
  // keys j <= i + 1 (Skv - Sq = 1) that the mask does not hide.
  ParsedOp p = parseOp(R"(
    func.func @ref(%q: tensor<2x1x2x1xf32>, %k: tensor<2x1x3x1xf32>, %v: tensor<2x1x3x1xf32>, %m: tensor<2x1x1x3xf32>) -> tensor<2x1x2x1xf32> {
      %o = hkg.attention %q, %k, %v mask(%m : tensor<2x1x1x3xf32>) causal
          : tensor<2x1x2x1xf32>, tensor<2x1x3x1xf32>, tensor<2x1x3x1xf32> -> tensor<2x1x2x1xf32>
      return %o : tensor<2x1x2x1xf32>
    })");
  // q = 0: the scores are the mask's entries alone.
  HostTensor q = makeTensor(DType::F32, {2, 1, 2, 1}, {0, 0, 0, 0});
  HostTensor k = makeTensor(DType::F32, {2, 1, 3, 1}, {1, 1, 1, 1, 1, 1});
  HostTensor v = makeTensor(DType::F32, {2, 1, 3, 1}, {10, 20, 40, 10, 20, 40});
  double inf = INFINITY;
  // Batch 0: weights e^0, e^(ln 3) on keys 0, 1 (key 2 hidden): row 0 sees
  // keys 0-1 -> (10 + 3 * 20) / 4; row 1 sees all three, key 2 hidden.
  // Batch 1: key 0 and 1 hidden: row 0 sees nothing (0), row 1 key 2.
  HostTensor m = makeTensor(DType::F32, {2, 1, 1, 3},
                            {0, std::log(3.0), -inf, -inf, -inf, 0});
  EXPECT_THAT(evaluate(p, {q, k, v, m}),
              near({17.5, 17.5, /*b1*/ 0, 40}, 1e-6));
}

TEST(ReferenceTest, AttentionErrorScaleAndTolerance) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%q: tensor<1x1x1x1xbf16>, %k: tensor<1x1x2x1xbf16>, %v: tensor<1x1x2x1xbf16>) -> tensor<1x1x1x1xbf16> {
      %o = hkg.attention %q, %k, %v
          : tensor<1x1x1x1xbf16>, tensor<1x1x2x1xbf16>, tensor<1x1x2x1xbf16> -> tensor<1x1x1x1xbf16>
      return %o : tensor<1x1x1x1xbf16>
    })");
  ASSERT_TRUE(p.op);
  // Equal scores: weights [1/2, 1/2]; v = [3, -5]: the output is -1, its
  // error scale sum_j p_j |v_j| = 4.
  HostTensor q = makeTensor(DType::BF16, {1, 1, 1, 1}, {0});
  HostTensor k = makeTensor(DType::BF16, {1, 1, 2, 1}, {1, 1});
  HostTensor v = makeTensor(DType::BF16, {1, 1, 2, 1}, {3, -5});
  auto result = evaluateReference(p.op, {q, k, v});
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  double out = 0;
  result->outputs[0].tensor.toDoubles(&out);
  EXPECT_NEAR(out, -1.0, 1e-12);
  ASSERT_EQ(result->outputs[0].errorScale.size(), 1u);
  EXPECT_NEAR(result->outputs[0].errorScale[0], 4.0, 1e-12);
  // bf16 operands: 2 u = 2^-7 per unit of scale.
  EXPECT_EQ(getOpTolerance(p.op, DType::BF16).elemScaled, std::ldexp(1.0, -7));
}

TEST(ReferenceTest, NucleusProbabilitiesAndSampling) {
  std::vector<double> logits = {std::log(0.2), std::log(0.5), std::log(0.3)};
  // p = 0.7: the nucleus is {1 (0.5), 2 (0.3)}, renormalised to 0.625, 0.375.
  std::vector<double> nucleus = computeNucleusProbabilities(logits, 0.7, 1.0);
  EXPECT_THAT(nucleus, near({0, 0.625, 0.375}));
  // The CDF runs in token order: token 1 covers [0, 0.625), token 2 the rest.
  EXPECT_EQ(sampleFromNucleus(nucleus, 0.0), 1);
  EXPECT_EQ(sampleFromNucleus(nucleus, 0.6), 1);
  EXPECT_EQ(sampleFromNucleus(nucleus, 0.63), 2);
  EXPECT_EQ(sampleFromNucleus(nucleus, 0.999999), 2);
  // Temperature 0.5 squares and renormalises: [0.04, 0.25, 0.09] / 0.38;
  // 0.25 / 0.38 = 0.658 < 0.7 so token 2 joins: nucleus {1, 2}.
  EXPECT_THAT(computeNucleusProbabilities(logits, 0.7, 0.5),
              near({0, 0.25 / 0.34, 0.09 / 0.34}, 1e-9));
  // p = 0.45 is reached by token 1 alone.
  EXPECT_THAT(computeNucleusProbabilities(logits, 0.45, 1.0), near({0, 1, 0}));
}

TEST(ReferenceTest, TopPSampleWithUniform) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%l: tensor<2x3xf32>, %u: tensor<2xf32>) -> tensor<2xi32> {
      %t = hkg.top_p_sample %l uniform(%u : tensor<2xf32>) p(0.7) temperature(1.0)
          : tensor<2x3xf32> -> tensor<2xi32>
      return %t : tensor<2xi32>
    })");
  HostTensor l = makeTensor(DType::F32, {2, 3},
                            {std::log(0.2), std::log(0.5), std::log(0.3),
                             std::log(0.6), std::log(0.1), std::log(0.3)});
  // Row 1: nucleus {0 (0.6), 2 (0.3)} -> [2/3, 0, 1/3]; u = 0.7 -> token 2.
  HostTensor u = makeTensor(DType::F32, {2}, {0.25, 0.7});
  EXPECT_THAT(evaluate(p, {l, u}), ElementsAre(1, 2));
}

TEST(ReferenceTest, RejectsMismatchedInputs) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %y = hkg.softmax %x axis(1) : tensor<2x2xf32> -> tensor<2x2xf32>
      return %y : tensor<2x2xf32>
    })");
  auto r = evaluateReference(p.op, {HostTensor(DType::F32, {4})});
  ASSERT_FALSE(static_cast<bool>(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("input #0"), std::string::npos);
}

/// The values of `t`, as doubles.
static std::vector<double> valuesOf(const HostTensor &t) {
  std::vector<double> v;
  for (int64_t i = 0, e = t.getNumElements(); i < e; ++i)
    v.push_back(t.get(i));
  return v;
}

TEST(ReferenceTest, SliceViewOperands) {
  // A kernel given the whole 3x8 buffer reads its columns 2..5 (through a
  // reshape and a rank-reducing slice) as hkg-lower-to-gpu's sources say.
  ParsedOp p = parseOp(R"(
    func.func @ref(%x: tensor<3x8xf32>, %y: tensor<3x4xf32>) -> tensor<3x4xf32> {
      %e = tensor.expand_shape %x [[0, 1], [2]] output_shape [1, 3, 8] : tensor<3x8xf32> into tensor<1x3x8xf32>
      %s = tensor.extract_slice %e[0, 0, 2] [1, 3, 4] [1, 1, 1] : tensor<1x3x8xf32> to tensor<3x4xf32>
      %z = hkg.elementwise %s, %y : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32> {
      ^bb0(%a: f32, %b: f32):
        %d = arith.subf %a, %b : f32
        hkg.yield %d : f32
      }
      return %z : tensor<3x4xf32>
    })");
  ASSERT_TRUE(p.op);
  // The kernel's inputs: the buffer the slice views, then the plain operand.
  EXPECT_EQ(getKernelInputType(p.op, 0).getShape(),
            llvm::ArrayRef<int64_t>({3, 8}));
  EXPECT_EQ(getKernelInputType(p.op, 1).getShape(),
            llvm::ArrayRef<int64_t>({3, 4}));
  HostTensor x(DType::F32, {3, 8});
  for (int64_t i = 0; i < 24; ++i)
    x.set(i, i);
  HostTensor y =
      makeTensor(DType::F32, {3, 4}, {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2});
  auto operands = evaluateOperands(p.op, {x, y});
  ASSERT_TRUE(static_cast<bool>(operands))
      << llvm::toString(operands.takeError());
  EXPECT_EQ((*operands)[0].getShape(), llvm::ArrayRef<int64_t>({3, 4}));
  EXPECT_THAT(valuesOf((*operands)[0]),
              ElementsAre(2, 3, 4, 5, 10, 11, 12, 13, 18, 19, 20, 21));
  EXPECT_THAT(evaluate(p, *operands),
              ElementsAre(2, 3, 4, 5, 9, 10, 11, 12, 16, 17, 18, 19));
  // The buffer where the operand is expected is refused, naming the input.
  auto wrong = evaluateReference(p.op, {x, y});
  ASSERT_FALSE(static_cast<bool>(wrong));
  EXPECT_NE(llvm::toString(wrong.takeError()).find("input #0"),
            std::string::npos);
}

TEST(ReferenceTest, SliceViewOps) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%x: tensor<2x3x4xbf16>) -> tensor<2x2xbf16> {
      %s = tensor.extract_slice %x[1, 1, 0] [1, 2, 4] [1, 1, 1] : tensor<2x3x4xbf16> to tensor<2x4xbf16>
      %c = tensor.collapse_shape %s [[0, 1]] : tensor<2x4xbf16> into tensor<8xbf16>
      %e = tensor.expand_shape %c [[0, 1]] output_shape [4, 2] : tensor<8xbf16> into tensor<4x2xbf16>
      %t = tensor.extract_slice %e[2, 0] [2, 2] [1, 1] : tensor<4x2xbf16> to tensor<2x2xbf16>
      %y = hkg.elementwise %t : tensor<2x2xbf16> -> tensor<2x2xbf16> {
      ^bb0(%a: bf16):
        hkg.yield %a : bf16
      }
      return %y : tensor<2x2xbf16>
    })");
  ASSERT_TRUE(p.op);
  HostTensor x(DType::BF16, {2, 3, 4});
  for (int64_t i = 0; i < 24; ++i)
    x.set(i, i);
  // Rows 1 and 2 of the second 3x4 block: 16..23; its last four elements.
  auto operands = evaluateOperands(p.op, {x});
  ASSERT_TRUE(static_cast<bool>(operands))
      << llvm::toString(operands.takeError());
  EXPECT_THAT(valuesOf((*operands)[0]), ElementsAre(20, 21, 22, 23));
  EXPECT_THAT(evaluate(p, *operands), ElementsAre(20, 21, 22, 23));
}

TEST(ReferenceTest, SliceViewRefusesDynamicSlices) {
  ParsedOp p = parseOp(R"(
    func.func @ref(%x: tensor<4x4xf32>, %i: index) -> tensor<2x4xf32> {
      %s = tensor.extract_slice %x[%i, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
      %y = hkg.softmax %s axis(1) : tensor<2x4xf32> -> tensor<2x4xf32>
      return %y : tensor<2x4xf32>
    })");
  ASSERT_TRUE(p.op);
  auto r = evaluateOperands(p.op, {HostTensor(DType::F32, {4, 4})});
  ASSERT_FALSE(static_cast<bool>(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("static slices only"),
            std::string::npos);
}
