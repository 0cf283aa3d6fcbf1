#!/usr/bin/env python3
"""Builds PTX for a list of hkg ops (hkg-default-schedule or a given schedule,
hkg-lower-to-gpu, the upstream NVVM pipeline) into out/, with cases.json
describing launch dims and arguments, for check_cases.py to run on a GPU."""
import json, os, re, subprocess, sys

HKG_OPT = os.environ.get("HKG_OPT", "build/bin/hkg-opt")
# HKG_INDEX_BITWIDTH=32: lower with 32-bit `index` every kernel that may use
# it (no nvgpu op, at most 2^30 elements per memref: hkg::canUse32BitIndices),
# to check 32-bit indexing on the GPU; the others (the GEMMs) are left out.
INDEX_BITWIDTH = int(os.environ.get("HKG_INDEX_BITWIDTH", "64"))
# CUDA's libdevice (LIBDEVICE, else the CUDA toolkit's or Debian's copy).
LIBDEVICE = os.environ.get("LIBDEVICE") or next(
    (p for p in ("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc",
                 "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc") if os.path.exists(p)),
    "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc")
NVVM = ("builtin.module(nvvm-attach-target{chip=sm_90 features=+ptx80 l=%s}, "
        "gpu.module(hkg-nvvm-arch-specific-target, convert-nvgpu-to-nvvm, convert-scf-to-cf, convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true}, "
        "hkg-nvvm-streaming-access, hkg-nvvm-dynamic-shared-memory, reconcile-unrealized-casts), gpu-module-to-binary{format=isa})" % LIBDEVICE)


def unescape(s):
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), s).replace("\\\\", "\\")


def build(name, mlir, ref, outdir):
    src = "module {\n%s\n}\n" % mlir
    lowered = subprocess.run([HKG_OPT, "--hkg-default-schedule=chip=sm_90", "--hkg-lower-to-gpu=chip=sm_90"],
                             input=src, capture_output=True, text=True, check=True).stdout
    blocks = [list(map(int, m.split(","))) for m in re.findall(r"known_block_size = array<i32: ([0-9, ]+)>", lowered)]
    grids = [list(map(int, m.split(","))) for m in re.findall(r"known_grid_size = array<i32: ([0-9, ]+)>", lowered)]
    scheds = re.findall(r"hkg.schedule = (#hkg.schedule<[^>]*>)", lowered)
    # Kernels with more than 48 KiB of LDS take it as dynamic shared memory.
    dyn = re.findall(r"hkg.dynamic_lds_bytes = (\d+)", lowered)
    pipeline = NVVM  # hkg-nvvm-arch-specific-target: sm_90a for wgmma kernels
    bits = 64
    if INDEX_BITWIDTH == 32 and "nvgpu." not in lowered and not re.search(r"memref<[^>]*\?", lowered) and all(
            eval("*".join(d.split("x")[:-1]) or "1") <= 1 << 30
            for d in re.findall(r"memref<((?:\d+x)*[a-z0-9]+)", lowered)):
        pipeline = NVVM.replace("use-bare-ptr-memref-call-conv=true", "use-bare-ptr-memref-call-conv=true index-bitwidth=32")
        bits = 32
    elif INDEX_BITWIDTH == 32:
        return None
    binary = subprocess.run([HKG_OPT, "--pass-pipeline=" + pipeline], input=lowered,
                            capture_output=True, text=True, check=True).stdout
    m = re.search(r'gpu.binary @(\w+) +\[#gpu.object<#nvvm.target<[^>]*>, (?:properties = \{[^}]*\}, )?(?:assembly = )?"((?:[^"\\]|\\.)*)"', binary)
    ptx = unescape(m.group(2))
    with open(os.path.join(outdir, name + ".ptx"), "w") as f:
        f.write(ptx)
    return {"name": name, "entry": m.group(1), "block": blocks[0], "grid": grids[0],
            "schedule": scheds[0], "ref": ref, "ptx": name + ".ptx", "index_bitwidth": bits,
            "dynamic_lds": int(dyn[0]) if dyn else 0}


def main():
    outdir = sys.argv[2] if len(sys.argv) > 2 else "out"
    os.makedirs(outdir, exist_ok=True)
    cases = json.load(open(sys.argv[1]))
    result = []
    for c in cases:
        try:
            case = build(c["name"], c["mlir"], c["ref"], outdir)
            if case is None:
                print("SKIPPED", c["name"], "(needs 64-bit indices)")
                continue
            result.append(case)
        except subprocess.CalledProcessError as e:
            print("REJECTED", c["name"], e.stderr.splitlines()[0][:300])
    json.dump(result, open(os.path.join(outdir, "cases.json"), "w"), indent=1)
    print("built", len(result), "cases")


if __name__ == "__main__":
    main()
