//===- GPUBuildingBlocks.cpp - pieces every hkg kernel is built from ------===//
//
// Written once, used by every op family: see GPUBuildingBlocks.h.
//
//===----------------------------------------------------------------------===//

#include "GPUBuildingBlocks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::hkg;

Value mlir::hkg::addWorkgroupBuffer(OpBuilder &b, Location loc,
                                    gpu::GPUFuncOp func,
                                    ArrayRef<int64_t> shape, Type elementType,
                                    int64_t align) {
  auto space =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto type =
      MemRefType::get(shape, elementType, MemRefLayoutAttrInterface(), space);
  BlockArgument buffer = func.addWorkgroupAttribution(type, loc);
  func.setWorkgroupAttributionAttr(func.getNumWorkgroupAttributions() - 1,
                                   "llvm.align", b.getI64IntegerAttr(align));
  return buffer;
}

Value KernelContext::addLds(ArrayRef<int64_t> shape, Type elementType,
                            int64_t align) {
  return addWorkgroupBuffer(b, loc, func, shape, elementType, align);
}

OpFoldResult KernelContext::extent(unsigned arg, int64_t begin, int64_t end) {
  int64_t fixed = staticExtent(arg, begin, end);
  Value product;
  for (int64_t d = begin; d < end; ++d) {
    int64_t param = argSizes.empty() ? -1 : argSizes[arg][d];
    if (param < 0)
      continue;
    product =
        product
            ? arith::MulIOp::create(b, loc, product, sizes[param]).getResult()
            : sizes[param];
  }
  if (!product)
    return b.getIndexAttr(fixed);
  if (fixed == 1)
    return product;
  return arith::MulIOp::create(b, loc, product, constIndex(b, loc, fixed))
      .getResult();
}

int64_t KernelContext::staticExtent(unsigned arg, int64_t begin,
                                    int64_t end) const {
  auto type = cast<MemRefType>(args[arg].getType());
  int64_t n = 1;
  for (int64_t d = begin; d < end; ++d)
    if (!ShapedType::isDynamic(type.getDimSize(d)))
      n *= type.getDimSize(d);
  return n;
}

void KernelContext::setGridX(int64_t mul, int64_t div, int64_t times) {
  gridX = {mul, div, times};
  grid[0] = 0; // computed at launch
}

FailureOr<int64_t> mlir::hkg::moveLdsToDynamicSharedMemory(
    gpu::GPUFuncOp func, int64_t staticLimit, int64_t maxBytes) {
  SmallVector<BlockArgument> buffers(func.getWorkgroupAttributions());
  SmallVector<int64_t> offsets;
  int64_t total = 0;
  bool placeable = true;
  unsigned first = func.getFirstWorkgroupAttributionIndex();
  for (auto [i, buffer] : llvm::enumerate(buffers)) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        !type.getElementType().isIntOrFloat()) {
      placeable = false;
      break;
    }
    // Each buffer keeps its attribution's alignment (wgmma's swizzled
    // tiles: 1024 bytes, which the dynamic buffer's own alignment then
    // provides), at least 16 bytes.
    int64_t align = 16;
    if (auto attr = dyn_cast_or_null<IntegerAttr>(
            func.getWorkgroupAttributionAttr(i, "llvm.align")))
      align = std::max<int64_t>(align, attr.getInt());
    total = llvm::alignTo(total, align);
    offsets.push_back(total);
    total += type.getNumElements() *
             llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  }
  if (placeable && total <= staticLimit)
    return 0;
  if (!placeable) {
    // Only an over-the-limit kernel needs the move; one that cannot be
    // moved is an error only then, and its size is unknown here.
    int64_t known = 0;
    for (BlockArgument buffer : buffers)
      if (auto t = cast<MemRefType>(buffer.getType());
          t.hasStaticShape() && t.getElementType().isIntOrFloat())
        known += t.getNumElements() *
                 llvm::divideCeil(t.getElementTypeBitWidth(), 8);
    if (known <= staticLimit)
      return 0;
    return func.emitError("LDS buffers of ")
           << known << "+ bytes need dynamic shared memory (more than "
           << staticLimit
           << " static), which hkg places only for static-shape, identity-"
              "layout buffers of integers or floats";
  }
  if (total > maxBytes)
    return func.emitError("kernel needs ")
           << total << " bytes of LDS; the chip allows " << maxBytes
           << " per workgroup";
  MLIRContext *ctx = func.getContext();
  Block &entry = func.getBody().front();
  OpBuilder b(ctx);
  b.setInsertionPointToStart(&entry);
  Location loc = func.getLoc();
  auto space = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                   MemRefLayoutAttrInterface(), space);
  Value base = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
  for (auto [buffer, offset] : llvm::zip(buffers, offsets)) {
    Value view = memref::ViewOp::create(b, loc, buffer.getType(), base,
                                        constIndex(b, loc, offset),
                                        ValueRange{});
    Value(buffer).replaceAllUsesWith(view);
  }
  for (unsigned i = buffers.size(); i > 0; --i)
    entry.eraseArgument(first + i - 1);
  func->setAttr(gpu::GPUFuncOp::getNumWorkgroupAttributionsAttrName(),
                b.getI64IntegerAttr(0));
  func.setWorkgroupAttribAttrsAttr(ArrayAttr());
  return total;
}

