//===- Signature.cpp - op signatures and knob maps ------------------------===//

#include "hkg/Tuner/Signature.h"
#include "hkg/Dialect/Hkg/IR/DynamicDims.h"

#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Support/InputLimits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;

int64_t mlir::hkg::tuner::getSizeBucket(int64_t size) {
  return static_cast<int64_t>(llvm::PowerOf2Ceil(std::max<int64_t>(size, 1)));
}

std::string mlir::hkg::tuner::getOpSignature(HkgKernelOpInterface op) {
  MLIRContext *ctx = op->getContext();
  OpBuilder b(ctx);
  Location loc = UnknownLoc::get(ctx);
  // func.func @sig(<operand types>) -> <result types> { <op>; return }.
  // Callers load the func dialect (the pass declares it as a dependent).
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(
      b, loc, "sig",
      FunctionType::get(ctx, SmallVector<Type>(op->getOperandTypes()),
                        SmallVector<Type>(op->getResultTypes())));
  Block *block = func.addEntryBlock();
  IRMapping mapping;
  for (auto [v, arg] : llvm::zip(op->getOperands(), block->getArguments()))
    mapping.map(v, arg);
  b.setInsertionPointToEnd(block);
  Operation *clone = b.clone(*op, mapping);
  clone->removeAttr("schedule");
  // An op with dynamic dims is tuned for a size (its hint): records are
  // kept per size bucket, the hint rounded up to a power of two.
  if (hasDynamicDims(op))
    clone->setAttr(HkgDialect::SizeHintAttrHelper::getNameStr(),
                   b.getI64IntegerAttr(getSizeBucket(getSizeHint(op))));
  clone->walk([&](Operation *nested) { nested->setLoc(loc); });
  func::ReturnOp::create(b, loc, clone->getResults());

  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  flags.printGenericOpForm().useLocalScope().enableDebugInfo(false);
  func->print(os, flags);
  // One line: collapse each newline and its indentation into one space.
  std::string line;
  line.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n') {
      line.push_back(text[i]);
      continue;
    }
    while (i + 1 < text.size() && text[i + 1] == ' ')
      ++i;
    line.push_back(' ');
  }
  return std::string(StringRef(line).trim());
}

