"""Tuning from Python against a fake device: the search measures through a
Python callback, the winner's schedule lands in the module, every
measurement is stored and reused, and the progress bar draws the events."""

import io
import os
import json
import re

import pytest

import hkg

SOFTMAX = """
func.func @f(%x: tensor<512x4096xbf16>) -> tensor<512x4096xbf16> {
  %0 = hkg.softmax %x axis(1) : tensor<512x4096xbf16> -> tensor<512x4096xbf16>
  return %0 : tensor<512x4096xbf16>
}
"""


class FakeDevice:
    """Time = a fixed function of the knobs, fastest at threads = 128 and
    vector_width = 8; one schedule is 'wrong' (a kernel that computes
    garbage must never win)."""

    def __init__(self):
        self.calls = 0
        self.requests = []

    def time(self, knobs):
        return (20.0 + abs(knobs.get("threads", 256) - 128) / 16.0
                + abs(knobs.get("vector_width", 4) - 8) * 1.5
                + knobs.get("unroll", 1) * 0.1)

    def __call__(self, request):
        self.calls += 1
        self.requests.append(request)
        knobs = request["schedule"]
        if knobs.get("threads") == 64:
            return {"status": "wrong", "max_rel_err": 0.5, "message": "planted"}
        return {"status": "ok", "median_us": self.time(knobs), "spread": 0.01,
                "max_rel_err": 1e-3}


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HKG_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def db(tmp_path):
    return tmp_path / "tune.sqlite"


def schedule_of(module):
    m = re.search(r"schedule = #hkg.schedule<([^>]*)>", module)
    assert m, module
    knobs = {}
    for kv in m.group(1).split(","):
        k, v = (s.strip() for s in kv.split("="))
        knobs[k] = int(v) if re.fullmatch(r"-?\d+", v) else v
    return knobs


def test_tuning_picks_the_fastest_measured_schedule(db):
    fake = FakeDevice()
    out = hkg.tune_mlir(SOFTMAX, "sm_90", budget=12, db=db, measure=fake,
                        progress=False, confirm=False)
    assert fake.calls == 12
    assert all(r["op"] == "hkg.softmax" and r["target"] == "sm_90" for r in fake.requests)
    won = schedule_of(out["module"])
    ok = [(fake.time(r["schedule"]), r["schedule"]) for r in fake.requests
          if r["schedule"].get("threads") != 64]
    best_time, _ = min(ok, key=lambda t: t[0])
    assert fake.time(won) == pytest.approx(best_time)
    assert won.get("threads") != 64
    assert any("measured 12 candidates on callback" in r for r in out["remarks"])


def test_records_are_reused_by_the_next_tuning(db):
    fake = FakeDevice()
    first = hkg.tune_mlir(SOFTMAX, "sm_90", budget=8, db=db, measure=fake,
                          progress=False, confirm=False)
    again = FakeDevice()
    second = hkg.tune_mlir(SOFTMAX, "sm_90", budget=8, db=db, measure=again,
                           progress=False, confirm=False)
    assert again.calls == 0
    assert schedule_of(second["module"]) == schedule_of(first["module"])
    history = hkg.tuning_history(db)
    (series,) = history.values()
    assert len(series) == 8
    bests = [b for _, _, b in series if b is not None]
    assert bests == sorted(bests, reverse=True)
    assert bests[-1] == pytest.approx(min(FakeDevice().time(r["schedule"])
                                          for r in fake.requests
                                          if r["schedule"].get("threads") != 64))


def test_progress_bar_draws_trials():
    fake = FakeDevice()
    stream = io.StringIO()
    bar = hkg.tuning.ProgressBar(stream=stream, force=True)
    hkg.tune_mlir(SOFTMAX, "sm_90", budget=5, db=False, measure=fake,
                  progress=bar, confirm=False)
    text = stream.getvalue()
    assert "hkg tune [1/1] hkg.softmax" in text
    assert "5/5" in text and "best" in text and "left" in text
    trials = [e for e in bar.events if e["event"] == "trial"]
    assert [e["number"] for e in trials] == [1, 2, 3, 4, 5]


