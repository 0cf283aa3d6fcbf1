//===- MatmulWgmma.cpp - matmul inner product with warpgroup MMA ----------===//
//
// mma = wgmma_64xNx16 (NVIDIA sm_90a; wgmma_64xNx32 on 8-bit operands): a
// warpgroup (4 warps) issues one 64 x N instruction per 16 K values (32 for
// .e4m3 / .e5m2 with f32 and .s8 with s32 accumulators: 32 bytes of K
// either way), reading both operands from LDS through matrix descriptors,
// with the thread's N / 2 accumulators in one LLVM struct. waves_m x waves_n
// count warpgroups, each computing one 64 x N instruction tile. The LDS tiles
// are the pipeline's cp.async ones, with 128-byte rows (A and a K-major B:
// tile_k = 64 for 16-bit types; a B as [K, N] in panels of 64 columns; 8-bit
// operands: tile_k = 128, B K-major only, as PTX allows) whose 16-byte chunks
// are XOR-swizzled by row % 8: the 128-byte-swizzle layouts the descriptors
// name, in 1024-byte aligned buffers. f32 operands multiply as 3xTF32
// (wgmma_64xNx8_tf32x3): MatmulWgmmaTf32x3.cpp names a step's three
// products through stageOperands.
//
// The instructions are inline PTX: mma_async (16-bit, 8-bit and integer
// forms), wgmma.fence and wait_group tied to the accumulators here; the
// matrix descriptors, commit_group and fence.proxy.async from Wgmma.h
// (shared with the attention kernel). With
// wgmma_pending = 1 a step's MMAs stay in flight while the next step waits
// for its tile and issues its copies (wgmma.wait_group 1). With
// wgmma_promote = 1 (fp8) a step's first MMA ignores its accumulators
// (scale-d = 0), so the step sums into its own struct, which is added to
// the running f32 accumulators once the step's MMAs completed: at once
// (wgmma_pending = 0), or, with wgmma_pending = 1, in the next step, after
// wait_group 1 retired it while that step's MMAs run into a second struct
// (the two alternate; a K loop unrolled by 2 keeps each in its registers).
// The last step of each unrolled trip waits for all its MMAs instead: ptxas
// serializes every wgmma (C7514) when non-wgmma instructions read one of
// two alternating accumulator sets while a group stays in flight across
// the loop's back edge.
//
//===----------------------------------------------------------------------===//

#include "MatmulWgmma.h"
#include "Wgmma.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::matmul;

namespace {

constexpr llvm::StringLiteral kWaitOne = "wgmma.wait_group.sync.aligned 1;";
constexpr llvm::StringLiteral kWaitAll = "wgmma.wait_group.sync.aligned 0;";

} // namespace

SmallVector<Value> WgmmaCore::finishKLoop(SmallVector<Value> acc) {
  if (t.wgmmaPending == 0)
    return acc;
  // Promoted: the last step's sum, once complete, into the running ones.
  if (t.wgmmaPromote)
    return {addStepSum(acc.front(), accumulatorAsm(kWaitAll, acc[1]))};
  return {accumulatorAsm(kWaitAll, acc.front())};
}

void WgmmaCore::beforeStageBarrier() {
  wgmma::sideEffectAsm(b, loc, "fence.proxy.async.shared::cta;");
}

void WgmmaCore::placeWave(Value wave) {
  Value wg = div(wave, 4);
  wgRow = mul(div(wg, t.wn), 64);
  wgCol = mul(rem(wg, t.wn), t.mmaN);
  t.waveRow = add(wgRow, mul(rem(wave, 4), 16));
  t.waveCol = wgCol;
  // Its PTX needs the arch-specific target (sm_90a): Compile.cpp.
  t.kernel->setAttr("hkg.arch_specific", b.getUnitAttr());
}

SmallVector<Value> WgmmaCore::initAccumulators() {
  SmallVector<Value> acc = {LLVM::ZeroOp::create(b, loc, wgmmaAccType())};
  // The step's own accumulators (each step's first MMA overwrites them);
  // with wgmma_pending = 1 also the previous step's, still to be added
  // (zero before the first step).
  if (t.wgmmaPromote)
    for (int64_t i = 0; i < 1 + t.wgmmaPending; ++i)
      acc.push_back(LLVM::ZeroOp::create(b, loc, wgmmaAccType()));
  return acc;
}

Type WgmmaCore::wgmmaAccType() {
  return LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(t.mmaN / 2, t.accT));
}

