#!/usr/bin/env python3
"""A seeded mutation campaign over hkg's tools (issue 23).

Mutates the .mlir, manifest.json and .jsonl inputs of examples/ and test/ and
runs each mutant through the tool that reads it:

  .mlir          one of hkg-opt --hkg-default-schedule --hkg-to-rocdl, the
                 same with --hkg-to-nvvm,
                 hkg-compile --chip=gfx942, hkg-compile --chip=sm_90 (in turn)
  manifest.json  hkg-run on a copy of the bundle with no GPU, and (every
                 other mutant) with the fake CUDA library of
                 test/Runtime/FakeCuda when it is built
  .jsonl         hkg-tune import into a fresh database, and (every other
                 mutant) hkg-tune-eval

and reports every run that ends in a signal or an exit status >= 128 (crash),
runs past --timeout seconds (hang), or fails without a diagnostic (a non-zero
exit with no "error" in its output, nor a FAIL/CRASH/TIMEOUT verdict of
hkg-run's kernel table). A failure with a diagnostic is the expected
answer to a bad input. Findings are copied to --out with the command line.

  utils/hardening/mutation_campaign.py --count 5000 --jobs 2 --seed 1 \\
      --out /tmp/campaign

The generator is deterministic: input i of seed s is the same on every run
(--start skips ahead, to resume or to replay one input). Python stdlib only.
"""

import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

INTERESTING_INTS = [0, 1, -1, 2, 3, 7, 31, 32, 33, 63, 64, 65, 127, 128, 255,
                    256, 1023, 1024, 1025, 4096, 65535, 65536, 2147483647,
                    2147483648, 4294967295, 4294967296, 1099511627776,
                    9223372036854775807, 9223372036854775808,
                    -9223372036854775808, 18446744073709551616]
ELEMENT_TYPES = ["f16", "bf16", "f32", "f64", "i1", "i8", "i32", "i64",
                 "index", "f8E4M3FN", "f8E5M2", "complex<f32>", "i3",
                 "vector<4xf32>", "none"]
MLIR_TOKENS = ["{", "}", "(", ")", "[", "]", "<", ">", ",", ":", "->", "=",
               "%0", "%arg0", "^bb0", "\"", "#hkg.schedule<>", "dense<1.0>",
               "tensor<?x?xf32>", "memref<4xf32>", "vector<1099511627776xf32>",
               "gpu.module", "gpu.func", "func.func", "hkg.matmul",
               "hkg.softmax", "kernel", "module {", "}", "0x7FF", "1e309",
               "-0.0", "nan", "inf", "unit", "@sym", "#gpu.address_space<workgroup>"]
JSON_STRINGS = ["", "..", "../../etc/passwd", "/etc/passwd", "a" * 300,
                "\u00ff\u0000", "hsaco", "ptx", "cubin", "gfx942", "sm_90",
                "sm_100", "input", "output", "scalar", "f32", "bf16", "i64",
                "ok", "fault", "hkg.softmax", "\"hkg.matmul\"", "%"]


# --------------------------------------------------------------------------
# Mutators
# --------------------------------------------------------------------------

