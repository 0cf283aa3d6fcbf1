//===- AttentionWgmma.cpp - attention's products by warpgroup MMA ---------===//
//
// mma = wgmma_64x128x16 (NVIDIA sm_90a, f16 / bf16): the flash-attention
// kernel of Attention.cpp with both products on warpgroup MMA. A warpgroup
// (4 waves of 16 rows) owns 64 query rows; tile_q = 64 x warpgroups.
//
//   - LDS: Q [D / 64][tile_q][64], K and V [stages][D / 64][tile_kv][64]:
//     panels of 64 columns (128-byte rows) whose 16-byte chunks are
//     XOR-swizzled by row % 8, the 128-byte-swizzle layout of wgmma's
//     matrix descriptors, in 1024-byte aligned buffers (no padding). The
//     cp.async copies write them so; each wait is followed by
//     fence.proxy.async (wgmma reads LDS through the async proxy) before
//     the barrier.
//   - S = Q K^T: wgmma.fence, D / 16 x wgmma.mma_async.m64n{tile_kv}k16 with
//     Q (A) and K (B, K-major: a key's D values are contiguous) from
//     descriptors (the K step: 32 bytes along a row, the next panel every 4
//     steps), commit, wait_group 0. The accumulators are the m16n8 layout
//     of mma.sync per warp and 8 columns (Wgmma.h), so the masking and the
//     online softmax are the mma.sync kernel's (quad shuffles).
//   - O += P V: P = exp2(S - m) rounded to 16 bits is the A operand in
//     registers (per 16 keys, mma.sync's A fragment: 4 x b32 from the S
//     accumulators of two n8 tiles), V the B operand from LDS, MN-major
//     (imm-trans-b = 1; leading byte offset = the panel stride, tile_kv x
//     128 bytes; the K step 16 rows = 2048 bytes):
//     tile_kv / 16 x wgmma.mma_async.m64n{Dv}k16, O's Dv / 2 accumulators
//     tied through wgmma.fence (with P's registers, so that they are
//     computed before it), commit and wait_group 0.
//
// Every product waits for its MMAs (wait_group 0) before its results are
// read; a stage is refilled only after the barrier that follows, so no MMA
// reads a stage that a copy overwrites. The kernel is marked
// `hkg.arch_specific` (its PTX targets sm_90a).
//
//===----------------------------------------------------------------------===//

#include "AttentionKernel.h"
#include "Wgmma.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::attention;

/// Columns of a swizzled panel (128 bytes of 16-bit elements).
static constexpr int64_t kPanel = 64;
/// Bytes of a panel row.
static constexpr int64_t kRowBytes = 128;

void AttentionKernelBuilder::allocateWgmmaLds() {
  qLds = kc.addLds({d / kPanel, tq, kPanel}, elemT, /*align=*/1024);
  kLds = kc.addLds({stages, d / kPanel, tkv, kPanel}, elemT, /*align=*/1024);
  vLds = kc.addLds({vStages, dv / kPanel, tkv, kPanel}, elemT, /*align=*/1024);
  // Its PTX needs the arch-specific target (sm_90a): Compile.cpp.
  kc.func->setAttr("hkg.arch_specific", b.getUnitAttr());
}

SmallVector<Value> AttentionKernelBuilder::swizzledIndices(ValueRange prefix,
                                                           Value r, Value col) {
  SmallVector<Value> indices(prefix);
  indices.push_back(div(col, kPanel));
  indices.push_back(r);
  Value chunk = div(rem(col, kPanel), 8);
  Value swizzled = arith::XOrIOp::create(b, loc, chunk, rem(r, 8));
  indices.push_back(add(mul(swizzled, 8), rem(col, 8)));
  return indices;
}

/// The PTX type of 16-bit wgmma operands.
static StringRef operandType(Type elem) {
  return elem.isBF16() ? "bf16" : "f16";
}

