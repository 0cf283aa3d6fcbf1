//===- TargetInfo.cpp - hkg's table of GPU targets ------------------------===//
//
// Each row cites its public sources; docs/Targets.md has the table with
// links, how derived numbers were computed, and what is uncertain. Peak rates
// are the vendors' dense (no-sparsity) figures for the named product; they
// are leads for roofline reports, not measurements. A value of 0 means "not
// published".
//
// Sources:
//  [LLVM]     LLVM AMDGPUUsage (processor table: wavefront size, LDS size,
//             VGPR/AGPR files), llvm.org/docs/AMDGPUUsage.html; LLVM 22's
//             AMDGPU backend (max 8 waves/SIMD with AGPRs, 16 on gfx11+).
//  [ROCM]     ROCm "GPU hardware specifications" table (CUs, wavefront size,
//             LDS, VGPR file), rocm.docs.amd.com/en/latest/reference/
//             gpu-arch-specs.html.
//  [MI250X]   AMD Instinct MI250X data sheet (220 CUs over 2 GCDs, 3.2 TB/s,
//             47.9 TF FP32 vector, 383 TF bf16); one GCD is one HIP device.
//  [MI300X]   AMD Instinct MI300X data sheet (304 CUs, 5.3 TB/s, 163.4 TF
//             FP32 vector, 1307.4 TF bf16 dense).
//  [MI355X]   AMD Instinct MI355X data sheet (256 CUs, 8 TB/s, 157.3 TF FP32
//             vector, 2.5 PF bf16 dense); CDNA4 ISA guide (160 KiB LDS).
//  [RX7900]   AMD Radeon RX 7900 XTX specifications (96 CUs, 960 GB/s,
//             61.4 TF FP32, 122.8 TF FP16/bf16 via WMMA).
//  [STRIX]    AMD Ryzen AI Max+ 395 / Radeon 8060S specifications (40 CUs,
//             256-bit LPDDR5X-8000 = 256 GB/s, 2.9 GHz). AMD publishes no
//             TFLOP/s figure: FP32 and bf16 are derived like the RX 7900
//             XTX's (40 CUs x 2.9 GHz x 256 FP32 and 512 WMMA FLOP/clk/CU).
//  [R9700]    AMD Radeon AI PRO R9700 specifications (64 CUs, 644.6 GB/s,
//             47.8 TF FP32, 191 TF FP16 dense).
//  [GFX1250]  LLVM 22 (gfx1250: wave32, 327680 bytes addressable LDS,
//             f16/bf16 WMMA is v_wmma_f32_16x16x32_*; s_set_vgpr_msb makes
//             1024 VGPRs addressable, llvm/llvm-project#156524); no product
//             data sheet was public when this table was written.
//  [A100]     NVIDIA A100 data sheet (SXM4 80GB: 2039 GB/s, 19.5 TF FP32,
//             312 TF bf16 dense) and CUDA C Programming Guide, compute
//             capability 8.0 (108 SMs, 163 KiB shared memory per block).
//  [H200]     NVIDIA H200 data sheet (SXM: 4.8 TB/s, 67 TF FP32, 989 TF bf16
//             dense) and CUDA C Programming Guide, compute capability 9.0
//             (132 SMs, 227 KiB shared memory per block; both read back on an
//             H200 with cudaGetDeviceProperties: 132 SMs, 232448 bytes
//             opt-in shared memory per block, 2048 threads per SM).
//
//===----------------------------------------------------------------------===//

#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir::hkg;

static constexpr llvm::StringLiteral kMfmaCdna2[] = {"mfma_16x16x16",
                                                     "mfma_32x32x8"};
static constexpr llvm::StringLiteral kMfmaCdna3[] = {"mfma_16x16x16",
                                                     "mfma_32x32x8"};
static constexpr llvm::StringLiteral kMfmaCdna4[] = {
    "mfma_16x16x16", "mfma_32x32x8", "mfma_16x16x32", "mfma_32x32x16"};
static constexpr llvm::StringLiteral kWmma[] = {"wmma_16x16x16"};
// gfx1250 has no 16x16x16 f16/bf16 WMMA; its f16/bf16 forms step K by 32.
static constexpr llvm::StringLiteral kWmmaGfx1250[] = {"wmma_16x16x32"};
// mma.sync m16n8k16 on 16-bit operands, and m16n8k8 on tf32 for f32
// operands split into two tf32 terms each (3xTF32, sm_80+).
static constexpr llvm::StringLiteral kMmaSync[] = {"mma_16x8x16",
                                                   "mma_16x8x8_tf32x3"};
// Hopper adds warpgroup MMA (sm_90a: the kernel's PTX targets sm_90a), on
// 16-bit operands and on f32 ones as 3xTF32.
static constexpr llvm::StringLiteral kMmaHopper[] = {
    "mma_16x8x16", "mma_16x8x8_tf32x3", "wgmma_64x128x16", "wgmma_64x256x16",
    "wgmma_64x128x8_tf32x3"};

