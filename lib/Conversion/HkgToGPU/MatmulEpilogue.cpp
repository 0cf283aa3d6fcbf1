//===- MatmulEpilogue.cpp - the matmul kernel's stores and split-K --------===//
//
// The end of the matmul kernel: the f32 accumulators of every thread, summed
// across the cluster first with split_k > 1, go through the op's epilogue
// region (cloned per element, each epilogue operand read through its
// [batch, M or 1, N or 1] view) to the result. Edge tiles store one guarded
// element at a time.
//
//===----------------------------------------------------------------------===//

#include "GPUBuildingBlocks.h"
#include "MatmulTilePipeline.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::matmul;

void TilePipeline::reduceAcrossClusterAndStore(
    ArrayRef<Value> acc, Value rank,
    function_ref<void(ArrayRef<Value>)> store) {
  Type f32 = b.getF32Type();
  SmallVector<int64_t> offsets;
  int64_t perThread = 0;
  for (Value v : acc) {
    offsets.push_back(perThread);
    perThread += cast<VectorType>(v.getType()).getNumElements();
  }
  Value partials =
      addWorkgroupBuffer(b, loc, kernel, {threads, perThread}, f32);
  for (auto [v, offset] : llvm::zip(acc, offsets))
    vector::StoreOp::create(b, loc, v, partials, ValueRange{tid, c(offset)});
  clusterBarrier(b, loc);
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rank, c(0));
  auto ifOp = scf::IfOp::create(b, loc, isFirst, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    // Thread tid's values start at flat element tid x perThread.
    Value row = mul(tid, perThread);
    SmallVector<Value> sums(acc.begin(), acc.end());
    for (int64_t r = 1; r < splitK; ++r) {
      Value peer = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(r));
      for (auto [i, sum] : llvm::enumerate(sums)) {
        auto vt = cast<VectorType>(sum.getType());
        Value partial = loadFromPeerLds(
            b, loc, partials, add(row, offsets[i]), peer, vt,
            /*alignment=*/std::min<int64_t>(16, 4 * vt.getNumElements()));
        sum = arith::AddFOp::create(b, loc, sum, partial);
      }
    }
    store(sums);
  }
  // The peers' LDS must outlive the first workgroup's reads.
  clusterBarrier(b, loc);
}

void TilePipeline::storeResults(ArrayRef<Value> acc) {
  if (epilogueLds) {
    storeResultsThroughLds(acc);
    return;
  }
  core->forEachResultRun(acc,
                         [&](Value row, Value col, ArrayRef<Value> values) {
                           storeRun(row, col, values);
                         });
}

void TilePipeline::storeResultsThroughLds(ArrayRef<Value> acc) {
  // B's LDS buffers (stages x rows x cols, no padding: the schedule verifier
  // admits the knob with wgmma only) as one flat array of elements, holding
  // the tile's f32 results as row-major tile_n-wide rows. The 8-float chunk
  // c of row r lives at chunk c ^ (r % 8): a fragment store (8 rows x 8
  // floats per warp) and a row read (32 chunks) both spread over the banks.
  auto bufType = cast<MemRefType>(ldsB.buf.getType());
  int64_t flatElems = bufType.getNumElements();
  assert(tm * tn * 4 <= flatElems * elemBytes && "staged tile exceeds B's LDS");
  assert(tn % 64 == 0 && "the swizzle needs rows of 8 chunks or more");
  auto flatType =
      MemRefType::get({flatElems}, elemT, MemRefLayoutAttrInterface(),
                      bufType.getMemorySpace());
  Value flat = memref::ReinterpretCastOp::create(
      b, loc, flatType, ldsB.buf, /*offset=*/0, ArrayRef<int64_t>{flatElems},
      ArrayRef<int64_t>{1});
  int64_t perF32 = 4 / elemBytes;
  Type f32 = b.getF32Type();
  auto slot = [&](Value row, Value col) -> Value {
    Value chunk = arith::XOrIOp::create(b, loc, div(col, 8), rem(row, 8));
    Value phys = add(mul(chunk, 8), rem(col, 8));
    return mul(add(mul(row, tn), phys), perF32);
  };
  // Every warpgroup's MMAs have read their last stage, and no copy is in
  // flight (the K loop waited for all).
  gpu::BarrierOp::create(b, loc);
  core->forEachResultRun(acc, [&](Value row, Value col, ArrayRef<Value> vs) {
    int64_t len = vs.size();
    Value v =
        vector::FromElementsOp::create(b, loc, VectorType::get({len}, f32), vs);
    auto asElems = VectorType::get({len * perF32}, elemT);
    vector::StoreOp::create(
        b, loc, vector::BitCastOp::create(b, loc, asElems, v), flat,
        slot(row, col), /*nontemporal=*/false, align(len * perF32, elemT));
  });
  gpu::BarrierOp::create(b, loc);
  int64_t chunksPerRow = tn / 8, chunks = tm * chunksPerRow;
  auto chunkType = VectorType::get({8 * perF32}, elemT);
  auto f32x8 = VectorType::get({8}, f32);
  for (int64_t i = 0, e = llvm::divideCeilSigned(chunks, threads); i < e; ++i) {
    Value chunk = add(tid, i * threads);
    auto emit = [&] {
      Value row = div(chunk, chunksPerRow);
      Value col = mul(rem(chunk, chunksPerRow), 8);
      Value raw = vector::LoadOp::create(b, loc, chunkType, flat,
                                         slot(row, col), /*nontemporal=*/false,
                                         align(8 * perF32, elemT));
      Value v = vector::BitCastOp::create(b, loc, f32x8, raw);
      SmallVector<Value> values;
      for (int64_t e = 0; e < 8; ++e)
        values.push_back(
            vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{e}));
      storeRun(row, col, values);
    };
    if ((i + 1) * threads <= chunks) {
      emit();
      continue;
    }
    auto ifOp =
        scf::IfOp::create(b, loc, lt(chunk, chunks), /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    emit();
  }
}

