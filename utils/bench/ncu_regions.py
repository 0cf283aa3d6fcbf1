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

BARRIERS = ("BAR", "UCGABAR_WAIT", "CCTL")


def opcode(source):
    """The opcode of a SASS line, without its predicate."""
    text = re.sub(r"^@!?U?P\w+\s+", "", source.strip())
    return text.split()[0] if text else "?"


def main(path):
    rows = list(csv.reader(open(path)))
    header, data = rows[1], rows[2:]
    samples_col = header.index("Warp Stall Sampling (All Samples)")
    executed_col = header.index("Instructions Executed")
    stall_cols = [i for i, h in enumerate(header) if h.startswith("stall_") and "Not Issued" not in h]

    def count(row, col):
        return int(row[col] or 0)

    total_samples = sum(count(r, samples_col) for r in data)
    total_executed = sum(count(r, executed_col) for r in data)
    print("total samples", total_samples, "executed", total_executed, "instrs", len(data))

    regions, current = [], None
    for idx, row in enumerate(data):
        if current is None:
            current = dict(start=idx, samples=0, executed=0, ops={}, stalls={})
        op = opcode(row[1])
        current["samples"] += count(row, samples_col)
        current["executed"] += count(row, executed_col)
        key = op.split(".")[0]
        current["ops"][key] = current["ops"].get(key, 0) + count(row, executed_col)
        for col in stall_cols:
            if count(row, col):
                name = header[col][len("stall_"):]
                current["stalls"][name] = current["stalls"].get(name, 0) + count(row, col)
        if op.startswith(BARRIERS) or idx == len(data) - 1:
            current["end"], current["last"] = idx, row[1].strip() if idx < len(data) - 1 else "END"
            regions.append(current)
            current = None

    for g in regions:
        if g["samples"] < total_samples * 0.01:
            continue
        ops = sorted(g["ops"].items(), key=lambda x: -x[1])[:8]
        stalls = sorted(g["stalls"].items(), key=lambda x: -x[1])[:5]
        print(f"[{g['start']:4d}-{g['end']:4d}] {100 * g['samples'] / total_samples:5.1f}% samples "
              f"{100 * g['executed'] / total_executed:5.1f}% instrs | ends {g['last'][:40]}")
        print("     ops:", ", ".join(f"{k}:{v // 1000}k" for k, v in ops))
        print("     stalls:", ", ".join(f"{k}:{100 * v / total_samples:.1f}%" for k, v in stalls))


if __name__ == "__main__":
    main(sys.argv[1])
