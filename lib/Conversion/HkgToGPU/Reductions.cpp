//===- Reductions.cpp - row ops: reduce, softmax, layernorm, rmsnorm ------===//
//
// Each row op views its input as [rows, len] (len = the reduced trailing
// dims). A workgroup of `threads` threads handles `rows_per_block` rows with
// tpr = threads / rows_per_block consecutive threads per row. The row is cut
// into len / vector_width vectors; thread `lane` of a row owns vectors
// lane, lane + tpr, lane + 2 tpr, ... (coalesced, 16-byte accesses), and the
// len % vector_width tail elements one at a time. Vectors are aligned when
// vector_width divides len; otherwise they use element alignment.
//
// A pass over the row visits the thread's vectors:
//  - row_cache = registers: fully unrolled; the first pass loads each vector
//    once and later passes reuse the values;
//  - row_cache = none: an scf.for over groups of `unroll` vectors (all loads
//    of a group issued first), every pass re-reading global memory;
//  - row_cache = lds: like none, but the first pass also parks the row in an
//    LDS buffer [rows_per_block, len] that later passes read (each thread
//    reads back what it wrote, so no barrier is needed).
// With `bulk_store = 1` (sm_90) the output pass writes the group's rows
// into an LDS buffer [rows_per_block, len] instead of global memory; after
// a proxy fence and a barrier, thread 0 copies the group's rows (contiguous
// in the output) with one cp.async.bulk and waits until the copy has read
// the buffer, so that the workgroup may exit or reuse it.
// Partial results are kept in `unroll` independent accumulators, folded,
// then reduced over the row's threads (gpu.shuffle butterfly; across waves
// through a small LDS array, only when a row spans several waves).
//
// Numerics: everything is accumulated in f32. Softmax subtracts the row max
// (`online = 1`: one pass computing the running max and rescaled sum
// together; `online = 0`: a max pass, then a sum pass). Layernorm computes
// the mean, then the variance as the mean of squared deviations (two-pass,
// exact to rounding, no cancellation).
//
//===----------------------------------------------------------------------===//

#include "GPUBuildingBlocks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::hkg;

namespace {
/// Elements of a row one thread visits at once: a vector, or one tail
/// element.
struct Slot {
  Value col;     // column of the first element (index)
  int64_t width; // elements
  Value valid;   // i1, or null when always valid
  Value raw;     // vector<width x input type>
  int pass;      // the pass visiting the slot
};

using SlotFn = function_ref<SmallVector<Value>(const Slot &, ValueRange)>;

class RowEmitter {
public:
  /// `rowGroup`, when given, is the workgroup's group of `rows_per_block`
  /// rows (default: the block id); `preloaded`, with `row_cache =
  /// registers`, the row's raw vectors and tail elements already loaded
  /// (loadRow of an emitter of the same group), which pass 0 takes instead
  /// of loading.
  RowEmitter(KernelContext &kc, Operation *op, Value input, Value output,
             int64_t rows, int64_t len, bool cacheable,
             Value rowGroup = Value(), ValueRange preloaded = {})
      : kc(kc), b(kc.b), loc(kc.loc), rows(rows), len(len),
        preloaded(preloaded.begin(), preloaded.end()) {
    const ResolvedSchedule &s = kc.schedule;
    vw = s.getInt("vector_width");
    threads = s.getInt("threads");
    rpb = s.getInt("rows_per_block");
    unroll = s.getInt("unroll");
    cache = cacheable ? s.getKeyword("row_cache") : "none";
    tpr = threads / rpb;
    numVec = len / vw;
    tail = len % vw;
    vecsPerThread = llvm::divideCeil(numVec, tpr);
    tailSlots = llvm::divideCeil(tail, tpr);
    inType = cast<MemRefType>(input.getType()).getElementType();
    inAlign = len % vw == 0 ? vectorAlignment(inType, vw)
                            : vectorAlignment(inType, 1);
    kc.grid = {static_cast<int64_t>(llvm::divideCeil(rows, rpb)), 1, 1};
    kc.block = {threads, 1, 1};

    this->input = reshapeView(b, loc, input, {rows, len});
    this->output = output;
    tid = threadIdX(b, loc);
    Value cTpr = constIndex(b, loc, tpr);
    rowInBlock = arith::DivUIOp::create(b, loc, tid, cTpr);
    lane = arith::RemUIOp::create(b, loc, tid, cTpr);
    if (!rowGroup)
      rowGroup = blockIdX(b, loc);
    groupFirstRow =
        arith::MulIOp::create(b, loc, rowGroup, constIndex(b, loc, rpb));
    row = arith::AddIOp::create(b, loc, groupFirstRow, rowInBlock);
    rowClamped = row;
    if (rows % rpb != 0) {
      rowValid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                                       constIndex(b, loc, rows));
      rowClamped =
          arith::MinUIOp::create(b, loc, row, constIndex(b, loc, rows - 1));
    }
    if (cache == "lds")
      ldsRow = kc.addLds({rpb, len}, inType);
    bulkStore = cacheable && s.has("bulk_store") && s.getInt("bulk_store") == 1;
    // Which form a bf16 row takes in registers is measured, per op (H200,
    // 8192x8192, docs/perf/README.md 2026-12-01): packed, rmsnorm 70.4 us
    // against 71.1 with f32 values; f32, softmax 70.6 against 78.0 packed
    // (its exp pass is issue-bound: the conversions are extra instructions
    // there) and layernorm 70.7 against 71.5. The discardable attributes
    // `hkg.row_f32_cache` / `hkg.row_bf16_cache` force one form for
    // side-by-side measurements.
    // The experimental `hkg.streaming_access` marks the row's global loads
    // and the output's stores nontemporal (read / written once); the load
    // cache policy (`hkg.load_eviction`, default on Hopper) the row's loads
    // only (loadRaw).
    streaming = streamingAccessOf(op, kc.target);
    // With row_steps > 1 the next row's raw values are live too: the row
    // stays packed (loadRow).
    bool packedByDefault =
        isa<RMSNormOp>(op) || (s.has("row_steps") && s.getInt("row_steps") > 1);
    rematBF16 = cache == "registers" && inType.isBF16() &&
                !op->hasAttr("hkg.row_f32_cache") &&
                (packedByDefault || op->hasAttr("hkg.row_bf16_cache"));
  }

