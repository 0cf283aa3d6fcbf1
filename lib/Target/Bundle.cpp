//===- Bundle.cpp - write kernel bundles and their manifest ---------------===//
//
// manifest.json (docs/ABI.md):
//   { "hkg_version", "target", "format", ("host_ops",) ("plans",)
//     "kernels": [ { "name", "op", "binary", "entry", "grid", "block",
//                    ("cluster",)
//                    "lds_bytes", ("dynamic_lds_bytes",) "schedule", "args",
//                    "source", "stats", "compile_ms" } ] }
//
//===----------------------------------------------------------------------===//

#include "hkg/Runtime/Bundle.h"
#include "hkg/Target/Bundle.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::hkg;

std::string mlir::hkg::getDTypeName(Type elementType) {
  std::string name;
  llvm::raw_string_ostream(name) << elementType;
  return name;
}

static std::string getBinaryName(const Bundle &bundle,
                                 const CompiledKernel &kernel) {
  return kernel.name + "." + bundle.format;
}

static std::string getISAName(const Bundle &bundle,
                              const CompiledKernel &kernel) {
  bool amd = bundle.format == "hsaco";
  return kernel.name + (amd ? ".s" : ".ptx");
}

static void writeMembers(llvm::json::OStream &json,
                         const JSONMembers &members) {
  json.object([&] {
    for (const auto &[key, value] : members)
      json.attribute(key, value);
  });
}

static void writeDims(llvm::json::OStream &json, llvm::StringRef key,
                      const std::array<int64_t, 3> &dims) {
  json.attributeArray(key, [&] {
    for (int64_t d : dims)
      json.value(d);
  });
}

void mlir::hkg::writeManifest(const Bundle &bundle, llvm::raw_ostream &os) {
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("hkg_version", ::hkg::rt::kBundleVersion);
    json.attribute("target", bundle.target);
    json.attribute("format", bundle.format);
    // hkg-compile --allow-host-ops: what the caller computes itself.
    if (!bundle.hostOps.empty())
      json.attributeArray("host_ops", [&] {
        for (const auto &[op, loc] : bundle.hostOps)
          json.object([&, &op = op, &loc = loc] {
            json.attribute("op", op);
            json.attribute("loc", loc);
          });
      });
    // The functions' launch plans (docs/ABI.md, "Launch plan"); none for a
    // module of gpu kernels only.
    if (!bundle.plans.empty())
      json.attributeArray("plans", [&] {
        for (const LaunchPlan &plan : bundle.plans)
          writeLaunchPlan(json, plan);
      });
    json.attributeArray("kernels", [&] {
      for (const CompiledKernel &k : bundle.kernels) {
        json.object([&] {
          json.attribute("name", k.name);
          json.attribute("op", k.op);
          json.attribute("binary", getBinaryName(bundle, k));
          json.attribute("entry", k.entry);
          if (k.gridX) {
            json.attributeArray("grid", [&] {
              json.value(nullptr);
              json.value(k.grid[1]);
              json.value(k.grid[2]);
            });
            json.attributeObject("grid_x", [&] {
              json.attribute("mul", (*k.gridX)[0]);
              json.attribute("div", (*k.gridX)[1]);
              json.attribute("times", (*k.gridX)[2]);
            });
            json.attributeArray("sizes", [&] {
              for (const std::pair<int64_t, int64_t> &where : k.sizes)
                json.object([&] {
                  json.attribute("arg", where.first);
                  json.attribute("dim", where.second);
                });
            });
          } else {
            writeDims(json, "grid", k.grid);
          }
          writeDims(json, "block", k.block);
          if (k.cluster != std::array<int64_t, 3>{1, 1, 1})
            writeDims(json, "cluster", k.cluster);
          json.attribute("lds_bytes", k.ldsBytes);
          if (k.dynamicLdsBytes != 0)
            json.attribute("dynamic_lds_bytes", k.dynamicLdsBytes);
          json.attributeBegin("schedule");
          writeMembers(json, k.schedule);
          json.attributeEnd();
          json.attributeArray("args", [&] {
            for (const KernelArg &arg : k.args)
              json.object([&] {
                json.attribute("role", arg.role);
                json.attribute("dtype", arg.dtype);
                json.attributeArray("shape", [&] {
                  for (auto [d, extent] : llvm::enumerate(arg.shape)) {
                    int64_t param =
                        arg.sizeParams.empty() ? -1 : arg.sizeParams[d];
                    if (param < 0)
                      json.value(extent);
                    else
                      json.object([&] { json.attribute("size", param); });
                  }
                });
              });
          });
          json.attribute("source", k.source);
          json.attributeBegin("stats");
          writeMembers(json, k.stats);
          json.attributeEnd();
          // Two decimals (json::Value would print 17 significant digits).
          json.attributeBegin("compile_ms");
          json.rawValue(llvm::formatv("{0:F2}", k.compileMs).str());
          json.attributeEnd();
          json.attributeBegin("compile_cpu_ms");
          json.rawValue(llvm::formatv("{0:F2}", k.compileCpuMs).str());
          json.attributeEnd();
          if (k.indexBitwidth)
            json.attribute("index_bitwidth", int64_t(k.indexBitwidth));
        });
      }
    });
  });
  os << "\n";
}

