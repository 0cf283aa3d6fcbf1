//===- AttentionSplitKv.cpp - kv_split's combine of attention -------------===//
//
// Flash-decoding (kv_split > 1): the kv_split workgroups of a query tile
// each run the flash kernel's key loop over 1 / kv_split of the key/value
// blocks (Attention.cpp), ending with, per query row, an unnormalized O_s,
// a row max m_s and a row sum l_s relative to m_s. Their partials meet in a
// workspace held by the kernel's module (as split-K's,
// MatmulSplitKWorkspace.cpp; docs/ABI.md "Module globals"):
//
//   every workgroup stores its lanes' O pairs, m and l (each lane its own
//   elements, the same lane -> row map in every split), fences (release),
//   and one thread adds 1 to the tile's arrival counter; the workgroup
//   that sees kv_split - 1 (the last to arrive) resets the counter to 0,
//   fences (acquire) and combines, lane by lane, in split order (two
//   loops over the splits, kept rolled):
//
//     M = max_s m_s,  w_s = exp2(m_s - M),  l = sum_s w_s l_s,
//     (exp2((m_s - M) log2(e)) where m is in natural units: with a mask)
//     O = sum_s w_s O_s
//
//   (M = -inf, a row that saw no key in any split, subtracts 0: every w_s
//   is 0 and the row is stored as 0), then normalizes and stores O / l as
//   the unsplit kernel does.
//
// A lane's l is its share of the row (the row's lanes add their shares when
// storing), and w_s is the same in all the lanes of a row (the 4 of a quad;
// on AMD matrix cores 2 or 4), so the combine needs no communication
// between lanes. Partial rows past a query tile's last valid row are not
// published. The workspace holds, per query tile and split, tile_q rows of
// at most ceil(Dv / 8) x 8 + 8 floats (AttentionSchedule::partialBytes):
// per lane and row, its O elements (Dv / 4 in the m16n8 layout) and its
// (m, l) pair; laid out [row group][lane row][O run (perRow floats) or
// (m, l)][thread], so that a wave's accesses are contiguous.
//
//===----------------------------------------------------------------------===//

#include "AttentionSplitKv.h"

#include "TileIndexing.h"
#include "Workspace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::hkg;

