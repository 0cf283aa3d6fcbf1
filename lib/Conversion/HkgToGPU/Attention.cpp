//===- Attention.cpp - hkg.attention to a flash-attention kernel ----------===//
//
// One workgroup owns `tile_q` query rows of one (batch, query head) and
// streams the key / value rows of its key/value head through LDS in blocks
// of `tile_kv` rows (`stages` buffers), keeping the softmax online (running
// row max m and row sum l; the output accumulators are rescaled by
// exp(m_old - m_new) when the max grows), as in FlashAttention-2. `waves`
// waves split the query rows, 16 x (tile_q / waves / 16) each, so that no
// state is shared between waves but the LDS blocks.
//
// Per wave and 16-row group, S = Q K^T (16 x tile_kv) and O (16 x Dv) live
// in registers in the m16n8 accumulator layout of mma.sync: per n8 tile a
// lane holds rows lane / 4 (+ 8) and columns 2 (lane % 4) + {0, 1}, so a
// row's values sit in the 4 lanes of a quad (row max / sum: 2 shuffles).
//
//   - mma_16x8x16 (NVIDIA): Q fragments by ldmatrix (held in registers for
//     the whole key loop when a wave owns 16 rows and they take at most 32
//     registers: D <= 128), K fragments by ldmatrix
//     (K rows are the B operand's N rows, D contiguous), V by ldmatrix.trans;
//     P = exp(S - m) goes from the S accumulators straight into the A
//     fragments of P V, converted to 16 bits (the C and A layouts agree);
//   - mfma_16x16x16 (CDNA, wave64) and wmma_16x16x16 (RDNA 3 / 4, wave32):
//     the products are computed transposed, S^T = K Q^T and O^T = V^T P^T,
//     so that a lane's accumulator elements all belong to one query row
//     (lane % 16 of the row group) and several keys (MFMA: 4 (l / 16) + e;
//     gfx12: 8 (l / 16) + e; gfx11: 2 e + l / 16). S^T's accumulator layout
//     is then the B operand layout of the second product (on gfx11, whose B
//     operand holds all 16 keys in every lane, after one exchange with lane
//     l ^ 16), so P goes from registers to the matrix core as on NVIDIA; a
//     row's max and sum combine the 4 (wave64) or 2 (wave32) lanes l,
//     l ^ 16 (, l ^ 32). K and Q fragments are vector loads along D from
//     LDS; V is stored transposed in LDS ([Dv][tile_kv]) so that V^T's
//     fragments are vector loads along the keys;
//   - none (every target, every float type): the same register layout as
//     mma.sync computed with FMAs from LDS (W / 4 rows per lane step on
//     wave64), P through a per-wave LDS buffer for the P V product.
//
// `stages = 0` (FMA kernel only): no LDS buffers but P's; every lane reads
// its query, key and value elements from global memory (through the
// caches). Slow, but it serves head dims whose 16 x 16 tiles exceed the LDS
// (D = 1024 on 64 KiB chips).
//
// A value head dim Dv that is not a multiple of 8 (the FMA kernel; mma
// needs multiples of 16) rounds O up to whole n8 tiles: the last tile's
// columns past Dv read V's last pair (or, for an odd Dv, clamped single
// elements) and are not stored.
//
// Lengths that the tiles do not divide (a decode step's 1..15 queries, an
// odd key length) are served by guards: the last query tile reads its rows
// past Sq from row Sq - 1 and does not store them; the last key/value block
// reads its rows past Skv from row Skv - 1 and runs the masking copy of the
// loop body, which gives those keys a score of -inf (P = 0).
//
// The operands and the result are [B, H, S, D] in global memory, or with
// `layout(bshd)` [B, S, H, D]: only the index order of the global accesses
// differs (globalIndices); a row of D elements is contiguous in both, so the
// 16-byte copies, the LDS tiles and the grid are the same.
//
// Key/value blocks are copied with cp.async on NVIDIA (block kb + 1 in
// flight while block kb is computed when stages = 2), with vector loads and
// stores elsewhere. With `causal`, a workgroup walks only the blocks up to
// its last row's diagonal; the blocks that cross the diagonal run a second
// copy of the loop body that masks; the grid runs the longest query tiles
// first. Scores are scaled by scale * log2(e) and exponentiated with exp2;
// an additive mask is read in every block (loadMask) and added to the
// scaled scores, which then stay in natural units up to exp2's argument
// (softmaxUpdate).
//
// Decode (issue 28): with `pack_gqa` the Hq / Hkv query heads of a group are
// the rows of the query tiles (tile row v of key/value head h is token
// v % Sq of query head h x Hq / Hkv + v / Sq), so the group reads each
// key/value block once; with `kv_split` > 1, kv_split workgroups share a
// query tile, each walking 1 / kv_split of its key/value blocks, and the
// last of them to finish combines their partials
// (AttentionSplitKv.cpp).
//
//===----------------------------------------------------------------------===//

#include "AttentionKernel.h"
#include "AttentionSplitKv.h"
#include "GPUBuildingBlocks.h"
#include "MatrixCore.h"
#include "TileCopy.h"
#include "Wgmma.h"

#include "hkg/Dialect/Hkg/IR/Schedules/AttentionSchedule.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <cmath>
#include <optional>
#include <limits>

using namespace mlir;
using namespace mlir::hkg;

using namespace mlir::hkg::attention;

void AttentionKernelBuilder::copyTile(
    Value gm, function_ref<SmallVector<Value, 4>(Value, Value)> at, Value row0,
    int64_t rows, int64_t cols, int64_t length, Value lds, ValueRange prefix,
    SmallVectorImpl<Value> &tokens) {
  // Every chunk is 16 bytes (vw = 16 / element bytes).
  forEachCopyChunk(*this, tid, threads, rows, cols, vw,
                   ChunkRowIndexing::FlatIndex, [&](Value r, Value col) {
                     SmallVector<Value> dst(prefix);
                     if (wgmmaCore) {
                       dst = swizzledIndices(prefix, r, col);
                     } else {
                       dst.push_back(r);
                       dst.push_back(col);
                     }
                     Value row = add(row0, r);
                     // A partial tile repeats the last row (finite data
                     // that the guards discard).
                     if (length % rows != 0)
                       row = arith::MinUIOp::create(b, loc, row,
                                                    c(length - 1));
                     SmallVector<Value, 4> src = at(row, col);
                     if (asyncCopy) {
                       tokens.push_back(
                           asyncCopyChunk(b, loc, lds, dst, gm, src, vw));
                       return;
                     }
                     Value v = loadChunk(b, loc, gm, src, vw);
                     storeChunk(b, loc, v, lds, dst);
                   });
}

