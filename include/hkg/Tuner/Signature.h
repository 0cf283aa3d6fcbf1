//===- Signature.h - op signatures and knob maps for the tuner --*- C++ -*-===//
//
// The tuner keys everything it learns by an op signature: a canonical,
// self-contained and parseable text of one hkg op (its name, operand and
// result types, attributes minus `schedule`, and its body region if any).
// The database, the policy and the `hkg-autotune` pass all use
// getOpSignature, so a record written by one is found by the others.
//
// Schedules travel through the tuner as KnobMaps: knob name -> value, sorted
// by name, so they print, compare and hash the same way everywhere.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TUNER_SIGNATURE_H
#define HKG_TUNER_SIGNATURE_H

#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <string>

namespace mlir::hkg::tuner {

/// A schedule as the tuner handles it: knob name -> value, sorted by name.
using KnobMap = std::map<std::string, KnobValue>;

/// Returns the signature of `op`: the generic form of
///   func.func @sig(<operand types>) -> <result types> { <op>; return }
/// with the op's `schedule` attribute removed, printed without locations on
/// one line. Equal ops (same name, types, attributes and body) have equal
/// signatures; the text parses back with parseOpSignature. An op with
/// dynamic dims carries `hkg.size_hint` = its size bucket (getSizeBucket of
/// its hint): records are kept per bucket of the size tuned for.
std::string getOpSignature(HkgKernelOpInterface op);

/// The size bucket of a dynamic dim's size: the next power of two.
int64_t getSizeBucket(int64_t size);

/// Parses a signature into a module holding the op. `ctx` must have the hkg,
/// func, arith and math dialects loaded (see loadTunerDialects).
FailureOr<OwningOpRef<ModuleOp>> parseOpSignature(llvm::StringRef signature,
                                                  MLIRContext *ctx);

/// Loads the dialects signatures are written in.
void loadTunerDialects(MLIRContext &ctx);

/// Parses signatures once and hands out their ops.
class OpCatalog {
public:
  explicit OpCatalog(MLIRContext &ctx) : ctx(ctx) {}
  /// Returns the op of `signature`, or a null op when it does not parse.
  HkgKernelOpInterface get(llvm::StringRef signature);

private:
  MLIRContext &ctx;
  llvm::StringMap<OwningOpRef<ModuleOp>> modules;
};

/// The knobs of `schedule` (may be null: empty map).
KnobMap knobsFromAttr(ScheduleAttr schedule);
/// The knobs of a resolved schedule (every knob of its space).
KnobMap knobsFromResolved(const ResolvedSchedule &schedule);
/// Builds `#hkg.schedule<...>` from `knobs`.
ScheduleAttr knobsToAttr(MLIRContext *ctx, const KnobMap &knobs);
/// Fills the knobs of `space` missing from `knobs` with their defaults.
KnobMap resolveKnobs(const ScheduleSpace &space, const KnobMap &knobs);
/// "name=value,name=value" in name order: the schedule part of a record key.
std::string formatKnobs(const KnobMap &knobs);

/// {"knob": 8, "row_cache": "registers"}.
llvm::json::Object knobsToJson(const KnobMap &knobs);
/// Reads an object of integers and strings; fails naming the bad knob.
llvm::Expected<KnobMap> knobsFromJson(const llvm::json::Value &value);
/// Success if `knobs` (completed with the space's defaults) are a legal
/// schedule of `op` on `target`, else an error carrying the verifier's
/// reason.
llvm::Error checkLegalSchedule(HkgKernelOpInterface op, const KnobMap &knobs,
                               const TargetInfo &target);

/// True when `knobs` is legal for `op` on `target` (verifySchedule), without
/// reporting diagnostics.
bool isLegalSchedule(HkgKernelOpInterface op, const KnobMap &knobs,
                     const TargetInfo &target);

} // namespace mlir::hkg::tuner

#endif // HKG_TUNER_SIGNATURE_H