def test_progress_bar_is_silent_off_a_terminal():
    stream = io.StringIO()  # not a tty
    bar = hkg.tuning.ProgressBar(stream=stream)
    hkg.tune_mlir(SOFTMAX, "sm_90", budget=3, db=False, measure=FakeDevice(),
                  progress=bar, confirm=False)
    assert stream.getvalue() == ""
    assert len([e for e in bar.events if e["event"] == "trial"]) == 3


def test_without_a_device_the_default_is_used_and_said(db):
    out = hkg.tune_mlir(SOFTMAX, "sm_90", device="none", db=False, progress=False)
    default = hkg.transform(SOFTMAX, "builtin.module(hkg-default-schedule{chip=sm_90})")
    assert schedule_of(out["module"]) == schedule_of(default)
    assert any("using the default schedule" in r for r in out["remarks"])


def test_a_raising_measure_callback_stops_the_search_and_is_raised(db):
    calls = []

    def broken(request):
        calls.append(request)
        raise KeyboardInterrupt("stop")
    with pytest.raises(KeyboardInterrupt, match="stop"):
        hkg.tune_mlir(SOFTMAX, "sm_90", budget=20, db=db, measure=broken,
                      progress=False, confirm=False)
    assert len(calls) == 1


def test_a_stand_in_device_never_fills_the_default_database(tmp_path):
    hkg.tune_mlir(SOFTMAX, "sm_90", budget=3, measure=FakeDevice(),
                  progress=False, confirm=False)
    default = hkg.tuning.default_database()
    assert not os.path.exists(default) or not hkg.tuning_history(default)


def test_tuned_program_compiles(db):
    p = hkg.tune(SOFTMAX, "sm_90", budget=4, db=db, measure=FakeDevice(),
                 progress=False, confirm=False)
    assert p.kernel_names == ["hkg_softmax_0"]
    with open(p.bundle_dir + "/manifest.json") as f:
        sched = json.load(f)["kernels"][0]["schedule"]
    assert sched["threads"] != 64


def test_bad_options_are_named():
    with pytest.raises(hkg.CompileError, match="'budget' must be an integer"):
        hkg.tune_mlir(SOFTMAX, "sm_90", budget=-1, measure=FakeDevice(), progress=False)


def test_plot_tuning_draws_or_says_what_it_needs(db, tmp_path):
    hkg.tune_mlir(SOFTMAX, "sm_90", budget=4, db=db, measure=FakeDevice(),
                  progress=False, confirm=False)
    out = tmp_path / "tuning.png"
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        with pytest.raises(hkg.HkgError, match="needs matplotlib.*tuning_history"):
            hkg.plot_tuning(db, out)
        return
    history = hkg.plot_tuning(db, out)
    assert out.stat().st_size > 0
    assert len(next(iter(history.values()))) == 4


def test_history_of_a_missing_database_is_an_error(tmp_path):
    with pytest.raises(hkg.HkgError, match="no tuning database"):
        hkg.tuning_history(tmp_path / "none.sqlite")


def test_hkg_compile_tunes_every_partition_kernel(db):
    torch = pytest.importorskip("torch")
    fake = FakeDevice()
    # Reference mode runs on CPU: tuning is for the GPU build, so it is off
    # there; the MLIR-text form tunes through compile_mlir.
    p = hkg.compile(SOFTMAX, [], target="sm_90",
                    tune={"budget": 3, "db": db, "measure": fake,
                          "progress": False, "confirm": False})
    assert fake.calls == 3
    assert p.kernel_names == ["hkg_softmax_0"]
    with pytest.raises(hkg.DeviceError, match="needs a target"):
        hkg.compile(SOFTMAX, [torch.randn(2)])


def test_backend_refuses_unknown_options():
    torch = pytest.importorskip("torch")
    m = torch.nn.Linear(4, 4)
    f = torch.compile(m, backend="hkg", options={"budget": 3})
    with pytest.raises(Exception, match="unknown hkg backend option"):
        with torch.no_grad():
            f(torch.randn(2, 4))