void AttentionKernelBuilder::copyKvBlock(Value kb, Value kStage, Value vStage,
                                         SmallVectorImpl<Value> &tokens) {
  Value row0 = mul(kb, tkv);
  auto at = [&](Value row, Value col) {
    return globalIndices(kvHead, row, col);
  };
  copyTile(kc.args[1], at, row0, tkv, d, skv, kLds, kStage, tokens);
  if (!amdCore) {
    copyTile(kc.args[2], at, row0, tkv, dv, skv, vLds, vStage, tokens);
    return;
  }
  // AMD matrix cores: V^T, element (key r, column c) at vLds[stage][c][r].
  forEachCopyChunk(*this, tid, threads, tkv, dv, vw,
                   ChunkRowIndexing::FlatIndex, [&](Value r, Value col) {
                     Value row = add(row0, r);
                     if (skv % tkv != 0)
                       row = arith::MinUIOp::create(b, loc, row, c(skv - 1));
                     Value v = loadChunk(b, loc, kc.args[2], at(row, col), vw);
                     for (int64_t e = 0; e < vw; ++e)
                       memref::StoreOp::create(
                           b, loc, extract(v, e), vLds,
                           ValueRange{vStage, add(col, e), r});
                   });
}

Value AttentionKernelBuilder::commit(ArrayRef<Value> tokens) {
  if (!asyncCopy || tokens.empty())
    return Value();
  Value token = commitAsyncCopies(b, loc, tokens);
  // cp.async.wait_group waits for groups by count, not by token: any token
  // that dominates every wait will do, the prologue's.
  if (!lastToken)
    lastToken = token;
  return token;
}

void AttentionKernelBuilder::waitAll() {
  if (!asyncCopy || !lastToken)
    return;
  nvgpu::DeviceAsyncWaitOp::create(b, loc, lastToken, b.getI32IntegerAttr(0));
  // wgmma reads LDS through the async proxy: this thread's cp.async writes
  // become visible to it (before the barrier that follows every wait).
  if (wgmmaCore)
    wgmma::sideEffectAsm(b, loc, "fence.proxy.async.shared::cta;");
}

//===----------------------------------------------------------------------===//
// S = Q K^T
//===----------------------------------------------------------------------===//

Value AttentionKernelBuilder::loadQFragment(int64_t i, int64_t kk) {
  // ldmatrix: lane l gives the row address of 8x8 matrix l / 8, matrices
  // (m 0-7, k 0-7), (m 8-15, k 0-7), (m 0-7, k 8-15), (m 8-15, k 8-15).
  Value r8 = rem(lane, 8), j = div(lane, 8);
  Value row = add(add(add(waveRow, 16 * i), r8), mul(rem(j, 2), 8));
  Value col = add(mul(div(j, 2), 8), 16 * kk);
  auto type = VectorType::get({4, 2}, elemT);
  return nvgpu::LdMatrixOp::create(b, loc, type, qLds, ValueRange{row, col},
                                   /*transpose=*/false, 4);
}

SmallVector<Value> AttentionKernelBuilder::scoresMma(int64_t i, Value stage) {
  auto accType = VectorType::get({4}, b.getF32Type());
  Value zero = arith::ConstantOp::create(b, loc, accType,
                                         b.getZeroAttr(accType));
  SmallVector<Value> s(tkv / 8, zero);
  Value r8 = rem(lane, 8), j = div(lane, 8);
  auto pairType = VectorType::get({4, 2}, elemT);
  for (int64_t kk = 0; kk < d / 16; ++kk) {
    Value a = holdQ ? qFrags[kk] : loadQFragment(i, kk);
    for (int64_t jn = 0; jn < tkv / 8; jn += 2) {
      // K rows are the N rows of B, D (= K of the mma) contiguous:
      // matrices (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7),
      // (n 8-15, k 8-15).
      Value row = add(add(r8, 8 * jn), mul(div(j, 2), 8));
      Value col = add(mul(rem(j, 2), 8), 16 * kk);
      Value v = nvgpu::LdMatrixOp::create(b, loc, pairType, kLds,
                                          ValueRange{stage, row, col},
                                          /*transpose=*/false, 4);
      auto [first, second] = splitLdMatrixX4(b, loc, v);
      s[jn] = mmaSyncM16N8K16(b, loc, a, first, s[jn]);
      s[jn + 1] = mmaSyncM16N8K16(b, loc, a, second, s[jn + 1]);
    }
  }
  return s;
}

Value AttentionKernelBuilder::loadAmdFragment(Value lds, ValueRange prefix,
                                              Value row, int64_t kk) {
  // MFMA 16x16x16: K values 4 (l / 16) + {0..3}; gfx12 WMMA:
  // 8 (l / 16) + {0..7}; gfx11 WMMA: all 16 (both half-waves alike).
  Value k = gfx11 ? c(16 * kk) : add(mul(lg, kPer), 16 * kk);
  SmallVector<Value> indices(prefix);
  indices.push_back(row);
  indices.push_back(k);
  return vector::LoadOp::create(b, loc, VectorType::get({kPer}, elemT), lds,
                                indices, /*nontemporal=*/false,
                                llvm::MaybeAlign(kPer * elemBytes));
}

SmallVector<Value> AttentionKernelBuilder::scoresAmd(int64_t i, Value stage) {
  auto accType = VectorType::get({perTile}, b.getF32Type());
  Value zero =
      arith::ConstantOp::create(b, loc, accType, b.getZeroAttr(accType));
  SmallVector<Value> s(tkv / 16, zero);
  for (int64_t kk = 0; kk < d / 16; ++kk) {
    // S^T = K Q^T: A is K (rows: keys), B is Q^T (columns: queries); both
    // fragments are rows of their LDS tile, D contiguous.
    Value q =
        holdQ
            ? qFrags[kk]
            : loadAmdFragment(qLds, {}, add(add(waveRow, 16 * i), lq), kk);
    for (int64_t jj = 0; jj < tkv / 16; ++jj) {
      Value k = loadAmdFragment(kLds, stage, add(lq, 16 * jj), kk);
      s[jj] = amdMma(k, q, s[jj]);
    }
  }
  return s;
}