Value AttentionKernelBuilder::issueScoresWgmma(Value stage, int64_t key0,
                                               Value acc) {
  Type i64 = b.getI64Type();
  auto toI64 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(b, loc, i64, index);
  };
  auto plus = [&](Value addr, int64_t bytes) -> Value {
    return arith::AddIOp::create(
        b, loc, addr,
        arith::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(bytes)));
  };
  // This warpgroup's 64 rows of Q; the stage's keys from key0.
  Value wgRow = mul(div(wave, 4), 64);
  Value addrQ = arith::AddIOp::create(
      b, loc, wgmma::sharedAddress(b, loc, qLds), toI64(mul(wgRow, kRowBytes)));
  int64_t kStageBytes = d / kPanel * tkv * kRowBytes;
  Value addrK =
      arith::AddIOp::create(b, loc, wgmma::sharedAddress(b, loc, kLds),
                            toI64(mul(stage, kStageBytes)));
  addrK = plus(addrK, key0 * kRowBytes);
  for (int64_t kk = 0; kk < d / 16; ++kk) {
    // K step kk: 32 bytes along the rows of panel kk / 4.
    int64_t panel = kk * 16 / kPanel, within = (kk * 16 % kPanel) * 2;
    Value descQ =
        wgmma::descriptor(b, loc, plus(addrQ, panel * tq * kRowBytes + within));
    Value descK = wgmma::descriptor(
        b, loc, plus(addrK, panel * tkv * kRowBytes + within));
    acc = wgmma::mmaAsync(b, loc, operandType(elemT), acc, descQ, {}, descK,
                          /*transB=*/false);
  }
  wgmma::sideEffectAsm(b, loc, "wgmma.commit_group.sync.aligned;");
  return acc;
}

Value AttentionKernelBuilder::packAccumulators(ArrayRef<Value> tiles) {
  // Element 4j + e of the struct is element e of n8 tile j (Wgmma.h).
  Value acc = LLVM::PoisonOp::create(
      b, loc,
      wgmma::accumulatorType(b.getContext(),
                             4 * static_cast<int64_t>(tiles.size())));
  for (auto [j, tile] : llvm::enumerate(tiles))
    for (int64_t e = 0; e < 4; ++e)
      acc =
          LLVM::InsertValueOp::create(b, loc, acc, extract(tile, e), 4 * j + e);
  return acc;
}

SmallVector<Value> AttentionKernelBuilder::unpackAccumulators(Value acc,
                                                              int64_t tiles) {
  SmallVector<Value> out;
  for (int64_t j = 0; j < tiles; ++j) {
    SmallVector<Value> elems;
    for (int64_t e = 0; e < 4; ++e)
      elems.push_back(LLVM::ExtractValueOp::create(b, loc, acc, 4 * j + e));
    out.push_back(vec(elems));
  }
  return out;
}

/// Zeroed accumulators of an m64nNk16 wgmma (N = 2 x n), through
/// wgmma.fence: their registers are written before the MMAs read them.
static Value fencedZeros(OpBuilder &b, Location loc, int64_t n) {
  Value zero =
      LLVM::ZeroOp::create(b, loc, wgmma::accumulatorType(b.getContext(), n));
  return wgmma::tiedAsm(b, loc, "wgmma.fence.sync.aligned;", zero).first;
}

SmallVector<Value> AttentionKernelBuilder::scoresWgmma(Value stage) {
  Value acc = issueScoresWgmma(stage, 0, fencedZeros(b, loc, tkv / 2));
  acc = wgmma::tiedAsm(b, loc, "wgmma.wait_group.sync.aligned 0;", acc).first;
  return unpackAccumulators(acc, tkv / 8);
}

SmallVector<Value>
AttentionKernelBuilder::packProbabilities(ArrayRef<Value> p) {
  Type i32 = b.getI32Type();
  // P's A fragments, per 16 keys kk: (row g, keys 2 t4 + {0, 1}), (row g +
  // 8, same keys), then the same for keys + 8: elements {0, 1} and {2, 3}
  // of n8 tiles 2 kk and 2 kk + 1, as bf16 / f16 pairs in b32 registers.
  auto halfPair = VectorType::get({2}, elemT);
  auto wordType = VectorType::get({1}, i32);
  int64_t steps = static_cast<int64_t>(p.size()) / 2;
  SmallVector<Value> regs;
  for (int64_t kk = 0; kk < steps; ++kk)
    for (int64_t reg = 0; reg < 4; ++reg) {
      Value tile = p[2 * kk + reg / 2];
      int64_t e0 = 2 * (reg % 2);
      Value pair = vec({extract(tile, e0), extract(tile, e0 + 1)});
      pair = arith::TruncFOp::create(b, loc, halfPair, pair);
      Value word = vector::BitCastOp::create(b, loc, wordType, pair);
      regs.push_back(extract(word, 0));
    }
  return regs;
}