def mutate_text(rng, text, tokens):
    """One byte- or line-level change; shared by every format."""
    lines = text.split("\n")
    kind = rng.randrange(12)
    if kind == 0 and len(lines) > 1:  # delete a line
        del lines[rng.randrange(len(lines))]
    elif kind == 1:  # duplicate a line
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif kind == 2 and len(lines) > 1:  # swap two lines
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 3:  # truncate
        return text[:rng.randrange(len(text) + 1)]
    elif kind == 4 and text:  # flip a byte
        i = rng.randrange(len(text))
        return text[:i] + chr(rng.randrange(32, 127)) + text[i + 1:]
    elif kind == 5:  # insert a token
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice(tokens) + text[i:]
    elif kind == 6 and text:  # delete a span
        i = rng.randrange(len(text))
        return text[:i] + text[i + rng.randrange(1, 40):]
    elif kind == 7:  # replace a number
        nums = list(re.finditer(r"-?\d+", text))
        if nums:
            m = rng.choice(nums)
            return text[:m.start()] + str(rng.choice(INTERESTING_INTS)) + text[m.end():]
    elif kind == 8:  # deep nesting (past the tools' limit, or just under)
        depth = rng.choice([50, 999, 1001, 5000, 100000])
        opener = rng.choice(["[", "{", "(", "<", "module {", "[[", "tensor<"])
        i = rng.randrange(len(text) + 1)
        return text[:i] + opener * depth + text[i:]
    elif kind == 9 and text:  # splice a chunk of the text elsewhere
        i, j = sorted((rng.randrange(len(text)), rng.randrange(len(text))))
        k = rng.randrange(len(text) + 1)
        return text[:k] + text[i:j][:2000] + text[k:]
    elif kind == 10 and text:  # repeat a chunk many times (size)
        i = rng.randrange(len(text))
        return text[:i] + text[i:i + 30] * rng.choice([10, 1000]) + text[i:]
    else:  # a random byte anywhere, including non-ASCII and NUL
        i = rng.randrange(len(text) + 1)
        return text[:i] + chr(rng.choice([0, 1, 0x7f, 0xff, 0x2028, ord("\\")])) + text[i:]
    return "\n".join(lines)


SHAPE_DIMS = [1, 2, 3, 5, 7, 8, 13, 17, 31, 33, 64, 100, 127, 129, 1000,
              4097, 65537, 2147483648, 1099511627776]


def mutate_mlir(rng, text):
    kind = rng.randrange(9)
    if kind in (6, 7):  # one dim size, everywhere (types stay consistent)
        dims = sorted(set(re.findall(r"(?<=[<x])(\d+)(?=x)", text)))
        if dims:
            old = rng.choice(dims)
            new = str(rng.choice(SHAPE_DIMS))
            return re.sub(r"(?<=[<x])%s(?=[x>])" % old, new, text)
    elif kind == 8:  # one element type, everywhere
        types = sorted(set(re.findall(r"x(f16|bf16|f32|f64|i8|i32|i64)>", text)))
        if types:
            old = rng.choice(types)
            return re.sub(r"x%s>" % old, "x%s>" % rng.choice(ELEMENT_TYPES[:9]), text)
    if kind == 0:  # a shape
        shapes = list(re.finditer(r"(tensor|memref|vector)<([0-9?x]+)x", text))
        if shapes:
            m = rng.choice(shapes)
            dims = "x".join(str(rng.choice(INTERESTING_INTS[:20] + [1099511627776, 0]))
                            for _ in range(rng.randrange(1, 5)))
            return text[:m.start(2)] + dims + text[m.end(2):]
    elif kind == 1:  # an element type
        types = list(re.finditer(r"x(f16|bf16|f32|f64|i1|i8|i32|i64|index)>", text))
        if types:
            m = rng.choice(types)
            return text[:m.start(1)] + rng.choice(ELEMENT_TYPES) + text[m.end(1):]
    elif kind == 2:  # a schedule knob value
        knobs = list(re.finditer(r"(\w+) = (\d+)", text))
        if knobs:
            m = rng.choice(knobs)
            return text[:m.start(2)] + str(rng.choice(INTERESTING_INTS)) + text[m.end(2):]
    elif kind == 3:  # an attribute string
        strs = list(re.finditer(r'"([a-z_0-9.]+)"', text))
        if strs:
            m = rng.choice(strs)
            return text[:m.start(1)] + rng.choice(JSON_STRINGS[:12]) + text[m.end(1):]
    return mutate_text(rng, text, MLIR_TOKENS)