Value TilePipeline::applyEpilogue(Value acc, ArrayRef<Value> epilogueValues) {
  if (!op.hasEpilogue()) {
    if (resT == acc.getType())
      return acc;
    // i32 sums of i8 operands written as floats.
    if (acc.getType().isInteger(32)) {
      acc = arith::SIToFPOp::create(b, loc, b.getF32Type(), acc);
      if (resT == acc.getType())
        return acc;
    }
    return arith::TruncFOp::create(b, loc, resT, acc);
  }
  Block &body = op.getEpilogue().front();
  IRMapping map;
  map.map(body.getArgument(0), acc);
  for (auto [arg, v] :
       llvm::zip(body.getArguments().drop_front(), epilogueValues))
    map.map(arg, v);
  for (Operation &o : body.without_terminator()) {
    // Constants captured from outside the region are cloned in (the
    // builder rejects any other capture).
    for (Value v : o.getOperands())
      if (!map.contains(v) && v.getParentRegion() != &op.getEpilogue())
        map.map(v, b.clone(*v.getDefiningOp())->getResult(0));
    b.clone(o, map);
  }
  return map.lookupOrDefault(body.getTerminator()->getOperand(0));
}

SmallVector<Value> TilePipeline::epilogueIndices(unsigned e, Value gm,
                                                 Value gn) {
  // Epilogue operands are read through their [batch, M or 1, N or 1]
  // views (MatmulOp::getEpilogueViews).
  const GlobalOperand &g = gEpi[e];
  Value bi = epiBatch[e] == 1 ? c(0) : rem(batchIdx, epiBatch[e]);
  Value mi = g.rows == 1 && !g.dynRows ? c(0) : gm;
  Value ni = g.cols == 1 ? c(0) : gn;
  return {bi, mi, ni};
}

void TilePipeline::storeRunInBounds(Value gm, Value gn,
                                    ArrayRef<Value> values) {
  int64_t len = values.size();
  SmallVector<SmallVector<Value>> epi(len);
  for (auto [e, g] : llvm::enumerate(gEpi)) {
    auto et = cast<MemRefType>(g.view.getType()).getElementType();
    // One value per row (cols = 1): a scalar for the whole run.
    bool scalar = len == 1 || g.cols == 1;
    Value v =
        scalar
            ? memref::LoadOp::create(b, loc, g.view, epilogueIndices(e, gm, gn))
                  .getResult()
            : vector::LoadOp::create(b, loc, VectorType::get({len}, et), g.view,
                                     epilogueIndices(e, gm, gn),
                                     /*nontemporal=*/false, align(len, et))
                  .getResult();
    for (int64_t jj = 0; jj < len; ++jj)
      epi[jj].push_back(
          scalar ? v
                 : vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{jj})
                       .getResult());
  }
  SmallVector<Value> outs;
  for (int64_t jj = 0; jj < len; ++jj)
    outs.push_back(applyEpilogue(values[jj], epi[jj]));
  if (len == 1) {
    memref::StoreOp::create(b, loc, outs[0], gOut.view,
                            ValueRange{batchIdx, gm, gn});
    return;
  }
  Value vec = vector::FromElementsOp::create(
      b, loc, VectorType::get({len}, resT), outs);
  vector::StoreOp::create(b, loc, vec, gOut.view, ValueRange{batchIdx, gm, gn},
                          /*nontemporal=*/false, align(len, resT));
}

void TilePipeline::storeRun(Value row, Value col, ArrayRef<Value> values) {
  int64_t len = values.size();
  Value gm = add(m0, row), gn = add(n0, col);
  if (!dynM && m % tm == 0 && n % tn == 0) {
    storeRunInBounds(gm, gn, values);
    return;
  }
  // A dynamic M with whole N tiles: the run is in bounds exactly when its
  // row is, so it is stored whole under one row guard.
  if (dynM && n % tn == 0) {
    auto rowIf =
        scf::IfOp::create(b, loc, lt(gm, dynM), /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(rowIf.thenBlock());
    storeRunInBounds(gm, gn, values);
    return;
  }
  // Edge tiles: one guarded element at a time.
  for (int64_t jj = 0; jj < len; ++jj) {
    Value gnj = add(gn, jj);
    Value ok = andI(dynM ? lt(gm, dynM) : lt(gm, m), lt(gnj, n));
    auto ifOp = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    SmallVector<Value> epi;
    for (unsigned e = 0; e < gEpi.size(); ++e)
      epi.push_back(memref::LoadOp::create(b, loc, gEpi[e].view,
                                           epilogueIndices(e, gm, gnj)));
    memref::StoreOp::create(b, loc, applyEpilogue(values[jj], epi), gOut.view,
                            ValueRange{batchIdx, gm, gnj});
  }
}