  /// Issues the loads of pass 0 of the row (`row_cache = registers`): the
  /// thread's vectors, then its tail elements, as `preloaded` takes them.
  SmallVector<Value> loadRow() {
    SmallVector<Value> raws;
    for (int64_t s = 0; s < vecsPerThread; ++s)
      raws.push_back(globalLoad(
          vectorSlotAt(constIndex(b, loc, s), (s + 1) * tpr > numVec, 0), 0));
    for (int64_t j = 0; j < tailSlots; ++j)
      raws.push_back(globalLoad(tailSlotAt(j, 0), 0));
    return raws;
  }

  /// The slot's elements as f32. A bf16 row cached in registers is kept as
  /// bf16 between passes (half the registers of f32 values; with the
  /// grouped column loads, sm_90's default rmsnorm needs 40 registers
  /// instead of 48, so more rows are in flight per SM) and converted again
  /// by each later pass.
  Value f32(const Slot &slot) {
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

  /// A column vector (`loadColumn`) as f32, converted where it is used; bf16
  /// stays packed in its loaded words until then.
  Value columnF32(Value raw) {
    if (getElementTypeOrSelf(raw.getType()).isBF16())
      return bf16ToF32Bits(b, loc, raw);
    return toF32(b, loc, raw);
  }

  /// The last pass of a norm: `emit(slot, columns)` stores the slot's
  /// outputs, `columns` = `loadColumns(slot)` (weight / bias vectors). With
  /// the row in registers every column load of the thread is issued before
  /// the first store of its group (loads may not move across stores that
  /// could alias, so one load per store would put a cache round trip before
  /// each store);
  /// otherwise each group's column loads come with its slot.
  void lastPass(int passIdx, size_t numColumns,
                function_ref<SmallVector<Value>(const Slot &)> loadColumns,
                function_ref<void(const Slot &, ArrayRef<Value>)> emit) {
    outputPass = passIdx;
    if (cache != "registers") {
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
        1, static_cast<size_t>(std::max<int64_t>(vecsPerThread, 1)) /
               (2 * perSlot));
    for (size_t first = 0; first < slots.size(); first += group) {
      size_t last = std::min(slots.size(), first + group);
      SmallVector<SmallVector<Value>> columns;
      for (size_t i = first; i < last; ++i)
        columns.push_back(loadColumns(slots[i]));
      for (size_t i = first; i < last; ++i)
        emit(slots[i], columns[i - first]);
    }
  }

  /// Visits the thread's slots of the row in pass `pass`, threading
  /// accumulators through `fn`; `unroll` independent accumulator sets are
  /// folded with `combine` at the end. Returns the folded accumulators.
  SmallVector<Value> pass(int pass, ValueRange init, SlotFn fn,
                          const Combiner *combine) {
    SmallVector<SmallVector<Value>> partial(unroll, SmallVector<Value>(init));
    if (cache == "registers") {
      for (int64_t s = 0; s < vecsPerThread; ++s) {
        Slot slot =
            vectorSlot(constIndex(b, loc, s), (s + 1) * tpr > numVec, pass, s);
        partial[s % unroll] = fn(slot, partial[s % unroll]);
      }
    } else if (vecsPerThread > 0) {
      int64_t groups = llvm::divideCeil(vecsPerThread, unroll);
      bool guard = numVec % (tpr * unroll) != 0;
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

  /// Reduces per-thread values over the row's threads.
  SmallVector<Value> reduceRow(ValueRange values, const Combiner &combine) {
    return groupReduce(kc, values, combine, tpr, rpb, rowInBlock, lane);
  }

  /// Replaces the invalid lanes of `v` (f32) by `identity`.
  Value mask(const Slot &slot, Value v, double identity) {
    if (!slot.valid)
      return v;
    Value id = splatLike(b, loc, constF32(b, loc, identity), v);
    return arith::SelectOp::create(b, loc, slot.valid, v, id);
  }

  /// Loads `width` elements of a [len] operand (weight, bias) at the slot,
  /// in the operand's element type.
  Value loadColumn(Value m, const Slot &slot) {
    Type et = cast<MemRefType>(m.getType()).getElementType();
    return loadVector(b, loc, m, slot.col, slot.width,
                      vectorAlignment(et, slot.width));
  }

  /// Stores the f32 values `y` of the slot into the [rows, len] output.
  void storeRow(Value outView, const Slot &slot, Value y) {
    Type et = cast<MemRefType>(outView.getType()).getElementType();
    int64_t align = slot.width == 1 ? vectorAlignment(et, 1)
                    : len % vw == 0 ? vectorAlignment(et, slot.width)
                                    : vectorAlignment(et, 1);
    Value v = fromF32(b, loc, y, et);
    if (bulkStore) {
      // Rows past the end are staged too but not copied (flushBulkStore).
      // 128-byte aligned, like the prototype's buffer (bulk copies need 16;
      // a source offset within 128-byte lines is a lead for call 4's miss,
      // docs/perf 2026-12-03 session 12).
      if (!ldsOut)
        ldsOut = kc.addLds({rpb, len}, et, /*align=*/128);
      guarded(slot.valid, [&] {
        storeVector(b, loc, v, ldsOut, ValueRange{rowInBlock, slot.col}, align);
      });
      return;
    }
    Value cond = andGuards(slot.valid, rowValid);
    guarded(cond, [&] {
      storeVector(b, loc, v, outView, ValueRange{row, slot.col}, align,
                  streaming == StreamingAccess::All);
    });
  }

  /// `bulk_store = 1`: after the output pass, copies the group's staged
  /// rows to the output (`outArg`, the kernel's output memref) with one
  /// bulk copy from thread 0, which then waits until the copy has read the
  /// LDS buffer. `reuse`: the buffer is written again later (row_steps), so
  /// a barrier keeps the other threads from writing it before that.
  void flushBulkStore(Value outArg, bool reuse) {
    if (!bulkStore || !ldsOut)
      return;
    MLIRContext *ctx = b.getContext();
    // Bulk copies and proxy fences need PTX ISA 8.0
    // (hkg-nvvm-arch-specific-target).
    kc.func->setAttr("hkg.ptx80", b.getUnitAttr());
    // Each thread's LDS stores, then the async proxy's reads of them.
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    gpu::BarrierOp::create(b, loc);
    Type et = cast<MemRefType>(ldsOut.getType()).getElementType();
    int64_t rowBytes = len * (et.getIntOrFloatBitWidth() / 8);
    Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                          constIndex(b, loc, 0));
    guarded(isFirst, [&] {
      Value count = constIndex(b, loc, rpb);
      if (rows % rpb != 0)
        count = arith::MinUIOp::create(
            b, loc, count,
            arith::SubIOp::create(b, loc, constIndex(b, loc, rows),
                                  groupFirstRow));
      Type i64 = b.getI64Type();
      auto asI64 = [&](Value index) -> Value {
        return arith::IndexCastOp::create(b, loc, i64, index);
      };
      Value bytes = arith::IndexCastOp::create(
          b, loc, b.getI32Type(),
          arith::MulIOp::create(b, loc, count, constIndex(b, loc, rowBytes)));
      Value base =
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, outArg);
      Value dstAddr = arith::AddIOp::create(
          b, loc, base,
          arith::MulIOp::create(b, loc, groupFirstRow,
                                constIndex(b, loc, rowBytes)));
      Value generic = LLVM::IntToPtrOp::create(
          b, loc, LLVM::LLVMPointerType::get(ctx), asI64(dstAddr));
      Value dst = LLVM::AddrSpaceCastOp::create(
          b, loc, LLVM::LLVMPointerType::get(ctx, 1), generic);
      Value src = LLVM::IntToPtrOp::create(
          b, loc, LLVM::LLVMPointerType::get(ctx, 3),
          asI64(
              memref::ExtractAlignedPointerAsIndexOp::create(b, loc, ldsOut)));
      NVVM::CpAsyncBulkSharedCTAToGlobalOp::create(b, loc, dst, src, bytes,
                                                   /*l2CacheHint=*/Value(),
                                                   /*byteMask=*/Value());
      NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
      NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, /*group=*/0,
                                           /*read=*/UnitAttr::get(ctx));
    });
    if (reuse)
      gpu::BarrierOp::create(b, loc);
  }