//===----------------------------------------------------------------------===//
// Scalars, ids, views
//===----------------------------------------------------------------------===//

Value mlir::hkg::constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value mlir::hkg::constI32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

Value mlir::hkg::constF32(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}

Value mlir::hkg::threadIdX(OpBuilder &b, Location loc) {
  return gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
}

Value mlir::hkg::blockIdX(OpBuilder &b, Location loc) {
  return gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
}

/// The groups of dims of `from` and of `to` (same element count) whose
/// products are equal, in order (a reshape is a collapse of the first, then
/// an expand to the second); none when the extents do not line up.
static std::optional<std::pair<SmallVector<ReassociationIndices>,
                               SmallVector<ReassociationIndices>>>
getReshapeGroups(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  SmallVector<ReassociationIndices> src, dst;
  int64_t i = 0, j = 0, n = from.size(), m = to.size();
  while (i < n && j < m) {
    ReassociationIndices gs = {i}, gd = {j};
    int64_t ps = from[i++], pd = to[j++];
    while (ps != pd) {
      if (ps < pd) {
        if (i == n)
          return std::nullopt;
        gs.push_back(i);
        ps *= from[i++];
      } else {
        if (j == m)
          return std::nullopt;
        gd.push_back(j);
        pd *= to[j++];
      }
    }
    src.push_back(gs);
    dst.push_back(gd);
  }
  // Trailing unit dims join the last group.
  for (; i < n; ++i) {
    if (from[i] != 1 || src.empty())
      return std::nullopt;
    src.back().push_back(i);
  }
  for (; j < m; ++j) {
    if (to[j] != 1 || dst.empty())
      return std::nullopt;
    dst.back().push_back(j);
  }
  return std::make_pair(src, dst);
}

bool mlir::hkg::canReshapeView(MemRefType type, ArrayRef<int64_t> shape) {
  if (type.getLayout().isIdentity() || type.getShape() == shape)
    return true;
  auto groups = getReshapeGroups(type.getShape(), shape);
  if (!groups ||
      !memref::CollapseShapeOp::isGuaranteedCollapsible(type, groups->first))
    return false;
  MemRefType collapsed =
      memref::CollapseShapeOp::computeCollapsedType(type, groups->first);
  return succeeded(memref::ExpandShapeOp::computeExpandedType(collapsed, shape,
                                                              groups->second));
}

Value mlir::hkg::reshapeView(OpBuilder &b, Location loc, Value m,
                             ArrayRef<int64_t> shape) {
  auto type = cast<MemRefType>(m.getType());
  if (type.getShape() == shape)
    return m;
  if (!type.getLayout().isIdentity()) {
    // A strided view: collapse the groups, then expand them to `shape`.
    assert(canReshapeView(type, shape) && "no view has that shape");
    auto groups = *getReshapeGroups(type.getShape(), shape);
    auto merges = [](ArrayRef<ReassociationIndices> g) {
      return llvm::any_of(g, [](const auto &d) { return d.size() > 1; });
    };
    Value v = m;
    if (merges(groups.first))
      v = memref::CollapseShapeOp::create(b, loc, v, groups.first);
    if (merges(groups.second))
      v = memref::ExpandShapeOp::create(b, loc, shape, v, groups.second);
    return v;
  }
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  auto result =
      MemRefType::get(shape, type.getElementType(), MemRefLayoutAttrInterface(),
                      type.getMemorySpace());
  return memref::ReinterpretCastOp::create(b, loc, result, m, /*offset=*/0,
                                           shape, strides);
}