def mutate_json_value(rng, v, depth=0):
    """A structural change somewhere in a JSON value."""
    if isinstance(v, dict) and v and rng.random() < 0.8:
        k = rng.choice(list(v))
        r = rng.randrange(5)
        if r == 0:
            del v[k]
        elif r == 1:
            v[k] = random_json(rng)
        elif r == 2:
            v[rng.choice(JSON_STRINGS)] = random_json(rng)
        else:
            v[k] = mutate_json_value(rng, v[k], depth + 1)
        return v
    if isinstance(v, list) and v and rng.random() < 0.8:
        i = rng.randrange(len(v))
        r = rng.randrange(5)
        if r == 0:
            del v[i]
        elif r == 1:
            v.append(v[i])
        elif r == 2:
            v[i] = random_json(rng)
        else:
            v[i] = mutate_json_value(rng, v[i], depth + 1)
        return v
    return random_json(rng)


def random_json(rng):
    r = rng.randrange(8)
    if r == 0:
        return rng.choice(INTERESTING_INTS)
    if r == 1:
        return rng.choice([0.5, -1.5, 1e308, -1e308, 5e-324, 1e-9])
    if r == 2:
        return rng.choice(JSON_STRINGS)
    if r == 3:
        return rng.choice([True, False, None])
    if r == 4:
        return [rng.choice(INTERESTING_INTS) for _ in range(rng.randrange(5))]
    if r == 5:
        return {}
    if r == 6:
        return []
    return {"x": rng.choice(INTERESTING_INTS)}


def mutate_json(rng, text):
    if rng.random() < 0.6:
        try:
            v = json.loads(text)
            for _ in range(rng.randrange(1, 4)):
                v = mutate_json_value(rng, v)
            return json.dumps(v, indent=1)
        except (ValueError, RecursionError):
            pass
    return mutate_text(rng, text, ["{", "}", "[", "]", ",", ":", "\"", "null",
                                   "1e999", "-0", "\"\\u0000\""])


def mutate_jsonl(rng, text):
    lines = [l for l in text.split("\n") if l.strip()]
    if lines and rng.random() < 0.7:
        i = rng.randrange(len(lines))
        try:
            v = json.loads(lines[i])
            r = rng.randrange(3)
            if r == 0 and isinstance(v, dict) and "signature" in v:
                v["signature"] = mutate_mlir(rng, v["signature"])
            elif r == 1 and isinstance(v, dict) and isinstance(v.get("schedule"), dict):
                v["schedule"] = mutate_json_value(rng, v["schedule"])
            else:
                v = mutate_json_value(rng, v)
            lines[i] = json.dumps(v)
            return "\n".join(lines) + "\n"
        except (ValueError, RecursionError):
            pass
    return mutate_text(rng, text, ["{", "}", "[", "]", ",", "\n", "\"", "null"])


# --------------------------------------------------------------------------
# Seeds and runs
# --------------------------------------------------------------------------

def collect_seeds():
    seeds = {"mlir": [], "manifest": [], "jsonl": []}
    for top in ("examples", "test"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for f in sorted(files):
                path = os.path.join(dirpath, f)
                if f.endswith(".mlir") and os.path.getsize(path) < 200000:
                    seeds["mlir"].append(path)
                elif f == "manifest.json":
                    seeds["manifest"].append(path)
                elif f.endswith(".jsonl"):
                    seeds["jsonl"].append(path)
    for k in seeds:
        seeds[k].sort()
    return seeds


def strip_lit(text):
    """Drops lit RUN/CHECK lines so the mutant is plain input."""
    return "\n".join(l for l in text.split("\n")
                     if not re.match(r"\s*//\s*(RUN|CHECK|[A-Z0-9_-]+:)", l))


def has_diagnostic(output):
    """An error line, or hkg-run's verdict on a kernel (FAIL, CRASH, ...)."""
    return re.search(rb"error|Error|ERROR|\b(FAIL|CRASH|TIMEOUT)\b", output) is not None


def run_one(cmd, timeout, env=None, cwd=None):
    start = time.monotonic()
    try:
        # stdout too: hkg-run reports a failed kernel (exit 1) in its table.
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=timeout, env=env,
                           cwd=cwd, start_new_session=True)
        return p.returncode, p.stderr + p.stdout[-20000:], time.monotonic() - start
    except subprocess.TimeoutExpired as e:
        return None, (e.stderr or b""), time.monotonic() - start