  /// Stores the scalar f32 `y` of the row into the [rows] output, from lane 0.
  void storeRowScalar(Value outView, Value y) {
    Type et = cast<MemRefType>(outView.getType()).getElementType();
    Value isLane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          lane, constIndex(b, loc, 0));
    guarded(andGuards(isLane0, rowValid), [&] {
      memref::StoreOp::create(b, loc, fromF32(b, loc, y, et), outView,
                              ValueRange{row});
    });
  }

  Value andGuards(Value x, Value y) {
    if (!x)
      return y;
    if (!y)
      return x;
    return arith::AndIOp::create(b, loc, x, y);
  }

  void guarded(Value cond, function_ref<void()> body) {
    if (!cond) {
      body();
      return;
    }
    auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    body();
  }

  KernelContext &kc;
  OpBuilder &b;
  Location loc;
  int64_t rows, len, vw, threads, rpb, unroll, tpr;
  int64_t numVec, tail, vecsPerThread, tailSlots, inAlign;
  StringRef cache;
  bool rematBF16 = false;
  bool bulkStore = false;
  StreamingAccess streaming = StreamingAccess::None;
  /// The pass that stores the output (set when it is emitted): with
  /// `row_cache = none` its loads are the row's last read.
  int outputPass = -1;
  SmallVector<int> rematPasses; // later passes, in their order of emission
  Type inType;
  Value input, output, tid, rowInBlock, lane, row, rowClamped, groupFirstRow;
  Value rowValid, ldsRow, ldsOut;

