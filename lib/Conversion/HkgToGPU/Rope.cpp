//===- Rope.cpp - hkg.rope to a token-streaming kernel --------------------===//
//
// The input [B, S, H, D] is viewed as B*S token rows of H*D features. A
// workgroup rotates `tokens_per_block` tokens. Its work items are vectors:
//  - neox: item (h, i) loads `vector_width` features a = x[h, i..] and
//    b = x[h, i + D/2 ..] (two aligned vectors in the two halves) and the
//    table rows cos/sin[pos, i..];
//  - gptj: item (h, j) loads `vector_width` interleaved features
//    x[h, j..j+vw) = pairs (x[2k], x[2k+1]) and cos/sin[pos, j/2 ..] of
//    vector_width / 2 entries.
// Consecutive threads take consecutive items (coalesced), looping with a
// stride of `threads` over the workgroup's items. pos = s + offset.
// out_a = a cos - b sin, out_b = b cos + a sin, computed in f32.
//
// Full-width tables ([P, D], one entry per feature) give each output the
// entry at its own index: neox item (h, i) also loads cos/sin[pos, i + D/2
// ..] for out_b; gptj item (h, j) loads cos/sin[pos, j..j+vw) and splits
// them like the features (evens for out_a, odds for out_b).
//
//===----------------------------------------------------------------------===//

#include "GPUBuildingBlocks.h"

#include "hkg/Dialect/Hkg/IR/Schedules/ElementwiseSchedule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hkg;