void mlir::hkg::tuner::loadTunerDialects(MLIRContext &ctx) {
  ctx.loadDialect<HkgDialect, arith::ArithDialect, math::MathDialect,
                  func::FuncDialect>();
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::hkg::tuner::parseOpSignature(StringRef signature, MLIRContext *ctx) {
  // Signatures come from files (JSON lines, databases): bound their
  // nesting before the parser recurses into it.
  if (llvm::Error e =
          ::hkg::checkInputNesting(signature, ::hkg::InputSyntax::MLIR)) {
    emitError(UnknownLoc::get(ctx))
        << "signature: " << llvm::toString(std::move(e));
    return failure();
  }
  ParserConfig config(ctx);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(signature, config);
  if (!module)
    return failure();
  return module;
}

HkgKernelOpInterface OpCatalog::get(StringRef signature) {
  auto it = modules.find(signature);
  if (it == modules.end()) {
    // Parse quietly: a bad signature is reported by the caller.
    ScopedDiagnosticHandler silence(&ctx,
                                    [](Diagnostic &) { return success(); });
    FailureOr<OwningOpRef<ModuleOp>> parsed = parseOpSignature(signature, &ctx);
    OwningOpRef<ModuleOp> module;
    if (succeeded(parsed))
      module = std::move(*parsed);
    it = modules.try_emplace(signature, std::move(module)).first;
  }
  if (!it->second)
    return nullptr;
  HkgKernelOpInterface found;
  it->second->walk([&](HkgKernelOpInterface op) {
    found = op;
    return WalkResult::interrupt();
  });
  return found;
}

KnobMap mlir::hkg::tuner::knobsFromAttr(ScheduleAttr schedule) {
  KnobMap knobs;
  if (!schedule)
    return knobs;
  for (NamedAttribute knob : schedule.getKnobs()) {
    if (auto i = dyn_cast<IntegerAttr>(knob.getValue()))
      knobs[knob.getName().str()] = i.getInt();
    else if (auto s = dyn_cast<StringAttr>(knob.getValue()))
      knobs[knob.getName().str()] = s.getValue().str();
  }
  return knobs;
}

KnobMap mlir::hkg::tuner::knobsFromResolved(const ResolvedSchedule &schedule) {
  KnobMap knobs;
  for (const auto &entry : schedule.getValues())
    knobs[entry.getKey().str()] = entry.getValue();
  return knobs;
}

ScheduleAttr mlir::hkg::tuner::knobsToAttr(MLIRContext *ctx,
                                           const KnobMap &knobs) {
  ResolvedSchedule resolved;
  for (const auto &[name, value] : knobs)
    resolved.set(name, value);
  return resolved.toAttr(ctx);
}

KnobMap mlir::hkg::tuner::resolveKnobs(const ScheduleSpace &space,
                                       const KnobMap &knobs) {
  KnobMap resolved = knobs;
  for (const KnobSpec &k : space.knobs)
    resolved.try_emplace(k.name, k.defaultValue);
  // Defaults that follow the knobs given (KnobSpec::derivedDefault).
  auto lookup = [&](StringRef name) -> const KnobValue * {
    auto it = resolved.find(name.str());
    return it == resolved.end() ? nullptr : &it->second;
  };
  for (const KnobSpec &k : space.knobs)
    if (k.derivedDefault && !knobs.count(k.name))
      resolved[k.name] = k.derivedDefault(lookup);
  return resolved;
}

std::string mlir::hkg::tuner::formatKnobs(const KnobMap &knobs) {
  return llvm::join(llvm::map_range(knobs,
                                    [](const auto &entry) {
                                      return entry.first + "=" +
                                             toString(entry.second);
                                    }),
                    ",");
}

llvm::json::Object mlir::hkg::tuner::knobsToJson(const KnobMap &knobs) {
  llvm::json::Object object;
  for (const auto &[name, value] : knobs) {
    if (const int64_t *i = std::get_if<int64_t>(&value))
      object[name] = *i;
    else
      object[name] = std::get<std::string>(value);
  }
  return object;
}

llvm::Expected<KnobMap>
mlir::hkg::tuner::knobsFromJson(const llvm::json::Value &value) {
  const llvm::json::Object *object = value.getAsObject();
  if (!object)
    return llvm::createStringError("expected 'schedule' to be an object");
  KnobMap knobs;
  for (const auto &entry : *object) {
    if (std::optional<int64_t> i = entry.second.getAsInteger())
      knobs[entry.first.str()] = *i;
    else if (std::optional<StringRef> s = entry.second.getAsString())
      knobs[entry.first.str()] = s->str();
    else
      return llvm::createStringError("expected schedule knob '" +
                                     entry.first.str() +
                                     "' to be an integer or a string");
  }
  return knobs;
}

bool mlir::hkg::tuner::isLegalSchedule(HkgKernelOpInterface op,
                                       const KnobMap &knobs,
                                       const TargetInfo &target) {
  MLIRContext *ctx = op->getContext();
  ScheduleAttr attr = knobsToAttr(ctx, knobs);
  ScopedDiagnosticHandler silence(ctx, [](Diagnostic &) { return success(); });
  return succeeded(
      verifySchedule(op, attr, target, [&] { return op->emitOpError(); }));
}

llvm::Error mlir::hkg::tuner::checkLegalSchedule(HkgKernelOpInterface op,
                                                 const KnobMap &knobs,
                                                 const TargetInfo &target) {
  MLIRContext *ctx = op->getContext();
  KnobMap resolved = resolveKnobs(op.getScheduleSpace(target), knobs);
  ScheduleAttr attr = knobsToAttr(ctx, resolved);
  std::string reason;
  ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
    if (reason.empty())
      reason = diag.str();
    return success();
  });
  if (succeeded(
          verifySchedule(op, attr, target, [&] { return op->emitOpError(); })))
    return llvm::Error::success();
  return llvm::createStringError(
      "schedule {" + formatKnobs(knobs) + "} is not legal for " +
      op->getName().getStringRef().str() + " on " + target.chip.str() + ": " +
      (reason.empty() ? std::string("refused by its verifier") : reason));
}
