//===- MatmulSchedule.h - schedule of hkg.matmul ----------------*- C++ -*-===//
//
// The typed schedule of hkg.matmul: its knobs, declared once
// (MatmulSchedule.cpp builds the space with them, the kernel builder in
// lib/Conversion/HkgToGPU reads the decoded struct), and the one parser of
// the `mma` keyword, which hkg.attention shares.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_DIALECT_HKG_IR_SCHEDULES_MATMULSCHEDULE_H
#define HKG_DIALECT_HKG_IR_SCHEDULES_MATMULSCHEDULE_H

#include "hkg/Dialect/Hkg/IR/Schedules/CommonKnobs.h"

#include "llvm/ADT/StringSwitch.h"

#include <string>

namespace mlir::hkg {

//===----------------------------------------------------------------------===//
// The matrix-core instruction (`mma`)
//===----------------------------------------------------------------------===//

/// The matrix-core instruction a workgroup issues, or `none` for FMAs. A
/// keyword rather than an enum: its values are the target's instructions
/// (TargetInfo::mmaIntrinsics), spelled `<family>_<M>x<N>x<K>`, with a
/// suffix `_<operands>` where the operands are not the op's own type
/// (`mma_16x8x8_tf32x3`).
inline constexpr KeywordKnob kMma{"mma"};

/// The instruction families of the `mma` keyword's prefix.
enum class MmaFamily {
  /// `none`: FMAs.
  None,
  /// `mma_*`: NVIDIA mma.sync (sm_80+).
  MmaSync,
  /// `wgmma_*`: NVIDIA warpgroup MMA (sm_90a).
  Wgmma,
  /// `mfma_*`: AMD CDNA matrix cores.
  Mfma,
  /// `wmma_*`: AMD RDNA matrix cores.
  Wmma,
};

/// What an instruction multiplies.
enum class MmaOperands {
  /// The op's operands as they are (f16, bf16).
  Native,
  /// `_tf32x3`: f32 operands, each split into two tf32 terms, big = tf32(x)
  /// and small = tf32(x - big), and three tf32 MMAs per product, a_small
  /// b_big + a_big b_small + a_big b_big (3xTF32: about f32's accuracy on
  /// tensor cores, docs/Matmul.md).
  Tf32x3,
};

/// An `mma` keyword, parsed: its family, the M x N x K of one instruction
/// (1 x 1 x 1 for `none`) and what it multiplies.
struct MmaInstruction {
  MmaFamily family = MmaFamily::None;
  int64_t m = 1, n = 1, k = 1;
  MmaOperands operands = MmaOperands::Native;
  /// The keyword as written in `#hkg.schedule<...>`.
  std::string name = "none";

  /// Parses `<family>_<M>x<N>x<K>[_tf32x3]` or `none`. A keyword outside the
  /// families (or with another suffix) parses as `none`: the schedule
  /// verifier only admits the target's own.
  static MmaInstruction parse(llvm::StringRef keyword);