void AttentionKernelBuilder::accumulateAmd(ArrayRef<SmallVector<Value>> p,
                                           Value stage,
                                           SmallVectorImpl<Value> &o) {
  Type f32 = b.getF32Type();
  for (int64_t kk = 0; kk < tkv / 16; ++kk) {
    // P^T's B fragments for keys 16 kk .. 16 kk + 15: S^T's accumulators
    // of tile kk as they are (MFMA, gfx12), or on gfx11, whose B fragment
    // holds all 16 keys (key 2 e + h in lane half h), with the other
    // half-wave's elements.
    SmallVector<Value> bFrags;
    for (int64_t i = 0; i < rowGroups; ++i) {
      Value tile = p[i][kk];
      if (gfx11) {
        Value upper =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lg, c(1));
        SmallVector<Value> mine, other, keys;
        for (int64_t e = 0; e < perTile; ++e) {
          mine.push_back(extract(tile, e));
          other.push_back(gpu::ShuffleOp::create(b, loc, mine.back(), 16,
                                                 waveSize,
                                                 gpu::ShuffleMode::XOR)
                              .getShuffleResult());
        }
        for (int64_t k = 0; k < 16; ++k) {
          // Key k is 2 (k / 2) + (k % 2): lane half k % 2's element k / 2.
          Value lower = mine[k / 2], higher = other[k / 2];
          keys.push_back(k % 2 == 0 ? select(upper, higher, lower)
                                    : select(upper, lower, higher));
        }
        tile = vector::FromElementsOp::create(b, loc,
                                              VectorType::get({16}, f32), keys);
      }
      auto type = VectorType::get({kPer}, elemT);
      bFrags.push_back(arith::TruncFOp::create(b, loc, type, tile));
    }
    for (int64_t jd = 0; jd < nd; ++jd) {
      // V^T's A fragment: rows are columns of Dv, keys contiguous.
      Value a = loadAmdFragment(vLds, stage, add(lq, 16 * jd), kk);
      for (int64_t i = 0; i < rowGroups; ++i)
        o[i * nd + jd] = amdMma(a, bFrags[i], o[i * nd + jd]);
    }
  }
}

Value AttentionKernelBuilder::loadQuery(Value row, Value k) {
  if (!fromGlobal)
    return memref::LoadOp::create(b, loc, qLds, ValueRange{row, k});
  Value global = clampRow(add(q0, row), qRows, partialQ);
  return memref::LoadOp::create(b, loc, kc.args[0], queryIndices(global, k));
}

Value AttentionKernelBuilder::loadKey(Value stage, Value kv0, Value key,
                                      Value k) {
  if (!fromGlobal)
    return memref::LoadOp::create(b, loc, kLds, ValueRange{stage, key, k});
  Value global = clampRow(add(kv0, key), skv, partialKv);
  return memref::LoadOp::create(b, loc, kc.args[1],
                                globalIndices(kvHead, global, k));
}

Value AttentionKernelBuilder::loadValuePair(Value stage, Value kv0, Value key,
                                            Value col) {
  auto type = VectorType::get({2}, elemT);
  auto align = llvm::MaybeAlign(2 * elemBytes);
  Value global = fromGlobal ? clampRow(add(kv0, key), skv, partialKv) : Value();
  // One element of V at column `at` of the key's row.
  auto load = [&](Value at) -> Value {
    if (!fromGlobal)
      return memref::LoadOp::create(b, loc, vLds, ValueRange{stage, key, at});
    return memref::LoadOp::create(b, loc, kc.args[2],
                                  globalIndices(kvHead, global, at));
  };
  if (dv % 2 != 0) {
    // An odd Dv: rows are not pair-aligned; two clamped elements (columns
    // past Dv are never stored).
    Value last = c(dv - 1);
    Value c0 = arith::MinUIOp::create(b, loc, col, last);
    Value c1 = arith::MinUIOp::create(b, loc, add(col, 1), last);
    return vec({load(c0), load(c1)});
  }
  // Past an even Dv (a partial last n8 tile), the last pair, not stored.
  if (partialDv)
    col = arith::MinUIOp::create(b, loc, col, c(dv - 2));
  if (!fromGlobal)
    return vector::LoadOp::create(b, loc, type, vLds,
                                  ValueRange{stage, key, col},
                                  /*nontemporal=*/false, align);
  return vector::LoadOp::create(b, loc, type, kc.args[2],
                                globalIndices(kvHead, global, col),
                                /*nontemporal=*/false, align);
}

