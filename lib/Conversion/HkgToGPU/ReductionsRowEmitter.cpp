//===- ReductionsRowEmitter.cpp - one workgroup's pass over its rows ------===//
//
// RowEmitter (ReductionsRowEmitter.h): the slots a thread owns in its row,
// the passes over them with the row cache, the output stores, and the row
// steps of the norms.
//
//===----------------------------------------------------------------------===//

#include "ReductionsRowEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::rowop;

RowCount RowCount::of(KernelContext &kc, unsigned arg, int64_t firstReduced) {
  return {kc.extent(arg, 0, firstReduced),
          kc.staticExtent(arg, 0, firstReduced)};
}

int64_t RowCount::getStatic() const { return *getConstantIntValue(value); }

RowEmitter::RowEmitter(KernelContext &kc, const RowSchedule &sched,
                       Operation *op, Value input, Value output,
                       RowCount rowCount, int64_t len, bool cacheable,
                       Value rowGroup, ValueRange preloaded)
    : kc(kc), b(kc.b), loc(kc.loc), rowCount(rowCount),
      rows(rowCount.isStatic() ? rowCount.getStatic() : 0), len(len),
      preloaded(preloaded.begin(), preloaded.end()) {
  vw = sched.vectorWidth;
  threads = sched.threads;
  rpb = sched.rowsPerBlock;
  unroll = sched.unroll;
  cache = cacheable ? sched.rowCache : RowCache::None;
  tpr = sched.threadsPerRow();
  numVec = len / vw;
  tail = len % vw;
  split = sched.rowSplit;
  // row_split > 1 needs whole vectors (the schedule verifier): no tail.
  assert((split == 1 || tail == 0) && "a split row has a tail");
  sliceVecs = llvm::divideCeil(numVec, split);
  sliceShort = sliceVecs * split != numVec;
  vecsPerThread = llvm::divideCeil(sliceVecs, tpr);
  tailSlots = llvm::divideCeil(tail, tpr);
  inType = cast<MemRefType>(input.getType()).getElementType();
  inAlign =
      len % vw == 0 ? vectorAlignment(inType, vw) : vectorAlignment(inType, 1);
  if (rowCount.isStatic())
    kc.grid = {static_cast<int64_t>(llvm::divideCeil(rows, rpb)) * split, 1, 1};
  else
    kc.setGridX(rowCount.staticFactor, rpb);
  splitWorkspace = split > 1 && sched.rowSplitWorkspace;
  if (split > 1 && !splitWorkspace)
    kc.cluster = {split, 1, 1};
  kc.block = {threads, 1, 1};

  this->input =
      reshapeView(b, loc, input, {rowCount.value, b.getIndexAttr(len)});
  this->output = output;
  tid = threadIdX(b, loc);
  Value cTpr = constIndex(b, loc, tpr);
  rowInBlock = arith::DivUIOp::create(b, loc, tid, cTpr);
  lane = arith::RemUIOp::create(b, loc, tid, cTpr);
  assert((!rowGroup || split == 1) && "row_split with row_steps");
  if (!rowGroup && split > 1) {
    // A cluster's workgroups are consecutive along x, a workspace split's
    // tickets likewise: rank = bid % split, the rank's slice of vectors
    // [rank * sliceVecs, ...).
    Value bid = splitWorkspace ? takeTicket() : blockIdX(b, loc);
    Value cSplit = constIndex(b, loc, split);
    rank = arith::RemUIOp::create(b, loc, bid, cSplit);
    rowGroup = arith::DivUIOp::create(b, loc, bid, cSplit);
    vecBase =
        arith::MulIOp::create(b, loc, rank, constIndex(b, loc, sliceVecs));
  }
  if (!rowGroup)
    rowGroup = blockIdX(b, loc);
  groupFirstRow =
      arith::MulIOp::create(b, loc, rowGroup, constIndex(b, loc, rpb));
  row = arith::AddIOp::create(b, loc, groupFirstRow, rowInBlock);
  rowClamped = row;
  if (!rowCount.isStatic() && rpb > 1) {
    // Any count: the last group may be partial (a count of 0 launches
    // nothing, docs/ABI.md). With one row per group, the grid is the rows.
    Value n = cast<Value>(rowCount.value);
    rowValid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, n);
    rowClamped = arith::MinUIOp::create(
        b, loc, row, arith::SubIOp::create(b, loc, n, constIndex(b, loc, 1)));
  } else if (rowCount.isStatic() && rows % rpb != 0) {
    rowValid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                                     constIndex(b, loc, rows));
    rowClamped =
        arith::MinUIOp::create(b, loc, row, constIndex(b, loc, rows - 1));
  }
  if (cache == RowCache::Lds)
    ldsRow = kc.addLds({rpb, len}, inType);
  bulkStore = cacheable && sched.bulkStore;
  // Which form a bf16 row takes in registers was chosen per op by
  // measurement (docs/perf): packed for rmsnorm; f32 values for softmax
  // (its exp pass is issue-bound: the conversions are extra instructions
  // there) and layernorm, except for rows too long for f32 words in a
  // 1024-thread workgroup's registers (packsCachedRow). The discardable
  // attributes `hkg.row_f32_cache` / `hkg.row_bf16_cache` force one form
  // for side-by-side measurements.
  // The experimental `hkg.streaming_access` marks the row's global loads
  // and the output's stores nontemporal (read / written once); the load
  // cache policy (`hkg.load_eviction`, default on Hopper) the row's loads
  // only (loadRaw).
  streaming = streamingAccessOf(op, kc.target);
  // With row_steps > 1 the next row's raw values are live too: the row
  // stays packed (loadRow).
  bool packedByDefault = isa<RMSNormOp>(op) || sched.rowSteps > 1 ||
                         packsCachedRow(kc.target.isNVIDIA(), threads,
                                        vecsPerThread * vw + tailSlots);
  rematBF16 = cache == RowCache::Registers && inType.isBF16() &&
              !op->hasAttr("hkg.row_f32_cache") &&
              (packedByDefault || op->hasAttr("hkg.row_bf16_cache"));
}