private:
  /// The slot of the thread's `s`-th vector (`staticIdx` >= 0 when `s` is
  /// a constant, for the register cache).
  Slot vectorSlot(Value s, bool guard, int pass, int64_t staticIdx) {
    Slot slot = vectorSlotAt(s, guard, pass);
    slot.raw = loadRaw(slot, pass, staticIdx, staticIdx, cachedVectors);
    return slot;
  }

  Slot tailSlot(int64_t j, int pass) {
    Slot slot = tailSlotAt(j, pass);
    slot.raw = loadRaw(slot, pass, vecsPerThread + j, j, cachedTail);
    return slot;
  }

  /// The slot of the thread's `s`-th vector, without its values.
  Slot vectorSlotAt(Value s, bool guard, int pass) {
    Value vi = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, s, constIndex(b, loc, tpr)),
        lane);
    Slot slot;
    slot.width = vw;
    if (guard) {
      Value last = constIndex(b, loc, numVec - 1);
      slot.valid =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, vi, last);
      vi = arith::MinUIOp::create(b, loc, vi, last);
    }
    slot.col = arith::MulIOp::create(b, loc, vi, constIndex(b, loc, vw));
    slot.pass = pass;
    return slot;
  }

  /// The slot of the thread's `j`-th tail element, without its value.
  Slot tailSlotAt(int64_t j, int pass) {
    Value e = arith::AddIOp::create(b, loc, constIndex(b, loc, j * tpr), lane);
    Slot slot;
    slot.width = 1;
    if ((j + 1) * tpr > tail) {
      Value last = constIndex(b, loc, tail - 1);
      slot.valid =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, e, last);
      e = arith::MinUIOp::create(b, loc, e, last);
    }
    slot.col =
        arith::AddIOp::create(b, loc, e, constIndex(b, loc, numVec * vw));
    slot.pass = pass;
    return slot;
  }

  /// For the register cache: `slotIdx` is the slot's index in the thread's
  /// row (vectors, then tail elements: `preloaded`), `regIdx` its index in
  /// `regs`.
  Value loadRaw(const Slot &slot, int pass, int64_t slotIdx, int64_t regIdx,
                SmallVector<Value> &regs) {
    int64_t align = slot.width == 1 ? vectorAlignment(inType, 1) : inAlign;
    if (cache == "registers" && pass > 0)
      return regs[regIdx];
    if (cache == "lds" && pass > 0)
      return loadVector(b, loc, ldsRow, ValueRange{rowInBlock, slot.col},
                        slot.width, align);
    Value v = cache == "registers" && !preloaded.empty()
                  ? preloaded[slotIdx]
                  : globalLoad(slot, pass);
    if (cache == "registers")
      regs.push_back(v);
    if (cache == "lds")
      storeVector(b, loc, v, ldsRow, ValueRange{rowInBlock, slot.col}, align);
    return v;
  }

  /// The slot's values from the row in global memory.
  Value globalLoad(const Slot &slot, int pass) {
    int64_t align = slot.width == 1 ? vectorAlignment(inType, 1) : inAlign;
    // Read once (register / LDS cache) or for the last time (the output
    // pass re-reading global memory).
    bool lastRead = cache != "none" || pass == outputPass;
    bool nontemporal =
        streaming == StreamingAccess::All ||
        streaming == StreamingAccess::LoadsEvictLast ||
        (streaming == StreamingAccess::LoadsEvictFirst && lastRead);
    return loadVector(b, loc, input, ValueRange{rowClamped, slot.col},
                      slot.width, align, nontemporal);
  }

  SmallVector<Value> cachedVectors, cachedTail, preloaded;
};