// 8-bit operands: v_mfma_f32_16x16x32_{fp8,bf8}_{fp8,bf8} (and gfx950's
// v_mfma_f32_16x16x128_f8f6f4) and
// v_mfma_i32_16x16x32_i8 (gfx942, FNUZ formats; gfx950, OCP formats),
// v_mfma_i32_16x16x64_i8 (gfx950), v_wmma_f32_16x16x16_{fp8,bf8}_* and
// v_wmma_i32_16x16x16_iu8 (gfx11, gfx12); wgmma.mma_async m64nNk32 .e4m3 /
// .e5m2 (f32) and .s8 (s32) on sm_90a.
static constexpr llvm::StringLiteral kMfma8Bit[] = {"mfma_16x16x32"};
static constexpr llvm::StringLiteral kWgmma8Bit[] = {"wgmma_64x128x32",
                                                     "wgmma_64x256x32"};
static constexpr llvm::StringLiteral kMfmaI8Cdna4[] = {"mfma_16x16x64"};
// gfx950's double-rate 8-bit float form first (v_mfma_f32_16x16x128_f8f6f4,
// 32 bytes of K a lane), the gfx942 one beside it.
static constexpr llvm::StringLiteral kMfmaFp8Cdna4[] = {"mfma_16x16x128",
                                                        "mfma_16x16x32"};
static constexpr llvm::StringLiteral kWmma8BitGfx12[] = {"wmma_16x16x16"};
// gfx11 has the i8 WMMA (v_wmma_i32_16x16x16_iu8, inputs replicated in both
// half-waves as its 16-bit ones) and no 8-bit float format.
static constexpr llvm::StringLiteral kWmmaI8Gfx11[] = {"wmma_16x16x16"};

// clang-format off
static const TargetInfo kTargets[] = {
  // chip, vendor, family, product,
  //   wave, LDS bytes/WG, CUs, regs/lane, max threads/WG, waves/CU,
  //   matrix core, mma intrinsics, GB/s, FP32 TF, bf16 TF, source
  {"gfx90a", Vendor::AMD, "cdna2", "Instinct MI250X (one GCD)",
   64, 65536, 110, 512, 1024, 32,
   MatrixCoreKind::MFMA, kMfmaCdna2, 1638.4, 23.95, 191.5, "[LLVM] [ROCM] [MI250X]"},
  {"gfx942", Vendor::AMD, "cdna3", "Instinct MI300X",
   64, 65536, 304, 512, 1024, 32,
   MatrixCoreKind::MFMA, kMfmaCdna3, 5300.0, 163.4, 1307.4, "[LLVM] [ROCM] [MI300X]",
   Fp8Format::FNUZ, kMfma8Bit, kMfma8Bit},
  {"gfx950", Vendor::AMD, "cdna4", "Instinct MI355X",
   64, 163840, 256, 512, 1024, 32,
   MatrixCoreKind::MFMA, kMfmaCdna4, 8000.0, 157.3, 2500.0, "[LLVM] [ROCM] [MI355X]",
   Fp8Format::OCP, kMfmaFp8Cdna4, kMfmaI8Cdna4},
  {"gfx1100", Vendor::AMD, "rdna3", "Radeon RX 7900 XTX",
   32, 65536, 96, 256, 1024, 32,
   MatrixCoreKind::WMMA, kWmma, 960.0, 61.4, 122.8, "[LLVM] [ROCM] [RX7900]",
   Fp8Format::None, {}, kWmmaI8Gfx11},
  {"gfx1151", Vendor::AMD, "rdna3.5", "Radeon 8060S (Ryzen AI Max+ 395)",
   32, 65536, 40, 256, 1024, 32,
   MatrixCoreKind::WMMA, kWmma, 256.0, 29.7, 59.4, "[LLVM] [ROCM] [STRIX]",
   Fp8Format::None, {}, kWmmaI8Gfx11},
  {"gfx1201", Vendor::AMD, "rdna4", "Radeon AI PRO R9700",
   32, 65536, 64, 256, 1024, 32,
   MatrixCoreKind::WMMA, kWmma, 644.6, 47.8, 191.0, "[LLVM] [ROCM] [R9700]",
   Fp8Format::OCP, kWmma8BitGfx12, kWmma8BitGfx12},
  {"gfx1250", Vendor::AMD, "gfx12.5", "(no public product data)",
   32, 327680, 0, 1024, 1024, 32,
   MatrixCoreKind::WMMA, kWmmaGfx1250, 0.0, 0.0, 0.0, "[GFX1250]",
   Fp8Format::OCP},
  {"sm_80", Vendor::NVIDIA, "ampere", "A100 SXM4 80GB",
   32, 166912, 108, 255, 1024, 64,
   MatrixCoreKind::MmaSync, kMmaSync, 2039.0, 19.5, 312.0, "[A100]"},
  {"sm_90", Vendor::NVIDIA, "hopper", "H200 SXM",
   32, 232448, 132, 255, 1024, 64,
   MatrixCoreKind::MmaSync, kMmaHopper, 4800.0, 66.9, 989.4, "[H200]",
   Fp8Format::OCP, kWgmma8Bit, kWgmma8Bit},
};
// clang-format on

const TargetInfo *mlir::hkg::lookupTarget(llvm::StringRef chip) {
  for (const TargetInfo &t : kTargets)
    if (t.chip == chip)
      return &t;
  return nullptr;
}

llvm::ArrayRef<TargetInfo> mlir::hkg::getAllTargets() { return kTargets; }

std::string mlir::hkg::getKnownChipsString() {
  return llvm::join(llvm::map_range(kTargets,
                                    [](const TargetInfo &t) { return t.chip; }),
                    ", ");
}
