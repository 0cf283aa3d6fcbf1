"""Tuning from Python: hkg-autotune in process, with a progress bar.

`tune_mlir(source, target)` picks a schedule for every op of a module by
measuring candidates on the device (each in an `hkg-run` worker process, so
a faulting candidate cannot take Python down), storing every measurement in
the tuning database (SQLite, default `<cache dir>/tuning.sqlite`), and
returns the module with the winners' schedules; `compile_mlir(...,
tune=True)` and `hkg.tune(...)` compile it. The database's records of an op
count against the budget, so tuning the same op again measures nothing new
and replays the winner. Without a device the database is replayed, else the
policy picks, else the default (docs/Tuning.md). `measure=` replaces the
device (tests use a fake one)."""

import json
import math
import os
import sqlite3
import sys
import time

from . import _native, cache
from .errors import CompileError, HkgError


def default_database():
    root = cache.cache_dir()
    if root is None:
        return None
    os.makedirs(root, exist_ok=True)
    return os.path.join(root, "tuning.sqlite")


def worker_program():
    """The hkg-run that measures candidates: $HKG_RUN, the portable
    package's hkg/bin/hkg-run, or the build tree's bin/hkg-run next to the
    loaded libhkg.so's lib/."""
    env = os.environ.get("HKG_RUN")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.path.join(here, "bin", "hkg-run")]
    lib = _native.library_identity().split(":")[0]
    candidates.append(os.path.join(os.path.dirname(os.path.dirname(lib)),
                                   "bin", "hkg-run"))
    for c in candidates:
        if os.access(c, os.X_OK):
            return c
    return ""


class ProgressBar:
    """Draws tuning progress on a terminal: per op a header, then one line
    rewritten per trial (trial n/budget, best so far, the last trial, time
    left). Prints nothing when the stream is not a terminal, unless forced."""

    def __init__(self, stream=None, force=False):
        self.stream = stream or sys.stderr
        self.enabled = force or (hasattr(self.stream, "isatty") and self.stream.isatty())
        self.width = 24
        self.events = []

    def __call__(self, event_json):
        e = json.loads(event_json)
        self.events.append(e)
        if not self.enabled:
            return
        kind = e["event"]
        w = self.stream.write
        if kind == "op":
            w(f"hkg tune [{e['index'] + 1}/{e['count']}] {e['op']}\n")
        elif kind == "resume" and e["trials"]:
            w(f"  {e['trials']} trial(s) from the database\n")
        elif kind == "trial":
            n, budget = e["number"], max(e["budget"], 1)
            filled = min(self.width, round(self.width * n / budget))
            bar = "#" * filled + "." * (self.width - filled)
            best = e.get("best_us")
            last = e.get("us")
            eta = e.get("eta_s")
            w(f"\r  [{bar}] {n}/{budget}  best "
              f"{_fmt_us(best)}  last {_fmt_us(last)} {e['status']}"
              f"  {_fmt_eta(eta)} left  ")
        elif kind == "search_done":
            w(f"\n  search done: {e['trials']} trial(s), best {_fmt_us(e.get('best_us'))}\n")
        elif kind == "confirm":
            w(f"\r  confirming: round {e['round'] + 1}/{e['rounds']}, "
              f"finalist {e['finalist']}  ")
        self.stream.flush()


def _fmt_us(v):
    return "-" if v is None else f"{v:.2f} us"