LogicalResult mlir::hkg::lowerRope(RopeOp op, KernelContext &kc) {
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  auto in = op.getInput().getType();
  int64_t batch = in.getDimSize(0), seq = in.getDimSize(1);
  int64_t heads = in.getDimSize(2), d = in.getDimSize(3), halfD = d / 2;
  int64_t tokens = batch * seq;
  RopeSchedule sched = RopeSchedule::decode(kc.schedule);
  int64_t vw = sched.vectorWidth;
  int64_t threads = sched.threads;
  int64_t tpb = sched.tokensPerBlock;
  bool neox = op.getLayout() == RopeLayout::Neox;
  bool fullTables = op.hasFullWidthTables();

  Type inType = in.getElementType();
  Type tabType = op.getCos().getType().getElementType();
  int64_t tabWidth = neox || fullTables ? vw : vw / 2;
  int64_t itemsPerHead = neox ? halfD / vw : d / vw;
  int64_t itemsPerToken = heads * itemsPerHead;
  int64_t itemsPerBlock = tpb * itemsPerToken;
  int64_t iters = llvm::divideCeil(itemsPerBlock, threads);
  kc.grid = {static_cast<int64_t>(llvm::divideCeil(tokens, tpb)), 1, 1};
  kc.block = {threads, 1, 1};

  Value x = reshapeView(b, loc, kc.args[0], {tokens, heads * d});
  Value cosT = kc.args[1], sinT = kc.args[2];
  Value out = reshapeView(b, loc, kc.args[3], {tokens, heads * d});
  int64_t xAlign = vectorAlignment(inType, vw);
  int64_t tabAlign = vectorAlignment(tabType, tabWidth);

  Value tid = threadIdX(b, loc);
  Value firstToken =
      arith::MulIOp::create(b, loc, blockIdX(b, loc), constIndex(b, loc, tpb));
  bool guardItems = itemsPerBlock % threads != 0;
  bool guardTokens = tokens % tpb != 0;

  auto body = [&](Value iter) {
    Value item = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, iter, constIndex(b, loc, threads)), tid);
    Value tokenInBlock =
        arith::DivUIOp::create(b, loc, item, constIndex(b, loc, itemsPerToken));
    Value rem =
        arith::RemUIOp::create(b, loc, item, constIndex(b, loc, itemsPerToken));
    Value token = arith::AddIOp::create(b, loc, firstToken, tokenInBlock);
    Value cond;
    if (guardItems)
      cond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, item,
                                   constIndex(b, loc, itemsPerBlock));
    if (guardTokens) {
      Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, token,
                                       constIndex(b, loc, tokens));
      cond = cond ? arith::AndIOp::create(b, loc, cond, ok).getResult() : ok;
    }
    auto emit = [&] {
      Value pos = arith::AddIOp::create(
          b, loc,
          arith::RemUIOp::create(b, loc, token, constIndex(b, loc, seq)),
          constIndex(b, loc, op.getOffset()));
      Value h =
          arith::DivUIOp::create(b, loc, rem, constIndex(b, loc, itemsPerHead));
      Value i = arith::MulIOp::create(
          b, loc,
          arith::RemUIOp::create(b, loc, rem, constIndex(b, loc, itemsPerHead)),
          constIndex(b, loc, vw));
      Value col = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, h, constIndex(b, loc, d)), i);
      Value tabCol =
          neox || fullTables
              ? i
              : arith::DivUIOp::create(b, loc, i, constIndex(b, loc, 2))
                    .getResult();
      auto loadTable = [&](Value table, Value entry) {
        return toF32(b, loc,
                     loadVector(b, loc, table, ValueRange{pos, entry}, tabWidth,
                                tabAlign));
      };
      // The entries of out_a (cA, sA) and of out_b (cB, sB): the same for
      // half-width tables.
      Value cA = loadTable(cosT, tabCol), sA = loadTable(sinT, tabCol);
      Value cB = cA, sB = sA;
      if (fullTables && neox) {
        Value tabColB =
            arith::AddIOp::create(b, loc, i, constIndex(b, loc, halfD));
        cB = loadTable(cosT, tabColB);
        sB = loadTable(sinT, tabColB);
      }
      auto rotate = [&](Value a, Value bb) -> std::pair<Value, Value> {
        Value oa =
            arith::SubFOp::create(b, loc, arith::MulFOp::create(b, loc, a, cA),
                                  arith::MulFOp::create(b, loc, bb, sA));
        Value ob =
            arith::AddFOp::create(b, loc, arith::MulFOp::create(b, loc, bb, cB),
                                  arith::MulFOp::create(b, loc, a, sB));
        return {oa, ob};
      };
      if (neox) {
        Value colB =
            arith::AddIOp::create(b, loc, col, constIndex(b, loc, halfD));
        Value a = toF32(
            b, loc, loadVector(b, loc, x, ValueRange{token, col}, vw, xAlign));
        Value bv = toF32(
            b, loc, loadVector(b, loc, x, ValueRange{token, colB}, vw, xAlign));
        auto [oa, ob] = rotate(a, bv);
        storeVector(b, loc, fromF32(b, loc, oa, inType), out,
                    ValueRange{token, col}, xAlign);
        storeVector(b, loc, fromF32(b, loc, ob, inType), out,
                    ValueRange{token, colB}, xAlign);
        return;
      }
      // gptj: deinterleave the pairs, rotate, interleave back.
      Value v = toF32(
          b, loc, loadVector(b, loc, x, ValueRange{token, col}, vw, xAlign));
      SmallVector<int64_t> evens, odds, inter;
      for (int64_t k = 0; k < vw / 2; ++k) {
        evens.push_back(2 * k);
        odds.push_back(2 * k + 1);
        inter.push_back(k);
        inter.push_back(k + vw / 2);
      }
      Value a = vector::ShuffleOp::create(b, loc, v, v, evens);
      Value bv = vector::ShuffleOp::create(b, loc, v, v, odds);
      if (fullTables) {
        // Entries 2k and 2k + 1 belong to pair k's two outputs.
        cB = vector::ShuffleOp::create(b, loc, cA, cA, odds);
        sB = vector::ShuffleOp::create(b, loc, sA, sA, odds);
        cA = vector::ShuffleOp::create(b, loc, cA, cA, evens);
        sA = vector::ShuffleOp::create(b, loc, sA, sA, evens);
      }
      auto [oa, ob] = rotate(a, bv);
      Value y = vector::ShuffleOp::create(b, loc, oa, ob, inter);
      storeVector(b, loc, fromF32(b, loc, y, inType), out,
                  ValueRange{token, col}, xAlign);
    };
    if (!cond) {
      emit();
      return;
    }
    auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    emit();
  };

  if (iters == 1) {
    body(constIndex(b, loc, 0));
    return success();
  }
  auto forOp =
      scf::ForOp::create(b, loc, constIndex(b, loc, 0),
                         constIndex(b, loc, iters), constIndex(b, loc, 1));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(forOp.getBody()->getTerminator());
  body(forOp.getInductionVar());
  return success();
}