SmallVector<SmallVector<Value>>
AttentionKernelBuilder::scoresFma(Value stage, Value kv0) {
  Type f32 = b.getF32Type();
  int64_t nt = tkv / 8;
  // Scalar accumulators, [i][j][e] flattened, carried through a loop over D.
  SmallVector<Value> init(rowGroups * nt * perTile, f(0.0));
  auto loop = scf::ForOp::create(b, loc, c(0), c(d), c(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value k = loop.getInductionVar();
    SmallVector<Value> acc(loop.getRegionIterArgs());
    SmallVector<Value> keys;
    for (int64_t jj = 0; jj < nt; ++jj)
      for (int64_t e = 0; e < 2; ++e)
        keys.push_back(toF32(b, loc, loadKey(stage, kv0, colOf(jj, e), k)));
    for (int64_t i = 0; i < rowGroups; ++i)
      for (int64_t r = 0; r < perTile / 2; ++r) {
        Value q = toF32(b, loc, loadQuery(rowOf(i, 2 * r), k));
        for (int64_t jj = 0; jj < nt; ++jj)
          for (int64_t e = 0; e < 2; ++e) {
            Value &a = acc[(i * nt + jj) * perTile + 2 * r + e];
            a = math::FmaOp::create(b, loc, q, keys[2 * jj + e], a);
          }
      }
    scf::YieldOp::create(b, loc, acc);
  }
  SmallVector<SmallVector<Value>> s(rowGroups);
  auto vt = VectorType::get({perTile}, f32);
  for (int64_t i = 0; i < rowGroups; ++i)
    for (int64_t jj = 0; jj < nt; ++jj) {
      SmallVector<Value> elems;
      for (int64_t e = 0; e < perTile; ++e)
        elems.push_back(loop.getResult((i * nt + jj) * perTile + e));
      s[i].push_back(vector::FromElementsOp::create(b, loc, vt, elems));
    }
  return s;
}

//===----------------------------------------------------------------------===//
// O += P V
//===----------------------------------------------------------------------===//

void AttentionKernelBuilder::accumulateMma(ArrayRef<SmallVector<Value>> p,
                                           Value stage,
                                           SmallVectorImpl<Value> &o) {
  Value r8 = rem(lane, 8), j = div(lane, 8);
  auto aType = VectorType::get({4, 2}, elemT);
  auto pairType = VectorType::get({4, 2}, elemT);
  auto halfPair = VectorType::get({2}, elemT);
  for (int64_t kk = 0; kk < tkv / 16; ++kk) {
    // The A fragment of P's columns 16 kk .. 16 kk + 15: rows (g, g + 8) x
    // k (0-7, 8-15) are the accumulators of n8 tiles 2 kk and 2 kk + 1.
    SmallVector<Value> a;
    for (int64_t i = 0; i < rowGroups; ++i) {
      Value frag =
          arith::ConstantOp::create(b, loc, aType, b.getZeroAttr(aType));
      for (int64_t reg = 0; reg < 4; ++reg) {
        Value tile = p[i][2 * kk + reg / 2];
        int64_t e0 = 2 * (reg % 2);
        Value pair = vec({extract(tile, e0), extract(tile, e0 + 1)});
        pair = arith::TruncFOp::create(b, loc, halfPair, pair);
        frag = vector::InsertOp::create(b, loc, pair, frag,
                                        ArrayRef<int64_t>{reg});
      }
      a.push_back(frag);
    }
    for (int64_t jn = 0; jn < nd; jn += 2) {
      // V rows are the K rows of B, Dv (= N) contiguous: ldmatrix.trans,
      // matrices (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7),
      // (n 8-15, k 8-15).
      Value row = add(add(r8, 16 * kk), mul(rem(j, 2), 8));
      Value col = add(mul(div(j, 2), 8), 8 * jn);
      Value v = nvgpu::LdMatrixOp::create(b, loc, pairType, vLds,
                                          ValueRange{stage, row, col},
                                          /*transpose=*/true, 4);
      auto [first, second] = splitLdMatrixX4(b, loc, v);
      for (int64_t i = 0; i < rowGroups; ++i) {
        o[i * nd + jn] = mmaSyncM16N8K16(b, loc, a[i], first, o[i * nd + jn]);
        o[i * nd + jn + 1] =
            mmaSyncM16N8K16(b, loc, a[i], second, o[i * nd + jn + 1]);
      }
    }
  }
}

void AttentionKernelBuilder::accumulateFma(ArrayRef<SmallVector<Value>> p,
                                           Value stage, Value kv0,
                                           SmallVectorImpl<Value> &o) {
  Type f32 = b.getF32Type();
  // P through this wave's LDS rows; the block's barriers (before the next
  // block's P is written) keep the buffer's uses apart.
  for (int64_t i = 0; i < rowGroups; ++i)
    for (int64_t jj = 0; jj < tkv / 8; ++jj)
      for (int64_t e = 0; e < perTile; ++e)
        memref::StoreOp::create(b, loc, extract(p[i][jj], e), pLds,
                                ValueRange{rowOf(i, e), colOf(jj, e)});
  gpu::BarrierOp::create(b, loc);
  SmallVector<Value> init;
  for (Value v : o)
    for (int64_t e = 0; e < perTile; ++e)
      init.push_back(extract(v, e));
  auto loop = scf::ForOp::create(b, loc, c(0), c(tkv), c(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value k = loop.getInductionVar();
    SmallVector<Value> acc(loop.getRegionIterArgs());
    SmallVector<Value> values;
    for (int64_t jd = 0; jd < nd; ++jd) {
      Value v = toF32(b, loc, loadValuePair(stage, kv0, k, colOf(jd, 0)));
      values.push_back(extract(v, 0));
      values.push_back(extract(v, 1));
    }
    for (int64_t i = 0; i < rowGroups; ++i)
      for (int64_t r = 0; r < perTile / 2; ++r) {
        Value pv =
            memref::LoadOp::create(b, loc, pLds, ValueRange{rowOf(i, 2 * r), k});
        for (int64_t jd = 0; jd < nd; ++jd)
          for (int64_t e = 0; e < 2; ++e) {
            Value &a = acc[(i * nd + jd) * perTile + 2 * r + e];
            a = math::FmaOp::create(b, loc, pv, values[2 * jd + e], a);
          }
      }
    scf::YieldOp::create(b, loc, acc);
  }
  auto vt = VectorType::get({perTile}, f32);
  for (int64_t i = 0; i < static_cast<int64_t>(o.size()); ++i) {
    SmallVector<Value> elems;
    for (int64_t e = 0; e < perTile; ++e)
      elems.push_back(loop.getResult(i * perTile + e));
    o[i] = vector::FromElementsOp::create(b, loc, vt, elems);
  }
}

//===----------------------------------------------------------------------===//
// The additive mask
//===----------------------------------------------------------------------===//

SmallVector<Value> AttentionKernelBuilder::loadMaskTile(int64_t i, int64_t jj,
                                                        Value kv0) {
  Value mask = kc.args[3];
  auto type = cast<MemRefType>(mask.getType());
  Type maskElemT = type.getElementType();
  ArrayRef<int64_t> dims = type.getShape();
  // A dim of 1 broadcasts: index 0.
  auto along = [&](unsigned dim, Value index) {
    return dims[dim] == 1 ? c(0) : index;
  };
  // The mask's indices of this lane's element e but its key, the key
  // column of e.
  auto rowIndices = [&](int64_t e) -> SmallVector<Value, 4> {
    Value v = clampRow(add(q0, rowOf(i, e)), qRows, partialQ);
    Value h = pack ? add(mul(kvHead, group), div(v, sq)) : head;
    return {along(0, bIdx), along(1, h), along(2, queryToken(v))};
  };
  auto keyOf = [&](int64_t e) { return add(kv0, colOf(jj, e)); };
  SmallVector<Value> loads;
  // The m16n8 layout's elements 2r and 2r + 1 are adjacent keys of one
  // row: one aligned pair where the rows are (an even Skv, the key dim not
  // broadcast); past Skv the last pair (masked, not seen).
  bool pairs = !amdCore && dims[3] == skv && skv % 2 == 0;
  for (int64_t e = 0; e < perTile; e += pairs ? 2 : 1) {
    SmallVector<Value, 4> at = rowIndices(e);
    if (pairs) {
      Value key = keyOf(e);
      if (partialKv)
        key = arith::MinUIOp::create(b, loc, key, c(skv - 2));
      at.push_back(key);
      loads.push_back(vector::LoadOp::create(
          b, loc, VectorType::get({2}, maskElemT), mask, at,
          /*nontemporal=*/false,
          llvm::MaybeAlign(2 * maskElemT.getIntOrFloatBitWidth() / 8)));
      continue;
    }
    at.push_back(along(3, clampRow(keyOf(e), skv, partialKv)));
    loads.push_back(memref::LoadOp::create(b, loc, mask, at));
  }
  return loads;
}

AttentionKernelBuilder::MaskBlock
AttentionKernelBuilder::loadMaskBlock(Value kv0) {
  MaskBlock block;
  if (!hasMask)
    return block;
  for (int64_t i = 0; i < rowGroups; ++i)
    for (int64_t jj = 0; jj < tkv / tileN; ++jj)
      block.push_back(loadMaskTile(i, jj, kv0));
  return block;
}

SmallVector<Value> AttentionKernelBuilder::maskTerms(ArrayRef<Value> loads) {
  SmallVector<Value> terms;
  for (Value v : loads) {
    Value wide = toF32(b, loc, v);
    if (!isa<VectorType>(wide.getType())) {
      terms.push_back(wide);
      continue;
    }
    terms.push_back(extract(wide, 0));
    terms.push_back(extract(wide, 1));
  }
  return terms;
}

//===----------------------------------------------------------------------===//
// The key/value loop
//===----------------------------------------------------------------------===//

SmallVector<Value> AttentionKernelBuilder::softmaxUpdate(
    SmallVectorImpl<SmallVector<Value>> &s, int64_t j0, int64_t j1, Value kv0,
    bool masked, SmallVectorImpl<Value> &state, const MaskBlock &maskBlock,
    function_ref<void()> afterMax) {
  Type f32 = b.getF32Type();
  Value negInf = f(-std::numeric_limits<double>::infinity());
  auto vt = VectorType::get({perTile}, f32);
  auto fmf = arith::FastMathFlagsAttr::get(b.getContext(),
                                           arith::FastMathFlags::afn);
  // With a positive scale the row max is taken on the raw scores and
  // scaled once per row, and the scale folds into exp2's argument: P =
  // exp2(fma(S, scale log2(e), -m)), one instruction an element fewer.
  // With a mask the scores stay in natural units, x = fma(S, scale, mask),
  // the max is taken on them and only x - m goes to the log2 domain: P =
  // exp2((x - m) log2(e)), the same count of instructions as scaling S and
  // the mask to log2 first, but finite where mask x log2(e) would
  // overflow (entries below -2.36e38, as finfo.min masks hold).
  bool foldScale = scaleLog2 > 0 && !hasMask;
  double scale = op.getEffectiveScale();
  // Takes a difference of scores (or row maxima) to the log2 domain.
  auto toLog2 = [&](Value diff) -> Value {
    return hasMask ? arith::MulFOp::create(b, loc, diff, f(M_LOG2E)).getResult()
                   : diff;
  };
  for (int64_t i = 0; i < rowGroups; ++i)
    for (int64_t jj = j0; jj < j1; ++jj) {
      SmallVector<Value> elems;
      // The block's mask as prefetched, or loaded here.
      SmallVector<Value> mask;
      if (hasMask)
        mask =
            maskTerms(maskBlock.empty()
                          ? loadMaskTile(i, jj, kv0)
                          : ArrayRef<Value>(maskBlock[i * (tkv / tileN) + jj]));
      for (int64_t e = 0; e < perTile; ++e) {
        Value x = extract(s[i][jj], e);
        if (hasMask)
          x = math::FmaOp::create(b, loc, x, f(scale), mask[e]);
        else if (!foldScale)
          x = arith::MulFOp::create(b, loc, x, f(scaleLog2));
        if (masked) {
          // With `causal`, key kv0 + col is visible to query q0 + row iff
          // col + kv0 <= row + q0 + (Skv - Sq); keys past Skv (the rows a
          // partial block repeats) are visible to none.
          Value key = add(kv0, colOf(jj, e));
          Value visible;
          if (causal) {
            Value limit = add(queryToken(add(q0, rowOf(i, e))), offset);
            visible = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                            key, limit);
          }
          if (partialKv)
            visible = andI(visible, lt(key, skv));
          x = select(visible, x, negInf);
        }
        elems.push_back(x);
      }
      s[i][jj] = vector::FromElementsOp::create(b, loc, vt, elems);
    }

  // Online softmax per row: m, l, O's scale, P = exp2(S - m).
  Value *m = state.data() + rowGroups * nd;
  SmallVector<Value> scales;
  Value *l = m + rowGroups * rowsPerLane;
  Combiner maxOf = makeCombiner(ReduceKind::Max);
  // Per row group: the factors alpha = exp2(m_old - m_new) and the row max
  // to subtract (negated when the scale folds into an fma).
  SmallVector<SmallVector<Value>> alphas(rowGroups), mSafes(rowGroups);
  for (int64_t i = 0; i < rowGroups; ++i) {
    SmallVector<Value> rowMax;
    for (int64_t r = 0; r < rowsPerLane; ++r) {
      Value mx = negInf;
      for (int64_t jj = j0; jj < j1; ++jj)
        for (int64_t e = r * perRow; e < (r + 1) * perRow; ++e)
          mx = arith::MaximumFOp::create(b, loc, mx, extract(s[i][jj], e));
      rowMax.push_back(mx);
    }
    rowMax = rowReduce(rowMax, maxOf);
    if (foldScale)
      for (Value &mx : rowMax)
        mx = arith::MulFOp::create(b, loc, mx, f(scaleLog2));
    SmallVector<Value> &alpha = alphas[i], &mSafe = mSafes[i];
    for (int64_t r = 0; r < rowsPerLane; ++r) {
      Value &mr = m[i * rowsPerLane + r];
      Value mNew = arith::MaximumFOp::create(b, loc, mr, rowMax[r]);
      // A row that sees no key yet keeps m = -inf: subtract 0 instead, so
      // that its P and alpha are exp2(-inf) = 0 rather than NaN.
      Value none = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                         mNew, negInf);
      Value safe = select(none, f(0.0), mNew);
      alpha.push_back(math::Exp2Op::create(
          b, loc, toLog2(arith::SubFOp::create(b, loc, mr, safe)), fmf));
      mSafe.push_back(foldScale ? arith::NegFOp::create(b, loc, safe) : safe);
      mr = mNew;
    }
  }
  // (The row maxima took the shuffles; what follows is lane-local.)
  if (afterMax)
    afterMax();
  for (int64_t i = 0; i < rowGroups; ++i) {
    ArrayRef<Value> alpha = alphas[i], mSafe = mSafes[i];
    SmallVector<Value> rowSum(rowsPerLane, f(0.0));
    for (int64_t jj = j0; jj < j1; ++jj) {
      SmallVector<Value> elems;
      for (int64_t e = 0; e < perTile; ++e) {
        Value x = foldScale
                      ? math::FmaOp::create(b, loc, extract(s[i][jj], e),
                                            f(scaleLog2), mSafe[e / perRow])
                            .getResult()
                      : toLog2(arith::SubFOp::create(
                            b, loc, extract(s[i][jj], e), mSafe[e / perRow]));
        Value p = math::Exp2Op::create(b, loc, x, fmf);
        rowSum[e / perRow] =
            arith::AddFOp::create(b, loc, rowSum[e / perRow], p);
        elems.push_back(p);
      }
      s[i][jj] = vector::FromElementsOp::create(b, loc, vt, elems);
    }
    for (int64_t r = 0; r < rowsPerLane; ++r) {
      // l stays a per-lane partial sum (alpha is the same in all the
      // row's lanes); they add their partials at the end.
      Value &lr = l[i * rowsPerLane + r];
      lr = arith::AddFOp::create(
          b, loc, arith::MulFOp::create(b, loc, lr, alpha[r]), rowSum[r]);
    }
    SmallVector<Value> scale;
    for (int64_t e = 0; e < perTile; ++e)
      scale.push_back(alpha[e / perRow]);
    scales.push_back(vector::FromElementsOp::create(b, loc, vt, scale));
  }
  return scales;
}

