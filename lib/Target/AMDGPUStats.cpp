//===- AMDGPUStats.cpp - registers, LDS and occupancy of AMD kernels ------===//
//
// Reads the `amdhsa.kernels` list from the NT_AMDGPU_METADATA note of a code
// object (msgpack, as llvm-readobj --notes decodes it) and computes the
// occupancy it implies.
//
// Occupancy rules (waves per SIMD; the smallest of the limits below). They
// follow LLVM's AMDGPU backend (AMDGPUBaseInfo.cpp: getVGPRAllocGranule,
// getTotalNumVGPRs, getMaxWavesPerEU; GCNSubtarget::getOccupancyWithNumSGPRs)
// and AMD's CDNA3/RDNA3 ISA guides, and agree with the `; Occupancy:` line
// llc prints for each chip in the table (checked in test/Target):
//
//  * Wave slots: 8 per SIMD on CDNA2/3/4 (gfx90a, gfx942, gfx950); 16 on
//    RDNA3/3.5/4 and gfx1250.
//  * VGPRs: waves = floor(file / alignTo(max(vgpr, 1), granule)).
//    CDNA2+: one unified 512-entry file of VGPRs and AGPRs per lane, granule
//    8; `.vgpr_count` already counts both (alignTo(arch, 4) + agpr).
//    RDNA3/3.5/4 (gfx1100, gfx1151, gfx1201, 1.5x register file): 1536
//    entries per lane in wave32, granule 24 (768 / 12 in wave64).
//    gfx1250: 1024 entries in wave32, granule 16.
//  * SGPRs: GFX9 (CDNA) has 800 per SIMD, allocated in granules of 16:
//    <=80 -> 10, <=88 -> 9, <=100 -> 8, <=112 -> 7, <=128 -> 6, <=144 -> 5,
//    <=168 -> 4, <=204 -> 3, <=256 -> 2, else 1 (then capped by the wave
//    slots). GFX10+ gives every wave its own SGPRs: no limit.
//  * LDS: workgroups per CU = floor(LDS per CU / LDS per workgroup); waves
//    per SIMD = workgroups * waves per workgroup / SIMDs (at least 1 when one
//    workgroup fits). CDNA: 4 SIMDs per CU sharing 64 KiB (160 KiB on
//    gfx950). RDNA in WGP mode (LLVM's default): 4 SIMD32s per WGP sharing
//    128 KiB (320 KiB on gfx1250).
//
//===----------------------------------------------------------------------===//

#include "hkg/Target/KernelStats.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir::hkg;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Metadata
//===----------------------------------------------------------------------===//

static unsigned getUInt(llvm::msgpack::MapDocNode &map, StringRef key) {
  auto it = map.find(key);
  if (it == map.end())
    return 0;
  llvm::msgpack::DocNode &node = it->second;
  if (node.getKind() == llvm::msgpack::Type::UInt)
    return node.getUInt();
  if (node.getKind() == llvm::msgpack::Type::Int)
    return node.getInt() < 0 ? 0 : node.getInt();
  return 0;
}

static std::string getString(llvm::msgpack::MapDocNode &map, StringRef key) {
  auto it = map.find(key);
  if (it == map.end() || it->second.getKind() != llvm::msgpack::Type::String)
    return "";
  return it->second.getString().str();
}

static bool getBool(llvm::msgpack::MapDocNode &map, StringRef key) {
  auto it = map.find(key);
  return it != map.end() &&
         it->second.getKind() == llvm::msgpack::Type::Boolean &&
         it->second.getBool();
}

/// Decodes one NT_AMDGPU_METADATA blob into `out`.
static llvm::Error
decodeMetadata(StringRef blob, llvm::SmallVectorImpl<AMDGPUKernelStats> &out) {
  llvm::msgpack::Document doc;
  if (!doc.readFromBlob(blob, /*Multi=*/false))
    return llvm::createStringError("hkg: malformed AMDGPU metadata note");
  if (doc.getRoot().getKind() != llvm::msgpack::Type::Map)
    return llvm::createStringError("hkg: AMDGPU metadata is not a map");
  llvm::msgpack::MapDocNode &root = doc.getRoot().getMap();
  auto kernels = root.find("amdhsa.kernels");
  if (kernels == root.end() ||
      kernels->second.getKind() != llvm::msgpack::Type::Array)
    return llvm::Error::success();
  for (llvm::msgpack::DocNode &node : kernels->second.getArray()) {
    if (node.getKind() != llvm::msgpack::Type::Map)
      continue;
    llvm::msgpack::MapDocNode &k = node.getMap();
    AMDGPUKernelStats s;
    s.name = getString(k, ".name");
    s.symbol = getString(k, ".symbol");
    s.vgprCount = getUInt(k, ".vgpr_count");
    s.sgprCount = getUInt(k, ".sgpr_count");
    s.agprCount = getUInt(k, ".agpr_count");
    s.groupSegmentBytes = getUInt(k, ".group_segment_fixed_size");
    s.privateSegmentBytes = getUInt(k, ".private_segment_fixed_size");
    s.vgprSpillCount = getUInt(k, ".vgpr_spill_count");
    s.sgprSpillCount = getUInt(k, ".sgpr_spill_count");
    s.wavefrontSize = getUInt(k, ".wavefront_size");
    s.maxFlatWorkgroupSize = getUInt(k, ".max_flat_workgroup_size");
    s.usesDynamicStack = getBool(k, ".uses_dynamic_stack");
    out.push_back(std::move(s));
  }
  return llvm::Error::success();
}