Value mlir::hkg::reshapeView(OpBuilder &b, Location loc, Value m,
                             ArrayRef<OpFoldResult> shape) {
  SmallVector<int64_t> staticShape;
  SmallVector<Value> dynamicSizes;
  dispatchIndexOpFoldResults(shape, dynamicSizes, staticShape);
  if (dynamicSizes.empty())
    return reshapeView(b, loc, m, staticShape);
  auto type = cast<MemRefType>(m.getType());
  if (type.getShape() == ArrayRef<int64_t>(staticShape) &&
      type.getLayout().isIdentity())
    return m;
  // Row-major strides: static until a dynamic dim is passed.
  SmallVector<OpFoldResult> strides(shape.size(), b.getIndexAttr(1));
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) {
    std::optional<int64_t> inner = getConstantIntValue(strides[i + 1]);
    std::optional<int64_t> dim = getConstantIntValue(shape[i + 1]);
    if (inner && dim)
      strides[i] = b.getIndexAttr(*inner * *dim);
    else
      strides[i] =
          arith::MulIOp::create(
              b, loc, getValueOrCreateConstantIndexOp(b, loc, strides[i + 1]),
              getValueOrCreateConstantIndexOp(b, loc, shape[i + 1]))
              .getResult();
  }
  auto result =
      MemRefType::get(staticShape, type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace());
  return memref::ReinterpretCastOp::create(b, loc, result, m, b.getIndexAttr(0),
                                           shape, strides);
}

int64_t mlir::hkg::vectorAlignment(Type elementType, int64_t width) {
  int64_t bytes = width * elementType.getIntOrFloatBitWidth() / 8;
  return std::min<int64_t>(16, std::max<int64_t>(1, bytes));
}

StreamingAccess mlir::hkg::streamingAccessOf(Operation *op,
                                            const TargetInfo &target) {
  if (op->hasAttr(HkgDialect::StreamingAccessAttrHelper::getNameStr()))
    return StreamingAccess::All;
  StringRef e;
  if (auto a = op->getAttrOfType<StringAttr>(
          HkgDialect::LoadEvictionAttrHelper::getNameStr()))
    e = a.getValue();
  else if (target.family == "hopper" &&
           op->hasTrait<KernelTrait::HkgEvictLastOnHopper>())
    e = "last";
  if (e == "first")
    return StreamingAccess::LoadsEvictFirst;
  if (e == "last" && target.isNVIDIA())
    return StreamingAccess::LoadsEvictLast;
  return StreamingAccess::None;
}

Value mlir::hkg::loadVector(OpBuilder &b, Location loc, Value m,
                            ValueRange indices, int64_t width,
                            int64_t alignment, bool nontemporal) {
  auto type =
      VectorType::get({width}, cast<MemRefType>(m.getType()).getElementType());
  return vector::LoadOp::create(b, loc, type, m, indices, nontemporal,
                                llvm::MaybeAlign(alignment));
}

void mlir::hkg::storeVector(OpBuilder &b, Location loc, Value v, Value m,
                            ValueRange indices, int64_t alignment,
                            bool nontemporal) {
  vector::StoreOp::create(b, loc, v, m, indices, nontemporal,
                          llvm::MaybeAlign(alignment));
}

static Type withElementType(Type t, Type element) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.clone(element);
  return element;
}

Value mlir::hkg::toF32(OpBuilder &b, Location loc, Value v) {
  Type f32 = b.getF32Type();
  Type et = getElementTypeOrSelf(v.getType());
  if (et == f32)
    return v;
  Type target = withElementType(v.getType(), f32);
  if (et.getIntOrFloatBitWidth() < 32)
    return arith::ExtFOp::create(b, loc, target, v);
  return arith::TruncFOp::create(b, loc, target, v);
}