/// The PTX type of wgmma operands of element type `elem` (f32: as tf32).
static std::string operandType(Type elem) {
  if (elem.isF32())
    return "tf32";
  if (elem.isBF16())
    return "bf16";
  if (elem.isF16())
    return "f16";
  if (isa<Float8E4M3FNType>(elem))
    return "e4m3";
  if (isa<Float8E5M2Type>(elem))
    return "e5m2";
  assert(elem.isInteger(8) && "wgmma takes 16-bit, OCP fp8 or i8 operands");
  return "s8";
}

/// `n` outputs (f32 registers, or 32-bit integer ones with `integer`), the
/// `middle` inputs, then inputs tied to the outputs, as constraints.
static std::string tiedConstraints(int64_t n, StringRef middle, bool integer) {
  std::string c;
  for (int64_t i = 0; i < n; ++i)
    c += integer ? "=r," : "=f,";
  c += middle.str();
  for (int64_t i = 0; i < n; ++i)
    c += (c.empty() || c.back() == ',' ? "" : ",") + std::to_string(i);
  return c;
}

Value WgmmaCore::accumulatorAsm(StringRef text, Value acc) {
  int64_t n = t.mmaN / 2;
  SmallVector<Value> operands;
  for (int64_t i = 0; i < n; ++i)
    operands.push_back(
        LLVM::ExtractValueOp::create(b, loc, acc, ArrayRef<int64_t>{i}));
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, wgmmaAccType(), operands, text,
      tiedConstraints(n, "", t.accT.isInteger(32)),
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, nullptr, nullptr);
  return asmOp.getResult(0);
}

Value WgmmaCore::rowAddress(Value buf, Value stage, int64_t rows, Value row) {
  int64_t rowBytes = t.tk * t.elemBytes; // 128
  Value offset = add(mul(stage, rows * rowBytes), mul(row, rowBytes));
  return arith::AddIOp::create(
      b, loc, wgmma::sharedAddress(b, loc, buf),
      arith::IndexCastOp::create(b, loc, b.getI64Type(), offset));
}

SmallVector<WgmmaCore::Operands> WgmmaCore::stageOperands(Value stage) {
  // This warpgroup's 64 rows of A and tile_n rows of B in the stage. B:
  // K-major, its tile_n rows of 128 bytes; MN-major ([K, N]), panels of
  // 128 bytes of columns x tile_k rows (this warpgroup's first panel:
  // wgCol / the panel's columns).
  Value a = rowAddress(t.ldsA.buf, stage, t.ldsA.rows, wgRow);
  Value bTile = t.transB ? rowAddress(t.ldsB.buf, stage, t.ldsB.rows, wgCol)
                         : rowAddress(t.ldsB.buf, stage, t.ldsB.rows,
                                      mul(div(wgCol, 128 / t.elemBytes), t.tk));
  return {{a, bTile, /*bMnMajor=*/!t.transB}};
}