SmallVector<Value> RowEmitter::loadRow() {
  SmallVector<Value> raws;
  for (int64_t s = 0; s < vecsPerThread; ++s)
    raws.push_back(globalLoad(
        vectorSlotAt(constIndex(b, loc, s), (s + 1) * tpr > sliceVecs, 0), 0));
  for (int64_t j = 0; j < tailSlots; ++j)
    raws.push_back(globalLoad(tailSlotAt(j, 0), 0));
  return raws;
}

Value RowEmitter::f32(const Slot &slot) {
  if (!rematBF16 || slot.pass == 0)
    return toF32(b, loc, slot.raw);
  // NVIDIA: the first later pass takes the word form, the next one the
  // other integer form (layernorm's variance and output passes would
  // otherwise share one conversion, kept live across the variance
  // reduction: 64 registers instead of 42 on sm_90), and so on
  // alternately. AMD: the word form in every later pass (gfx942 layernorm:
  // 64 VGPRs so, 72 with the alternating forms).
  auto *it = llvm::find(rematPasses, slot.pass);
  size_t order = it - rematPasses.begin();
  if (it == rematPasses.end())
    rematPasses.push_back(slot.pass);
  bool wordwise = kc.target.isAMD() || order % 2 == 0;
  return bf16ToF32Bits(b, loc, slot.raw, wordwise);
}

Value RowEmitter::columnF32(Value raw) {
  if (getElementTypeOrSelf(raw.getType()).isBF16())
    return bf16ToF32Bits(b, loc, raw);
  return toF32(b, loc, raw);
}