/// `row_steps` = k > 1 (layernorm, rmsnorm; `row_cache = registers`): each
/// workgroup handles k groups of `rows_per_block` rows one after the other,
/// loading the next group's row while it computes and stores the current
/// one (the raw values carried by an scf.for), so that its loads stay in
/// flight across the row's reductions and stores. `body` emits one group's
/// row op with the emitter it is given.
static void emitRowSteps(KernelContext &kc, Operation *op, Value input,
                         Value output, int64_t rows, int64_t len,
                         function_ref<void(RowEmitter &)> body) {
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  int64_t steps =
      kc.schedule.has("row_steps") ? kc.schedule.getInt("row_steps") : 1;
  if (steps <= 1) {
    RowEmitter e(kc, op, input, output, rows, len, /*cacheable=*/true);
    body(e);
    e.flushBulkStore(output, /*reuse=*/false);
    return;
  }
  int64_t groups = llvm::divideCeil(rows, kc.schedule.getInt("rows_per_block"));
  Value base = arith::MulIOp::create(b, loc, blockIdX(b, loc),
                                     constIndex(b, loc, steps));
  SmallVector<Value> first =
      RowEmitter(kc, op, input, output, rows, len, true, base).loadRow();
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
        RowEmitter(kc, op, input, output, rows, len, true, next).loadRow();
    RowEmitter e(kc, op, input, output, rows, len, true, group,
                 loop.getRegionIterArgs());
    body(e);
    e.flushBulkStore(output, /*reuse=*/true);
    scf::YieldOp::create(b, loc, nextRow);
  }
  kc.grid = {groups / steps, 1, 1};
}
} // namespace

//===----------------------------------------------------------------------===//
// hkg.reduce
//===----------------------------------------------------------------------===//

LogicalResult mlir::hkg::lowerReduce(ReduceOp op, KernelContext &kc) {
  auto in = op.getInput().getType();
  int64_t rows = op.getResult().getType().getNumElements();
  int64_t len = in.getNumElements() / rows;
  ReduceKind kind = op.getKind();
  RowEmitter e(kc, op, kc.args[0], kc.args[1], rows, len, /*cacheable=*/false);
  e.outputPass = 0; // its one read of the row is the last
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  Combiner combine = makeCombiner(kind);
  Value identity = reductionIdentity(b, loc, kind);
  double idValue =
      cast<FloatAttr>(
          cast<arith::ConstantOp>(identity.getDefiningOp()).getValue())
          .getValueAsDouble();
  SmallVector<Value> acc = e.pass(
      0, identity,
      [&](const Slot &s, ValueRange a) -> SmallVector<Value> {
        Value x = e.mask(s, e.f32(s), idValue);
        return combine(b, loc, a, reduceVector(b, loc, x, kind));
      },
      &combine);
  Value r = e.reduceRow(acc, combine).front();
  e.storeRowScalar(reshapeView(b, loc, kc.args[1], {rows}), r);
  return success();
}

//===----------------------------------------------------------------------===//
// hkg.softmax
//===----------------------------------------------------------------------===//