Value mlir::hkg::bf16ToF32Bits(OpBuilder &b, Location loc, Value v,
                                bool wordwise) {
  assert(getElementTypeOrSelf(v.getType()).isBF16() && "expected bf16");
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto splatI32 = [&](Type t, int64_t c) -> Value {
    auto attr = b.getIntegerAttr(i32, c);
    if (auto vt = dyn_cast<VectorType>(t))
      return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vt, attr));
    return arith::ConstantOp::create(b, loc, attr);
  };
  auto vt = dyn_cast<VectorType>(v.getType());
  if (wordwise && vt && vt.getRank() == 1 && vt.getNumElements() % 2 == 0) {
    // Pairs of bf16 as the i32 words they were loaded in: element 2k is the
    // low half of word k, element 2k + 1 the high half. Working on words
    // keeps the cached value packed (no 16-bit registers per element).
    auto words = VectorType::get({vt.getNumElements() / 2}, i32);
    Value w = vector::BitCastOp::create(b, loc, words, v);
    Value lo = arith::ShLIOp::create(b, loc, w, splatI32(words, 16));
    Value hi = arith::AndIOp::create(
        b, loc, w, splatI32(words, static_cast<int32_t>(0xFFFF0000u)));
    auto halves = words.clone(f32);
    return vector::InterleaveOp::create(
        b, loc, arith::BitcastOp::create(b, loc, halves, lo),
        arith::BitcastOp::create(b, loc, halves, hi));
  }
  if (vt && vt.getRank() == 1) {
    // Each f32 as the i16 pair (0, bf16 bits) (little-endian halves).
    auto halves = vt.clone(b.getI16Type());
    Value bits = vector::BitCastOp::create(b, loc, halves, v);
    Value zero = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(halves, b.getI16IntegerAttr(0).getValue()));
    Value pairs = vector::InterleaveOp::create(b, loc, zero, bits);
    return vector::BitCastOp::create(b, loc, vt.clone(b.getF32Type()), pairs);
  }
  Type i16 = withElementType(v.getType(), b.getI16Type());
  Type wide = withElementType(v.getType(), i32);
  Value bits = arith::BitcastOp::create(b, loc, i16, v);
  Value shifted = arith::ShLIOp::create(
      b, loc, arith::ExtUIOp::create(b, loc, wide, bits), splatI32(wide, 16));
  return arith::BitcastOp::create(b, loc, withElementType(v.getType(), f32),
                                  shifted);
}

Value mlir::hkg::fromF32(OpBuilder &b, Location loc, Value v,
                         Type elementType) {
  if (elementType.isF32())
    return v;
  Type target = withElementType(v.getType(), elementType);
  if (elementType.getIntOrFloatBitWidth() < 32)
    return arith::TruncFOp::create(b, loc, target, v);
  return arith::ExtFOp::create(b, loc, target, v);
}

Value mlir::hkg::splatLike(OpBuilder &b, Location loc, Value scalar,
                           Value like) {
  auto vt = dyn_cast<VectorType>(like.getType());
  if (!vt)
    return scalar;
  return vector::BroadcastOp::create(b, loc, vt.clone(scalar.getType()),
                                     scalar);
}

Value mlir::hkg::expBelowMax(OpBuilder &b, Location loc, Value d) {
  return math::ExpOp::create(
      b, loc, d,
      arith::FastMathFlagsAttr::get(b.getContext(), arith::FastMathFlags::afn));
}

Value mlir::hkg::expDiffOrZero(OpBuilder &b, Location loc, Value a, Value m) {
  Value negInf = splatLike(
      b, loc, constF32(b, loc, -std::numeric_limits<double>::infinity()), m);
  Value isEmpty =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m, negInf);
  Value diff = arith::SubFOp::create(
      b, loc, a, m.getType() == a.getType() ? m : splatLike(b, loc, m, a));
  Value e = expBelowMax(b, loc, diff);
  Value zero = splatLike(b, loc, constF32(b, loc, 0.0), a);
  return arith::SelectOp::create(b, loc, isEmpty, zero, e);
}