Value AttentionKernelBuilder::bringBlock(Value kb) {
  Value stage = stages <= 1 ? c(0) : rem(kb, stages);

  // Bring block kb into LDS.
  if (fromGlobal) {
    // Nothing to copy; everyone must be done reading block kb - 1's P.
    gpu::BarrierOp::create(b, loc);
  } else if (asyncCopy) {
    if (stages == 1) {
      gpu::BarrierOp::create(b, loc);
      SmallVector<Value> tokens;
      copyKvBlock(kb, c(0), c(0), tokens);
      commit(tokens);
      waitAll();
      gpu::BarrierOp::create(b, loc);
    } else {
      // Block kb was issued one step ago (or before the loop); once every
      // thread has it, nobody reads the other stage any more: refill it
      // with block kb + 1 (clamped: a repeat past the end is never read).
      // Pipelined (wgmma_pipeline), block kb - 1's V is still to be read:
      // V's third buffer takes block kb + 1 (that of block kb - 2, whose
      // P V completed in the previous step).
      waitAll();
      gpu::BarrierOp::create(b, loc);
      // With kv_split, a split's last block copies nothing (its few blocks
      // would otherwise each end with a repeat, and the wait after the loop
      // for it).
      Value more = kvSplit > 1 ? lt(kb, lastKv) : Value();
      emitIfThen(b, loc, more, [&] {
        SmallVector<Value> tokens;
        Value next = arith::MinUIOp::create(b, loc, add(kb, 1), lastKv);
        copyKvBlock(next, rem(add(kb, 1), stages), rem(add(kb, 1), vStages),
                    tokens);
        commit(tokens);
      });
    }
  } else {
    // Synchronous copies. One buffer: everyone must be done with block
    // kb - 1 first. Two: the barrier before block kb - 1's compute already
    // ordered the reads of block kb - 2, which used this stage.
    SmallVector<Value> tokens;
    if (stages == 1)
      gpu::BarrierOp::create(b, loc);
    copyKvBlock(kb, stage, stage, tokens);
    gpu::BarrierOp::create(b, loc);
  }
  return stage;
}