void RowEmitter::lastPass(
    int passIdx, size_t numColumns,
    function_ref<SmallVector<Value>(const Slot &)> loadColumns,
    function_ref<void(const Slot &, ArrayRef<Value>)> emit) {
  outputPass = passIdx;
  if (cache != RowCache::Registers) {
    pass(
        passIdx, {},
        [&](const Slot &sl, ValueRange) -> SmallVector<Value> {
          emit(sl, loadColumns(sl));
          return {};
        },
        nullptr);
    return;
  }
  // Straight-line code: the recorded slots dominate what follows.
  SmallVector<Slot> slots;
  pass(
      passIdx, {},
      [&](const Slot &sl, ValueRange) -> SmallVector<Value> {
        slots.push_back(sl);
        return {};
      },
      nullptr);
  // Column loads are issued in groups of at most half as many vectors as
  // the row's own loads: on sm_90 the default rmsnorm (8192 bf16, 4
  // vectors per thread) needs 40 registers with groups of 2 slots (6
  // workgroups of 256 per SM) and 47 with one group of 4 (5 per SM); the
  // second group's loads hit L1 (every row reads the same columns).
  size_t perSlot = std::max<size_t>(1, numColumns);
  size_t group = std::max<size_t>(
      1,
      static_cast<size_t>(std::max<int64_t>(vecsPerThread, 1)) / (2 * perSlot));
  for (size_t first = 0; first < slots.size(); first += group) {
    size_t last = std::min(slots.size(), first + group);
    SmallVector<SmallVector<Value>> columns;
    for (size_t i = first; i < last; ++i)
      columns.push_back(loadColumns(slots[i]));
    for (size_t i = first; i < last; ++i)
      emit(slots[i], columns[i - first]);
  }
}

SmallVector<Value> RowEmitter::pass(int pass, ValueRange init, SlotFn fn,
                                    const Combiner *combine) {
  SmallVector<SmallVector<Value>> partial(unroll, SmallVector<Value>(init));
  if (cache == RowCache::Registers) {
    for (int64_t s = 0; s < vecsPerThread; ++s) {
      Slot slot =
          vectorSlot(constIndex(b, loc, s), (s + 1) * tpr > sliceVecs, pass, s);
      partial[s % unroll] = fn(slot, partial[s % unroll]);
    }
  } else if (vecsPerThread > 0) {
    int64_t groups = llvm::divideCeil(vecsPerThread, unroll);
    bool guard = sliceVecs % (tpr * unroll) != 0;
    SmallVector<Value> flat;
    for (auto &p : partial)
      flat.append(p.begin(), p.end());
    auto forOp = scf::ForOp::create(
        b, loc, constIndex(b, loc, 0), constIndex(b, loc, groups),
        constIndex(b, loc, 1), flat,
        [&](OpBuilder &nested, Location, Value g, ValueRange args) {
          OpBuilder::InsertionGuard ig(b);
          b.setInsertionPointToEnd(nested.getInsertionBlock());
          size_t n = init.size();
          // All the group's loads first, then the accumulations.
          SmallVector<Slot> slots;
          for (int64_t u = 0; u < unroll; ++u) {
            Value s = arith::AddIOp::create(
                b, loc,
                arith::MulIOp::create(b, loc, g, constIndex(b, loc, unroll)),
                constIndex(b, loc, u));
            slots.push_back(vectorSlot(s, guard, pass, -1));
          }
          SmallVector<Value> next;
          for (int64_t u = 0; u < unroll; ++u) {
            SmallVector<Value> r = fn(slots[u], args.slice(u * n, n));
            next.append(r.begin(), r.end());
          }
          scf::YieldOp::create(b, loc, next);
        });
    for (int64_t u = 0; u < unroll; ++u)
      partial[u] = SmallVector<Value>(
          forOp.getResults().slice(u * init.size(), init.size()));
  }
  for (int64_t j = 0; j < tailSlots; ++j)
    partial[0] = fn(tailSlot(j, pass), partial[0]);
  SmallVector<Value> acc = partial[0];
  if (combine && !init.empty())
    for (int64_t u = 1; u < unroll; ++u)
      acc = (*combine)(b, loc, acc, partial[u]);
  return acc;
}

SmallVector<Value> RowEmitter::reduceRow(ValueRange values,
                                         const Combiner &combine) {
  SmallVector<Value> r =
      groupReduce(kc, values, combine, tpr, rpb, rowInBlock, lane);
  if (split == 1)
    return r;
  // Every thread of a row parks the workgroup's partial (the same value)
  // at the row's slot: with lane 0 alone storing it, LLVM sank the fold of
  // the waves' partials into that thread's branch, leaving all of them
  // loaded (and live) before groupReduce's barrier: the online softmax
  // spilled 260 bytes at 1024 threads (ptxas -v).
  if (splitWorkspace)
    return workspaceCombine(r, combine);
  return clusterCombine(kc, r, combine, split, rpb, rowInBlock,
                        /*writer=*/Value());
}

