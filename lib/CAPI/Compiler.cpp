//===- Compiler.cpp - hkg's C API: compile and transform modules ----------===//
//
// hkgCompile is hkg-compile in process; hkgTransform is hkg-opt with a
// --pass-pipeline. Each call gets its own MLIRContext (calls may run on
// several threads), the work runs on a large stack as the tools do, and
// the diagnostics of a failure become the returned error message.
//
//===----------------------------------------------------------------------===//

#include "hkg-c/Hkg.h"

#include "CAPISupport.h"

#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"
#include "hkg/InitAll.h"
#include "hkg/Support/InputLimits.h"
#include "hkg/Target/Bundle.h"
#include "hkg/Target/Toolkit.h"
#include "hkg/Tuner/DeviceMeasurer.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;

namespace {

/// Registers hkg-opt's passes and pipelines once per process.
void registerPassesOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    mlir::hkg::registerAllHkgPasses();
    mlir::hkg::tuner::registerDeviceMeasurer();
  });
}

DialectRegistry makeRegistry() {
  DialectRegistry registry;
  mlir::hkg::registerAllHkgDialects(registry);
  return registry;
}

/// Collects every diagnostic as "loc: severity: message" lines (notes
/// included), for the returned error.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext &context)
      : handler(&context, [this](Diagnostic &diag) {
          append(diag);
          return success();
        }) {}

  std::string take() { return std::move(text); }

private:
  void append(Diagnostic &diag) {
    llvm::raw_string_ostream os(text);
    if (!text.empty())
      os << "\n";
    Location loc = diag.getLocation();
    if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
      os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
         << fileLoc.getColumn() << ": ";
    else if (!isa<UnknownLoc>(loc))
      os << loc << ": ";
    switch (diag.getSeverity()) {
    case DiagnosticSeverity::Error:
      os << "error: ";
      break;
    case DiagnosticSeverity::Warning:
      os << "warning: ";
      break;
    case DiagnosticSeverity::Note:
      os << "note: ";
      break;
    case DiagnosticSeverity::Remark:
      os << "remark: ";
      break;
    }
    os << diag.str();
    for (Diagnostic &note : diag.getNotes())
      append(note);
  }

  std::string text;
  ScopedDiagnosticHandler handler;
};

/// Parses `source` into `context` after the nesting check. On failure
/// returns null with `error` set.
OwningOpRef<ModuleOp> parseModule(llvm::StringRef source, MLIRContext &context,
                                  DiagnosticCollector &diags,
                                  std::string &error) {
  if (llvm::Error e =
          ::hkg::checkInputNesting(source, ::hkg::InputSyntax::MLIR)) {
    error = llvm::toString(std::move(e));
    return nullptr;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "<hkg input>"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module) {
    error = diags.take();
    if (error.empty())
      error = "could not parse the module";
  }
  return module;
}

/// Reads hkgCompile's options; an unknown key or a value of the wrong type
/// is an error naming it.
llvm::Error readOptions(const char *json, mlir::hkg::BundleOptions &options) {
  llvm::Expected<llvm::json::Object> object = ::hkg::capi::parseOptions(json);
  if (!object)
    return object.takeError();
  for (const auto &member : *object) {
    llvm::StringRef key = member.first;
    const llvm::json::Value &v = member.second;
    auto wrongType = [&](llvm::StringRef expected) {
      return llvm::createStringError("options: '" + key.str() + "' must be " +
                                     expected.str());
    };
    auto readString = [&](std::string &out) -> llvm::Error {
      std::optional<llvm::StringRef> s = v.getAsString();
      if (!s)
        return wrongType("a string");
      out = s->str();
      return llvm::Error::success();
    };
    auto readBool = [&](bool &out) -> llvm::Error {
      std::optional<bool> b = v.getAsBoolean();
      if (!b)
        return wrongType("true or false");
      out = *b;
      return llvm::Error::success();
    };
    auto readUnsigned = [&](unsigned &out) -> llvm::Error {
      std::optional<int64_t> i = v.getAsInteger();
      if (!i || *i < 0 || *i > 1024)
        return wrongType("an integer in [0, 1024]");
      out = static_cast<unsigned>(*i);
      return llvm::Error::success();
    };
    llvm::Error e = llvm::Error::success();
    if (key == "chip")
      e = readString(options.chip);
    else if (key == "format")
      e = readString(options.format);
    else if (key == "toolkit")
      e = readString(options.toolkit);
    else if (key == "opt_level")
      e = readUnsigned(options.optLevel);
    else if (key == "default_schedules")
      e = readBool(options.defaultSchedules);
    else if (key == "allow_host_ops")
      e = readBool(options.allowHostOps);
    else if (key == "index_bitwidth")
      e = readUnsigned(options.indexBitwidth);
    else if (key == "min_blocks_per_sm")
      e = readUnsigned(options.minBlocksPerSM);
    else
      e = llvm::createStringError(
          "options: unknown key '" + key.str() +
          "'; expected chip, format, toolkit, opt_level, default_schedules, "
          "allow_host_ops, index_bitwidth, min_blocks_per_sm");
    if (e)
      return e;
  }
  return llvm::Error::success();
}

} // namespace