SmallVector<Value>
AttentionKernelBuilder::buildBlock(Value kb, ValueRange stateIn, bool masked) {
  SmallVector<Value> state(stateIn);
  int64_t nt = tkv / tileN;
  Value stage = bringBlock(kb);

  // S, scaled to the log2 domain, masked.
  SmallVector<SmallVector<Value>> s;
  Value kv0 = mul(kb, tkv);
  if (wgmmaPipeline) {
    // Block kb's exponentials under block kb - 1's P V (AttentionWgmma.cpp).
    pipelinedWgmmaBlock(kb, stage, kv0, masked, state);
    return state;
  }
  if (wgmmaCore && wgmmaOverlap) {
    // S in two groups, each half's softmax under the MMAs still in flight
    // (AttentionWgmma.cpp).
    overlappedWgmmaBlock(stage, kv0, masked, state);
    return state;
  }
  // The mask's loads go out before the products, which hide their latency.
  MaskBlock maskBlock = loadMaskBlock(kv0);
  if (wgmmaCore) {
    s.push_back(scoresWgmma(stage));
  } else if (amdCore) {
    for (int64_t i = 0; i < rowGroups; ++i)
      s.push_back(scoresAmd(i, stage));
  } else if (useMma) {
    for (int64_t i = 0; i < rowGroups; ++i)
      s.push_back(scoresMma(i, stage));
  } else {
    s = scoresFma(stage, mul(kb, tkv));
  }
  SmallVector<Value> alpha =
      softmaxUpdate(s, 0, nt, kv0, masked, state, maskBlock);
  for (int64_t i = 0; i < rowGroups; ++i)
    for (int64_t jd = 0; jd < nd; ++jd)
      state[i * nd + jd] =
          arith::MulFOp::create(b, loc, state[i * nd + jd], alpha[i]);

  SmallVector<Value> o(state.begin(), state.begin() + rowGroups * nd);
  if (wgmmaCore)
    accumulateWgmma(s, stage, o);
  else if (amdCore)
    accumulateAmd(s, stage, o);
  else if (useMma)
    accumulateMma(s, stage, o);
  else
    accumulateFma(s, stage, kv0, o);
  llvm::copy(o, state.begin());
  return state;
}

