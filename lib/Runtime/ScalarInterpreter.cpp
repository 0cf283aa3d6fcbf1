//===- ScalarInterpreter.cpp - evaluates element bodies on the host -------===//

#include "hkg/Runtime/ScalarInterpreter.h"

#include "hkg/Dialect/Hkg/IR/HkgOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace hkg::rt;
using Opcode = ScalarProgram::Opcode;

static constexpr llvm::StringLiteral supportedOps[] = {
    "arith.addf",       "arith.subf",         "arith.mulf",
    "arith.divf",       "arith.remf",         "arith.negf",
    "arith.maximumf",   "arith.minimumf",     "arith.maxnumf",
    "arith.minnumf",    "arith.extf",         "arith.truncf",
    "arith.constant",   "arith.select",       "arith.cmpf",
    "arith.sitofp",     "arith.uitofp",       "arith.fptosi",
    "arith.fptoui",     "arith.andi",         "arith.ori",
    "arith.xori",       "math.exp",           "math.exp2",
    "math.expm1",       "math.log",           "math.log2",
    "math.log10",       "math.log1p",         "math.tanh",
    "math.sinh",        "math.cosh",          "math.erf",
    "math.erfc",        "math.sqrt",          "math.rsqrt",
    "math.cbrt",        "math.powf",          "math.absf",
    "math.fma",         "math.sin",           "math.cos",
    "math.tan",         "math.atan",          "math.atan2",
    "math.floor",       "math.ceil",          "math.round",
    "math.roundeven",   "math.trunc",         "math.copysign",
    "arith.addi",       "arith.subi",         "arith.muli",
    "arith.divsi",      "arith.divui",        "arith.remsi",
    "arith.remui",      "arith.shli",         "arith.shrsi",
    "arith.shrui",      "arith.maxsi",        "arith.minsi",
    "arith.maxui",      "arith.minui",        "arith.cmpi",
    "arith.extsi",      "arith.extui",        "arith.trunci",
    "arith.index_cast", "arith.index_castui", "hkg.index"};

llvm::ArrayRef<llvm::StringLiteral> ScalarProgram::getSupportedOps() {
  return supportedOps;
}