LogicalResult mlir::hkg::lowerSoftmax(SoftmaxOp op, KernelContext &kc) {
  auto in = op.getInput().getType();
  if (static_cast<int64_t>(op.getAxis()) != in.getRank() - 1)
    return op.emitOpError("softmax along axis ")
           << op.getAxis() << " is not yet supported by hkg-lower-to-gpu; "
           << "expected the last axis " << in.getRank() - 1;
  int64_t len = in.getShape().back();
  int64_t rows = in.getNumElements() / len;
  RowEmitter e(kc, op, kc.args[0], kc.args[1], rows, len, /*cacheable=*/true);
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  double inf = std::numeric_limits<double>::infinity();
  Combiner maxC = makeCombiner(ReduceKind::Max);
  Combiner sumC = makeCombiner(ReduceKind::Sum);
  Value m, s;
  if (kc.schedule.getInt("online")) {
    // (max, sum of exp(x - max)) pairs, rescaled when the max grows.
    Combiner pairC = makeOnlineSoftmaxCombiner();
    SmallVector<Value> init = {constF32(b, loc, -inf), constF32(b, loc, 0.0)};
    SmallVector<Value> acc = e.pass(
        0, init,
        [&](const Slot &sl, ValueRange a) -> SmallVector<Value> {
          Value x = e.mask(sl, e.f32(sl), -inf);
          Value vm = reduceVector(b, loc, x, ReduceKind::Max);
          Value mNew = arith::MaxNumFOp::create(b, loc, a[0], vm);
          Value scaled = arith::MulFOp::create(
              b, loc, a[1], expDiffOrZero(b, loc, a[0], mNew));
          Value ex = reduceVector(b, loc, expDiffOrZero(b, loc, x, mNew),
                                  ReduceKind::Sum);
          return {mNew, arith::AddFOp::create(b, loc, scaled, ex)};
        },
        &pairC);
    SmallVector<Value> r = e.reduceRow(acc, pairC);
    m = r[0];
    s = r[1];
  } else {
    Value acc =
        e.pass(
             0, constF32(b, loc, -inf),
             [&](const Slot &sl, ValueRange a) -> SmallVector<Value> {
               Value x = e.mask(sl, e.f32(sl), -inf);
               return maxC(b, loc, a, reduceVector(b, loc, x, ReduceKind::Max));
             },
             &maxC)
            .front();
    m = e.reduceRow(acc, maxC).front();
    Value sum = e.pass(
                     1, constF32(b, loc, 0.0),
                     [&](const Slot &sl, ValueRange a) -> SmallVector<Value> {
                       Value x = e.mask(sl, e.f32(sl), -inf);
                       Value ex = expDiffOrZero(b, loc, x, m);
                       return sumC(b, loc, a,
                                   reduceVector(b, loc, ex, ReduceKind::Sum));
                     },
                     &sumC)
                    .front();
    s = e.reduceRow(sum, sumC).front();
  }
  Value rcp = arith::DivFOp::create(b, loc, constF32(b, loc, 1.0), s);
  Value out = reshapeView(b, loc, kc.args[1], {rows, len});
  e.outputPass = 2;
  e.pass(
      2, {},
      [&](const Slot &sl, ValueRange) -> SmallVector<Value> {
        Value x = e.f32(sl);
        Value diff = arith::SubFOp::create(b, loc, x, splatLike(b, loc, m, x));
        Value y =
            arith::MulFOp::create(b, loc, math::ExpOp::create(b, loc, diff),
                                  splatLike(b, loc, rcp, x));
        e.storeRow(out, sl, y);
        return {};
      },
      nullptr);
  e.flushBulkStore(kc.args[1], /*reuse=*/false);
  return success();
}

//===----------------------------------------------------------------------===//
// hkg.layernorm and hkg.rmsnorm
//===----------------------------------------------------------------------===//

/// The row's sum of `f(x)` over valid elements, reduced over the row.
/// `onSlot`, when given, is called on each slot before its sum.
static Value rowSum(RowEmitter &e, int pass, function_ref<Value(Value)> f,
                    function_ref<void(const Slot &)> onSlot = nullptr) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Combiner sumC = makeCombiner(ReduceKind::Sum);
  Value acc =
      e.pass(
           pass, constF32(b, loc, 0.0),
           [&](const Slot &sl, ValueRange a) -> SmallVector<Value> {
             if (onSlot)
               onSlot(sl);
             Value v = e.mask(sl, f(e.f32(sl)), 0.0);
             return sumC(b, loc, a, reduceVector(b, loc, v, ReduceKind::Sum));
           },
           &sumC)
          .front();
  return e.reduceRow(acc, sumC).front();
}