void mlir::hkg::combineKvSplitsAndStore(
    KernelContext &kc, const AttentionLaneLayout &layout, Value tid,
    Value tileIndex, int64_t numTiles, Value split, int64_t kvSplit,
    ArrayRef<Value> state, function_ref<Value(int64_t, int64_t)> rowValid,
    function_ref<void(ArrayRef<Value>)> store) {
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  IndexArith ix(b, loc);
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  const int64_t rowGroups = layout.rowGroups, nd = layout.nd,
                perTile = layout.perTile, threads = layout.threads,
                rowsPerLane = layout.rowsPerLane;
  const int64_t perRow = perTile / rowsPerLane;
  // Per lane row: nd O runs of perRow floats and the (m, l) pair, each for
  // every thread.
  const int64_t rowFloats = nd * perRow + 2;
  const int64_t slot = rowGroups * rowsPerLane * rowFloats * threads;

  CombineWorkspace workspace = getCombineWorkspace(
      b, loc, kc.func, "kv_split", {numTiles, kvSplit, slot}, {numTiles});
  Value ws = workspace.partials, arrivals = workspace.arrivals;
  Value flagLds = kc.addLds({1}, i32, /*align=*/4);

  auto pairType = VectorType::get({2}, f32);
  auto runType = VectorType::get({perRow}, f32);
  auto align = llvm::MaybeAlign(8);
  auto runAlign = llvm::MaybeAlign(4 * perRow);
  const Value *m = state.data() + rowGroups * nd;
  const Value *l = m + rowGroups * rowsPerLane;
  auto elem = [&](Value v, int64_t e) -> Value {
    return vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{e});
  };
  auto pairOf = [&](Value x, Value y) -> Value {
    return vector::FromElementsOp::create(b, loc, pairType, ValueRange{x, y});
  };
  // The workspace indices of item `p` (O run p < nd, or nd: (m, l)) of
  // lane row (i, r) of split `s`.
  auto at = [&](Value s, int64_t i, int64_t r, int64_t p) {
    int64_t base = ((i * rowsPerLane + r) * rowFloats + p * perRow) * threads;
    int64_t width = p < nd ? perRow : 2;
    return SmallVector<Value, 3>{tileIndex, s,
                                 ix.add(ix.mul(tid, width), base)};
  };
  // This lane's O run of row r in vector `o`.
  auto runOf = [&](Value o, int64_t r) -> Value {
    SmallVector<Value> elems;
    for (int64_t e = r * perRow; e < (r + 1) * perRow; ++e)
      elems.push_back(elem(o, e));
    return vector::FromElementsOp::create(b, loc, runType, elems);
  };

  // Publish this split's rows.
  for (int64_t i = 0; i < rowGroups; ++i)
    for (int64_t r = 0; r < rowsPerLane; ++r)
      emitIfThen(b, loc, rowValid(i, r), [&] {
        for (int64_t jd = 0; jd < nd; ++jd) {
          vector::StoreOp::create(b, loc, runOf(state[i * nd + jd], r), ws,
                                  at(split, i, r, jd),
                                  /*nontemporal=*/false, runAlign);
        }
        vector::StoreOp::create(
            b, loc, pairOf(m[i * rowsPerLane + r], l[i * rowsPerLane + r]), ws,
            at(split, i, r, nd),
            /*nontemporal=*/false, align);
      });
  Value isLast = arriveAndTestLast(
      b, loc, kc.target, tid, arrivals,
      [&]() -> SmallVector<Value> { return {tileIndex}; }, kvSplit, flagLds);

  emitIfThen(b, loc, isLast, [&] {
    deviceFence(b, loc, kc.target, LLVM::AtomicOrdering::acquire);
    auto fmf = arith::FastMathFlagsAttr::get(ctx, arith::FastMathFlags::afn);
    Value negInf = constF32(b, loc, -std::numeric_limits<double>::infinity());
    Value zero = constF32(b, loc, 0.0);
    Value zeroRun =
        arith::ConstantOp::create(b, loc, runType, b.getZeroAttr(runType));
    // Per lane row: the combined O runs, then l.
    SmallVector<SmallVector<Value>> combined;
    for (int64_t i = 0; i < rowGroups; ++i)
      for (int64_t r = 0; r < rowsPerLane; ++r) {
        SmallVector<Type> types(nd, runType);
        types.push_back(f32);
        auto combine = [&]() -> SmallVector<Value> {
          // Two loops over the splits (not unrolled: a full unroll would
          // hoist every split's loads into registers): their row maxima's
          // max M, then the weighted sums of l and O.
          auto maxLoop = scf::ForOp::create(b, loc, ix.c(0), ix.c(kvSplit),
                                            ix.c(1), ValueRange{negInf});
          {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPointToStart(maxLoop.getBody());
            Value ml = vector::LoadOp::create(
                b, loc, pairType, ws, at(maxLoop.getInductionVar(), i, r, nd),
                /*nontemporal=*/false, align);
            scf::YieldOp::create(
                b, loc,
                ValueRange{arith::MaximumFOp::create(
                    b, loc, maxLoop.getRegionIterArgs()[0], elem(ml, 0))});
          }
          disableLLVMUnroll(maxLoop);
          Value mMax = maxLoop.getResult(0);
          Value none = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                             mMax, negInf);
          Value safe = arith::SelectOp::create(b, loc, none, zero, mMax);
          SmallVector<Value> init(nd, zeroRun);
          init.push_back(zero);
          auto sumLoop =
              scf::ForOp::create(b, loc, ix.c(0), ix.c(kvSplit), ix.c(1), init);
          {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPointToStart(sumLoop.getBody());
            Value sIdx = sumLoop.getInductionVar();
            ValueRange acc = sumLoop.getRegionIterArgs();
            Value ml =
                vector::LoadOp::create(b, loc, pairType, ws, at(sIdx, i, r, nd),
                                       /*nontemporal=*/false, align);
            Value diff = arith::SubFOp::create(b, loc, elem(ml, 0), safe);
            if (layout.mToLog2 != 1.0)
              diff = arith::MulFOp::create(b, loc, diff,
                                           constF32(b, loc, layout.mToLog2));
            Value w = math::Exp2Op::create(b, loc, diff, fmf);
            Value wRun = vector::BroadcastOp::create(b, loc, runType, w);
            SmallVector<Value> next;
            for (int64_t jd = 0; jd < nd; ++jd) {
              Value o = vector::LoadOp::create(b, loc, runType, ws,
                                               at(sIdx, i, r, jd),
                                               /*nontemporal=*/false, runAlign);
              next.push_back(math::FmaOp::create(b, loc, wRun, o, acc[jd]));
            }
            next.push_back(
                math::FmaOp::create(b, loc, w, elem(ml, 1), acc[nd]));
            scf::YieldOp::create(b, loc, next);
          }
          disableLLVMUnroll(sumLoop);
          return SmallVector<Value>(sumLoop.getResults());
        };
        Value valid = rowValid(i, r);
        if (!valid) {
          combined.push_back(combine());
          continue;
        }
        // Rows that were not published are not combined (nor stored).
        auto ifOp = scf::IfOp::create(b, loc, types, valid,
                                      /*withElseRegion=*/true);
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(ifOp.thenBlock());
          scf::YieldOp::create(b, loc, combine());
          b.setInsertionPointToStart(ifOp.elseBlock());
          SmallVector<Value> empty(nd, zeroRun);
          empty.push_back(zero);
          scf::YieldOp::create(b, loc, empty);
        }
        combined.push_back(SmallVector<Value>(ifOp.getResults()));
      }

    // Back into the kernel's layout: O vectors, m (unused by the store),
    // l.
    SmallVector<Value> result(state);
    auto vt = VectorType::get({perTile}, f32);
    for (int64_t i = 0; i < rowGroups; ++i) {
      for (int64_t jd = 0; jd < nd; ++jd) {
        SmallVector<Value> elems;
        for (int64_t e = 0; e < perTile; ++e)
          elems.push_back(
              elem(combined[i * rowsPerLane + e / perRow][jd], e % perRow));
        result[i * nd + jd] = vector::FromElementsOp::create(b, loc, vt, elems);
      }
      for (int64_t r = 0; r < rowsPerLane; ++r)
        result[rowGroups * nd + rowGroups * rowsPerLane + i * rowsPerLane + r] =
            combined[i * rowsPerLane + r][nd];
    }
    store(result);
  });
}
