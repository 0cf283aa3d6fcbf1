#!/usr/bin/env python3
"""Summary of utils/tuning/tune_perf_ops.sh: one markdown table over the ops.

For each op directory under --ops (made by tune_perf_ops.sh: signature.txt,
default.json, wall_s, state), reads the tuning database export (--records,
`hkg-tune export` format) and prints: trials in the database, the default
schedule's time, the tuned (fastest ok) time and schedule, the speed-up, the
statuses, and the wall time spent tuning. Only `ok` records (checked against
the reference by the worker) count as times; a wrong, faulting or
non-compiling candidate never wins.

    perf_summary.py --records records.jsonl --ops DIR [--budget 64] [op ...]
    perf_summary.py --estimate --records records.jsonl --ops DIR --budget 64 op ...

--estimate prints the trials each op still needs (the budget minus its
records) and a time estimate from a seconds-per-trial guess made from the
op's tensor sizes (override with --seconds-per-trial OP=S).
"""
import argparse
import collections
import json
import os
import re
import sys

# Seconds per trial on the H200 machine, a guess (docs/Tuning.md): a fixed
# part (compile in hkg-tune with ptxas, a fresh hkg-run worker, its CUDA
# context and PTX JIT, warm-up and timed launches) plus a part per tensor
# element of the op's operands and result (random inputs made and the output
# checked on the host, the float64 reference), plus the matmul reference
# (capped by hkg-run at 8e9 multiply-adds over the host's threads). Measured
# here on the fake device: 45 ns per element for making the inputs alone.
FIXED_SECONDS = 1.0
SECONDS_PER_ELEMENT = 40e-9
MATMUL_REFERENCE_SECONDS = 1.5


def seconds_per_trial(signature):
    """The guess above for one trial of the op whose signature is given."""
    m = re.search(r"function_type = \((.*?)\) -> (.*?), sym_name", signature)
    types = (m.group(1) + "," + m.group(2)) if m else ""
    elements = 0
    for shape in re.findall(r"tensor<([0-9x]+)x[a-z]", types):
        n = 1
        for d in shape.split("x"):
            n *= int(d)
        elements += n
    s = FIXED_SECONDS + SECONDS_PER_ELEMENT * elements
    if '"hkg.matmul"' in signature:
        s += MATMUL_REFERENCE_SECONDS
    return s


def knob_key(schedule):
    return ",".join(f"{k}={schedule[k]}" for k in sorted(schedule))


def read_text(path, default=""):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


def load_records(path):
    by_signature = collections.defaultdict(list)
    if not path or not os.path.exists(path):
        return by_signature
    with open(path) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                by_signature[(r["signature"], r["target"])].append(r)
    return by_signature


def op_records(records, ops_dir, op, chip):
    signature = read_text(os.path.join(ops_dir, op, "signature.txt"))
    return records.get((signature, chip), [])


def fmt_us(us):
    return "-" if us is None else f"{us:.2f} us"


def read_confirmation(path):
    """The confirmation of `hkg-tune tune`'s report JSON (one op per file
    here): (default median, winner median, speed-up, winner schedule,
    measurements), or None when the report has none."""
    try:
        with open(path) as f:
            ops = json.load(f).get("ops", [])
    except (OSError, ValueError):
        return None
    if not ops or not ops[0].get("finalists"):
        return None
    op = ops[0]
    finalists = op["finalists"]
    default = next((f for f in finalists if f["default"]), None)
    winner = next((f for f in finalists if f["schedule"] == op.get("winner")), None)
    return {
        "default_us": default["median_us"] if default else None,
        "winner_us": winner["median_us"] if winner else None,
        "speedup": op.get("confirmed_speedup"),
        "winner": op.get("winner"),
        "measurements": op.get("confirm_measurements", 0),
        "copy_us": op.get("copy_us"),
        "default_of_copy": op.get("default_fraction_of_copy"),
        "winner_of_copy": op.get("winner_fraction_of_copy"),
    }


def fmt_copy(c):
    """`67.50 us (98.1% / 98.3%)`: the copy moving the op's bytes and the
    default's and winner's speeds as shares of its speed."""
    if not c or c.get("copy_us") is None:
        return "-"
    share = lambda f: f"{100 * f:.1f}%" if f is not None else "-"
    return (f"{fmt_us(c['copy_us'])} ({share(c['default_of_copy'])} / "
            f"{share(c['winner_of_copy'])})")