/// Experimental, opt-in with the discardable attribute
/// `hkg.prefetch_columns` on a layernorm / rmsnorm op (not a schedule knob
/// yet; for side-by-side measurements): with row_cache = registers, the
/// weight / bias vectors are loaded in the first pass, next to the row's
/// loads, instead of after the row reductions, so their latency is not on
/// the row's critical path (costs registers).
namespace {
struct ColumnPrefetch {
  ColumnPrefetch(Operation *op, RowEmitter &e, ValueRange columns)
      : e(e), columns(columns.begin(), columns.end()) {
    enabled = op->hasAttr("hkg.prefetch_columns") && e.cache == "registers";
  }
  /// Called on every slot of the first pass.
  void onSlot(const Slot &sl) {
    if (!enabled)
      return;
    // Kept in the column's type (bf16: half the registers of f32) until
    // its use.
    for (Value c : columns) {
      if (!c) {
        loaded.push_back(Value());
        continue;
      }
      Type et = cast<MemRefType>(c.getType()).getElementType();
      loaded.push_back(loadVector(e.b, e.loc, c, sl.col, sl.width,
                                  vectorAlignment(et, sl.width)));
    }
  }
  /// The column `i` (of `columns`) of the next slot of the last pass, in
  /// the column's element type (converted to f32 where it is used, so that
  /// the last pass's batched loads hold packed values).
  Value get(unsigned i, const Slot &sl) {
    if (!enabled)
      return columns[i] ? e.loadColumn(columns[i], sl) : Value();
    Value v = loaded[next + i];
    if (i + 1 == columns.size())
      next += columns.size();
    return v;
  }
  RowEmitter &e;
  SmallVector<Value> columns, loaded;
  size_t next = 0;
  bool enabled = false;
};
} // namespace

/// `moments = merged`: the row's mean and sum of squared deviations with a
/// single row reduction. Pass 0 sums each thread's elements and counts
/// them; pass 1 sums the squared deviations from the thread's own mean; the
/// (count, mean, M2) triples are combined over the row by Chan et al.'s
/// pairwise update (n = na + nb, d = mb - ma, mean = ma + d nb / n,
/// M2 = M2a + M2b + d^2 na nb / n), which stays exact where E[x^2] - mean^2
/// would cancel.
static std::pair<Value, Value> mergedMoments(RowEmitter &e,
                                             ColumnPrefetch &pf) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Combiner sumC = makeCombiner(ReduceKind::Sum);
  Combiner pairSumC = [&](OpBuilder &bb, Location l, ValueRange x,
                          ValueRange y) -> SmallVector<Value> {
    return {arith::AddFOp::create(bb, l, x[0], y[0]),
            arith::AddFOp::create(bb, l, x[1], y[1])};
  };
  SmallVector<Value> sc = e.pass(
      0, {constF32(b, loc, 0.0), constF32(b, loc, 0.0)},
      [&](const Slot &sl, ValueRange a) -> SmallVector<Value> {
        pf.onSlot(sl);
        Value x = e.f32(sl);
        Value v = e.mask(sl, x, 0.0);
        // The slot's width, or 0 where it is masked off.
        Value n = constF32(b, loc, static_cast<double>(sl.width));
        if (sl.valid)
          n = arith::SelectOp::create(b, loc, sl.valid, n,
                                      constF32(b, loc, 0.0));
        return pairSumC(b, loc, a,
                        {reduceVector(b, loc, v, ReduceKind::Sum), n});
      },
      &pairSumC);
  Value count = sc[1];
  Value localMean = arith::DivFOp::create(
      b, loc, sc[0],
      arith::MaxNumFOp::create(b, loc, count, constF32(b, loc, 1.0)));
  Value m2 =
      e.pass(
           1, constF32(b, loc, 0.0),
           [&](const Slot &sl, ValueRange a) -> SmallVector<Value> {
             Value x = e.f32(sl);
             Value d = arith::SubFOp::create(b, loc, x,
                                             splatLike(b, loc, localMean, x));
             Value v = e.mask(
                 sl, arith::MulFOp::create(b, loc, d, d).getResult(), 0.0);
             return sumC(b, loc, a, reduceVector(b, loc, v, ReduceKind::Sum));
           },
           &sumC)
          .front();
  Combiner chanC = [](OpBuilder &bb, Location l, ValueRange x,
                      ValueRange y) -> SmallVector<Value> {
    Value n = arith::AddFOp::create(bb, l, x[0], y[0]);
    // A weight, not a result: the approximate reciprocal (rcp.approx on
    // NVIDIA, v_rcp_f32 on AMD; about 1 ulp) keeps the correctly rounded
    // division's registers out of the reduction tree.
    Value inv = arith::DivFOp::create(
        bb, l, constF32(bb, l, 1.0),
        arith::MaxNumFOp::create(bb, l, n, constF32(bb, l, 1.0)),
        arith::FastMathFlags::afn);
    Value d = arith::SubFOp::create(bb, l, y[1], x[1]);
    Value wb = arith::MulFOp::create(bb, l, y[0], inv);
    Value mean =
        arith::AddFOp::create(bb, l, x[1], arith::MulFOp::create(bb, l, d, wb));
    Value cross =
        arith::MulFOp::create(bb, l, arith::MulFOp::create(bb, l, d, d),
                              arith::MulFOp::create(bb, l, x[0], wb));
    Value m2 = arith::AddFOp::create(
        bb, l, arith::AddFOp::create(bb, l, x[2], y[2]), cross);
    return {n, mean, m2};
  };
  SmallVector<Value> r = e.reduceRow({count, localMean, m2}, chanC);
  return {r[1], r[2]};
}