/// Maps an op name to its opcode and arity; nullopt when unsupported.
static std::optional<std::pair<Opcode, unsigned>>
lookupOpcode(llvm::StringRef name) {
  using P = std::optional<std::pair<Opcode, unsigned>>;
  return llvm::StringSwitch<P>(name)
      .Case("arith.addf", P({Opcode::AddF, 2}))
      .Case("arith.subf", P({Opcode::SubF, 2}))
      .Case("arith.mulf", P({Opcode::MulF, 2}))
      .Case("arith.divf", P({Opcode::DivF, 2}))
      .Case("arith.remf", P({Opcode::RemF, 2}))
      .Case("arith.negf", P({Opcode::NegF, 1}))
      .Case("arith.maximumf", P({Opcode::MaximumF, 2}))
      .Case("arith.minimumf", P({Opcode::MinimumF, 2}))
      .Case("arith.maxnumf", P({Opcode::MaxNumF, 2}))
      .Case("arith.minnumf", P({Opcode::MinNumF, 2}))
      .Case("arith.extf", P({Opcode::Convert, 1}))
      .Case("arith.truncf", P({Opcode::Convert, 1}))
      .Case("arith.sitofp", P({Opcode::SIToFP, 1}))
      .Case("arith.uitofp", P({Opcode::UIToFP, 1}))
      .Case("arith.fptosi", P({Opcode::ToInt, 1}))
      .Case("arith.fptoui", P({Opcode::ToInt, 1}))
      .Case("arith.select", P({Opcode::Select, 3}))
      .Case("arith.cmpf", P({Opcode::CmpF, 2}))
      .Case("arith.andi", P({Opcode::AndI, 2}))
      .Case("arith.ori", P({Opcode::OrI, 2}))
      .Case("arith.xori", P({Opcode::XOrI, 2}))
      .Case("math.exp", P({Opcode::Exp, 1}))
      .Case("math.exp2", P({Opcode::Exp2, 1}))
      .Case("math.expm1", P({Opcode::ExpM1, 1}))
      .Case("math.log", P({Opcode::Log, 1}))
      .Case("math.log2", P({Opcode::Log2, 1}))
      .Case("math.log10", P({Opcode::Log10, 1}))
      .Case("math.log1p", P({Opcode::Log1p, 1}))
      .Case("math.tanh", P({Opcode::Tanh, 1}))
      .Case("math.sinh", P({Opcode::Sinh, 1}))
      .Case("math.cosh", P({Opcode::Cosh, 1}))
      .Case("math.erf", P({Opcode::Erf, 1}))
      .Case("math.erfc", P({Opcode::Erfc, 1}))
      .Case("math.sqrt", P({Opcode::Sqrt, 1}))
      .Case("math.rsqrt", P({Opcode::Rsqrt, 1}))
      .Case("math.cbrt", P({Opcode::Cbrt, 1}))
      .Case("math.powf", P({Opcode::PowF, 2}))
      .Case("math.absf", P({Opcode::AbsF, 1}))
      .Case("math.fma", P({Opcode::Fma, 3}))
      .Case("math.sin", P({Opcode::Sin, 1}))
      .Case("math.cos", P({Opcode::Cos, 1}))
      .Case("math.tan", P({Opcode::Tan, 1}))
      .Case("math.atan", P({Opcode::Atan, 1}))
      .Case("math.atan2", P({Opcode::Atan2, 2}))
      .Case("math.floor", P({Opcode::Floor, 1}))
      .Case("math.ceil", P({Opcode::Ceil, 1}))
      .Case("math.round", P({Opcode::Round, 1}))
      .Case("math.roundeven", P({Opcode::RoundEven, 1}))
      .Case("math.trunc", P({Opcode::Trunc, 1}))
      .Case("math.copysign", P({Opcode::CopySign, 2}))
      .Case("arith.addi", P({Opcode::AddI, 2}))
      .Case("arith.subi", P({Opcode::SubI, 2}))
      .Case("arith.muli", P({Opcode::MulI, 2}))
      .Case("arith.divsi", P({Opcode::DivSI, 2}))
      .Case("arith.divui", P({Opcode::DivUI, 2}))
      .Case("arith.remsi", P({Opcode::RemSI, 2}))
      .Case("arith.remui", P({Opcode::RemUI, 2}))
      .Case("arith.shli", P({Opcode::ShLI, 2}))
      .Case("arith.shrsi", P({Opcode::ShRSI, 2}))
      .Case("arith.shrui", P({Opcode::ShRUI, 2}))
      .Case("arith.maxsi", P({Opcode::MaxSI, 2}))
      .Case("arith.minsi", P({Opcode::MinSI, 2}))
      .Case("arith.maxui", P({Opcode::MaxUI, 2}))
      .Case("arith.minui", P({Opcode::MinUI, 2}))
      .Case("arith.cmpi", P({Opcode::CmpI, 2}))
      .Case("arith.extsi", P({Opcode::ExtSI, 1}))
      .Case("arith.extui", P({Opcode::ExtUI, 1}))
      .Case("arith.trunci", P({Opcode::TruncI, 1}))
      .Case("arith.index_cast", P({Opcode::ExtSI, 1}))
      .Case("arith.index_castui", P({Opcode::ExtUI, 1}))
      .Case("hkg.index", P({Opcode::Index, 0}))
      .Default(std::nullopt);
}

static bool hasRestrictedDomain(Opcode op) {
  switch (op) {
  case Opcode::Log:
  case Opcode::Log2:
  case Opcode::Log10:
  case Opcode::Sqrt:
  case Opcode::Rsqrt:
  case Opcode::PowF:
    return true;
  default:
    return false;
  }
}