Combiner mlir::hkg::makeOnlineSoftmaxCombiner() {
  return [](OpBuilder &b, Location loc, ValueRange x,
            ValueRange y) -> SmallVector<Value> {
    Value m = arith::MaxNumFOp::create(b, loc, x[0], y[0]);
    Value sx =
        arith::MulFOp::create(b, loc, x[1], expDiffOrZero(b, loc, x[0], m));
    Value sy =
        arith::MulFOp::create(b, loc, y[1], expDiffOrZero(b, loc, y[0], m));
    return {m, arith::AddFOp::create(b, loc, sx, sy)};
  };
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

Combiner mlir::hkg::makeCombiner(ReduceKind kind) {
  auto one = [kind](OpBuilder &b, Location loc, Value a, Value c) -> Value {
    switch (kind) {
    case ReduceKind::Sum:
      return arith::AddFOp::create(b, loc, a, c);
    case ReduceKind::Max:
      return arith::MaxNumFOp::create(b, loc, a, c);
    case ReduceKind::Min:
      return arith::MinNumFOp::create(b, loc, a, c);
    case ReduceKind::Maximum:
      return arith::MaximumFOp::create(b, loc, a, c);
    case ReduceKind::Minimum:
      return arith::MinimumFOp::create(b, loc, a, c);
    case ReduceKind::Prod:
      return arith::MulFOp::create(b, loc, a, c);
    case ReduceKind::Argmax:
    case ReduceKind::Argmin:
    case ReduceKind::LogSumExp:
      break; // tuple states: ReductionsKinds.h
    }
    llvm_unreachable("expected a single-value reduce kind");
  };
  // Several independent values reduce side by side (a tile of
  // accumulators), each with `kind`.
  return [one](OpBuilder &b, Location loc, ValueRange x,
               ValueRange y) -> SmallVector<Value> {
    assert(x.size() == y.size() && "combining tuples of different sizes");
    SmallVector<Value> out;
    for (auto [a, c] : llvm::zip_equal(x, y))
      out.push_back(one(b, loc, a, c));
    return out;
  };
}

Value mlir::hkg::reductionIdentity(OpBuilder &b, Location loc,
                                   ReduceKind kind) {
  double inf = std::numeric_limits<double>::infinity();
  switch (kind) {
  case ReduceKind::Sum:
    return constF32(b, loc, 0.0);
  case ReduceKind::Max:
  case ReduceKind::Maximum:
    return constF32(b, loc, -inf);
  case ReduceKind::Min:
  case ReduceKind::Minimum:
    return constF32(b, loc, inf);
  case ReduceKind::Prod:
    return constF32(b, loc, 1.0);
  case ReduceKind::Argmax:
  case ReduceKind::Argmin:
  case ReduceKind::LogSumExp:
    break; // tuple states: ReductionsKinds.h
  }
  llvm_unreachable("expected a single-value reduce kind");
}

Value mlir::hkg::reduceVector(OpBuilder &b, Location loc, Value v,
                              ReduceKind kind) {
  if (!isa<VectorType>(v.getType()))
    return v;
  vector::CombiningKind ck = vector::CombiningKind::ADD;
  switch (kind) {
  case ReduceKind::Sum:
    ck = vector::CombiningKind::ADD;
    break;
  case ReduceKind::Max:
    ck = vector::CombiningKind::MAXNUMF;
    break;
  case ReduceKind::Min:
    ck = vector::CombiningKind::MINNUMF;
    break;
  case ReduceKind::Maximum:
    ck = vector::CombiningKind::MAXIMUMF;
    break;
  case ReduceKind::Minimum:
    ck = vector::CombiningKind::MINIMUMF;
    break;
  case ReduceKind::Prod:
    ck = vector::CombiningKind::MUL;
    break;
  case ReduceKind::Argmax:
  case ReduceKind::Argmin:
  case ReduceKind::LogSumExp:
    llvm_unreachable("expected a single-value reduce kind");
  }
  return vector::ReductionOp::create(b, loc, ck, v);
}

SmallVector<Value> mlir::hkg::subgroupReduce(OpBuilder &b, Location loc,
                                             ValueRange values,
                                             const Combiner &combine,
                                             int64_t clusterSize,
                                             int64_t waveSize) {
  SmallVector<Value> acc(values);
  for (int64_t offset = clusterSize / 2; offset >= 1; offset /= 2) {
    SmallVector<Value> other;
    for (Value v : acc)
      other.push_back(gpu::ShuffleOp::create(b, loc, v, offset, waveSize,
                                             gpu::ShuffleMode::XOR)
                          .getShuffleResult());
    acc = combine(b, loc, acc, other);
  }
  return acc;
}

SmallVector<Value> mlir::hkg::groupReduce(KernelContext &kc, ValueRange values,
                                          const Combiner &combine,
                                          int64_t groupSize, int64_t numGroups,
                                          Value group, Value laneInGroup) {
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  int64_t wave = kc.waveSize();
  if (groupSize == 1)
    return SmallVector<Value>(values);
  SmallVector<Value> acc =
      subgroupReduce(b, loc, values, combine, std::min(groupSize, wave), wave);
  if (groupSize <= wave)
    return acc;

  // Across the waves of a group: lane 0 of each wave parks its partial in
  // LDS, then every thread folds its group's partials.
  int64_t wavesPerGroup = groupSize / wave;
  Value cWave = constIndex(b, loc, wave);
  Value laneInWave = arith::RemUIOp::create(b, loc, laneInGroup, cWave);
  Value waveInGroup = arith::DivUIOp::create(b, loc, laneInGroup, cWave);
  Value base =
      arith::MulIOp::create(b, loc, group, constIndex(b, loc, wavesPerGroup));
  Value slot = arith::AddIOp::create(b, loc, base, waveInGroup);
  SmallVector<Value> buffers;
  for (Value v : acc)
    buffers.push_back(kc.addLds({numGroups * wavesPerGroup}, v.getType()));
  Value isLeader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         laneInWave, constIndex(b, loc, 0));
  auto ifOp = scf::IfOp::create(b, loc, isLeader, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    for (auto [v, buf] : llvm::zip(acc, buffers))
      memref::StoreOp::create(b, loc, v, buf, ValueRange{slot});
  }
  gpu::BarrierOp::create(b, loc);
  SmallVector<Value> result;
  for (Value buf : buffers)
    result.push_back(memref::LoadOp::create(b, loc, buf, ValueRange{base}));
  for (int64_t w = 1; w < wavesPerGroup; ++w) {
    Value idx = arith::AddIOp::create(b, loc, base, constIndex(b, loc, w));
    SmallVector<Value> next;
    for (Value buf : buffers)
      next.push_back(memref::LoadOp::create(b, loc, buf, ValueRange{idx}));
    result = combine(b, loc, result, next);
  }
  // The buffers may be written again (a reduction inside a loop): wait until
  // every thread has read them.
  gpu::BarrierOp::create(b, loc);
  return result;
}

