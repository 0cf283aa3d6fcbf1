//===- ScalarInterpreter.h - evaluates element bodies on the host -*- C++
//-*-===//
//
// `hkg.elementwise` bodies and `hkg.matmul` epilogues are single blocks of
// scalar arith/math ops ending in `hkg.yield`. A ScalarProgram compiles such
// a block once into a flat instruction list and evaluates it per element in
// double precision (results typed f16/bf16 are rounded to that type, as any
// implementation must; f32 results are kept in double).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_SCALARINTERPRETER_H
#define HKG_RUNTIME_SCALARINTERPRETER_H

#include "hkg/Runtime/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
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
  /// one value). Fails naming the first op the interpreter does not support.
  static llvm::Expected<ScalarProgram> compile(mlir::Block &block);

  /// Evaluates the block on `args` (one per block argument).
  double evaluate(llvm::ArrayRef<double> args);

  unsigned getNumArguments() const { return numArguments; }
  /// Whether the block uses an op with a restricted domain (log, sqrt,
  /// rsqrt, powf...), so that random inputs should be positive.
  bool needsPositiveInputs() const { return positiveDomain; }

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
    CopySign
  };
  /// One op: `slots[numArguments + index] = op(slots[a], slots[b], slots[c])`
  /// then, for f16/bf16 results, rounded to `roundTo`.
  struct Instruction {
    Opcode opcode;
    /// A CmpF predicate (arith::CmpFPredicate as an integer).
    uint8_t predicate = 0;
    bool round = false;
    DType roundTo = DType::F64;
    unsigned a = 0, b = 0, c = 0;
    double constant = 0;
  };

private:
  unsigned numArguments = 0;
  unsigned resultSlot = 0;
  bool positiveDomain = false;
  std::vector<Instruction> instructions;
  std::vector<double> slots;
};

} // namespace hkg::rt

#endif // HKG_RUNTIME_SCALARINTERPRETER_H