Value AttentionKernelBuilder::issueValuesWgmma(ArrayRef<Value> p, Value stage,
                                               int64_t key0, Value o) {
  return issueValuesWgmmaPacked(packProbabilities(p), stage, key0, o);
}

Value AttentionKernelBuilder::issueValuesWgmmaPacked(ArrayRef<Value> packed,
                                                     Value stage, int64_t key0,
                                                     Value o) {
  Type i64 = b.getI64Type();
  int64_t steps = static_cast<int64_t>(packed.size()) / 4;
  SmallVector<Value> regs(packed);
  // O's and P's registers are written before the fence.
  std::tie(o, regs) =
      wgmma::tiedAsm(b, loc, "wgmma.fence.sync.aligned;", o, regs);
  int64_t vStageBytes = dv / kPanel * tkv * kRowBytes;
  Value addrV = arith::AddIOp::create(
      b, loc, wgmma::sharedAddress(b, loc, vLds),
      arith::IndexCastOp::create(b, loc, i64, mul(stage, vStageBytes)));
  for (int64_t kk = 0; kk < steps; ++kk) {
    // V is MN-major: 16 keys are 16 rows of every panel; the next panel
    // (64 columns of Dv) is tile_kv rows on.
    Value addr = arith::AddIOp::create(
        b, loc, addrV,
        arith::ConstantOp::create(
            b, loc, i64, b.getI64IntegerAttr((key0 + kk * 16) * kRowBytes)));
    Value descV = wgmma::descriptor(b, loc, addr,
                                    /*leadingBytes=*/tkv * kRowBytes);
    o = wgmma::mmaAsync(b, loc, operandType(elemT), o, Value(),
                        ArrayRef<Value>(regs).slice(4 * kk, 4), descV,
                        /*transB=*/true);
  }
  wgmma::sideEffectAsm(b, loc, "wgmma.commit_group.sync.aligned;");
  return o;
}

void AttentionKernelBuilder::accumulateWgmma(ArrayRef<SmallVector<Value>> p,
                                             Value stage,
                                             SmallVectorImpl<Value> &o) {
  Value acc = issueValuesWgmma(p[0], stage, 0, packAccumulators(o));
  acc = wgmma::tiedAsm(b, loc, "wgmma.wait_group.sync.aligned 0;", acc).first;
  llvm::copy(unpackAccumulators(acc, nd), o.begin());
}

void AttentionKernelBuilder::overlappedWgmmaBlock(
    Value stage, Value kv0, bool masked, SmallVectorImpl<Value> &state) {
  int64_t half = tkv / 2, tilesPerHalf = half / 8;
  // Both halves' S, two groups.
  Value zeroA = fencedZeros(b, loc, half / 2);
  Value zeroB = fencedZeros(b, loc, half / 2);
  SmallVector<Value> sAcc = {issueScoresWgmma(stage, 0, zeroA),
                             issueScoresWgmma(stage, half, zeroB)};
  // The mask's loads under the MMAs.
  MaskBlock maskBlock = loadMaskBlock(kv0);
  SmallVector<SmallVector<Value>> s(1, SmallVector<Value>(tkv / 8));
  Value o;
  for (int64_t h = 0; h < 2; ++h) {
    // Half h's S: every group but the newest has completed (h = 0: the
    // second half's S is in flight; h = 1: the first half's P V).
    Value acc =
        wgmma::tiedAsm(b, loc, "wgmma.wait_group.sync.aligned 1;", sAcc[h])
            .first;
    llvm::copy(unpackAccumulators(acc, tilesPerHalf),
               s[0].begin() + h * tilesPerHalf);
    SmallVector<Value> alpha =
        softmaxUpdate(s, h * tilesPerHalf, (h + 1) * tilesPerHalf, kv0, masked,
                      state, maskBlock);
    // O is read again (rescaled) once the first half's P V completed.
    SmallVector<Value> tiles(state.begin(), state.begin() + nd);
    if (h == 1) {
      o = wgmma::tiedAsm(b, loc, "wgmma.wait_group.sync.aligned 0;", o).first;
      tiles = unpackAccumulators(o, nd);
    }
    for (Value &tile : tiles)
      tile = arith::MulFOp::create(b, loc, tile, alpha[0]);
    o = issueValuesWgmma(
        ArrayRef<Value>(s[0]).slice(h * tilesPerHalf, tilesPerHalf), stage,
        h * half, packAccumulators(tiles));
  }
  o = wgmma::tiedAsm(b, loc, "wgmma.wait_group.sync.aligned 0;", o).first;
  llvm::copy(unpackAccumulators(o, nd), state.begin());
}