  bool isNone() const { return family == MmaFamily::None; }
  /// Whether the instruction takes f32 operands as three tf32 MMAs.
  bool isTf32x3() const { return operands == MmaOperands::Tf32x3; }
  /// Waves that issue one instruction together: a warpgroup (4 warps) for
  /// wgmma, whose M x N is the warpgroup's; one wave otherwise.
  int64_t wavesPerInstruction() const {
    return family == MmaFamily::Wgmma ? 4 : 1;
  }
};

//===----------------------------------------------------------------------===//
// Knobs
//===----------------------------------------------------------------------===//

/// Rows / columns of the result per workgroup; depth of one K step.
inline constexpr IntKnob kTileM{"tile_m"};
inline constexpr IntKnob kTileN{"tile_n"};
inline constexpr IntKnob kTileK{"tile_k"};
/// Waves (warpgroups with wgmma) along M and N.
inline constexpr IntKnob kWavesM{"waves_m"};
inline constexpr IntKnob kWavesN{"waves_n"};
/// LDS buffers of the K pipeline (hkg.attention: of its key/value blocks).
inline constexpr IntKnob kStages{"stages"};
/// Elements of padding per LDS row.
inline constexpr IntKnob kLdsPad{"lds_pad"};
/// XOR-swizzle the 16-byte chunks of LDS rows.
inline constexpr BoolKnob kLdsSwizzle{"lds_swizzle"};
/// Rows of tiles visited together (L2 reuse).
inline constexpr IntKnob kGroupM{"group_m"};
/// Workgroups sharing an output tile, each over 1/split_k of K.
inline constexpr IntKnob kSplitK{"split_k"};
/// How the split_k partial sums meet: `cluster` (distributed shared memory
/// of a thread-block cluster, sm_90, split_k <= 8) or `workspace` (a global
/// f32 workspace of the kernel's module, summed by the last workgroup of
/// each group to arrive, every target).
inline constexpr KeywordKnob kSplitKReduce{"split_k_reduce"};
/// Warpgroup-MMA groups left in flight across K steps: a count (the
/// operand of wgmma.wait_group), 0 or 1 today.
inline constexpr IntKnob kWgmmaPending{"wgmma_pending"};
/// Persistent workgroups: as many as the chip keeps resident walk the output
/// tiles in turn, one K pipeline running from each tile into the next.
inline constexpr BoolKnob kPersistent{"persistent"};
/// The results go to global memory through LDS: f32 accumulators staged in
/// the B operand's LDS buffers, then read back row-contiguous, so that the
/// epilogue's loads and the stores are 16-byte and coalesced.
inline constexpr BoolKnob kEpilogueLds{"epilogue_lds"};

/// fp8 warpgroup MMA (mma = wgmma_*x32 on 8-bit float operands; the knob
/// exists where those are): each K step's MMAs start from zero (scale-d =
/// 0) into their own accumulators, whose sum is added to the running f32
/// accumulators after the step (wgmma_pending = 0): Hopper's fp8 MMAs add
/// in fewer bits than f32, so this bounds that to a step's 128 products,
/// as cuBLAS's default (not fast-accumulation) mode and DeepSeek-V3 do, at
/// twice the accumulator registers.
inline constexpr BoolKnob kWgmmaPromote{"wgmma_promote"};

/// 3xTF32's split of each f32 operand into two tf32 terms (mma =
/// *_tf32x3; the knob exists for f32 operands on targets with one):
/// `rna` rounds both terms with cvt.rna.tf32.f32, `fast` rounds the big one
/// with an integer add and mask (the same value for finite operands) and
/// truncates the small one: 4 instructions an element instead of 9, at
/// most 20 u |a b| left out of a product instead of 12 u (docs/Matmul.md);
/// `trunc` truncates the big one (as tensor cores read an f32 operand) and
/// rounds the small one with an add and mask: the split of
/// wgmma_*_tf32x3, whose big terms are the staged tiles themselves.
enum class Tf32Split { Rna, Fast, Trunc };

/// The keywords of Tf32Split, as written in `#hkg.schedule<...>` (for
/// EnumKnob).
inline llvm::StringRef stringifyEnum(Tf32Split e) {
  switch (e) {
  case Tf32Split::Rna:
    return "rna";
  case Tf32Split::Fast:
    return "fast";
  case Tf32Split::Trunc:
    return "trunc";
  }
  llvm_unreachable("unknown Tf32Split");
}
template <>
inline std::optional<Tf32Split> symbolizeEnum<Tf32Split>(llvm::StringRef s) {
  return llvm::StringSwitch<std::optional<Tf32Split>>(s)
      .Case("rna", Tf32Split::Rna)
      .Case("fast", Tf32Split::Fast)
      .Case("trunc", Tf32Split::Trunc)
      .Default(std::nullopt);
}

inline constexpr EnumKnob<Tf32Split> kTf32Split{"tf32_split"};

/// hkg.matmul: a tile_m x tile_n block of the result per workgroup, K in
/// tile_k steps staged in LDS, waves_m x waves_n waves issuing `mma`.
struct MatmulSchedule {
  int64_t tileM, tileN, tileK;
  int64_t wavesM, wavesN;
  MmaInstruction mma;
  int64_t stages;
  int64_t vectorWidth;
  int64_t ldsPad;
  bool ldsSwizzle;
  int64_t unroll;
  int64_t groupM;
  int64_t splitK;
  /// split_k_reduce = workspace (otherwise cluster).
  bool splitKWorkspace;
  int64_t wgmmaPending;
  bool persistent;
  bool epilogueLds;
  /// tf32_split (rna where there is no such knob).
  Tf32Split tf32Split;
  /// wgmma_promote = 1 (0, or no such knob).
  bool wgmmaPromote;

  /// Partials a workgroup of the workspace reduction sums at once: the last
  /// of each group of this many to arrive adds the group's partials, in
  /// rank order, and passes the sum one level up.
  static constexpr int64_t kWorkspaceGroup = 16;
  /// The partials per output tile a split over `splitK` workgroups stores
  /// in the workspace: split_k at the first level, then one per group of
  /// the level below, until one group is left.
  static int64_t workspaceSlots(int64_t splitK) {
    int64_t slots = 0;
    for (int64_t count = splitK; count > 1;
         count = (count + kWorkspaceGroup - 1) / kWorkspaceGroup)
      slots += count;
    return slots;
  }

  static MatmulSchedule decode(const ResolvedSchedule &s) {
    return {s.get(kTileM),
            s.get(kTileN),
            s.get(kTileK),
            s.get(kWavesM),
            s.get(kWavesN),
            MmaInstruction::parse(s.get(kMma)),
            s.get(kStages),
            s.get(kVectorWidth),
            s.get(kLdsPad),
            s.get(kLdsSwizzle),
            s.get(kUnroll),
            s.get(kGroupM),
            s.get(kSplitK),
            s.get(kSplitKReduce) == "workspace",
            s.get(kWgmmaPending),
            s.get(kPersistent),
            s.get(kEpilogueLds),
            s.getOr(kTf32Split, Tf32Split::Rna),
            s.getOr(kWgmmaPromote, false)};
  }
};

} // namespace mlir::hkg

#endif // HKG_DIALECT_HKG_IR_SCHEDULES_MATMULSCHEDULE_H