static llvm::Error writeFile(llvm::StringRef path, llvm::StringRef bytes,
                             bool text) {
  std::error_code ec;
  llvm::ToolOutputFile out(
      path, ec, text ? llvm::sys::fs::OF_Text : llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError(ec, "hkg: cannot write '%s': %s",
                                   path.str().c_str(), ec.message().c_str());
  out.os() << bytes;
  out.os().close();
  if (out.os().has_error())
    return llvm::createStringError(out.os().error(), "hkg: cannot write '%s'",
                                   path.str().c_str());
  out.keep();
  return llvm::Error::success();
}

llvm::Error mlir::hkg::writeBundle(const Bundle &bundle, llvm::StringRef dir,
                                   bool emitIsa) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(ec, "hkg: cannot create '%s': %s",
                                   dir.str().c_str(), ec.message().c_str());
  auto pathOf = [&](llvm::StringRef name) {
    llvm::SmallString<256> p(dir);
    llvm::sys::path::append(p, name);
    return std::string(p);
  };
  for (const CompiledKernel &k : bundle.kernels) {
    if (llvm::Error err = writeFile(pathOf(getBinaryName(bundle, k)), k.binary,
                                    /*text=*/bundle.format == "ptx"))
      return err;
    if (emitIsa && bundle.format != "ptx")
      if (llvm::Error err =
              writeFile(pathOf(getISAName(bundle, k)), k.isa, /*text=*/true))
        return err;
  }
  std::string manifest;
  llvm::raw_string_ostream os(manifest);
  writeManifest(bundle, os);
  return writeFile(pathOf("manifest.json"), manifest, /*text=*/true);
}

static std::string lookup(const JSONMembers &members, llvm::StringRef key) {
  for (const auto &[k, v] : members)
    if (k == key) {
      std::string s;
      llvm::raw_string_ostream os(s);
      if (auto str = v.getAsString())
        os << *str;
      else
        os << v;
      return s;
    }
  return "-";
}

static std::string formatDims(const std::array<int64_t, 3> &d) {
  return llvm::formatv("{0}x{1}x{2}", d[0], d[1], d[2]).str();
}

void mlir::hkg::printReport(const Bundle &bundle, llvm::raw_ostream &os) {
  bool amd = bundle.format == "hsaco";
  os << llvm::formatv("hkg-compile: {0} kernel(s) for {1} ({2})\n",
                      bundle.kernels.size(), bundle.target, bundle.format);
  const char *header = "{0,-22} {1,-16} {2,-10} {3,-10} {4,-14} {5,7} {6,7} "
                       "{7,7} {8,-10} {9,10} {10,7}\n";
  os << llvm::formatv(header, "kernel", "op", "grid", "block",
                      amd ? "vgpr/sgpr/agpr" : "registers", "lds", "scratch",
                      "spills", "occupancy", "compile_ms", "cpu_ms");
  for (const CompiledKernel &k : bundle.kernels) {
    const JSONMembers &s = k.stats;
    std::string regs, scratch, spills, occ;
    if (amd) {
      regs =
          lookup(s, "vgpr") + "/" + lookup(s, "sgpr") + "/" + lookup(s, "agpr");
      scratch = lookup(s, "scratch_bytes");
      spills = lookup(s, "vgpr_spill") + "+" + lookup(s, "sgpr_spill");
      occ = lookup(s, "occupancy_waves_per_simd") + " (" +
            lookup(s, "occupancy_limiter") + ")";
    } else {
      regs = lookup(s, "registers");
      scratch = lookup(s, "stack_bytes");
      spills = lookup(s, "spill_bytes");
      occ = "-";
    }
    os << llvm::formatv(
        header, k.name, k.op.empty() ? "-" : k.op,
        k.gridX ? llvm::formatv("?x{0}x{1}", k.grid[1], k.grid[2]).str()
                : formatDims(k.grid),
        formatDims(k.block), regs, k.ldsBytes + k.dynamicLdsBytes, scratch,
        spills, occ, llvm::formatv("{0:F2}", k.compileMs).str(),
        llvm::formatv("{0:F1}", k.compileCpuMs).str());
  }
  os << llvm::formatv("hkg ops -> gpu kernels: {0:F2} ms\n", bundle.frontMs);
}
