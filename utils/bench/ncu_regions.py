#!/usr/bin/env python3
"""Splits an Nsight Compute per-instruction page (ncu -i REP --page source
--csv --print-source sass) into the stretches between barriers (BAR,
cluster-barrier waits) and prints each stretch's share of the warp stall
samples and of the executed instructions, its most executed opcodes and its
top stall reasons: where a kernel's time goes, phase by phase.

    ncu_regions.py NCU_SOURCE.csv

Stretches under 1% of the samples are left out. Written for the top-p
profile of docs/perf 2026-12-03 (session 11).
"""
import csv
import re
import sys
rows = list(csv.reader(open(sys.argv[1])))
hdr = rows[1]; data = rows[2:]
iS = hdr.index("Warp Stall Sampling (All Samples)"); iE = hdr.index("Instructions Executed")
stall_cols = [i for i,h in enumerate(hdr) if h.startswith("stall_") and "Not Issued" not in h]
tot = sum(int(r[iS] or 0) for r in data); totE = sum(int(r[iE] or 0) for r in data)
print("total samples", tot, "executed", totE, "instrs", len(data))
reg = []; cur = None
def new(idx, r):
    return dict(start=idx, first=r[1].strip(), s=0, e=0, ops={}, stalls={})
cur = new(0, data[0])
for idx, r in enumerate(data):
    src = r[1].strip()
    op = re.sub(r"^@!?U?P\w+\s+", "", src).split()[0] if src else "?"
    cur["s"] += int(r[iS] or 0); cur["e"] += int(r[iE] or 0)
    key = op.split(".")[0]
    cur["ops"][key] = cur["ops"].get(key, 0) + int(r[iE] or 0)
    for i in stall_cols:
        v = int(r[i] or 0)
        if v: cur["stalls"][hdr[i][6:]] = cur["stalls"].get(hdr[i][6:], 0) + v
    if op.startswith("BAR") or op.startswith("UCGABAR_WAIT") or op.startswith("CCTL"):
        cur["end"] = idx; cur["last"] = src; reg.append(cur); cur = new(idx+1, r)
cur["end"] = len(data)-1; cur["last"]="END"; reg.append(cur)
for g in reg:
    if g["s"] < tot*0.01: continue
    top = sorted(g["ops"].items(), key=lambda x: -x[1])[:8]
    st = sorted(g["stalls"].items(), key=lambda x: -x[1])[:5]
    print(f"[{g['start']:4d}-{g['end']:4d}] {100*g['s']/tot:5.1f}% samples {100*g['e']/totE:5.1f}% instrs | ends {g['last'][:40]}")
    print("     ops:", ", ".join(f"{k}:{v//1000}k" for k,v in top))
    print("     stalls:", ", ".join(f"{k}:{100*v/tot:.1f}%" for k,v in st))