/// Bit width of an integer or index type (index: 64); 0 for floats.
static uint8_t intWidth(mlir::Type t) {
  if (t.isIndex())
    return 64;
  if (auto i = llvm::dyn_cast<mlir::IntegerType>(t))
    return static_cast<uint8_t>(std::min(64u, i.getWidth()));
  return 0;
}

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<ScalarProgram> ScalarProgram::compile(mlir::Block &block) {
  ScalarProgram program;
  program.numArguments = block.getNumArguments();
  llvm::DenseMap<mlir::Value, unsigned> slotOf;
  for (mlir::BlockArgument arg : block.getArguments()) {
    if (!arg.getType().isIntOrIndexOrFloat())
      return makeError(llvm::formatv(
          "expected scalar block arguments in an element body, argument #{0} "
          "is not a scalar",
          arg.getArgNumber()));
    slotOf[arg] = arg.getArgNumber();
  }

  for (mlir::Operation &op : block) {
    llvm::StringRef name = op.getName().getStringRef();
    if (op.hasTrait<mlir::OpTrait::IsTerminator>()) {
      if (op.getNumOperands() == 0)
        return makeError(
            llvm::formatv("expected '{0}' to yield a value, got none", name));
      for (mlir::Value v : op.getOperands())
        program.resultSlots.push_back(slotOf.lookup(v));
      break;
    }
    if (op.getNumResults() != 1 ||
        !op.getResult(0).getType().isIntOrIndexOrFloat())
      return makeError(llvm::formatv(
          "unsupported op '{0}' in an element body: expected one scalar "
          "result",
          name));

    Instruction inst;
    mlir::Type resultType = op.getResult(0).getType();
    if (resultType.isF16() || resultType.isBF16()) {
      inst.round = true;
      inst.roundTo = resultType.isF16() ? DType::F16 : DType::BF16;
    }

    if (auto constant = llvm::dyn_cast<mlir::arith::ConstantOp>(op)) {
      inst.opcode = Opcode::Constant;
      mlir::Attribute value = constant.getValue();
      if (auto f = llvm::dyn_cast<mlir::FloatAttr>(value))
        inst.constant = f.getValueAsDouble();
      else if (auto i = llvm::dyn_cast<mlir::IntegerAttr>(value))
        inst.constant = i.getType().isInteger(1)
                            ? static_cast<double>(i.getValue().getBoolValue())
                            : static_cast<double>(i.getValue().getSExtValue());
      else
        return makeError("unsupported 'arith.constant' in an element body: "
                         "expected a scalar float or integer value");
    } else {
      std::optional<std::pair<Opcode, unsigned>> entry = lookupOpcode(name);
      if (!entry) {
        std::string list;
        llvm::raw_string_ostream os(list);
        llvm::interleaveComma(supportedOps, os);
        return makeError(llvm::formatv(
            "unsupported op '{0}' in an element body; the reference "
            "interpreter supports: {1}",
            name, list));
      }
      inst.opcode = entry->first;
      if (op.getNumOperands() != entry->second)
        return makeError(llvm::formatv("expected {0} operand(s) for '{1}', "
                                       "got {2}",
                                       entry->second, name,
                                       op.getNumOperands()));
      if (auto cmp = llvm::dyn_cast<mlir::arith::CmpFOp>(op))
        inst.predicate = static_cast<uint8_t>(cmp.getPredicate());
      if (auto cmp = llvm::dyn_cast<mlir::arith::CmpIOp>(op))
        inst.predicate = static_cast<uint8_t>(cmp.getPredicate());
      inst.width = intWidth(resultType);
      if (op.getNumOperands() > 0)
        inst.operandWidth = intWidth(op.getOperand(0).getType());
      if (auto index = llvm::dyn_cast<mlir::hkg::IndexOp>(op)) {
        inst.a = static_cast<unsigned>(index.getDim());
        program.usesIndex = true;
      }
      if ((inst.opcode == Opcode::Convert || inst.opcode == Opcode::UIToFP ||
           inst.opcode == Opcode::SIToFP) &&
          !resultType.isFloat())
        return makeError(llvm::formatv(
            "unsupported op '{0}' in an element body: expected a float result",
            name));
      if (hasRestrictedDomain(inst.opcode))
        program.positiveDomain = true;
      unsigned *operandSlots[] = {&inst.a, &inst.b, &inst.c};
      for (auto [i, operand] : llvm::enumerate(op.getOperands())) {
        auto it = slotOf.find(operand);
        if (it == slotOf.end())
          return makeError(llvm::formatv(
              "operand #{0} of '{1}' is not defined in the element body", i,
              name));
        *operandSlots[i] = it->second;
      }
    }
    slotOf[op.getResult(0)] =
        program.numArguments + program.instructions.size();
    program.instructions.push_back(inst);
  }
  if (block.empty() || !block.back().hasTrait<mlir::OpTrait::IsTerminator>())
    return makeError("expected the element body to end in a yield");
  program.slots.assign(program.numArguments + program.instructions.size(), 0);
  return program;
}

