//===- SamplingDraw.cpp - the draw of top-p sampling ----------------------===//
//
// Step 5 of top-p sampling (Sampling.cpp): a workgroup scan of the ties
// gives each thread how many of its tied tokens are in the nucleus, a scan
// of the nucleus mass its slice [E_t, E_t + m_t) of the nucleus mass M; the
// draw is D = floor(u M), and the one thread whose slice holds D walks its
// tokens in id order to the token where the running mass passes D.
//
//===----------------------------------------------------------------------===//

#include "SamplingKernel.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::topp;

/// splitmix64's finalizer of `x` (i64).
static Value mix64(OpBuilder &b, Location loc, Value x) {
  auto c = [&](uint64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(),
                                        static_cast<int64_t>(v));
  };
  auto xorShift = [&](Value z, int64_t s) {
    return arith::XOrIOp::create(b, loc, z,
                                 arith::ShRUIOp::create(b, loc, z, c(s)));
  };
  Value z =
      arith::MulIOp::create(b, loc, xorShift(x, 30), c(0xBF58476D1CE4E5B9ULL));
  z = arith::MulIOp::create(b, loc, xorShift(z, 27), c(0x94D049BB133111EBULL));
  return xorShift(z, 31);
}

// u from `uniform[row]`, or from a counter-based hash of (seed, row)
// (splitmix64 finalizer, top 24 bits).
Value TopPKernel::uniform() {
  if (op.getUniform()) {
    Value u = memref::LoadOp::create(b, loc, kc.args[1], ValueRange{s.row});
    return arith::MaxNumFOp::create(b, loc, u, constF32(b, loc, 0.0));
  }
  Value rowI64 = arith::IndexCastOp::create(b, loc, i64, s.row);
  Value counter = addI(
      c64(static_cast<int64_t>(*op.getSeed())),
      arith::MulIOp::create(b, loc, addI(rowI64, c64(1)),
                            c64(static_cast<int64_t>(0x9E3779B97F4A7C15ULL))));
  Value bits = arith::ShRUIOp::create(b, loc, mix64(b, loc, counter), c64(40));
  return arith::MulFOp::create(b, loc,
                               arith::UIToFPOp::create(b, loc, f32, bits),
                               constF32(b, loc, 1.0 / 16777216.0));
}

void TopPKernel::draw(const Nucleus &n) {
  // Ties taken per thread, the nucleus mass scan.
  ScanResult tieScan = workgroupScan(kc, n.ties, s.tid);
  Value tiesBefore = tieScan.exclusive;
  // ctas_per_row > 1: the tokens of a workgroup follow those of the
  // workgroups of lower rank.
  if (clustered)
    tiesBefore = addI(tiesBefore, exclusiveAcross(x64, 1, tieScan.total).first);
  Value taken = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, subI(n.kTies, tiesBefore), c64(0)),
      n.ties);
  Value partial = addI(n.own, arith::MulIOp::create(b, loc, taken, n.qCut));
  ScanResult massScan = workgroupScan(kc, partial, s.tid);
  if (clustered) {
    auto [offset, total] = exclusiveAcross(x64, 2, massScan.total);
    massScan.exclusive = addI(massScan.exclusive, offset);
    massScan.inclusive = addI(massScan.inclusive, offset);
    massScan.total = total;
    // The last read of the peers' LDS: no workgroup may exit before the
    // others are past it.
    clusterSync();
  }

  Value u = uniform();
  Value total = massScan.total;
  Value drawAt = arith::FPToUIOp::create(
      b, loc, i64,
      arith::MulFOp::create(b, loc, arith::ExtFOp::create(b, loc, f64, u),
                            arith::UIToFPOp::create(b, loc, f64, total)));
  drawAt = arith::MinSIOp::create(b, loc, drawAt, subI(total, c64(1)));

  // The one thread whose slice [E_t, E_t + m_t) holds the draw walks it.
  Value chosen =
      andI(cmpI(arith::CmpIPredicate::sle, massScan.exclusive, drawAt),
           cmpI(arith::CmpIPredicate::slt, drawAt, massScan.inclusive));
  ifThen(chosen, [&] {
    Value fls = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
    Value tru = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    SmallVector<Value> walk = s.pass(
        {massScan.exclusive, tiesBefore, fls, constI32(b, loc, -1)},
        [&](const Chunk &c, ValueRange a) -> SmallVector<Value> {
          Value acc = a[0], seen = a[1], done = a[2], tok = a[3];
          Value q = massOf(c.z);
          for (int64_t l = 0; l < c.width; ++l) {
            Value kl = lane(c.key, l);
            Value eq = cmpI(arith::CmpIPredicate::eq, kl, n.cut);
            Value gt = cmpI(arith::CmpIPredicate::sgt, kl, n.cut);
            if (c.valid) {
              eq = andI(eq, c.valid);
              gt = andI(gt, c.valid);
            }
            Value in = arith::OrIOp::create(
                b, loc, gt,
                andI(eq, cmpI(arith::CmpIPredicate::slt, seen, n.kTies)));
            seen = selectV(eq, addI(seen, c64(1)), seen);
            acc = selectV(in, addI(acc, lane(q, l)), acc);
            Value hit = andI(andI(in, arith::XOrIOp::create(b, loc, done, tru)),
                             cmpI(arith::CmpIPredicate::sgt, acc, drawAt));
            Value id =
                arith::IndexCastOp::create(b, loc, i32, addI(c.col, ci(l)));
            tok = selectV(hit, id, tok);
            done = arith::OrIOp::create(b, loc, done, hit);
          }
          return {acc, seen, done, tok};
        },
        /*contiguous=*/true);
    memref::StoreOp::create(b, loc, walk[3], kc.args.back(), ValueRange{s.row});
  });
}