Value RowEmitter::mask(const Slot &slot, Value v, double identity) {
  if (!slot.valid)
    return v;
  Value id = splatLike(b, loc, constF32(b, loc, identity), v);
  return arith::SelectOp::create(b, loc, slot.valid, v, id);
}

Value RowEmitter::loadColumn(Value m, const Slot &slot) {
  Type et = cast<MemRefType>(m.getType()).getElementType();
  return loadVector(b, loc, m, slot.col, slot.width,
                    vectorAlignment(et, slot.width));
}

void RowEmitter::storeRow(Value outView, const Slot &slot, Value y) {
  Type et = cast<MemRefType>(outView.getType()).getElementType();
  int64_t align = slot.width == 1 ? vectorAlignment(et, 1)
                  : len % vw == 0 ? vectorAlignment(et, slot.width)
                                  : vectorAlignment(et, 1);
  Value v = fromF32(b, loc, y, et);
  if (bulkStore) {
    // Rows past the end are staged too but not copied (flushBulkStore).
    // 128-byte aligned, like the hand-written prototype's buffer (bulk
    // copies need 16; whether a source offset within 128-byte lines costs
    // is not measured yet, docs/perf).
    if (!ldsOut)
      ldsOut = kc.addLds({rpb, len}, et, /*align=*/128);
    emitIfThen(b, loc, slot.valid, [&] {
      storeVector(b, loc, v, ldsOut, ValueRange{rowInBlock, slot.col}, align);
    });
    return;
  }
  Value cond = andGuards(slot.valid, rowValid);
  emitIfThen(b, loc, cond, [&] {
    storeVector(b, loc, v, outView, ValueRange{row, slot.col}, align,
                streaming == StreamingAccess::All);
  });
}

void RowEmitter::storeRowScalar(Value outView, Value y) {
  Type et = cast<MemRefType>(outView.getType()).getElementType();
  Value isLane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                        constIndex(b, loc, 0));
  // Every workgroup of a split row holds its result: rank 0 stores it.
  if (rank)
    isLane0 = arith::AndIOp::create(
        b, loc, isLane0,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rank,
                              constIndex(b, loc, 0)));
  emitIfThen(b, loc, andGuards(isLane0, rowValid), [&] {
    Value v = y.getType() == et ? y : fromF32(b, loc, y, et);
    memref::StoreOp::create(b, loc, v, outView, ValueRange{row});
  });
}

Value RowEmitter::andGuards(Value x, Value y) {
  if (!x)
    return y;
  if (!y)
    return x;
  return arith::AndIOp::create(b, loc, x, y);
}

Slot RowEmitter::vectorSlot(Value s, bool guard, int pass, int64_t staticIdx) {
  Slot slot = vectorSlotAt(s, guard, pass);
  slot.raw = loadRaw(slot, pass, staticIdx, staticIdx, cachedVectors);
  return slot;
}

Slot RowEmitter::tailSlot(int64_t j, int pass) {
  Slot slot = tailSlotAt(j, pass);
  slot.raw = loadRaw(slot, pass, vecsPerThread + j, j, cachedTail);
  return slot;
}

Slot RowEmitter::vectorSlotAt(Value s, bool guard, int pass) {
  Value vi = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, s, constIndex(b, loc, tpr)), lane);
  Slot slot;
  slot.width = vw;
  if (!vecBase) {
    if (guard) {
      Value last = constIndex(b, loc, numVec - 1);
      slot.valid =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, vi, last);
      vi = arith::MinUIOp::create(b, loc, vi, last);
    }
  } else {
    // Within the rank's slice (`guard`: past its sliceVecs vectors), and
    // within the row (the last slice may be short); loads clamped to the
    // row's last vector.
    if (guard)
      slot.valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, vi,
                                         constIndex(b, loc, sliceVecs));
    vi = arith::AddIOp::create(b, loc, vi, vecBase);
    if (sliceShort) {
      Value last = constIndex(b, loc, numVec - 1);
      slot.valid = andGuards(
          slot.valid,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, vi, last));
    }
    if (guard || sliceShort)
      vi = arith::MinUIOp::create(b, loc, vi, constIndex(b, loc, numVec - 1));
  }
  slot.col = arith::MulIOp::create(b, loc, vi, constIndex(b, loc, vw));
  slot.pass = pass;
  return slot;
}