def _fmt_eta(s):
    if s is None:
        return "?"
    s = int(s)
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def tune_mlir(source, target, *, budget=32, db=None, seed=0, device="auto",
              measure=None, progress=None, confirm=True, model=None):
    """The module `source` with a tuned schedule on every op that has none,
    and the remarks saying what was done for each ({"module", "remarks",
    "events"}). `measure(request: dict) -> dict` stands in for the device
    (status, median_us, ...; see hkgTune in include/hkg-c/Hkg.h). `progress`:
    None (a bar on a terminal), True, False, or a callable of each event.
    `db`: the SQLite file (None: the default one, or none with `measure`;
    False: none). An exception raised by `measure` or `progress`
    (KeyboardInterrupt included) stops all further calls into Python and is
    raised as it was once the search returns."""
    options = {"chip": target, "budget": int(budget), "seed": int(seed),
               "device": device}
    if db is None:
        # A stand-in device's timings never go to the default database,
        # where a later tuning on the real device would replay them.
        db = False if measure is not None else default_database()
    # Measuring creates the database; without a device only an existing one
    # can be replayed. db=False: none.
    if db and (device != "none" or os.path.exists(db)):
        options["db"] = os.fspath(db)
    if model:
        options["model"] = os.fspath(model)
    if not confirm:
        options["confirm_finalists"] = 0
    worker = worker_program()
    if worker and measure is None:
        options["worker"] = worker
    if callable(progress) and not isinstance(progress, bool):
        bar = None
        on_event = progress
    else:
        bar = ProgressBar(force=bool(progress)) if progress is not False else None
        on_event = bar
    measure_fn = None
    if measure is not None:
        def measure_fn(request_json):
            return json.dumps(measure(json.loads(request_json)))
    try:
        out = _native._hkg.tune(source, json.dumps(options), measure_fn, on_event)
    except _native.NativeError as e:
        raise CompileError(str(e)) from None
    result = json.loads(out)
    result["events"] = bar.events if bar else []
    return result


def tune(source, target, **kwargs):
    """`tune_mlir`, then the tuned module compiled: a Program."""
    from .compiler import compile_mlir
    function = kwargs.pop("function", None)
    tuned = tune_mlir(source, target, **kwargs)
    return compile_mlir(tuned["module"], target, function=function)


def tuning_history(db=None, signature=None, target=None):
    """The database's measurements in the order they were taken, per (op
    signature, target): {(signature, target): [(trial, median_us or None,
    best_so_far_us or None), ...]}."""
    db = db or default_database()
    if not db or not os.path.exists(db):
        raise HkgError(f"no tuning database at {db}")
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        q = "SELECT signature, target, status, median_us FROM records"
        cond, args = [], []
        if signature:
            cond.append("signature = ?"); args.append(signature)
        if target:
            cond.append("target = ?"); args.append(target)
        if cond:
            q += " WHERE " + " AND ".join(cond)
        rows = con.execute(q + " ORDER BY id", args).fetchall()
    finally:
        con.close()
    history = {}
    for sig, tgt, status, us in rows:
        series = history.setdefault((sig, tgt), [])
        ok = status == "ok" and us is not None
        prev = series[-1][2] if series else None
        best = min(x for x in (prev, us if ok else None) if x is not None) \
            if (prev is not None or ok) else None
        series.append((len(series) + 1, us if ok else None, best))
    return history


def plot_tuning(db=None, path=None, signature=None, target=None):
    """Draws the best time so far against the trial number, one line per
    tuned op, with matplotlib (into `path`, a .png/.svg, or the current
    figure when None). Returns the history it drew."""
    history = tuning_history(db, signature, target)
    try:
        import matplotlib
        if path:
            matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise HkgError("hkg.plot_tuning needs matplotlib (pip install matplotlib); "
                       "hkg.tuning_history gives the numbers without it") from None
    fig, ax = plt.subplots(figsize=(7, 4))
    for (sig, tgt), series in history.items():
        xs = [t for t, _, b in series if b is not None]
        ys = [b for _, _, b in series if b is not None]
        op = sig.split('"')[1] if '"' in sig else sig[:30]
        ax.step(xs, ys, where="post", label=f"{op} ({tgt})")
    ax.set_xlabel("trial")
    ax.set_ylabel("best time so far (us)")
    ax.set_title("hkg tuning")
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3)
    if path:
        fig.savefig(path, dpi=120, bbox_inches="tight")
        plt.close(fig)
    return history