LogicalResult mlir::hkg::lowerLayerNorm(LayerNormOp op, KernelContext &kc) {
  auto in = op.getInput().getType();
  int64_t len = in.getShape().back();
  int64_t rows = in.getNumElements() / len;
  unsigned argIdx = 1;
  Value weight = op.getWeight() ? kc.args[argIdx++] : Value();
  Value bias = op.getBias() ? kc.args[argIdx++] : Value();
  Value outArg = kc.args.back();
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  emitRowSteps(kc, op, kc.args[0], outArg, rows, len, [&](RowEmitter &e) {
    Value invLen = constF32(b, loc, 1.0 / static_cast<double>(len));
    ColumnPrefetch pf(op, e, {weight, bias});
    Value mean, sq;
    if (kc.schedule.getKeyword("moments") == "merged") {
      std::tie(mean, sq) = mergedMoments(e, pf);
    } else {
      Value sum = rowSum(
          e, 0, [](Value x) { return x; },
          [&](const Slot &sl) { pf.onSlot(sl); });
      mean = arith::MulFOp::create(b, loc, sum, invLen);
      sq = rowSum(e, 1, [&](Value x) {
        Value d = arith::SubFOp::create(b, loc, x, splatLike(b, loc, mean, x));
        return arith::MulFOp::create(b, loc, d, d).getResult();
      });
    }
    Value var = arith::MulFOp::create(b, loc, sq, invLen);
    Value eps = constF32(b, loc, op.getEps().convertToDouble());
    Value rstd =
        math::RsqrtOp::create(b, loc, arith::AddFOp::create(b, loc, var, eps));
    Value out = reshapeView(b, loc, outArg, {rows, len});
    e.lastPass(
        2, (weight ? 1 : 0) + (bias ? 1 : 0),
        [&](const Slot &sl) -> SmallVector<Value> {
          Value w = pf.get(0, sl);
          return {w, pf.get(1, sl)};
        },
        [&](const Slot &sl, ArrayRef<Value> cols) {
          Value x = e.f32(sl);
          Value d =
              arith::SubFOp::create(b, loc, x, splatLike(b, loc, mean, x));
          Value y =
              arith::MulFOp::create(b, loc, d, splatLike(b, loc, rstd, x));
          if (weight)
            y = arith::MulFOp::create(b, loc, y, e.columnF32(cols[0]));
          if (bias)
            y = arith::AddFOp::create(b, loc, y, e.columnF32(cols[1]));
          e.storeRow(out, sl, y);
        });
  });
  return success();
}

LogicalResult mlir::hkg::lowerRMSNorm(RMSNormOp op, KernelContext &kc) {
  auto in = op.getInput().getType();
  int64_t len = in.getShape().back();
  int64_t rows = in.getNumElements() / len;
  Value weight = kc.args[1];
  Value outArg = kc.args[2];
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  emitRowSteps(kc, op, kc.args[0], outArg, rows, len, [&](RowEmitter &e) {
    ColumnPrefetch pf(op, e, {weight});
    Value sq = rowSum(
        e, 0,
        [&](Value x) {
          return arith::MulFOp::create(b, loc, x, x).getResult();
        },
        [&](const Slot &sl) { pf.onSlot(sl); });
    Value ms = arith::MulFOp::create(
        b, loc, sq, constF32(b, loc, 1.0 / static_cast<double>(len)));
    Value eps = constF32(b, loc, op.getEps().convertToDouble());
    Value rstd =
        math::RsqrtOp::create(b, loc, arith::AddFOp::create(b, loc, ms, eps));
    Value out = reshapeView(b, loc, outArg, {rows, len});
    e.lastPass(
        1, 1,
        [&](const Slot &sl) -> SmallVector<Value> { return {pf.get(0, sl)}; },
        [&](const Slot &sl, ArrayRef<Value> cols) {
          Value x = e.f32(sl);
          Value y =
              arith::MulFOp::create(b, loc, x, splatLike(b, loc, rstd, x));
          y = arith::MulFOp::create(b, loc, y, e.columnF32(cols[0]));
          e.storeRow(out, sl, y);
        });
  });
  return success();
}