SmallVector<Value> AttentionKernelBuilder::buildLoop(Value begin, Value end,
                                                     ValueRange state,
                                                     bool masked) {
  auto loop = scf::ForOp::create(b, loc, begin, end, c(1), state);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> out =
      buildBlock(loop.getInductionVar(), loop.getRegionIterArgs(), masked);
  scf::YieldOp::create(b, loc, out);
  return SmallVector<Value>(loop.getResults());
}

LogicalResult AttentionKernelBuilder::build() {
  Type f32 = b.getF32Type();
  tid = threadIdX(b, loc);
  lane = rem(tid, waveSize);
  wave = div(tid, waveSize);
  g = div(lane, 4);
  t4 = rem(lane, 4);
  lq = rem(lane, 16);
  lg = div(lane, 16);
  waveRow = mul(wave, tq / waves);
  int64_t numQTiles = llvm::divideCeil(qRows, tq);
  // x: the query tile, and with kv_split its split (the splits of a tile
  // side by side).
  Value qTile = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value split;
  if (kvSplit > 1) {
    split = rem(qTile, kvSplit);
    qTile = div(qTile, kvSplit);
  }
  // Causal: the last query tiles walk the most blocks; run them first.
  if (causal)
    qTile = arith::SubIOp::create(b, loc, c(numQTiles - 1), qTile);
  q0 = mul(qTile, tq);
  // y: the query head, or with pack_gqa the key/value head.
  Value headY = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  bIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  head = pack ? Value() : headY;
  kvHead = pack ? headY : div(head, group);
  int64_t kvBlocks = llvm::divideCeil(skv, tkv);
  numKv = c(kvBlocks);

  if (wgmmaCore) {
    allocateWgmmaLds();
  } else if (!fromGlobal) {
    qLds = kc.addLds({tq, d + pad}, elemT);
    kLds = kc.addLds({stages, tkv, d + pad}, elemT);
    // AMD matrix cores keep V transposed (V^T's fragments run along keys).
    vLds = amdCore ? kc.addLds({stages, dv, tkv + pad}, elemT)
                   : kc.addLds({stages, tkv, dv + pad}, elemT);
  }
  if (!useMma)
    pLds = kc.addLds({tq, tkv}, f32);

  // The blocks this tile walks: [0, full) see every key, [full, end) cross
  // the diagonal (causal) or hold the last, partial block, and mask.
  // Signed: Skv - Sq may be negative. With `causal`, full <= Skv / tile_kv
  // (q0 + Skv - Sq + 1 <= Skv): a partial block is always masked.
  Value end = numKv, full = numKv;
  if (partialKv)
    full = c(skv / tkv);
  if (causal) {
    // With pack_gqa a tile holds every token of its heads: its rows' first
    // and last tokens are taken as 0 and Sq - 1.
    Value firstToken = pack ? c(0) : q0;
    Value lastToken = pack ? c(sq - 1) : add(q0, tq - 1);
    auto floorDiv = [&](Value x, int64_t y) -> Value {
      return arith::FloorDivSIOp::create(b, loc, x, c(y));
    };
    auto clamp = [&](Value x, Value hi) -> Value {
      Value lo = arith::MaxSIOp::create(b, loc, x, c(0));
      return arith::MinSIOp::create(b, loc, lo, hi);
    };
    end = clamp(add(floorDiv(add(lastToken, offset), tkv), 1), numKv);
    full = clamp(floorDiv(add(firstToken, offset + 1), tkv), end);
  }
  // kv_split: this workgroup's share of the blocks, [begin, hi); the last
  // splits may get none (more splits than blocks per split would fill, or
  // blocks past a causal tile's diagonal).
  Value begin = c(0);
  lastKv = c(kvBlocks - 1);
  if (kvSplit > 1) {
    int64_t perSplit = llvm::divideCeil(kvBlocks, kvSplit);
    begin = mul(split, perSplit);
    Value hi = arith::MinUIOp::create(b, loc, add(begin, perSplit), numKv);
    auto within = [&](Value x, Value lo) -> Value {
      Value above = arith::MaxUIOp::create(b, loc, x, lo);
      return arith::MinUIOp::create(b, loc, above, hi);
    };
    full = within(full, begin);
    end = within(end, full);
    // The prefetch stays within the split (a block past it would be read
    // for nothing); an empty split runs no block.
    lastKv = arith::MaxUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, end, c(1)), begin);
  }

  // The query tile (and with two stages the first key/value block).
  SmallVector<Value> tokens;
  if (!fromGlobal)
    copyTile(
        kc.args[0], [&](Value v, Value col) { return queryIndices(v, col); },
        q0, tq, d, qRows, qLds, ValueRange{}, tokens);
  if (asyncCopy && stages > 1) {
    // The first block in stage begin % stages (an empty split's copy, of a
    // block in range, is never read).
    Value first =
        kvSplit > 1
            ? arith::MinUIOp::create(b, loc, begin, c(kvBlocks - 1)).getResult()
            : begin;
    copyKvBlock(first, kvSplit > 1 ? rem(begin, stages) : c(0),
                kvSplit > 1 ? rem(begin, vStages) : c(0), tokens);
  }
  commit(tokens);
  // (wgmma reads Q from LDS: the first block's wait and barrier cover it.)
  if (holdQ) {
    waitAll();
    gpu::BarrierOp::create(b, loc);
    for (int64_t kk = 0; kk < d / 16; ++kk)
      qFrags.push_back(amdCore ? loadAmdFragment(qLds, {}, add(waveRow, lq), kk)
                               : loadQFragment(0, kk));
  } else if (!asyncCopy) {
    gpu::BarrierOp::create(b, loc);
  }

  auto vt = VectorType::get({perTile}, f32);
  Value zeros = arith::ConstantOp::create(b, loc, vt, b.getZeroAttr(vt));
  SmallVector<Value> state(rowGroups * nd, zeros);
  state.append(rowGroups * rowsPerLane,
               f(-std::numeric_limits<double>::infinity()));
  state.append(rowGroups * rowsPerLane, f(0.0));
  if (wgmmaPipeline) {
    // The first block peeled (its S and softmax only; masked where any
    // block may be: it may cross the diagonal or be the partial one), the
    // loops over the rest, and the last block's P V after them (causal
    // needs Sq <= Skv: every tile sees block 0).
    firstPipelinedBlock(begin, causal || partialKv, state);
    Value second = add(begin, 1);
    state = buildLoop(second, full, state, /*masked=*/false);
    if (causal || partialKv)
      state = buildLoop(arith::MaxSIOp::create(b, loc, full, second), end,
                        state, /*masked=*/true);
    Value last = arith::SubIOp::create(
        b, loc, arith::MaxSIOp::create(b, loc, end, second), c(1));
    drainPipeline(rem(last, vStages), state);
  } else {
    state = buildLoop(begin, full, state, /*masked=*/false);
    if (causal || partialKv)
      state = buildLoop(full, end, state, /*masked=*/true);
  }
  waitAll();

  // O / l, stored as pairs along Dv (AMD matrix cores: runs of perRow
  // columns, or on gfx11 element by element).
  auto store = [&](ArrayRef<Value> state) {
    const Value *l = state.data() + rowGroups * nd + rowGroups * rowsPerLane;
    Combiner sum = makeCombiner(ReduceKind::Sum);
    Value out = kc.args[op->getNumOperands()];
    auto pairType = VectorType::get({2}, f32);
    for (int64_t i = 0; i < rowGroups; ++i) {
      SmallVector<Value> partial(l + i * rowsPerLane,
                                 l + (i + 1) * rowsPerLane);
      SmallVector<Value> total = rowReduce(partial, sum);
      for (int64_t r = 0; r < rowsPerLane; ++r) {
        // A row that saw no key (causal, Sq > Skv) is 0, as the reference.
        Value positive = arith::CmpFOp::create(
            b, loc, arith::CmpFPredicate::OGT, total[r], f(0.0));
        Value inv = select(
            positive, arith::DivFOp::create(b, loc, f(1.0), total[r]), f(0.0));
        Value invPair = vector::BroadcastOp::create(b, loc, pairType, inv);
        Value row = add(q0, rowOf(i, r * perRow));
        // The rows of a partial query tile past its Sq (x group) rows are not
        // stored.
        std::optional<OpBuilder::InsertionGuard> rowGuard;
        if (partialQ) {
          rowGuard.emplace(b);
          auto ifOp = scf::IfOp::create(b, loc, lt(row, qRows),
                                        /*withElseRegion=*/false);
          b.setInsertionPointToStart(ifOp.thenBlock());
        }
        for (int64_t jd = 0; jd < nd; ++jd) {
          Value acc = state[i * nd + jd];
          if (amdCore) {
            // Dv is a multiple of 16: no partial tile.
            SmallVector<Value> elems;
            for (int64_t e = r * perRow; e < (r + 1) * perRow; ++e)
              elems.push_back(
                  arith::MulFOp::create(b, loc, extract(acc, e), inv));
            if (gfx11) {
              for (int64_t e = 0; e < perRow; ++e)
                memref::StoreOp::create(
                    b, loc, fromF32(b, loc, elems[e], elemT), out,
                    queryIndices(row, colOf(jd, r * perRow + e)));
              continue;
            }
            Value run = fromF32(b, loc, vec(elems), elemT);
            vector::StoreOp::create(
                b, loc, run, out, queryIndices(row, colOf(jd, r * perRow)),
                /*nontemporal=*/false, llvm::MaybeAlign(perRow * elemBytes));
            continue;
          }
          Value pair = vec({extract(acc, 2 * r), extract(acc, 2 * r + 1)});
          pair = fromF32(b, loc, arith::MulFOp::create(b, loc, pair, invPair),
                         elemT);
          Value col = colOf(jd, 0);
          // The columns of a partial last n8 tile past Dv are not stored; an
          // odd Dv stores element by element (its rows are not pair-aligned).
          if (dv % 2 != 0) {
            for (int64_t e = 0; e < 2; ++e) {
              Value at = add(col, e);
              OpBuilder::InsertionGuard colGuard(b);
              if (jd == nd - 1) {
                auto ifOp = scf::IfOp::create(b, loc, lt(at, dv),
                                              /*withElseRegion=*/false);
                b.setInsertionPointToStart(ifOp.thenBlock());
              }
              memref::StoreOp::create(b, loc, extract(pair, e), out,
                                      queryIndices(row, at));
            }
            continue;
          }
          OpBuilder::InsertionGuard colGuard(b);
          if (partialDv && jd == nd - 1) {
            auto ifOp = scf::IfOp::create(b, loc, lt(col, dv),
                                          /*withElseRegion=*/false);
            b.setInsertionPointToStart(ifOp.thenBlock());
          }
          vector::StoreOp::create(b, loc, pair, out, queryIndices(row, col),
                                  /*nontemporal=*/false,
                                  llvm::MaybeAlign(2 * elemBytes));
        }
      }
    }
  };
  if (kvSplit == 1) {
    store(state);
  } else {
    // Rows past the tile's last valid row have nothing to combine.
    auto rowValid = [&](int64_t i, int64_t r) -> Value {
      return partialQ ? lt(add(q0, rowOf(i, r * perRow)), qRows) : Value();
    };
    int64_t numTiles = batch * (pack ? hkv : hq) * numQTiles;
    Value tileIndex =
        add(mul(add(mul(bIdx, pack ? hkv : hq), headY), numQTiles), qTile);
    AttentionLaneLayout layout{rowGroups,   nd,      perTile,
                               rowsPerLane, threads, hasMask ? M_LOG2E : 1.0};
    combineKvSplitsAndStore(kc, layout, tid, tileIndex, numTiles, split,
                            kvSplit, state, rowValid, store);
  }
  kc.grid = {numQTiles * kvSplit, pack ? hkv : hq, batch};
  kc.block = {threads, 1, 1};
  return success();
}

LogicalResult mlir::hkg::lowerAttention(AttentionOp op, KernelContext &kc) {
  return AttentionKernelBuilder(op, kc).build();
}