static Value addAny(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

static Value zeroOf(OpBuilder &b, Location loc, Type t) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(t));
}

ScanResult mlir::hkg::workgroupScan(KernelContext &kc, Value value, Value tid) {
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  int64_t wave = kc.waveSize();
  int64_t numWaves = kc.block[0] / wave;
  Value cWave = constIndex(b, loc, wave);
  Value laneInWave = arith::RemUIOp::create(b, loc, tid, cWave);
  Value zero = zeroOf(b, loc, value.getType());

  // Hillis-Steele scan within the wave.
  Value incl = value;
  for (int64_t offset = 1; offset < wave; offset *= 2) {
    Value up =
        gpu::ShuffleOp::create(b, loc, incl, offset, wave, gpu::ShuffleMode::UP)
            .getShuffleResult();
    Value has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                      laneInWave, constIndex(b, loc, offset));
    incl = arith::SelectOp::create(b, loc, has, addAny(b, loc, incl, up), incl);
  }
  Value prev =
      gpu::ShuffleOp::create(b, loc, incl, 1, wave, gpu::ShuffleMode::UP)
          .getShuffleResult();
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        laneInWave, constIndex(b, loc, 0));
  Value excl = arith::SelectOp::create(b, loc, isFirst, zero, prev);

  if (numWaves == 1) {
    Value total = gpu::ShuffleOp::create(b, loc, incl, wave - 1, wave,
                                         gpu::ShuffleMode::IDX)
                      .getShuffleResult();
    return {incl, excl, total};
  }

  // Wave totals through LDS; each thread adds the totals of earlier waves.
  Value waveId = arith::DivUIOp::create(b, loc, tid, cWave);
  Value totals = kc.addLds({numWaves}, value.getType());
  Value isLast =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, laneInWave,
                            constIndex(b, loc, wave - 1));
  auto ifOp = scf::IfOp::create(b, loc, isLast, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    memref::StoreOp::create(b, loc, incl, totals, ValueRange{waveId});
  }
  gpu::BarrierOp::create(b, loc);
  Value prefix = zero, total = zero;
  for (int64_t w = 0; w < numWaves; ++w) {
    Value cw = constIndex(b, loc, w);
    Value t = memref::LoadOp::create(b, loc, totals, ValueRange{cw});
    Value before =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, cw, waveId);
    prefix = arith::SelectOp::create(b, loc, before, addAny(b, loc, prefix, t),
                                     prefix);
    total = addAny(b, loc, total, t);
  }
  gpu::BarrierOp::create(b, loc);
  return {addAny(b, loc, prefix, incl), addAny(b, loc, prefix, excl), total};
}

void mlir::hkg::clusterBarrier(OpBuilder &b, Location loc) {
  NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
}

