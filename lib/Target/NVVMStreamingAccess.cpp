//===- NVVMStreamingAccess.cpp - nontemporal accesses as ld/st.global.cs --===//
//
// The NVPTX backend ignores `!nontemporal`; PTX has the cache-streaming
// operator `.cs` for accesses used once. This pass rewrites nontemporal
// llvm.load / llvm.store of 4, 8 and 16 bytes into inline PTX with `.cs`,
// or, in a function marked `hkg.load_eviction = "first" | "last"`, the loads
// into `ld.global.L1::evict_<p>.L2::cache_hint` with an L2 evict-<p> policy
// made once at the function's entry (what Triton emits for
// `eviction_policy="evict_first" | "evict_last"`).
//
//===----------------------------------------------------------------------===//

#include "hkg/Target/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::hkg {
#define GEN_PASS_DEF_HKGNVVMSTREAMINGACCESSPASS
#include "hkg/Target/Passes.h.inc"
} // namespace mlir::hkg

using namespace mlir;

/// 32-bit words of an access of `type`, or 0 when it is not 1, 2 or 4 of
/// them (the `.b32`, `.v2.b32` and `.v4.b32` forms).
static unsigned wordsOf(Type type) {
  int64_t bits = 0;
  if (auto vt = dyn_cast<VectorType>(type)) {
    if (vt.isScalable() || !vt.getElementType().isIntOrFloat())
      return 0;
    bits = vt.getNumElements() * vt.getElementType().getIntOrFloatBitWidth();
  } else if (type.isIntOrFloat()) {
    bits = type.getIntOrFloatBitWidth();
  }
  if (bits == 0)
    return 0;
  if (bits % 32 != 0)
    return 0;
  unsigned words = bits / 32;
  return words == 1 || words == 2 || words == 4 ? words : 0;
}

/// `{$first, ..., $first + n - 1}` (or `$first` for one word).
static std::string operandList(unsigned first, unsigned n) {
  if (n == 1)
    return llvm::formatv("${0}", first).str();
  std::string s = "{";
  for (unsigned i = 0; i < n; ++i)
    s += llvm::formatv("{0}${1}", i ? ", " : "", first + i).str();
  return s + "}";
}

static StringRef vectorSuffix(unsigned words) {
  return words == 4 ? ".v4" : words == 2 ? ".v2" : "";
}

/// The pointer in the global address space (1).
static Value globalPointer(OpBuilder &b, Location loc, Value ptr) {
  auto type = cast<LLVM::LLVMPointerType>(ptr.getType());
  if (type.getAddressSpace() == 1)
    return ptr;
  return LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1), ptr);
}

/// Whether an access of `words` 32-bit words with `alignment` bytes may use
/// the vector form, which needs its own size in alignment (an access with
/// less stays a plain one, which NVPTX splits).
static bool isAligned(std::optional<uint64_t> alignment, unsigned words) {
  return alignment && *alignment >= 4 * words;
}

static bool isGenericOrGlobal(Value ptr) {
  unsigned as = cast<LLVM::LLVMPointerType>(ptr.getType()).getAddressSpace();
  return as == 0 || as == 1;
}

/// The eviction priority ("first" / "last") `func`'s nontemporal loads ask
/// for, or "" for the `.cs` form.
static StringRef loadEvictionOf(LLVM::LLVMFuncOp func) {
  auto e = func->getAttrOfType<StringAttr>("hkg.load_eviction");
  if (e && (e.getValue() == "first" || e.getValue() == "last"))
    return e.getValue();
  return "";
}

/// An L2 evict-`priority` cache policy (a 64-bit operand of
/// `.L2::cache_hint` accesses), created at the entry of `func`.
static Value createPolicy(LLVM::LLVMFuncOp func, StringRef priority) {
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  std::string text =
      ("createpolicy.fractional.L2::evict_" + priority + ".b64 $0, 1.0;").str();
  auto asmOp = LLVM::InlineAsmOp::create(
      b, func.getLoc(), b.getI64Type(), ValueRange{}, text, "=l",
      /*has_side_effects=*/false, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, /*asm_dialect=*/nullptr,
      /*operand_attrs=*/nullptr);
  return asmOp.getResult(0);
}

