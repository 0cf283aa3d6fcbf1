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
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cassert>
#include <functional>
#include <optional>
#include <string>
#include <variant>

namespace mlir::hkg {

class ScheduleAttr;

/// Declared by every ODS enum's generated header (HkgEnums.h.inc).
template <typename EnumType>
std::optional<EnumType> symbolizeEnum(llvm::StringRef);

/// The value of one knob: an integer or a keyword.
using KnobValue = std::variant<int64_t, std::string>;

//===----------------------------------------------------------------------===//
// Typed knobs
//===----------------------------------------------------------------------===//
//
// A family declares each of its knobs once, as a constant naming the knob and
// fixing its C++ type (include/hkg/Dialect/Hkg/IR/Schedules/*.h). The same
// constant builds the schedule space (ScheduleSpace::add) and decodes a
// resolved schedule into the family's schedule struct (ResolvedSchedule::get),
// so a knob's name is written in one place.

/// An integer knob (sizes, counts, depths).
struct IntKnob {
  llvm::StringLiteral name;
};
/// An on/off knob: 0 or 1 in `#hkg.schedule<...>`, a bool in C++.
struct BoolKnob {
  llvm::StringLiteral name;
};
/// A keyword knob whose values are not a fixed set (e.g. the matrix-core
/// instructions of a target).
struct KeywordKnob {
  llvm::StringLiteral name;
};
/// A keyword knob over a fixed set: an ODS enum `E` (HkgAttrs.td), whose
/// keywords are its cases' strings (`stringifyEnum` / `symbolizeEnum<E>`).
template <typename E>
struct EnumKnob {
  llvm::StringLiteral name;
};

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
  /// Where set, the default of this knob in a schedule that leaves it out
  /// but gives other knobs: computed from the other knobs' resolved values
  /// (`lookup` returns null for a knob the space lacks). For a knob whose
  /// default is legal only beside the other knobs' defaults: a schedule
  /// that sets `stages = 1` must not inherit `wgmma_pipeline = 1`, which
  /// needs two stages. Must return `defaultValue` when every other knob
  /// holds its default.
  using Lookup = llvm::function_ref<const KnobValue *(llvm::StringRef)>;
  std::function<KnobValue(Lookup lookup)> derivedDefault;

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
  /// Knobs the op lacks on this target or shape, with the reason.
  llvm::SmallVector<std::pair<std::string, std::string>> unavailable;

  /// Adds an integer knob.
  ScheduleSpace &addInt(llvm::StringRef name, llvm::ArrayRef<int64_t> legal,
                        int64_t defaultValue, llvm::StringRef description,
                        bool sizesWork = true);
  /// Adds a keyword knob.
  ScheduleSpace &addKeyword(llvm::StringRef name,
                            llvm::ArrayRef<llvm::StringRef> legal,
                            llvm::StringRef defaultValue,
                            llvm::StringRef description);

  /// Typed forms of addInt / addKeyword (see IntKnob).
  ScheduleSpace &add(IntKnob knob, llvm::ArrayRef<int64_t> legal,
                     int64_t defaultValue, llvm::StringRef description,
                     bool sizesWork = true) {
    return addInt(knob.name, legal, defaultValue, description, sizesWork);
  }
  /// An on/off knob: legal values 0 and 1, not a size of the work.
  ScheduleSpace &add(BoolKnob knob, bool defaultValue,
                     llvm::StringRef description) {
    return addInt(knob.name, {0, 1}, defaultValue ? 1 : 0, description,
                  /*sizesWork=*/false);
  }
  /// An on/off knob that only takes its default on this target or shape.
  ScheduleSpace &addFixed(BoolKnob knob, bool value,
                          llvm::StringRef description) {
    int64_t v = value ? 1 : 0;
    return addInt(knob.name, {v}, v, description, /*sizesWork=*/false);
  }
  ScheduleSpace &add(KeywordKnob knob, llvm::ArrayRef<llvm::StringRef> legal,
                     llvm::StringRef defaultValue,
                     llvm::StringRef description) {
    return addKeyword(knob.name, legal, defaultValue, description);
  }
  template <typename E>
  ScheduleSpace &add(EnumKnob<E> knob, llvm::ArrayRef<E> legal, E defaultValue,
                     llvm::StringRef description) {
    llvm::SmallVector<llvm::StringRef> keywords;
    for (E e : legal)
      keywords.push_back(stringifyEnum(e));
    return addKeyword(knob.name, keywords, stringifyEnum(defaultValue),
                      description);
  }

  /// Makes the default of `knob` (already added) follow the other knobs of a
  /// schedule that leaves it out (KnobSpec::derivedDefault).
  ScheduleSpace &deriveDefault(BoolKnob knob,
                               std::function<bool(KnobSpec::Lookup)> fn);

  /// Adds a sketch; its knobs must be knobs of the space, with legal values.
  ScheduleSpace &addSketch(ScheduleSketch sketch);

  /// Records a knob the op has on other targets or shapes but not here,
  /// with the reason (`schedule knob 'x' is not available for <op> on
  /// <chip>: <reason>` instead of an unknown knob).
  ScheduleSpace &addUnavailable(llvm::StringRef name, llvm::StringRef reason) {
    unavailable.push_back({name.str(), reason.str()});
    return *this;
  }
  /// The reason a knob is unavailable here, or null when the op has none.
  const std::string *unavailableReason(llvm::StringRef name) const {
    for (const auto &[n, r] : unavailable)
      if (n == name)
        return &r;
    return nullptr;
  }

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
  /// Fills knobs from `schedule` (may be null) and defaults from `space`
  /// (derived ones from the knobs resolved before them).
  /// Unknown or ill-typed knobs are ignored here: verify first.
  ResolvedSchedule(const ScheduleSpace &space, ScheduleAttr schedule);

  /// Typed access for the families (their schedule structs' decode).
  int64_t get(IntKnob knob) const { return getInt(knob.name); }
  bool get(BoolKnob knob) const { return getInt(knob.name) != 0; }
  llvm::StringRef get(KeywordKnob knob) const { return getKeyword(knob.name); }
  template <typename E>
  E get(EnumKnob<E> knob) const {
    std::optional<E> e = symbolizeEnum<E>(getKeyword(knob.name));
    assert(e && "keyword knob holds a value outside its enum: verify first");
    return *e;
  }
  /// The knob's value, or `absent` where the space has no such knob on this
  /// target (e.g. `occupancy` where the target has no occupancy hint).
  template <typename K, typename T>
  auto getOr(K knob, T absent) const -> decltype(get(knob)) {
    return has(knob.name) ? get(knob) : decltype(get(knob))(absent);
  }

  /// Untyped access, for code that handles every op alike (the tuner, the
  /// reports); a family's own code uses the typed knobs above.
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
