//===- HkgAttrs.cpp - #hkg.schedule and #hkg.target -----------------------===//

#include "hkg/Dialect/Hkg/IR/HkgAttrs.h"
#include "hkg/Dialect/Hkg/IR/HkgDialect.h"
#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::hkg;

#include "hkg/Dialect/Hkg/IR/HkgEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "hkg/Dialect/Hkg/IR/HkgAttrs.cpp.inc"

void HkgDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "hkg/Dialect/Hkg/IR/HkgAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

/// Parses `<knob = value, ...>` where a value is an integer or a keyword.
Attribute ScheduleAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<NamedAttribute> knobs;
  llvm::SmallDenseSet<StringRef> seen;
  if (parser.parseLess())
    return {};
  if (succeeded(parser.parseOptionalGreater()))
    return ScheduleAttr::get(ctx, DictionaryAttr::get(ctx, {}));
  auto parseKnob = [&]() -> ParseResult {
    std::string name;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeywordOrString(&name) || parser.parseEqual())
      return failure();
    if (!seen.insert(StringAttr::get(ctx, name).getValue()).second)
      return parser.emitError(loc) << "knob '" << name << "' is set twice";
    int64_t intValue;
    OptionalParseResult intResult = parser.parseOptionalInteger(intValue);
    if (intResult.has_value()) {
      if (failed(*intResult))
        return failure();
      knobs.emplace_back(StringAttr::get(ctx, name),
                         IntegerAttr::get(IntegerType::get(ctx, 64), intValue));
      return success();
    }
    std::string keyword;
    SMLoc valueLoc = parser.getCurrentLocation();
    if (failed(parser.parseOptionalKeywordOrString(&keyword)))
      return parser.emitError(valueLoc)
             << "expected an integer or a keyword as the value of knob '"
             << name << "'";
    knobs.emplace_back(StringAttr::get(ctx, name),
                       StringAttr::get(ctx, keyword));
    return success();
  };
  if (parser.parseCommaSeparatedList(parseKnob) || parser.parseGreater())
    return {};
  return parser.getChecked<ScheduleAttr>(ctx, DictionaryAttr::get(ctx, knobs));
}

void ScheduleAttr::print(AsmPrinter &printer) const {
  printer << "<";
  llvm::interleaveComma(getKnobs(), printer, [&](NamedAttribute knob) {
    printer.printKeywordOrString(knob.getName().getValue());
    printer << " = ";
    if (auto i = dyn_cast<IntegerAttr>(knob.getValue()))
      printer << i.getInt();
    else if (auto s = dyn_cast<StringAttr>(knob.getValue()))
      printer.printKeywordOrString(s.getValue());
    else
      printer.printAttribute(knob.getValue());
  });
  printer << ">";
}

LogicalResult
ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     DictionaryAttr knobs) {
  for (NamedAttribute knob : knobs) {
    Attribute value = knob.getValue();
    if (auto i = dyn_cast<IntegerAttr>(value)) {
      if (!i.getType().isSignlessInteger(64))
        return emitError() << "knob '" << knob.getName().getValue()
                           << "' must be a 64-bit integer, got " << value;
      continue;
    }
    if (isa<StringAttr>(value))
      continue;
    return emitError() << "knob '" << knob.getName().getValue()
                       << "' must be an integer or a keyword, got " << value;
  }
  return success();
}

std::optional<int64_t> ScheduleAttr::getInt(StringRef knob) const {
  if (auto i = getKnobs().getAs<IntegerAttr>(knob))
    return i.getInt();
  return std::nullopt;
}

std::optional<StringRef> ScheduleAttr::getKeyword(StringRef knob) const {
  if (auto s = getKnobs().getAs<StringAttr>(knob))
    return s.getValue();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef chip) {
  if (lookupTarget(chip))
    return success();
  return emitError() << "unknown chip '" << chip
                     << "'; expected one of: " << getKnownChipsString();
}