llvm::Expected<llvm::SmallVector<AMDGPUKernelStats>>
mlir::hkg::readAMDGPUKernelStats(StringRef codeObject) {
  using ELFT = llvm::object::ELF64LE;
  llvm::Expected<llvm::object::ELFFile<ELFT>> file =
      llvm::object::ELFFile<ELFT>::create(codeObject);
  if (!file)
    return file.takeError();
  if (file->getHeader().e_machine != llvm::ELF::EM_AMDGPU)
    return llvm::createStringError("hkg: not an AMDGPU code object");
  auto sections = file->sections();
  if (!sections)
    return sections.takeError();

  llvm::SmallVector<AMDGPUKernelStats> result;
  for (const ELFT::Shdr &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_NOTE)
      continue;
    llvm::Error err = llvm::Error::success();
    for (const ELFT::Note &note : file->notes(section, err)) {
      if (note.getName() != "AMDGPU" ||
          note.getType() != llvm::ELF::NT_AMDGPU_METADATA)
        continue;
      llvm::ArrayRef<uint8_t> desc = note.getDesc(section.sh_addralign);
      if (llvm::Error e = decodeMetadata(
              StringRef(reinterpret_cast<const char *>(desc.data()),
                        desc.size()),
              result)) {
        llvm::consumeError(std::move(err));
        return std::move(e);
      }
    }
    if (err)
      return std::move(err);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Occupancy
//===----------------------------------------------------------------------===//

namespace {
/// The per-generation constants of the occupancy rules above.
struct OccupancyRules {
  unsigned maxWavesPerSIMD;
  unsigned vgprFile;    // entries per lane for the wave size in use
  unsigned vgprGranule; // allocation granule for that wave size
  bool sgprLimited;     // GFX9 shared SGPR file
  unsigned simdsPerCU;  // SIMDs sharing one LDS (CU on CDNA, WGP on RDNA)
  unsigned ldsPerCU;    // bytes
};
} // namespace

/// Keyed by chip (not by TargetInfo's family names, which describe products)
/// so that the rules are exactly the ones checked against llc.
static llvm::Expected<OccupancyRules> getRules(const TargetInfo &target,
                                               unsigned waveSize) {
  StringRef chip = target.chip;
  bool wave32 = waveSize == 32;
  if (chip == "gfx90a" || chip == "gfx942")
    return OccupancyRules{8, 512, 8, true, 4, 64 * 1024};
  if (chip == "gfx950")
    return OccupancyRules{8, 512, 8, true, 4, 160 * 1024};
  // RDNA3/3.5/4 chips with the 1.5x VGPR file.
  if (llvm::is_contained(
          {"gfx1100", "gfx1101", "gfx1151", "gfx1200", "gfx1201"}, chip))
    return OccupancyRules{
        16, wave32 ? 1536u : 768u, wave32 ? 24u : 12u, false, 4, 128 * 1024};
  if (chip == "gfx1250")
    return OccupancyRules{
        16, wave32 ? 1024u : 512u, wave32 ? 16u : 8u, false, 4, 320 * 1024};
  return llvm::createStringError("hkg: no occupancy rules for '%s'",
                                 chip.str().c_str());
}

static unsigned wavesWithSGPRs(unsigned sgprs) {
  static constexpr std::pair<unsigned, unsigned> kSteps[] = {
      {80, 10}, {88, 9},  {100, 8}, {112, 7}, {128, 6},
      {144, 5}, {168, 4}, {204, 3}, {256, 2}};
  for (auto [limit, waves] : kSteps)
    if (sgprs <= limit)
      return waves;
  return 1;
}

llvm::Expected<Occupancy>
mlir::hkg::computeAMDGPUOccupancy(const TargetInfo &target,
                                  const AMDGPUKernelStats &stats,
                                  unsigned workgroupSize) {
  unsigned waveSize =
      stats.wavefrontSize ? stats.wavefrontSize : target.waveSize;
  llvm::Expected<OccupancyRules> rules = getRules(target, waveSize);
  if (!rules)
    return rules.takeError();

  Occupancy occ{rules->maxWavesPerSIMD, "waves"};
  auto limit = [&](unsigned waves, StringRef why) {
    if (waves < occ.wavesPerSIMD)
      occ = {waves, why};
  };
  unsigned vgprs =
      llvm::alignTo(std::max(stats.vgprCount, 1u), rules->vgprGranule);
  limit(std::max(rules->vgprFile / vgprs, 1u), "vgpr");
  if (rules->sgprLimited)
    limit(wavesWithSGPRs(stats.sgprCount), "sgpr");
  if (stats.groupSegmentBytes > 0 && workgroupSize > 0) {
    unsigned groups = rules->ldsPerCU / stats.groupSegmentBytes;
    unsigned wavesPerGroup = llvm::divideCeil(workgroupSize, waveSize);
    unsigned waves = groups * wavesPerGroup / rules->simdsPerCU;
    limit(groups == 0 ? 0 : std::max(waves, 1u), "lds");
  }
  return occ;
}
