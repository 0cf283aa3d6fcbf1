//===- MatrixCore.h - warp-level matrix instructions shared by kernels -*-===//
//
// NVIDIA mma.sync m16n8k16 and the ldmatrix fragments that feed it, shared
// by the matmul and attention kernels, and mma.sync m16n8k8 on tf32.
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

/// One m16n8k8 mma.sync on .tf32 operands (sm_80+): `a` the vector<4x1xf32>
/// A fragment (a0: row lane / 4, column lane % 4; a1: 8 rows below; a2, a3:
/// 4 columns right of a0, a1), `bFrag` the vector<2x1xf32> B fragment (b0:
/// row lane % 4, column lane / 4; b1: 4 rows below), each a tf32 value in
/// an f32 register, `acc` the vector<4xf32> accumulator in m16n8k16's
/// layout. Returns the new accumulator.
Value mmaSyncM16N8K8Tf32(OpBuilder &b, Location loc, Value a, Value bFrag,
                         Value acc);

/// tf32 in f32 registers by integer ops: `x`'s bits (f32, or a vector of
/// f32) plus `bias`, the low 13 bits cleared. With bias 0x1000 (half a tf32
/// ulp) the value cvt.rna.tf32.f32 gives for finite x, in 2 integer
/// instructions instead of 4 (cvt's inf / NaN guard: an inf or NaN operand
/// makes the small term of a split, and the product, NaN either way); with
/// bias 0, truncation (how tensor cores read an f32 operand).
Value maskToTf32(OpBuilder &b, Location loc, Value x, int64_t bias);

/// Splits the vector<4x2xT> of an ldmatrix.x4 that loaded two B fragments
/// (matrices 0, 1: the first n8 tile; 2, 3: the second) into the two
/// vector<2x2xT> fragments.
std::pair<Value, Value> splitLdMatrixX4(OpBuilder &b, Location loc, Value v);

} // namespace mlir::hkg

#endif // HKG_LIB_CONVERSION_HKGTOGPU_MATRIXCORE_H
