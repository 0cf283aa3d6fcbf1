//===- MatrixCore.h - warp-level matrix instructions shared by kernels -*-===//
//
// NVIDIA mma.sync m16n8k16 and the ldmatrix fragments that feed it, shared
// by the matmul and attention kernels.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_LIB_CONVERSION_HKGTOGPU_MATRIXCORE_H
#define HKG_LIB_CONVERSION_HKGTOGPU_MATRIXCORE_H

#include "mlir/IR/Builders.h"

#include <utility>

namespace mlir::hkg {

/// One m16n8k16 mma.sync (sm_80+): `a` is the vector<4x2xT> A fragment
/// (an ldmatrix.x4), `bFrag` the vector<2x2xT> B fragment, T f16 or bf16,
/// `acc` the vector<4xf32> accumulator (c0, c1: row lane / 4, columns
/// 2 (lane % 4) + {0, 1}; c2, c3: the same columns of row lane / 4 + 8).
/// Returns the new accumulator.
Value mmaSyncM16N8K16(OpBuilder &b, Location loc, Value a, Value bFrag,
                      Value acc);

/// Splits the vector<4x2xT> of an ldmatrix.x4 that loaded two B fragments
/// (matrices 0, 1: the first n8 tile; 2, 3: the second) into the two
/// vector<2x2xT> fragments.
std::pair<Value, Value> splitLdMatrixX4(OpBuilder &b, Location loc, Value v);

} // namespace mlir::hkg

#endif // HKG_LIB_CONVERSION_HKGTOGPU_MATRIXCORE_H