/// Rewrites `load`; with a `policy`, as an L1 evict-`priority` load with that
/// L2 cache policy, else as `ld.global.cs`.
static void rewriteLoad(LLVM::LoadOp load, unsigned words, Value policy,
                        StringRef priority) {
  OpBuilder b(load);
  Location loc = load.getLoc();
  Type i32 = b.getI32Type();
  Value ptr = globalPointer(b, loc, load.getAddr());
  std::string asmText =
      policy ? llvm::formatv(
                   "ld.global.L1::evict_{4}.L2::cache_hint{0}.b32 {1}, "
                   "[${2}], ${3};",
                   vectorSuffix(words), operandList(0, words), words, words + 1,
                   priority)
                   .str()
             : llvm::formatv("ld.global.cs{0}.b32 {1}, [${2}];",
                             vectorSuffix(words), operandList(0, words), words)
                   .str();
  std::string constraints;
  for (unsigned i = 0; i < words; ++i)
    constraints += "=r,";
  constraints += "l";
  SmallVector<Value> operands = {ptr};
  if (policy) {
    constraints += ",l";
    operands.push_back(policy);
  }
  Type resultType =
      words == 1 ? i32
                 : LLVM::LLVMStructType::getLiteral(
                       b.getContext(), SmallVector<Type>(words, i32));
  // No side effects: the rewritten loads read a kernel's inputs, which it
  // does not write (hkg marks only those loads nontemporal).
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, resultType, operands, asmText, constraints,
      /*has_side_effects=*/false, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, /*asm_dialect=*/nullptr,
      /*operand_attrs=*/nullptr);
  Value wordsValue;
  if (words == 1) {
    wordsValue = asmOp.getResult(0);
  } else {
    auto vt = VectorType::get({static_cast<int64_t>(words)}, i32);
    wordsValue = LLVM::PoisonOp::create(b, loc, vt);
    for (unsigned i = 0; i < words; ++i) {
      Value w = LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i);
      Value idx = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(i));
      wordsValue = LLVM::InsertElementOp::create(b, loc, wordsValue, w, idx);
    }
  }
  Value result = wordsValue.getType() == load.getType()
                     ? wordsValue
                     : LLVM::BitcastOp::create(b, loc, load.getType(),
                                               wordsValue)
                           .getResult();
  load.replaceAllUsesWith(result);
  load.erase();
}

static void rewriteStore(LLVM::StoreOp store, unsigned words) {
  OpBuilder b(store);
  Location loc = store.getLoc();
  Type i32 = b.getI32Type();
  Value ptr = globalPointer(b, loc, store.getAddr());
  Value value = store.getValue();
  Type wordsType =
      words == 1 ? i32
                 : Type(VectorType::get({static_cast<int64_t>(words)}, i32));
  if (value.getType() != wordsType)
    value = LLVM::BitcastOp::create(b, loc, wordsType, value);
  SmallVector<Value> operands = {ptr};
  if (words == 1) {
    operands.push_back(value);
  } else {
    for (unsigned i = 0; i < words; ++i) {
      Value idx = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(i));
      operands.push_back(LLVM::ExtractElementOp::create(b, loc, value, idx));
    }
  }
  std::string asmText =
      llvm::formatv("st.global.cs{0}.b32 [$0], {1};", vectorSuffix(words),
                    operandList(1, words))
          .str();
  std::string constraints = "l";
  for (unsigned i = 0; i < words; ++i)
    constraints += ",r";
  LLVM::InlineAsmOp::create(b, loc, Type(), operands, asmText,
                            constraints, /*has_side_effects=*/true,
                            /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
                            /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
  store.erase();
}

namespace mlir::hkg {
namespace {
struct HkgNVVMStreamingAccessPass final
    : impl::HkgNVVMStreamingAccessPassBase<HkgNVVMStreamingAccessPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    SmallVector<std::pair<Operation *, unsigned>> todo;
    module.walk([&](Operation *op) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
        if (load.getNontemporal() && !load.getVolatile_() &&
            load.getOrdering() == LLVM::AtomicOrdering::not_atomic &&
            isGenericOrGlobal(load.getAddr()))
          if (unsigned w = wordsOf(load.getType());
              w && isAligned(load.getAlignment(), w))
            todo.push_back({op, w});
      } else if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
        if (store.getNontemporal() && !store.getVolatile_() &&
            store.getOrdering() == LLVM::AtomicOrdering::not_atomic &&
            isGenericOrGlobal(store.getAddr()))
          if (unsigned w = wordsOf(store.getValue().getType());
              w && isAligned(store.getAlignment(), w))
            todo.push_back({op, w});
      }
    });
    llvm::DenseMap<Operation *, Value> policies; // per function
    for (auto [op, words] : todo) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
        Value policy;
        auto func = load->getParentOfType<LLVM::LLVMFuncOp>();
        StringRef priority = func ? loadEvictionOf(func) : "";
        if (!priority.empty()) {
          Value &p = policies[func];
          if (!p)
            p = createPolicy(func, priority);
          policy = p;
        }
        rewriteLoad(load, words, policy, priority);
      } else {
        rewriteStore(cast<LLVM::StoreOp>(op), words);
      }
    }
  }
};
} // namespace
} // namespace mlir::hkg