def summarize(args, ops):
    records = load_records(args.records)
    rows = []
    total_wall = 0.0
    for op in ops:
        d = os.path.join(args.ops, op)
        recs = op_records(records, args.ops, op, args.chip)
        default = read_text(os.path.join(d, "default.json"))
        default_key = knob_key(json.loads(default)) if default else None
        ok = [r for r in recs if r["status"] == "ok" and r["median_us"] is not None]
        best = min(ok, key=lambda r: r["median_us"]) if ok else None
        default_us = None
        for r in ok:
            if knob_key(r["schedule"]) == default_key:
                default_us = r["median_us"]
        statuses = collections.Counter(r["status"] for r in recs)
        wall = sum(float(x) for x in read_text(os.path.join(d, "wall_s")).split())
        total_wall += wall
        speedup = (f"{default_us / best['median_us']:.2f}x"
                   if best and default_us else "-")
        c = read_confirmation(os.path.join(args.reports, op, "report.json"))
        if c:
            confirmed = [fmt_us(c["default_us"]), fmt_us(c["winner_us"]),
                         f"**{c['speedup']:.3f}x**" if c["speedup"] else "-",
                         "(the default)" if c["winner"] and c["winner"] == (
                             knob_key(json.loads(default)) if default else None)
                         else f"`{c['winner']}`" if c["winner"] else "-",
                         str(c["measurements"])]
        else:
            confirmed = ["-", "-", "-",
                         f"`{knob_key(best['schedule'])}`" if best else "-", "0"]
        rows.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.0f} s | {} |".format(
            op, read_text(os.path.join(d, "state"), "not run"), len(recs),
            fmt_us(default_us), fmt_us(best["median_us"]) if best else "-",
            speedup, " | ".join(confirmed), fmt_copy(c),
            ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())) or "-",
            wall, f"[report]({op}/report.md)"
            if os.path.exists(os.path.join(args.reports, op, "report.md"))
            else "-"))
    print(f"# hkg-tune on the PERF.md ops ({args.chip}, budget {args.budget} "
          "trials per op)\n")
    print("Times are medians of the worker's timed launches on a cold L2; "
          "only candidates that passed the check against the float64 "
          "reference (`ok`) are timed or can win. search: the trials' own "
          "timings (the fastest of many noisy timings is biased low); "
          "confirmed: the default and the fastest candidates re-measured in "
          "rotating rounds after the search, median of those (hkg-tune's "
          "confirmation), and the winner is the lowest of them. copy: "
          "device-to-device copies moving the op's bytes, timed with every "
          "candidate the same way (median), and the confirmed default's and "
          "winner's speeds as shares of the copy's.\n")
    print("| op | state | trials | default (search) | fastest (search) "
          "| search speed-up | default (confirmed) | winner (confirmed) "
          "| confirmed speed-up | winner | confirm measurements "
          "| copy (default / winner) | statuses "
          "| tuning wall time | report |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(row)
    print(f"\nTotal tuning wall time (summed over ops): {total_wall:.0f} s.")


def estimate(args, ops):
    records = load_records(args.records)
    per_trial = {}
    for item in args.seconds_per_trial:
        name, value = item.split("=")
        per_trial[name] = float(value)
    total = 0.0
    for op in ops:
        done = len(op_records(records, args.ops, op, args.chip))
        left = max(0, args.budget - done)
        signature = read_text(os.path.join(args.ops, op, "signature.txt"))
        s = per_trial.get(op, seconds_per_trial(signature))
        total += left * s
        print(f"  {op:12s} {done:3d} trial(s) in the database, {left:3d} to go "
              f"x ~{s:.1f} s = ~{left * s:.0f} s")
    print(f"  estimate: ~{total:.0f} s ({total / 60:.1f} min) for "
          f"{len(ops)} op(s)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--records", required=True)
    p.add_argument("--ops", required=True, help="tune_perf_ops.sh's ops directory")
    p.add_argument("--reports", default=".",
                   help="directory with <op>/report.md (the links are relative to it)")
    p.add_argument("--chip", default="sm_90")
    p.add_argument("--budget", type=int, default=64)
    p.add_argument("--estimate", action="store_true")
    p.add_argument("--seconds-per-trial", action="append", default=[],
                   metavar="OP=S")
    p.add_argument("op", nargs="*")
    args = p.parse_args()
    ops = args.op or sorted(
        e for e in os.listdir(args.ops) if os.path.isdir(os.path.join(args.ops, e)))
    (estimate if args.estimate else summarize)(args, ops)


if __name__ == "__main__":
    sys.exit(main())
