//===- ScheduleSpace.cpp - knobs, spaces and resolved schedules -----------===//

#include "hkg/Dialect/Hkg/IR/ScheduleSpace.h"
#include "hkg/Dialect/Hkg/IR/HkgAttrs.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::hkg;

std::string mlir::hkg::toString(const KnobValue &value) {
  if (const int64_t *i = std::get_if<int64_t>(&value))
    return std::to_string(*i);
  return std::get<std::string>(value);
}

bool KnobSpec::isLegal(const KnobValue &value) const {
  return llvm::is_contained(legalValues, value);
}

std::string KnobSpec::legalValuesString() const {
  return llvm::join(llvm::map_range(legalValues,
                                    [](const KnobValue &v) {
                                      return toString(v);
                                    }),
                    ", ");
}

ScheduleSpace &ScheduleSpace::addInt(StringRef name, ArrayRef<int64_t> legal,
                                     int64_t defaultValue,
                                     StringRef description, bool sizesWork) {
  KnobSpec spec;
  spec.name = name.str();
  spec.description = description.str();
  spec.sizesWork = sizesWork;
  for (int64_t v : legal)
    spec.legalValues.push_back(v);
  spec.defaultValue = defaultValue;
  assert(spec.isLegal(spec.defaultValue) && "default must be legal");
  knobs.push_back(std::move(spec));
  return *this;
}

ScheduleSpace &
ScheduleSpace::deriveDefault(BoolKnob knob,
                             std::function<bool(KnobSpec::Lookup)> fn) {
  auto it = llvm::find_if(
      knobs, [&](const KnobSpec &k) { return k.name == knob.name; });
  assert(it != knobs.end() && "derived default of a knob not in the space");
  it->derivedDefault = [fn = std::move(fn)](KnobSpec::Lookup lookup) {
    return KnobValue(int64_t(fn(lookup) ? 1 : 0));
  };
  return *this;
}

ScheduleSpace &ScheduleSpace::addKeyword(StringRef name,
                                         ArrayRef<StringRef> legal,
                                         StringRef defaultValue,
                                         StringRef description) {
  KnobSpec spec;
  spec.name = name.str();
  spec.description = description.str();
  for (StringRef v : legal)
    spec.legalValues.push_back(v.str());
  spec.defaultValue = defaultValue.str();
  assert(spec.isLegal(spec.defaultValue) && "default must be legal");
  knobs.push_back(std::move(spec));
  return *this;
}

ScheduleSpace &ScheduleSpace::addSketch(ScheduleSketch sketch) {
#ifndef NDEBUG
  for (const auto &[name, value] : sketch.knobs) {
    const KnobSpec *spec = lookup(name);
    assert(spec && spec->isLegal(value) && "sketch knobs must be legal knobs");
  }
#endif
  sketches.push_back(std::move(sketch));
  return *this;
}

const KnobSpec *ScheduleSpace::lookup(StringRef name) const {
  for (const KnobSpec &k : knobs)
    if (k.name == name)
      return &k;
  return nullptr;
}

std::string ScheduleSpace::knobNamesString() const {
  return llvm::join(
      llvm::map_range(knobs, [](const KnobSpec &k) { return k.name; }), ", ");
}

double ScheduleSpace::size() const {
  double n = 1;
  for (const KnobSpec &k : knobs)
    n *= static_cast<double>(k.legalValues.size());
  return n;
}

ResolvedSchedule::ResolvedSchedule(const ScheduleSpace &space,
                                   ScheduleAttr schedule) {
  for (const KnobSpec &k : space.knobs) {
    order.push_back(k.name);
    values[k.name] = k.defaultValue;
    if (!schedule)
      continue;
    // A value of the wrong kind (`vector_width = foo`) keeps the default, so
    // getInt/getKeyword never see the other kind even on an unverified
    // schedule.
    Attribute v = schedule.getKnobs().get(k.name);
    bool wantsInt = std::holds_alternative<int64_t>(k.defaultValue);
    if (auto i = dyn_cast_or_null<IntegerAttr>(v); i && wantsInt)
      values[k.name] = i.getInt();
    else if (auto s = dyn_cast_or_null<StringAttr>(v); s && !wantsInt)
      values[k.name] = s.getValue().str();
  }
  // Knobs the schedule leaves out whose defaults follow the ones it gives.
  if (!schedule)
    return;
  auto lookup = [&](StringRef name) -> const KnobValue * {
    auto it = values.find(name);
    return it == values.end() ? nullptr : &it->second;
  };
  for (const KnobSpec &k : space.knobs)
    if (k.derivedDefault && !schedule.getKnobs().get(k.name))
      values[k.name] = k.derivedDefault(lookup);
}

int64_t ResolvedSchedule::getInt(StringRef knob) const {
  auto it = values.find(knob);
  assert(it != values.end() && "unknown knob");
  const int64_t *i = std::get_if<int64_t>(&it->second);
  assert(i && "knob is not an integer");
  return *i;
}

StringRef ResolvedSchedule::getKeyword(StringRef knob) const {
  auto it = values.find(knob);
  assert(it != values.end() && "unknown knob");
  const std::string *s = std::get_if<std::string>(&it->second);
  assert(s && "knob is not a keyword");
  return *s;
}

ScheduleAttr ResolvedSchedule::toAttr(MLIRContext *ctx) const {
  Builder b(ctx);
  SmallVector<NamedAttribute> knobs;
  for (const auto &entry : values) {
    Attribute v;
    if (const int64_t *i = std::get_if<int64_t>(&entry.second))
      v = b.getI64IntegerAttr(*i);
    else
      v = b.getStringAttr(std::get<std::string>(entry.second));
    knobs.push_back(b.getNamedAttr(entry.getKey(), v));
  }
  return ScheduleAttr::get(ctx, b.getDictionaryAttr(knobs));
}