Slot RowEmitter::tailSlotAt(int64_t j, int pass) {
  Value e = arith::AddIOp::create(b, loc, constIndex(b, loc, j * tpr), lane);
  Slot slot;
  slot.width = 1;
  if ((j + 1) * tpr > tail) {
    Value last = constIndex(b, loc, tail - 1);
    slot.valid =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, e, last);
    e = arith::MinUIOp::create(b, loc, e, last);
  }
  slot.col = arith::AddIOp::create(b, loc, e, constIndex(b, loc, numVec * vw));
  slot.pass = pass;
  return slot;
}

Value RowEmitter::loadRaw(const Slot &slot, int pass, int64_t slotIdx,
                          int64_t regIdx, SmallVector<Value> &regs) {
  int64_t align = slot.width == 1 ? vectorAlignment(inType, 1) : inAlign;
  if (cache == RowCache::Registers && pass > 0)
    return regs[regIdx];
  if (cache == RowCache::Lds && pass > 0)
    return loadVector(b, loc, ldsRow, ValueRange{rowInBlock, slot.col},
                      slot.width, align);
  Value v = cache == RowCache::Registers && !preloaded.empty()
                ? preloaded[slotIdx]
                : globalLoad(slot, pass);
  if (cache == RowCache::Registers)
    regs.push_back(v);
  if (cache == RowCache::Lds)
    storeVector(b, loc, v, ldsRow, ValueRange{rowInBlock, slot.col}, align);
  return v;
}

Value RowEmitter::globalLoad(const Slot &slot, int pass) {
  int64_t align = slot.width == 1 ? vectorAlignment(inType, 1) : inAlign;
  // Read once (register / LDS cache) or for the last time (the output
  // pass re-reading global memory).
  bool lastRead = cache != RowCache::None || pass == outputPass;
  bool nontemporal =
      streaming == StreamingAccess::All ||
      streaming == StreamingAccess::LoadsEvictLast ||
      (streaming == StreamingAccess::LoadsEvictFirst && lastRead);
  return loadVector(b, loc, input, ValueRange{rowClamped, slot.col}, slot.width,
                    align, nontemporal);
}

void mlir::hkg::rowop::emitRowSteps(KernelContext &kc, const RowSchedule &sched,
                                    Operation *op, Value input, Value output,
                                    RowCount rows, int64_t len,
                                    function_ref<void(RowEmitter &)> body) {
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  int64_t steps = sched.rowSteps;
  if (steps <= 1) {
    RowEmitter e(kc, sched, op, input, output, rows, len, /*cacheable=*/true);
    body(e);
    e.flushBulkStore(output, /*reuse=*/false);
    return;
  }
  // row_steps > 1 needs a static count (the schedule verifier).
  int64_t groups = llvm::divideCeil(rows.getStatic(), sched.rowsPerBlock);
  Value base = arith::MulIOp::create(b, loc, blockIdX(b, loc),
                                     constIndex(b, loc, steps));
  SmallVector<Value> first =
      RowEmitter(kc, sched, op, input, output, rows, len, true, base).loadRow();
  auto loop = scf::ForOp::create(b, loc, constIndex(b, loc, 0),
                                 constIndex(b, loc, steps),
                                 constIndex(b, loc, 1), first);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value group = arith::AddIOp::create(b, loc, base, loop.getInductionVar());
    // The next group's row (the last group loads its own again: an L2 hit).
    Value next = arith::MinUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, group, constIndex(b, loc, 1)),
        constIndex(b, loc, groups - 1));
    SmallVector<Value> nextRow =
        RowEmitter(kc, sched, op, input, output, rows, len, true, next)
            .loadRow();
    RowEmitter e(kc, sched, op, input, output, rows, len, true, group,
                 loop.getRegionIterArgs());
    body(e);
    e.flushBulkStore(output, /*reuse=*/true);
    scf::YieldOp::create(b, loc, nextRow);
  }
  kc.grid = {groups / steps, 1, 1};
}