Value mlir::hkg::loadFromPeerLds(OpBuilder &b, Location loc, Value lds,
                                 Value index, Value peer, Type type,
                                 unsigned alignment) {
  Type et = cast<MemRefType>(lds.getType()).getElementType();
  Type i64 = b.getI64Type();
  auto shared = LLVM::LLVMPointerType::get(b.getContext(), 3);
  auto cluster = LLVM::LLVMPointerType::get(b.getContext(), 7);
  Value base = arith::IndexCastOp::create(
      b, loc, i64, memref::ExtractAlignedPointerAsIndexOp::create(b, loc, lds));
  Value ptr = LLVM::IntToPtrOp::create(b, loc, shared, base);
  Value elt = LLVM::GEPOp::create(
      b, loc, shared, et, ptr,
      ValueRange{arith::IndexCastOp::create(b, loc, i64, index)});
  Value remote = NVVM::MapaOp::create(b, loc, cluster, elt, peer);
  return LLVM::LoadOp::create(b, loc, type, remote, alignment);
}

SmallVector<Value> mlir::hkg::clusterCombine(KernelContext &kc,
                                             ValueRange values,
                                             const Combiner &combine,
                                             int64_t clusterSize, int64_t slots,
                                             Value slot, Value writer) {
  OpBuilder &b = kc.b;
  Location loc = kc.loc;
  auto vecType = dyn_cast<VectorType>(values.front().getType());
  int64_t w = vecType ? vecType.getNumElements() : 1;
  Type f32 = b.getF32Type();
  Type word = vecType ? Type(VectorType::get({w}, f32)) : f32;
  int64_t n = static_cast<int64_t>(values.size());
  Value buf = kc.addLds({n, slots * w}, f32);
  Value at = arith::MulIOp::create(b, loc, slot, constIndex(b, loc, w));
  emitIfThen(b, loc, writer, [&] {
    for (auto [j, v] : llvm::enumerate(values)) {
      Value x = v.getType() == word
                    ? v
                    : arith::BitcastOp::create(b, loc, word, v).getResult();
      Value idx[] = {constIndex(b, loc, j), at};
      if (vecType)
        vector::StoreOp::create(b, loc, x, buf, idx);
      else
        memref::StoreOp::create(b, loc, x, buf, idx);
    }
  });
  clusterBarrier(b, loc);
  SmallVector<Value> acc;
  for (int64_t p = 0; p < clusterSize; ++p) {
    Value peer = constI32(b, loc, p);
    SmallVector<Value> theirs;
    for (auto [j, v] : llvm::enumerate(values)) {
      Value flat =
          arith::AddIOp::create(b, loc, constIndex(b, loc, j * slots * w), at);
      Value x = loadFromPeerLds(b, loc, buf, flat, peer, word,
                                std::min<int64_t>(16, 4 * w));
      theirs.push_back(
          v.getType() == word
              ? x
              : arith::BitcastOp::create(b, loc, v.getType(), x).getResult());
    }
    acc = p == 0 ? theirs : combine(b, loc, acc, theirs);
  }
  clusterBarrier(b, loc);
  return acc;
}