void AttentionKernelBuilder::firstPipelinedBlock(
    Value kb, bool masked, SmallVectorImpl<Value> &state) {
  Value stage = bringBlock(kb);
  MaskBlock maskBlock = loadMaskBlock(mul(kb, tkv));
  SmallVector<SmallVector<Value>> s = {scoresWgmma(stage)};
  // O is still zero: the rescale factor has nothing to scale.
  (void)softmaxUpdate(s, 0, tkv / 8, mul(kb, tkv), masked, state, maskBlock);
  llvm::append_range(state, packProbabilities(s[0]));
}

void AttentionKernelBuilder::pipelinedWgmmaBlock(
    Value kb, Value stage, Value kv0, bool masked,
    SmallVectorImpl<Value> &state) {
  // The state: O's nd tiles, m and l, then block kb - 1's P.
  size_t pBegin = state.size() - tkv / 4;
  SmallVector<Value> previous(state.begin() + pBegin, state.end());
  state.truncate(pBegin);
  // Block kb's S, waited for; its row maxima (the softmax's shuffles); then
  // block kb - 1's P V (its V one stage back) is issued, and the rest of
  // the softmax (the exponentials and row sums, lane-local) runs while it
  // does. ptxas waits for a wgmma that reads registers before a shuffle
  // (seen in the SASS), so no shuffle may follow the P V's issue.
  Value sAcc = issueScoresWgmma(stage, 0, fencedZeros(b, loc, tkv / 2));
  // The mask's loads while S's MMAs run.
  MaskBlock maskBlock = loadMaskBlock(kv0);
  sAcc = wgmma::tiedAsm(b, loc, "wgmma.wait_group.sync.aligned 0;", sAcc).first;
  SmallVector<SmallVector<Value>> s = {unpackAccumulators(sAcc, tkv / 8)};
  Value o;
  SmallVector<Value> alpha =
      softmaxUpdate(s, 0, tkv / 8, kv0, masked, state, maskBlock, [&] {
        o = issueValuesWgmmaPacked(
            previous, rem(add(kb, -1), vStages), 0,
            packAccumulators(ArrayRef<Value>(state).take_front(nd)));
      });
  // O (through block kb - 1) is rescaled to block kb's row max once its
  // P V has completed. Block kb - 1's P registers pass through the same
  // wait: they stay live (and untouched) while that P V reads them.
  SmallVector<Value> held;
  std::tie(o, held) =
      wgmma::tiedAsm(b, loc, "wgmma.wait_group.sync.aligned 0;", o, previous);
  SmallVector<Value> tiles = unpackAccumulators(o, nd);
  for (auto [jd, tile] : llvm::enumerate(tiles))
    state[jd] = arith::MulFOp::create(b, loc, tile, alpha[0]);
  llvm::append_range(state, packProbabilities(s[0]));
}

void AttentionKernelBuilder::drainPipeline(Value vStage,
                                           SmallVectorImpl<Value> &state) {
  size_t pBegin = state.size() - tkv / 4;
  SmallVector<Value> last(state.begin() + pBegin, state.end());
  state.truncate(pBegin);
  Value o = issueValuesWgmmaPacked(
      last, vStage, 0, packAccumulators(ArrayRef<Value>(state).take_front(nd)));
  o = wgmma::tiedAsm(b, loc, "wgmma.wait_group.sync.aligned 0;", o).first;
  llvm::copy(unpackAccumulators(o, nd), state.begin());
}