static bool compare(uint8_t predicate, double a, double b) {
  using mlir::arith::CmpFPredicate;
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (static_cast<CmpFPredicate>(predicate)) {
  case CmpFPredicate::AlwaysFalse:
    return false;
  case CmpFPredicate::OEQ:
    return !unordered && a == b;
  case CmpFPredicate::OGT:
    return !unordered && a > b;
  case CmpFPredicate::OGE:
    return !unordered && a >= b;
  case CmpFPredicate::OLT:
    return !unordered && a < b;
  case CmpFPredicate::OLE:
    return !unordered && a <= b;
  case CmpFPredicate::ONE:
    return !unordered && a != b;
  case CmpFPredicate::ORD:
    return !unordered;
  case CmpFPredicate::UEQ:
    return unordered || a == b;
  case CmpFPredicate::UGT:
    return unordered || a > b;
  case CmpFPredicate::UGE:
    return unordered || a >= b;
  case CmpFPredicate::ULT:
    return unordered || a < b;
  case CmpFPredicate::ULE:
    return unordered || a <= b;
  case CmpFPredicate::UNE:
    return unordered || a != b;
  case CmpFPredicate::UNO:
    return unordered;
  case CmpFPredicate::AlwaysTrue:
    return true;
  }
  return false;
}

/// The `width`-bit unsigned value of an integer held as its signed value.
static uint64_t asUnsigned(double v, unsigned width) {
  auto x = static_cast<uint64_t>(static_cast<int64_t>(v));
  return width >= 64 ? x : x & ((uint64_t(1) << width) - 1);
}

/// Wraps `x` to a `width`-bit integer held as its signed value (i1: 0, 1).
static double wrap(uint64_t x, unsigned width) {
  if (width == 1)
    return static_cast<double>(x & 1);
  if (width >= 64 || width == 0)
    return static_cast<double>(static_cast<int64_t>(x));
  uint64_t mask = (uint64_t(1) << width) - 1, sign = uint64_t(1) << (width - 1);
  x &= mask;
  return static_cast<double>(static_cast<int64_t>((x ^ sign) - sign));
}

static bool compareInts(uint8_t predicate, double a, double b, unsigned width) {
  using mlir::arith::CmpIPredicate;
  auto sa = static_cast<int64_t>(a), sb = static_cast<int64_t>(b);
  uint64_t ua = asUnsigned(a, width), ub = asUnsigned(b, width);
  switch (static_cast<CmpIPredicate>(predicate)) {
  case CmpIPredicate::eq:
    return sa == sb;
  case CmpIPredicate::ne:
    return sa != sb;
  case CmpIPredicate::slt:
    return sa < sb;
  case CmpIPredicate::sle:
    return sa <= sb;
  case CmpIPredicate::sgt:
    return sa > sb;
  case CmpIPredicate::sge:
    return sa >= sb;
  case CmpIPredicate::ult:
    return ua < ub;
  case CmpIPredicate::ule:
    return ua <= ub;
  case CmpIPredicate::ugt:
    return ua > ub;
  case CmpIPredicate::uge:
    return ua >= ub;
  }
  return false;
}