def classify(rc, stderr):
    if rc is None:
        return "hang"
    if rc < 0 or rc >= 128:
        return "crash"
    if rc != 0 and not has_diagnostic(stderr):
        return "silent"
    return "error" if rc != 0 else "ok"


def make_case(index, args, seeds):
    """Deterministic mutant `index`: (kind, seed file, text)."""
    rng = random.Random(args.seed * 1000003 + index)
    kinds = [k for k in ("mlir", "manifest", "jsonl") if seeds[k]]
    # Mostly .mlir (the largest surface), then manifests, then records.
    kind = rng.choices(kinds, weights=[{"mlir": 6, "manifest": 2, "jsonl": 2}[k]
                                       for k in kinds])[0]
    # Half the .mlir mutants start from the examples (valid, unscheduled
    # kernels that reach the whole pipeline), half from the tests.
    pool = seeds[kind]
    if kind == "mlir" and rng.random() < 0.5:
        pool = [p for p in pool if "/examples/" in p] or pool
    src = rng.choice(pool)
    with open(src, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if kind == "mlir":
        text = strip_lit(text)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        text = {"mlir": mutate_mlir, "manifest": mutate_json,
                "jsonl": mutate_jsonl}[kind](rng, text)
    return rng, kind, src, text


def run_case(index, args, seeds):
    rng, kind, src, text = make_case(index, args, seeds)
    bindir = os.path.join(args.build, "bin")
    work = tempfile.mkdtemp(prefix="hkg-mut-")
    results = []
    try:
        env = dict(os.environ)
        env["HKG_HIP_LIBRARY"] = "/nonexistent/libamdhip64.so"
        env["HKG_CUDA_LIBRARY"] = "/nonexistent/libcuda.so.1"
        runs = []
        if kind == "mlir":
            path = os.path.join(work, "in.mlir")
            with open(path, "w", encoding="utf-8", errors="replace") as f:
                f.write(text)
            # One tool per mutant, in rotation: the compilers dominate the
            # campaign's time.
            step = index % 4
            if step < 2:
                # Default schedules first, as hkg-compile attaches them, so
                # that unscheduled examples reach the whole pipeline.
                chip = "gfx942" if step == 0 else "sm_90"
                pipe = "--hkg-to-rocdl" if step == 0 else "--hkg-to-nvvm"
                runs.append([os.path.join(bindir, "hkg-opt"), path,
                             "--hkg-default-schedule=chip=" + chip,
                             pipe + "=chip=" + chip, "-o", os.devnull])
            else:
                chip = "gfx942" if step == 2 else "sm_90"
                runs.append([os.path.join(bindir, "hkg-compile"), path,
                             "--chip=" + chip, "-o", os.path.join(work, "bundle"),
                             "--timeout=0"])
        elif kind == "manifest":
            bundle = os.path.join(work, "bundle")
            shutil.copytree(os.path.dirname(src), bundle)
            with open(os.path.join(bundle, "manifest.json"), "w",
                      encoding="utf-8", errors="replace") as f:
                f.write(text)
            runs.append([os.path.join(bindir, "hkg-run"), bundle, "--timeout=5"])
            if args.fake_cuda and index % 2 == 0:
                runs.append(("fake", [os.path.join(bindir, "hkg-run"), bundle,
                                      "--timeout=5", "--warmup=1", "--reps=1",
                                      "--flush-l2-mib=0", "--measure-copy-mib=0"]))
        else:
            path = os.path.join(work, "records.jsonl")
            with open(path, "w", encoding="utf-8", errors="replace") as f:
                f.write(text)
            # --allow-illegal-knobs: the fixture's stale record would
            # otherwise stop every mutant before the database.
            runs.append([os.path.join(bindir, "hkg-tune"), "import", "--db",
                         os.path.join(work, "db.sqlite"), path,
                         "--allow-illegal-knobs"])
            if index % 2 == 0:
                runs.append([os.path.join(bindir, "hkg-tune-eval"), "--dataset",
                             path, "--folds=2", "--seeds=1"])
        for cmd in runs:
            run_env = env
            if isinstance(cmd, tuple):
                run_env = dict(env, HKG_CUDA_LIBRARY=args.fake_cuda)
                cmd = cmd[1]
            rc, stderr, secs = run_one(cmd, args.timeout, run_env, work)
            verdict = classify(rc, stderr)
            results.append((os.path.basename(cmd[0]), verdict, rc, secs))
            if verdict in ("crash", "hang", "silent"):
                keep = os.path.join(args.out, "%s-%06d" % (verdict, index))
                os.makedirs(keep, exist_ok=True)
                with open(os.path.join(keep, "input"), "w", encoding="utf-8",
                          errors="replace") as f:
                    f.write(text)
                with open(os.path.join(keep, "README"), "w") as f:
                    f.write("seed file: %s\nkind: %s\ncommand: %s\nrc: %s\n"
                            "seconds: %.1f\nfake cuda: %s\nstderr:\n" %
                            (os.path.relpath(src, ROOT), kind, " ".join(cmd),
                             rc, secs, run_env is not env))
                with open(os.path.join(keep, "README"), "ab") as f:
                    f.write(stderr[:20000])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return index, kind, results


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=5000, help="mutants to run")
    ap.add_argument("--start", type=int, default=0, help="first mutant index")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=20.0,
                    help="seconds before a run counts as a hang")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default="/tmp/hkg-mutation-campaign")
    ap.add_argument("--no-fake-cuda", action="store_true")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    fake = os.path.join(args.build, "lib", "libhkg-fake-cuda.so")
    args.fake_cuda = fake if os.path.exists(fake) and not args.no_fake_cuda else None
    os.makedirs(args.out, exist_ok=True)
    seeds = collect_seeds()
    print("seeds: %d .mlir, %d manifest.json, %d .jsonl; fake CUDA: %s" %
          (len(seeds["mlir"]), len(seeds["manifest"]), len(seeds["jsonl"]),
           "yes" if args.fake_cuda else "no"), flush=True)
    tally = {}
    kinds = {}
    slowest = (0.0, None)
    start = time.monotonic()
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_case, i, args, seeds)
                   for i in range(args.start, args.start + args.count)]
        for fut in concurrent.futures.as_completed(futures):
            index, kind, results = fut.result()
            kinds[kind] = kinds.get(kind, 0) + 1
            for tool, verdict, rc, secs in results:
                tally[(tool, verdict)] = tally.get((tool, verdict), 0) + 1
                if secs > slowest[0]:
                    slowest = (secs, "%s #%d" % (tool, index))
                if verdict in ("crash", "hang", "silent"):
                    print("FINDING %s: %s #%d rc=%s" % (verdict, tool, index, rc),
                          flush=True)
            done += 1
            if done % 250 == 0:
                print("%d/%d inputs, %.0f s" % (done, args.count,
                                                 time.monotonic() - start), flush=True)
    print("inputs: %d (%s)" % (done, ", ".join("%s %d" % kv for kv in sorted(kinds.items()))))
    runs = sum(tally.values())
    print("runs: %d in %.0f s; slowest run %.1f s (%s)" %
          (runs, time.monotonic() - start, slowest[0], slowest[1]))
    for tool in sorted({t for t, _ in tally}):
        print("  %-14s %s" % (tool, ", ".join(
            "%s %d" % (v, tally.get((tool, v), 0))
            for v in ("ok", "error", "crash", "hang", "silent"))))
    bad = sum(n for (t, v), n in tally.items() if v in ("crash", "hang", "silent"))
    print("findings: %d (crash %d, hang %d, error without diagnostic %d)" % (
        bad, sum(n for (t, v), n in tally.items() if v == "crash"),
        sum(n for (t, v), n in tally.items() if v == "hang"),
        sum(n for (t, v), n in tally.items() if v == "silent")))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
