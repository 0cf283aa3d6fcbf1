//===- ScheduleSpace.h - schedule knobs, spaces and costs -------*- C++ -*-===//
//
// The vocabulary of HkgKernelOpInterface: what knobs an op exposes
// (ScheduleSpace), a schedule with defaults filled in (ResolvedSchedule) and
// the op's cost features.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_DIALECT_HKG_IR_SCHEDULESPACE_H
#define HKG_DIALECT_HKG_IR_SCHEDULESPACE_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <variant>

namespace mlir::hkg {

class ScheduleAttr;

/// The value of one knob: an integer or a keyword.
using KnobValue = std::variant<int64_t, std::string>;

/// Renders a knob value as it is written in `#hkg.schedule<...>`.
std::string toString(const KnobValue &value);

/// One tunable knob: its name, legal values (in the order a search should
/// try them) and default.
struct KnobSpec {
  std::string name;
  std::string description;
  llvm::SmallVector<KnobValue> legalValues;
  KnobValue defaultValue;
  /// Whether an integer knob sizes or counts the work of a thread or a
  /// workgroup (tiles, threads, vector width, unroll...), as opposed to only
  /// ordering it (group_m: which workgroup takes which tile). The tuner's
  /// mix features (Features.cpp) combine sizes only.
  bool sizesWork = true;

  bool isLegal(const KnobValue &value) const;
  /// "1, 2, 4, 8" or "single_pass, online".
  std::string legalValuesString() const;
};

/// A structural variant of the default schedule: a few coupled knobs set
/// together, the others left at their defaults. The tuner measures an op's
/// sketches early (Search.cpp): a variant whose knobs only pay together
/// (e.g. a larger tile with the instruction, pipeline depth and overlap it
/// needs) sits behind illegal or slow single-knob steps, out of reach of
/// the evolutionary agent's mutations. Not necessarily legal: the tuner
/// verifies each.
struct ScheduleSketch {
  llvm::SmallVector<std::pair<std::string, KnobValue>> knobs;
};

/// The knobs of one op on one target.
struct ScheduleSpace {
  llvm::SmallVector<KnobSpec> knobs;
  llvm::SmallVector<ScheduleSketch> sketches;

  /// Adds an integer knob.
  ScheduleSpace &addInt(llvm::StringRef name, llvm::ArrayRef<int64_t> legal,
                        int64_t defaultValue, llvm::StringRef description,
                        bool sizesWork = true);
  /// Adds a keyword knob.
  ScheduleSpace &addKeyword(llvm::StringRef name,
                            llvm::ArrayRef<llvm::StringRef> legal,
                            llvm::StringRef defaultValue,
                            llvm::StringRef description);

  /// Adds a sketch; its knobs must be knobs of the space, with legal values.
  ScheduleSpace &addSketch(ScheduleSketch sketch);

  const KnobSpec *lookup(llvm::StringRef name) const;
  std::string knobNamesString() const;
  /// Number of schedules in the space (product of the knobs' value counts).
  double size() const;
};

/// A schedule with every knob of its space resolved (explicit value or
/// default). Built only from schedules whose knobs are known and legal.
class ResolvedSchedule {
public:
  ResolvedSchedule() = default;
  /// Fills knobs from `schedule` (may be null) and defaults from `space`.
  /// Unknown or ill-typed knobs are ignored here: verify first.
  ResolvedSchedule(const ScheduleSpace &space, ScheduleAttr schedule);

  int64_t getInt(llvm::StringRef knob) const;
  llvm::StringRef getKeyword(llvm::StringRef knob) const;
  bool has(llvm::StringRef knob) const { return values.count(knob); }
  const llvm::StringMap<KnobValue> &getValues() const { return values; }

  /// Rebuilds an attribute holding every knob explicitly.
  ScheduleAttr toAttr(MLIRContext *ctx) const;

  void set(llvm::StringRef knob, KnobValue value) {
    values[knob] = std::move(value);
  }

private:
  llvm::StringMap<KnobValue> values;
  llvm::SmallVector<std::string> order;
  friend struct ScheduleSpace;
};

/// What a kernel costs, independent of schedule: used for roofline reports
/// and as the op part of the tuner's features.
struct CostFeatures {
  /// Floating-point operations (a multiply-add counts 2).
  double flops = 0;
  /// Bytes that must cross DRAM: each input read once, each output written
  /// once.
  double bytes = 0;
  /// The shape of the iteration space that matters to schedules, e.g.
  /// {rows, row length} for row ops, {batch, M, N, K} for matmul.
  llvm::SmallVector<int64_t> shape;
  /// Element type of the main input.
  Type elementType;
};

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_SCHEDULESPACE_H