/// IEEE 754-2019 maximum/minimum: NaN-propagating, -0 < +0.
static double maximumOf(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::nan("");
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
static double minimumOf(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::nan("");
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

double ScalarProgram::evaluate(llvm::ArrayRef<double> args,
                               llvm::ArrayRef<int64_t> index) {
  double *s = slots.data();
  for (unsigned i = 0; i < numArguments; ++i)
    s[i] = args[i];
  double *out = s + numArguments;
  for (const Instruction &inst : instructions) {
    double a = inst.opcode == Opcode::Index ? 0 : s[inst.a];
    double b = s[inst.b], c = s[inst.c];
    auto ia = static_cast<int64_t>(a), ib = static_cast<int64_t>(b);
    unsigned w = inst.width, ow = inst.operandWidth;
    double r = 0;
    switch (inst.opcode) {
    case Opcode::Constant:
      r = inst.constant;
      break;
    case Opcode::AddF:
      r = a + b;
      break;
    case Opcode::SubF:
      r = a - b;
      break;
    case Opcode::MulF:
      r = a * b;
      break;
    case Opcode::DivF:
      r = a / b;
      break;
    case Opcode::RemF:
      r = std::fmod(a, b);
      break;
    case Opcode::NegF:
      r = -a;
      break;
    case Opcode::MaximumF:
      r = maximumOf(a, b);
      break;
    case Opcode::MinimumF:
      r = minimumOf(a, b);
      break;
    case Opcode::MaxNumF:
      r = std::fmax(a, b);
      break;
    case Opcode::MinNumF:
      r = std::fmin(a, b);
      break;
    case Opcode::Convert:
      r = a;
      break;
    case Opcode::ToInt:
      r = std::trunc(a);
      break;
    case Opcode::Select:
      r = a != 0 ? b : c;
      break;
    case Opcode::CmpF:
      r = compare(inst.predicate, a, b) ? 1 : 0;
      break;
    case Opcode::AndI:
      r = wrap(uint64_t(ia) & uint64_t(ib), w);
      break;
    case Opcode::OrI:
      r = wrap(uint64_t(ia) | uint64_t(ib), w);
      break;
    case Opcode::XOrI:
      r = wrap(uint64_t(ia) ^ uint64_t(ib), w);
      break;
    case Opcode::AddI:
      r = wrap(uint64_t(ia) + uint64_t(ib), w);
      break;
    case Opcode::SubI:
      r = wrap(uint64_t(ia) - uint64_t(ib), w);
      break;
    case Opcode::MulI:
      r = wrap(uint64_t(ia) * uint64_t(ib), w);
      break;
    // Division by zero is undefined on the device too: NaN flags it here.
    case Opcode::DivSI:
      r = ib == 0    ? std::nan("")
          : ib == -1 ? wrap(uint64_t(0) - uint64_t(ia), w)
                     : wrap(uint64_t(ia / ib), w);
      break;
    case Opcode::RemSI:
      r = ib == 0 ? std::nan("") : ib == -1 ? 0 : wrap(uint64_t(ia % ib), w);
      break;
    case Opcode::DivUI:
    case Opcode::RemUI: {
      uint64_t ua = asUnsigned(a, ow), ub = asUnsigned(b, ow);
      r = ub == 0 ? std::nan("")
                  : wrap(inst.opcode == Opcode::DivUI ? ua / ub : ua % ub, w);
      break;
    }
    case Opcode::ShLI:
      r = uint64_t(ib) >= ow ? std::nan("") : wrap(uint64_t(ia) << ib, w);
      break;
    case Opcode::ShRSI:
      r = uint64_t(ib) >= ow ? std::nan("") : wrap(uint64_t(ia >> ib), w);
      break;
    case Opcode::ShRUI:
      r = uint64_t(ib) >= ow ? std::nan("") : wrap(asUnsigned(a, ow) >> ib, w);
      break;
    case Opcode::MaxSI:
      r = static_cast<double>(std::max(ia, ib));
      break;
    case Opcode::MinSI:
      r = static_cast<double>(std::min(ia, ib));
      break;
    case Opcode::MaxUI:
      r = asUnsigned(a, ow) >= asUnsigned(b, ow) ? a : b;
      break;
    case Opcode::MinUI:
      r = asUnsigned(a, ow) <= asUnsigned(b, ow) ? a : b;
      break;
    case Opcode::CmpI:
      r = compareInts(inst.predicate, a, b, ow) ? 1 : 0;
      break;
    case Opcode::ExtSI:
      // i1 is held as 0 / 1: its sign extension is 0 / -1.
      r = ow == 1 ? wrap(uint64_t(-ia), w) : wrap(uint64_t(ia), w);
      break;
    case Opcode::ExtUI:
      r = wrap(asUnsigned(a, ow), w);
      break;
    case Opcode::TruncI:
      r = wrap(uint64_t(ia), w);
      break;
    case Opcode::SIToFP:
      r = ow == 1 ? -a : a; // i1 true is -1 as a signed value
      break;
    case Opcode::UIToFP:
      r = static_cast<double>(asUnsigned(a, ow));
      break;
    case Opcode::Index:
      r = inst.a < index.size() ? static_cast<double>(index[inst.a])
                                : std::nan("");
      break;
    case Opcode::Exp:
      r = std::exp(a);
      break;
    case Opcode::Exp2:
      r = std::exp2(a);
      break;
    case Opcode::ExpM1:
      r = std::expm1(a);
      break;
    case Opcode::Log:
      r = std::log(a);
      break;
    case Opcode::Log2:
      r = std::log2(a);
      break;
    case Opcode::Log10:
      r = std::log10(a);
      break;
    case Opcode::Log1p:
      r = std::log1p(a);
      break;
    case Opcode::Tanh:
      r = std::tanh(a);
      break;
    case Opcode::Sinh:
      r = std::sinh(a);
      break;
    case Opcode::Cosh:
      r = std::cosh(a);
      break;
    case Opcode::Erf:
      r = std::erf(a);
      break;
    case Opcode::Erfc:
      r = std::erfc(a);
      break;
    case Opcode::Sqrt:
      r = std::sqrt(a);
      break;
    case Opcode::Rsqrt:
      r = 1.0 / std::sqrt(a);
      break;
    case Opcode::Cbrt:
      r = std::cbrt(a);
      break;
    case Opcode::PowF:
      r = std::pow(a, b);
      break;
    case Opcode::AbsF:
      r = std::fabs(a);
      break;
    case Opcode::Fma:
      r = std::fma(a, b, c);
      break;
    case Opcode::Sin:
      r = std::sin(a);
      break;
    case Opcode::Cos:
      r = std::cos(a);
      break;
    case Opcode::Tan:
      r = std::tan(a);
      break;
    case Opcode::Atan:
      r = std::atan(a);
      break;
    case Opcode::Atan2:
      r = std::atan2(a, b);
      break;
    case Opcode::Floor:
      r = std::floor(a);
      break;
    case Opcode::Ceil:
      r = std::ceil(a);
      break;
    case Opcode::Round:
      r = std::round(a);
      break;
    case Opcode::RoundEven:
      r = std::nearbyint(a);
      break;
    case Opcode::Trunc:
      r = std::trunc(a);
      break;
    case Opcode::CopySign:
      r = std::copysign(a, b);
      break;
    }
    if (inst.round)
      r = roundToDType(r, inst.roundTo);
    *out++ = r;
  }
  return s[resultSlots.front()];
}