char *hkgCompile(const char *source, size_t length, const char *optionsJson,
                 const char *outDir) {
  mlir::hkg::BundleOptions options;
  if (llvm::Error e = readOptions(optionsJson, options))
    return ::hkg::capi::toCString(llvm::toString(std::move(e)));
  if (!outDir || !*outDir)
    return ::hkg::capi::toCString("hkgCompile: no output directory");
  std::string error;
  ::hkg::runOnLargeStack([&] {
    DialectRegistry registry = makeRegistry();
    MLIRContext context(registry);
    context.disableMultithreading();
    context.loadAllAvailableDialects();
    DiagnosticCollector diags(context);
    OwningOpRef<ModuleOp> module =
        parseModule(llvm::StringRef(source, length), context, diags, error);
    if (!module)
      return 1;
    if (options.chip.empty()) {
      auto target =
          (*module)->getAttrOfType<mlir::hkg::TargetAttr>("hkg.target");
      if (!target) {
        error = "no target: pass the option 'chip' or set an 'hkg.target = "
                "#hkg.target<chip = ...>' attribute on the module";
        return 1;
      }
      options.chip = target.getChip().str();
    }
    FailureOr<mlir::hkg::Bundle> bundle =
        mlir::hkg::compileBundle(*module, options);
    if (failed(bundle)) {
      error = diags.take();
      if (error.empty())
        error = "compilation failed";
      return 1;
    }
    if (llvm::Error e =
            mlir::hkg::writeBundle(*bundle, outDir, /*emitIsa=*/false)) {
      error = llvm::toString(std::move(e));
      return 1;
    }
    return 0;
  });
  return error.empty() ? nullptr : ::hkg::capi::toCString(error);
}

char *hkgTransform(const char *source, size_t length, const char *pipeline,
                   char **result) {
  registerPassesOnce();
  *result = nullptr;
  std::string error, output;
  ::hkg::runOnLargeStack([&] {
    DialectRegistry registry = makeRegistry();
    MLIRContext context(registry);
    context.disableMultithreading();
    DiagnosticCollector diags(context);
    OwningOpRef<ModuleOp> module =
        parseModule(llvm::StringRef(source, length), context, diags, error);
    if (!module)
      return 1;
    if (pipeline && *pipeline) {
      // The pipeline names its anchor: `builtin.module(...)`.
      std::string parseError;
      llvm::raw_string_ostream errorStream(parseError);
      FailureOr<OpPassManager> parsed =
          parsePassPipeline(pipeline, errorStream);
      if (failed(parsed) || parsed->getOpAnchorName() != "builtin.module") {
        error = "invalid pass pipeline '" + std::string(pipeline) + "': " +
                (failed(parsed) ? parseError
                                : "expected it anchored on builtin.module, "
                                  "e.g. builtin.module(hkg-from-linalg)");
        return 1;
      }
      PassManager pm(&context);
      static_cast<OpPassManager &>(pm) = std::move(*parsed);
      if (failed(pm.run(*module))) {
        error = diags.take();
        if (error.empty())
          error = "the pass pipeline failed";
        return 1;
      }
    }
    llvm::raw_string_ostream os(output);
    module->print(os);
    // Remarks and warnings of a successful run are not errors; they are
    // dropped here (a caller that wants them runs hkg-opt).
    return 0;
  });
  if (!error.empty())
    return ::hkg::capi::toCString(error);
  *result = ::hkg::capi::toCString(output);
  return nullptr;
}

char *hkgFindToolkit(const char *chip, const char *override, char **json) {
  *json = nullptr;
  const mlir::hkg::TargetInfo *target =
      mlir::hkg::lookupTarget(chip ? chip : "");
  if (!target)
    return ::hkg::capi::toCString("unknown chip '" +
                                  std::string(chip ? chip : "") + "'");
  llvm::StringRef dir = override ? override : "";
  llvm::json::Object out;
  if (target->isAMD()) {
    llvm::Expected<mlir::hkg::ROCmToolkit> found =
        mlir::hkg::getROCmToolkit(dir);
    if (!found)
      return ::hkg::capi::toCString(found.takeError());
    out = llvm::json::Object{{"kind", "rocm"},
                             {"dir", found->dir},
                             {"bitcode_dir", found->bitcodeDir},
                             {"ld_lld", found->ldLld}};
  } else {
    llvm::Expected<mlir::hkg::CUDAToolkit> found =
        mlir::hkg::getCUDAToolkit(dir);
    if (!found)
      return ::hkg::capi::toCString(found.takeError());
    out = llvm::json::Object{{"kind", "cuda"},
                             {"dir", found->dir},
                             {"libdevice", found->libdevice},
                             {"ptxas", found->ptxas}};
  }
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(std::move(out));
  *json = ::hkg::capi::toCString(text);
  return nullptr;
}
