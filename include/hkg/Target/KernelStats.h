//===- KernelStats.h - static statistics of compiled kernels ----*- C++ -*-===//
//
// What a compiled kernel costs in registers, LDS, scratch and spills, and the
// occupancy that implies: read from an AMD code object's metadata note, or
// from `ptxas -v` for NVIDIA. These feed the bundle manifest, hkg-compile's
// report and the tuner's features.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TARGET_KERNELSTATS_H
#define HKG_TARGET_KERNELSTATS_H

#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::hkg {

/// One entry of an AMD code object's `amdhsa.kernels` metadata (the
/// NT_AMDGPU_METADATA note, see llvm.org/docs/AMDGPUUsage.html#code-object-
/// v3-metadata).
struct AMDGPUKernelStats {
  std::string name;       // .name
  std::string symbol;     // .symbol (the kernel descriptor, `<name>.kd`)
  unsigned vgprCount = 0; // .vgpr_count (on gfx90a+: VGPRs + AGPRs, unified)
  unsigned sgprCount = 0; // .sgpr_count (including VCC, flat scratch, XNACK)
  unsigned agprCount = 0; // .agpr_count
  unsigned groupSegmentBytes = 0;    // .group_segment_fixed_size (static LDS)
  unsigned privateSegmentBytes = 0;  // .private_segment_fixed_size (scratch)
  unsigned vgprSpillCount = 0;       // .vgpr_spill_count
  unsigned sgprSpillCount = 0;       // .sgpr_spill_count
  unsigned wavefrontSize = 0;        // .wavefront_size
  unsigned maxFlatWorkgroupSize = 0; // .max_flat_workgroup_size
  bool usesDynamicStack = false;     // .uses_dynamic_stack
};

/// Reads every kernel's metadata from an AMD code object (ELF bytes).
llvm::Expected<llvm::SmallVector<AMDGPUKernelStats>>
readAMDGPUKernelStats(llvm::StringRef codeObject);

/// Occupancy of one kernel: waves resident per SIMD, and what limits it.
struct Occupancy {
  unsigned wavesPerSIMD = 0;
  /// "vgpr", "sgpr", "lds" or "waves" (the hardware's wave-slot limit).
  llvm::StringRef limiter;
};

/// The occupancy `stats` implies on `target` for a workgroup of
/// `workgroupSize` threads. docs/ABI.md gives the rules per generation.
llvm::Expected<Occupancy> computeAMDGPUOccupancy(const TargetInfo &target,
                                                 const AMDGPUKernelStats &stats,
                                                 unsigned workgroupSize);

/// What `ptxas -v` reports for one entry function.
struct NVPTXKernelStats {
  std::string name;
  unsigned registers = 0;
  unsigned spillStoreBytes = 0;
  unsigned spillLoadBytes = 0;
  unsigned stackFrameBytes = 0;
  unsigned sharedBytes = 0;
};

/// Parses the `ptxas -v` log (its standard error).
llvm::SmallVector<NVPTXKernelStats> parsePtxasLog(llvm::StringRef log);

/// Runs `ptxas -v -arch=<chip>` on `ptx`; returns the cubin and fills
/// `stats` from the log.
llvm::Expected<std::string>
runPtxas(llvm::StringRef ptxas, llvm::StringRef chip, llvm::StringRef ptx,
         unsigned optLevel, llvm::SmallVectorImpl<NVPTXKernelStats> &stats);

} // namespace mlir::hkg

#endif // HKG_TARGET_KERNELSTATS_H