SmallVector<Value> WgmmaCore::computeStage(Value stage, ValueRange accIn) {
  Type i64 = b.getI64Type();
  int64_t rowBytes = t.tk * t.elemBytes; // 128
  int64_t panelBytes = t.tk * rowBytes;
  SmallVector<Operands> products = stageOperands(stage);
  int64_t n = t.mmaN / 2;
  std::string ty = operandType(t.elemT);
  bool integer = t.accT.isInteger(32);
  std::string regs;
  for (int64_t i = 0; i < n; ++i)
    regs += (i ? ", $" : "$") + std::to_string(i);
  // scale-d (p: accumulate), then imm-scale-a / imm-scale-b (1: A and B
  // not negated; floats only) and the transposes (16-bit types only: 8-bit
  // and tf32 operands are K-major).
  std::string immediates =
      integer            ? ""
      : t.elemBytes != 2 ? ", 1, 1"
                         : ", 1, 1, 0, " + std::string(t.transB ? "0" : "1");
  std::string text =
      "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(n + 2) +
      ", 0;\nwgmma.mma_async.sync.aligned.m64n" + std::to_string(t.mmaN) + "k" +
      std::to_string(t.mmaK) + (integer ? ".s32." : ".f32.") + ty + "." + ty +
      " {" + regs + "}, $" + std::to_string(n) + ", $" + std::to_string(n + 1) +
      ", p" + immediates + ";\n}";
  std::string constraints = tiedConstraints(n, "l,l,r,", integer);
  Value one =
      arith::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(1));
  Value zero =
      arith::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(0));
  bool promote = t.wgmmaPromote;
  Value running = accIn.front();
  // Promoted with wgmma_pending = 1: accIn = {running, the previous step's
  // sum (in flight), a free struct}; this step sums into the free one.
  Value acc = accumulatorAsm("wgmma.fence.sync.aligned;",
                             promote ? accIn.back() : accIn.front());
  auto offset = [&](int64_t bytes) -> Value {
    return arith::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(bytes));
  };
  for (int64_t kk = 0; kk < t.tk; kk += t.mmaK) {
    for (auto [p, ops] : llvm::enumerate(products)) {
      // K-major: an instruction's K values are 32 bytes along the row;
      // MN-major (16-bit only): 16 rows.
      Value descA = wgmma::descriptor(
          b, loc,
          arith::AddIOp::create(b, loc, ops.a, offset(kk * t.elemBytes)));
      Value descB =
          ops.bMnMajor
              ? wgmma::descriptor(
                    b, loc,
                    arith::AddIOp::create(b, loc, ops.b, offset(kk * rowBytes)),
                    /*leadingBytes=*/panelBytes)
              : wgmma::descriptor(b, loc,
                                  arith::AddIOp::create(
                                      b, loc, ops.b, offset(kk * t.elemBytes)));
      // scale-d: 0 starts a promoted step's sum from zero.
      SmallVector<Value> operands = {descA, descB,
                                     promote && kk == 0 && p == 0 ? zero : one};
      for (int64_t i = 0; i < n; ++i)
        operands.push_back(
            LLVM::ExtractValueOp::create(b, loc, acc, ArrayRef<int64_t>{i}));
      acc = LLVM::InlineAsmOp::create(
                b, loc, wgmmaAccType(), operands, text, constraints,
                /*has_side_effects=*/true, /*is_align_stack=*/false,
                LLVM::tailcallkind::TailCallKind::None, nullptr, nullptr)
                .getResult(0);
    }
  }
  wgmma::sideEffectAsm(b, loc, "wgmma.commit_group.sync.aligned;");
  // Wait for this step's MMAs (wgmma_pending = 0) or the previous step's
  // (1) before the loop's barrier, after which a refill overwrites their
  // stage; the loop's exit waits for all before the accumulators are read.
  acc = accumulatorAsm("wgmma.wait_group.sync.aligned " +
                           std::to_string(t.wgmmaPending) + ";",
                       acc);
  if (!promote)
    return {acc};
  // The completed step's sum (this one's, or with wgmma_pending = 1 the
  // previous one's, which wait_group 1 retired) into the running f32
  // accumulators.
  if (t.wgmmaPending == 0)
    return {addStepSum(running, acc), acc};
  // The previous step's sums pass through an empty asm after the wait
  // (side-effecting asms keep their order), and the adds read its results:
  // nothing hoists them above the wait.
  Value previous = accumulatorAsm("", accIn[1]);
  return {addStepSum(running, previous), acc, previous};
}

Value WgmmaCore::addStepSum(Value running, Value step) {
  for (int64_t i = 0; i < t.mmaN / 2; ++i) {
    Value sum = arith::AddFOp::create(
        b, loc, LLVM::ExtractValueOp::create(b, loc, running, i),
        LLVM::ExtractValueOp::create(b, loc, step, i));
    running = LLVM::InsertValueOp::create(b, loc, running, sum, i);
  }
  return running;
}

void WgmmaCore::forEachResultRun(ValueRange acc, ResultRunFn fn) {
  // Warp w of a warpgroup holds its rows 16w .. 16w + 15; element 4j + 2h
  // + e of the struct is (row lane / 4 + 8h, column 8j + 2 (lane % 4) + e)
  // of them (PTX ISA, wgmma D fragments: mma.sync's m16n8 C layout for
  // each 8 columns).
  Value row = add(t.waveRow, div(t.lane, 4));
  Value col = add(t.waveCol, mul(rem(t.lane, 4), 2));
  Value s = acc.front();
  auto at = [&](int64_t i) -> Value {
    return LLVM::ExtractValueOp::create(b, loc, s, ArrayRef<int64_t>{i});
  };
  for (int64_t jn = 0; jn < t.mmaN / 8; ++jn)
    for (int64_t h = 0; h < 2; ++h)
      fn(add(row, h * 8), add(col, jn * 8),
         {at(4 * jn + 2 * h), at(4 * jn + 2 * h + 1)});
}

void WgmmaCore::afterKLoopUnrolled(ArrayRef<scf::ForOp> loops) {
  if (!t.wgmmaPromote || t.wgmmaPending == 0)
    return;
  for (scf::ForOp loop : loops) {
    LLVM::InlineAsmOp last;
    loop.getBody()->walk([&](LLVM::InlineAsmOp asmOp) {
      if (asmOp.getAsmString() == kWaitOne)
        last = asmOp;
    });
    if (last)
      last.setAsmString(kWaitAll);
  }
}

std::unique_ptr<MatrixCore> mlir::hkg::matmul::createWgmmaCore(KernelState &t) {
  return std::make_unique<WgmmaCore>(t);
}
