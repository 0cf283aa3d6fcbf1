#!/usr/bin/env python3
"""Regenerates the schedule in every `// CHECK: hkg.<op> {{.*}} {schedule = ...}`
line of test/Dialect/Hkg/default-schedule-<chip>.mlir from what
hkg-default-schedule prints now (like LLVM's update_test_checks.py). Run it
after an intended change of a default schedule, then read the diff: every
changed line is a changed default.

    python3 utils/update_default_schedule_tests.py [build/bin/hkg-opt]
"""
import glob
import os
import re
import subprocess
import sys

root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
opt = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build", "bin", "hkg-opt")
inputs = os.path.join(root, "test", "Dialect", "Hkg", "Inputs", "all-ops.mlir")
for path in sorted(glob.glob(os.path.join(root, "test", "Dialect", "Hkg", "default-schedule-*.mlir"))):
    m = re.match(r"default-schedule-(.+)\.mlir", os.path.basename(path))
    chip = m.group(1)
    out = subprocess.run([opt, inputs, f"--hkg-default-schedule=chip={chip}"], capture_output=True, text=True)
    if out.returncode != 0:
        continue  # not a per-chip file over all-ops.mlir (e.g. -errors, -families)
    scheds = {}
    func = None
    for line in out.stdout.splitlines():
        f = re.search(r"func\.func @(\w+)\(", line)
        if f:
            func = f.group(1)
        s = re.search(r"(hkg\.\w+) .*(\{schedule = #hkg\.schedule<[^>]*>\})", line)
        if s and func:
            scheds.setdefault(func, []).append(s.group(2))
    lines = open(path).read().split("\n")
    func, k, changed = None, 0, 0
    for i, line in enumerate(lines):
        f = re.search(r"CHECK-LABEL: func\.func @(\w+)\(", line)
        if f:
            func, k = f.group(1), 0
            continue
        if func and re.search(r"// CHECK: hkg\.\w+ .*\{schedule = #hkg\.schedule<", line) and k < len(scheds.get(func, [])):
            new = re.sub(r"\{schedule = #hkg\.schedule<[^>]*>\}", scheds[func][k], line)
            changed += new != line
            lines[i] = new
            k += 1
    open(path, "w").write("\n".join(lines))
    print(f"{os.path.basename(path)}: {changed} line(s) changed")
