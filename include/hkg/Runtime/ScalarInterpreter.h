//===- ScalarInterpreter.h - evaluates element bodies on the host -*- C++
//-*-===//
//
// `hkg.elementwise` bodies and `hkg.matmul` epilogues are single blocks of
// scalar arith/math ops ending in `hkg.yield`. A ScalarProgram compiles such
// a block once into a flat instruction list and evaluates it per element in
// double precision (results typed f16/bf16 are rounded to that type, as any
// implementation must; f32 results are kept in double). Integers are held as
// their signed value (i1 as 0 or 1) and every integer op wraps to its
// width, as the device does; they are exact up to 2^53 in magnitude.
// `hkg.index` reads the element's result index, given to evaluate().
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_SCALARINTERPRETER_H
#define HKG_RUNTIME_SCALARINTERPRETER_H

#include "hkg/Runtime/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
class Block;
} // namespace mlir

namespace hkg::rt {

class ScalarProgram {
public:
  /// Compiles `block` (arguments: the scalar inputs; terminator: a yield of
  /// one value or more). Fails naming the first op the interpreter does not
  /// support.
  static llvm::Expected<ScalarProgram> compile(mlir::Block &block);

  /// Evaluates the block on `args` (one per block argument); `index` is the
  /// result index of the element, read by `hkg.index`.
  double evaluate(llvm::ArrayRef<double> args,
                  llvm::ArrayRef<int64_t> index = {});

  unsigned getNumArguments() const { return numArguments; }
  /// The values the block yields (a reduce's prologue yields several).
  unsigned getNumResults() const { return resultSlots.size(); }
  /// Yielded value `i` of the last evaluate() (value 0 is what it returned).
  double getResult(unsigned i) const { return slots[resultSlots[i]]; }
  /// Whether the block uses an op with a restricted domain (log, sqrt,
  /// rsqrt, powf...), so that random inputs should be positive.
  bool needsPositiveInputs() const { return positiveDomain; }
  /// Whether the block reads `hkg.index`.
  bool readsIndex() const { return usesIndex; }

  /// The op names the interpreter supports, for messages and docs.
  static llvm::ArrayRef<llvm::StringLiteral> getSupportedOps();

  enum class Opcode : uint8_t {
    Constant,
    AddF,
    SubF,
    MulF,
    DivF,
    RemF,
    NegF,
    MaximumF,
    MinimumF,
    MaxNumF,
    MinNumF,
    Convert,
    Select,
    CmpF,
    ToInt,
    AndI,
    OrI,
    XOrI,
    Exp,
    Exp2,
    ExpM1,
    Log,
    Log2,
    Log10,
    Log1p,
    Tanh,
    Sinh,
    Cosh,
    Erf,
    Erfc,
    Sqrt,
    Rsqrt,
    Cbrt,
    PowF,
    AbsF,
    Fma,
    Sin,
    Cos,
    Tan,
    Atan,
    Atan2,
    Floor,
    Ceil,
    Round,
    RoundEven,
    Trunc,
    CopySign,
    // Integers (and index).
    AddI,
    SubI,
    MulI,
    DivSI,
    DivUI,
    RemSI,
    RemUI,
    ShLI,
    ShRSI,
    ShRUI,
    MaxSI,
    MinSI,
    MaxUI,
    MinUI,
    CmpI,
    ExtSI,
    ExtUI,
    TruncI,
    SIToFP,
    UIToFP,
    Index
  };
  /// One op: `slots[numArguments + index] = op(slots[a], slots[b], slots[c])`
  /// then, for f16/bf16 results, rounded to `roundTo`.
  struct Instruction {
    Opcode opcode;
    /// A CmpF or CmpI predicate (arith::CmpFPredicate / CmpIPredicate as an
    /// integer); for Index, the dim is in `a`.
    uint8_t predicate = 0;
    /// Bit widths of integer results and operands (64 for index, 0 for
    /// floats): results wrap to `width`, unsigned ops read operands as
    /// `operandWidth`-bit unsigned values.
    uint8_t width = 0, operandWidth = 0;
    bool round = false;
    DType roundTo = DType::F64;
    unsigned a = 0, b = 0, c = 0;
    double constant = 0;
  };

private:
  unsigned numArguments = 0;
  llvm::SmallVector<unsigned, 1> resultSlots;
  bool positiveDomain = false;
  bool usesIndex = false;
  std::vector<Instruction> instructions;
  std::vector<double> slots;
};

} // namespace hkg::rt

#endif // HKG_RUNTIME_SCALARINTERPRETER_H