void mlir::hkg::emitIfThen(OpBuilder &b, Location loc, Value cond,
                           function_ref<void()> body) {
  if (!cond) {
    body();
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body();
}

void mlir::hkg::disableLLVMUnroll(Operation *loop) {
  MLIRContext *ctx = loop->getContext();
  auto unroll = LLVM::LoopUnrollAttr::get(
      ctx, /*disable=*/BoolAttr::get(ctx, true), /*count=*/{},
      /*runtimeDisable=*/{}, /*full=*/{}, /*followupUnrolled=*/{},
      /*followupRemainder=*/{}, /*followupAll=*/{});
  auto annotation = LLVM::LoopAnnotationAttr::get(
      ctx, /*disableNonforced=*/{}, /*vectorize=*/{}, /*interleave=*/{}, unroll,
      /*unrollAndJam=*/{}, /*licm=*/{}, /*distribute=*/{}, /*pipeline=*/{},
      /*peeled=*/{}, /*unswitch=*/{}, /*mustProgress=*/{},
      /*isVectorized=*/{}, /*startLoc=*/{}, /*endLoc=*/{},
      /*parallelAccesses=*/{});
  loop->setAttr("llvm.loop_annotation", annotation);
}

SmallVector<Value> mlir::hkg::delinearize(OpBuilder &b, Location loc,
                                          Value flat, ArrayRef<int64_t> dims) {
  SmallVector<Value> index(dims.size());
  int64_t total = 1;
  for (int64_t d : dims)
    total *= d;
  int64_t stride = 1;
  for (int j = static_cast<int>(dims.size()) - 1; j >= 0; --j) {
    int64_t extent = dims[j];
    if (extent == 1) {
      index[j] = constIndex(b, loc, 0);
      continue;
    }
    Value q = stride == 1 ? flat
                          : arith::DivUIOp::create(b, loc, flat,
                                                   constIndex(b, loc, stride));
    bool outermost = stride * extent >= total;
    index[j] = outermost ? q
                         : arith::RemUIOp::create(b, loc, q,
                                                  constIndex(b, loc, extent));
    stride *= extent;
  }
  return index;
}

SmallVector<Value> mlir::hkg::delinearize(OpBuilder &b, Location loc,
                                          Value flat,
                                          ArrayRef<OpFoldResult> dims) {
  SmallVector<int64_t> fixed;
  SmallVector<Value> dynamic;
  dispatchIndexOpFoldResults(dims, dynamic, fixed);
  if (dynamic.empty())
    return delinearize(b, loc, flat, fixed);
  SmallVector<Value> index(dims.size());
  // The outermost dim of extent other than 1 takes the quotient whole.
  int64_t outermost = 0;
  while (outermost + 1 < static_cast<int64_t>(dims.size()) &&
         getConstantIntValue(dims[outermost]) == 1)
    ++outermost;
  OpFoldResult stride = b.getIndexAttr(1);
  for (int64_t j = static_cast<int64_t>(dims.size()) - 1; j >= 0; --j) {
    if (getConstantIntValue(dims[j]) == 1 && j != outermost) {
      index[j] = constIndex(b, loc, 0);
      continue;
    }
    Value q =
        getConstantIntValue(stride) == 1
            ? flat
            : arith::DivUIOp::create(
                  b, loc, flat, getValueOrCreateConstantIndexOp(b, loc, stride))
                  .getResult();
    index[j] =
        j == outermost
            ? q
            : arith::RemUIOp::create(
                  b, loc, q, getValueOrCreateConstantIndexOp(b, loc, dims[j]))
                  .getResult();
    std::optional<int64_t> s = getConstantIntValue(stride),
                           e = getConstantIntValue(dims[j]);
    stride =
        s && e
            ? OpFoldResult(b.getIndexAttr(*s * *e))
            : OpFoldResult(arith::MulIOp::create(
                               b, loc,
                               getValueOrCreateConstantIndexOp(b, loc, stride),
                               getValueOrCreateConstantIndexOp(b, loc, dims[j]))
                               .getResult());
  }
  return index;
}

Value mlir::hkg::flatView(OpBuilder &b, Location loc, Value m) {
  auto type = cast<MemRefType>(m.getType());
  if (type.hasStaticShape())
    return reshapeView(b, loc, m, {type.getNumElements()});
  if (type.getRank() == 1)
    return m;
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0; d < type.getRank(); ++d)
    all[0].push_back(d);
  return memref::CollapseShapeOp::create(b, loc, m, all);
}

Value mlir::hkg::spanView(OpBuilder &b, Location loc, Value m) {
  auto type = cast<MemRefType>(m.getType());
  if (type.getLayout().isIdentity())
    return flatView(b, loc, m);
  auto [strides, offset] = type.getStridesAndOffset();
  int64_t span = 1;
  for (auto [extent, stride] : llvm::zip(type.getShape(), strides))
    span += (extent - 1) * stride;
  auto result =
      MemRefType::get({span}, type.getElementType(),
                      StridedLayoutAttr::get(b.getContext(), offset, {1}),
                      type.getMemorySpace());
  return memref::ReinterpretCastOp::create(b, loc, result, m, offset, {span},
                                           {1});
}

Value mlir::hkg::linearize(OpBuilder &b, Location loc, ArrayRef<Value> index,
                           ArrayRef<int64_t> strides) {
  Value offset;
  for (auto [j, stride] : llvm::enumerate(strides)) {
    if (stride == 0)
      continue;
    Value term = stride == 1
                     ? index[j]
                     : arith::MulIOp::create(b, loc, index[j],
                                             constIndex(b, loc, stride));
    offset = offset ? arith::AddIOp::create(b, loc, offset, term) : term;
  }
  return offset ? offset : constIndex(b, loc, 0);
}
