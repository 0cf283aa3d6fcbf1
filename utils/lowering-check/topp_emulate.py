#!/usr/bin/env python3
"""NOTE: this models the previous threshold-search top-p kernel (before the
integer-mass histogram sampler of 2026-11-29, see docs/Lowering.md); it no
longer describes lib/Conversion/HkgToGPU/Sampling.cpp.

A CPU emulation of the hkg.top_p_sample kernel (lib/Conversion/HkgToGPU/
Sampling.cpp), step by step in f32/i32/i64 as the kernel does it: the strided
statistics and search passes (per-thread sequential sums of in-order vector
reductions, then the 32-lane xor butterfly and the fold of the wave partials),
the i32 key encoding, the threshold search on i64 bounds, kTies, the
contiguous draw passes, the Hillis-Steele workgroup scans, the choice of the
thread and its walk. `old=True` emulates the previous kernel's i32 search
bounds (hi - lo and maxKey + 1 in i32), which is how it went wrong.

It checks each row against a float64 sort-based reference: the nucleus (the
smallest set of most likely tokens, ties by ascending id, whose mass reaches
p) and, for a given u, the token of the nucleus CDF walked in token-id order
(the runtime's sampleFromNucleus). Differences are allowed only where f32
rounding decides (the mass within 1e-5 of p, u within 1e-5 of a CDF step).

  python3 topp_emulate.py          # the checks; exits 1 on a failure
  python3 topp_emulate.py --old    # the same on the previous kernel
"""
import math, sys
import numpy as np

f32 = np.float32
WAVE = 32


def key_of(z):
    b = z.view(np.int32)
    return b ^ ((b >> 31) & np.int32(0x7FFFFFFF))


def value_of_key(k):
    k = np.int32(k)
    return np.array([k ^ ((k >> 31) & np.int32(0x7FFFFFFF))], np.int32).view(np.float32)[0]


def vsum(a):
    """vector.reduction <add> in order: ((a0 + a1) + a2) + ..."""
    acc = a[..., 0].copy()
    for l in range(1, a.shape[-1]):
        acc = (acc + a[..., l]).astype(f32)
    return acc


def block_reduce(v, op):
    """groupReduce: the xor butterfly in each wave, then the waves in order."""
    v = v.copy()
    n = v.size
    w = min(n, WAVE)
    lane = np.arange(n)
    off = w // 2
    while off >= 1:
        v = op(v, v[lane ^ off])
        off //= 2
    parts = v[::w]
    r = parts[0]
    for x in parts[1:]:
        r = op(r, x)
    return r


def addf(a, b):
    return (a + b).astype(f32)


def block_scan(v):
    """workgroupScan: Hillis-Steele in each wave, then the wave totals."""
    n = v.size
    incl = v.copy()
    lane = np.arange(n) % WAVE
    off = 1
    while off < WAVE:
        up = np.roll(incl, off)
        incl = np.where(lane >= off, (incl + up).astype(incl.dtype), incl)
        off *= 2
    excl = np.where(lane == 0, np.zeros_like(incl), np.roll(incl, 1))
    if n <= WAVE:
        return incl, excl, incl[n - 1]
    tot = incl[WAVE - 1::WAVE]
    prefix = np.zeros(n, incl.dtype)
    total = incl.dtype.type(0)
    wid = np.arange(n) // WAVE
    for w in range(n // WAVE):
        prefix = np.where(w < wid, (prefix + tot[w]).astype(incl.dtype), prefix)
        total = incl.dtype.type(total + tot[w])
    return (prefix + incl).astype(incl.dtype), (prefix + excl).astype(incl.dtype), total


class Row:
    """The chunk layouts of one row: strided [s, t, lane] and contiguous."""

    def __init__(self, V, threads, vw):
        self.V, self.T, self.vw = V, threads, vw
        nv = V // vw
        self.nv, self.tail = nv, V % vw
        self.vpt = -(-nv // threads)
        # strided: vector s * T + t
        vi = np.arange(self.vpt)[:, None] * threads + np.arange(threads)[None, :]
        self.s_valid = vi < nv
        self.s_idx = np.minimum(vi, nv - 1)[..., None] * vw + np.arange(vw)
        slots = -(-self.tail // threads)
        ei = np.arange(slots)[:, None] * threads + np.arange(threads)[None, :]
        self.t_valid = ei < self.tail
        self.t_idx = nv * vw + np.minimum(ei, max(self.tail - 1, 0))
        # contiguous: vector t * vpt + s
        ci = np.arange(threads)[:, None] * self.vpt + np.arange(self.vpt)[None, :]
        self.c_valid = ci < nv
        self.c_idx = np.minimum(ci, nv - 1)[..., None] * vw + np.arange(vw)

    def strided_sum(self, a):
        """Each thread's sequential sum of its chunks' in-order reductions."""
        acc = np.zeros(self.T, f32)
        for s in range(self.vpt):
            c = np.where(self.s_valid[s][:, None], a[self.s_idx[s]], f32(0))
            acc = addf(acc, vsum(c))
        for j in range(self.t_valid.shape[0]):
            acc = addf(acc, np.where(self.t_valid[j], a[self.t_idx[j]], f32(0)))
        return acc

    def strided_minmax(self, k, mask):
        lo = np.full(self.T, np.iinfo(np.int32).max, np.int64)
        hi = np.full(self.T, np.iinfo(np.int32).min, np.int64)
        for s in range(self.vpt):
            m = mask[self.s_idx[s]] & self.s_valid[s][:, None]
            kk = k[self.s_idx[s]].astype(np.int64)
            lo = np.minimum(lo, np.where(m, kk, lo[:, None]).min(-1))
            hi = np.maximum(hi, np.where(m, kk, hi[:, None]).max(-1))
        for j in range(self.t_valid.shape[0]):
            m = mask[self.t_idx[j]] & self.t_valid[j]
            kk = k[self.t_idx[j]].astype(np.int64)
            lo = np.where(m, np.minimum(lo, kk), lo)
            hi = np.where(m, np.maximum(hi, kk), hi)
        return lo.min(), hi.max()

    def contiguous_tokens(self, t):
        """Thread t's token ids in the order the draw passes visit them."""
        toks = [self.c_idx[t, s] for s in range(self.vpt) if self.c_valid[t, s]]
        out = list(np.concatenate(toks)) if toks else []
        if t == self.T - 1:
            out += list(range(self.nv * self.vw, self.V))
        return out


def splitmix_u(seed, row):
    M = (1 << 64) - 1
    x = (seed + (row + 1) * 0x9E3779B97F4A7C15) & M
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M
    x ^= x >> 31
    return f32(f32(x >> 40) * f32(1.0 / 16777216.0))


def kernel(x, p, T, threads, vw, K, u, old=False, layout=None):
    """The kernel on one row x (f32 values; bf16 logits already widened)."""
    V = x.size
    L = layout or Row(V, threads, vw)
    p32, T32 = f32(p), f32(T)
    inv = 1.0 / float(T32)
    exact = math.frexp(inv)[0] == 0.5 and float(f32(inv)) == inv
    z = (x * f32(inv)).astype(f32) if exact else (x / T32).astype(f32)
    k = key_of(z)
    m = z.max()
    e = np.exp((z - m).astype(f32)).astype(f32)
    Z = block_reduce(L.strided_sum(e), addf)
    P = f32(Z * p32)
    minKey, maxKey = int(k.min()), int(k.max())
    I32 = lambda v: int(np.array([v], np.int64).astype(np.int32)[0])
    if float(p32) >= 1.0:
        cut, kTies = minKey, f32(np.inf)
    else:
        lo, hi, fhi, it = minKey, maxKey + 1, f32(0), 0
        if old:
            hi = I32(hi)
        while True:
            width = I32(hi - lo) if old else hi - lo
            if not (width > 1 and it < 64):
                break
            rng_ = hi - lo
            thr = [lo + (j + 1) * rng_ // (K + 1) for j in range(K)]
            F = [block_reduce(L.strided_sum(np.where(k >= I32(t), e, f32(0))), addf) for t in thr]
            cmin, cmax = L.strided_minmax(k, (k >= lo) & (k <= hi - 1))
            nlo, nhi, nf = lo, hi, fhi
            for j in range(K):
                if F[j] >= P:
                    nlo = thr[j]
            for j in reversed(range(K)):
                if F[j] < P:
                    nhi, nf = thr[j], F[j]
            lo, hi, fhi = max(nlo, cmin), min(nhi, cmax + 1), nf
            if old:
                hi = I32(hi)
            it += 1
        cut = I32(lo)
        eCut = f32(np.exp(f32(value_of_key(cut) - m)))
        kTies = max(f32(np.ceil(f32(f32(P - fhi) / eCut))), f32(1))
    eCut = f32(np.exp(f32(value_of_key(cut) - m)))
    # draw passes: contiguous slices, token order
    above = np.zeros(threads, f32)
    ties = np.zeros(threads, np.int32)
    for s in range(L.vpt):
        idx = L.c_idx[:, s]
        val = L.c_valid[:, s][:, None]
        ee = np.where(val & (k[idx] > cut), e[idx], f32(0))
        above = addf(above, vsum(ee))
        ties += ((k[idx] == cut) & val).sum(-1).astype(np.int32)
    for j in range(L.nv * vw, V):
        last = np.arange(threads) == threads - 1
        above = addf(above, np.where(last & (k[j] > cut), e[j], f32(0)))
        ties += (last & (k[j] == cut)).astype(np.int32)
    _, texcl, _ = block_scan(ties)
    tiesBefore = texcl.astype(f32)
    taken = np.minimum(np.maximum((kTies - tiesBefore).astype(f32), f32(0)), ties.astype(f32))
    partial = addf(above, (taken * eCut).astype(f32))
    incl, excl, total = block_scan(partial)
    drawAt = f32(f32(u) * total)
    has = partial > 0
    past = has & (incl > drawAt)
    chosen = int(np.argmax(past)) if past.any() else int(np.nonzero(has)[0].max())
    acc, seen, tok, lastTok = excl[chosen], tiesBefore[chosen], -1, -1
    nucleus = []
    for i in L.contiguous_tokens(chosen):
        eq, gt = k[i] == cut, k[i] > cut
        inn = gt or (eq and seen < kTies)
        if eq:
            seen = f32(seen + 1)
        if inn:
            acc = f32(acc + e[i])
            if tok < 0 and acc > drawAt:
                tok = i
            lastTok = i
    token = tok if tok >= 0 else lastTok
    # the whole nucleus as the kernel defines it (for the checks)
    order = [i for t in range(threads) for i in L.contiguous_tokens(t)]
    assert sorted(order) == list(range(V))
    seen = 0
    for i in order:
        if k[i] > cut or (k[i] == cut and seen < kTies):
            nucleus.append(i)
        if k[i] == cut:
            seen += 1
    return int(token), nucleus


def reference(x, p, T):
    """float64 nucleus (ties by ascending id) of softmax(x / T) as f32 z."""
    z = x.astype(np.float64) / float(f32(T))
    pr = np.exp(z - z.max())
    pr /= pr.sum()
    order = np.lexsort((np.arange(x.size), -pr))
    cs = np.cumsum(pr[order])
    kk = min(int((cs < float(f32(p))).sum()) + 1, x.size)
    nuc = np.sort(order[:kk])
    return nuc, pr, cs, kk


def sample_from_nucleus(nuc, pr, u):
    w = pr[nuc] / pr[nuc].sum()
    cdf = np.cumsum(w)
    i = int(np.searchsorted(cdf, u, side="right"))
    return int(nuc[min(i, len(nuc) - 1)]), cdf


def check_row(x, p, T, threads, vw, K, u, old=False, layout=None):
    """None if the kernel agrees with the reference on this row, else why."""
    tok, knuc = kernel(x, p, T, threads, vw, K, u, old, layout)
    nuc, pr, cs, kk = reference(x, p, T)
    ks, rs = set(knuc), set(nuc.tolist())
    if tok not in ks:
        return "token %d not in the kernel's own nucleus" % tok
    # Where the sets differ, only f32 rounding may decide: the differing
    # tokens hold at most 1e-5 of the mass, or they are tied with the
    # boundary token (equal size).
    diff = ks ^ rs
    diffmass = pr[list(diff)].sum() if diff else 0.0
    bound = pr[nuc].min()
    tied = len(ks) == kk and all(abs(pr[i] - bound) <= 1e-5 * bound for i in diff)
    # or the reference's boundary is within f32 rounding (1e-6) of p: one
    # token more or less
    pp = float(f32(p))
    near = abs(cs[kk - 1] - pp) <= 1e-6 * pp or (kk >= 2 and abs(cs[kk - 2] - pp) <= 1e-6 * pp)
    tied = tied or (near and abs(len(ks) - kk) <= 1 and len(diff) <= 1)
    if diffmass > 1e-5 and not tied:
        return "nucleus %d tokens, reference %d (differing mass %.3g)" % (len(ks), kk, diffmass)
    want, cdf = sample_from_nucleus(nuc, pr, u)
    if tok != want and np.abs(cdf - u).min() > 1e-5 + 2 * diffmass and not tied:
        return "token %d, sampleFromNucleus gives %d (u=%.7f)" % (tok, want, u)
    return None


def to_bf16(a):
    b = a.astype(f32).view(np.uint32)
    b = ((b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    return b.view(f32)


def main():
    old = "--old" in sys.argv
    rng = np.random.default_rng(1)
    fails = 0
    # 1. the four check cases (rows as check_cases.py makes them: randn * 2)
    cases = [("f32", 128256, 0.9, 0.7, 1024, 4, 7, 8), ("f32", 1000, 0.9, 1.0, 128, 4, 7, 300),
             ("bf16", 1001, 0.5, 1.0, 64, 1, 3, 300), ("f32", 300, 0.95, 2.0, 128, 4, 1, 300)]
    for dt, V, p, T, thr, vw, K, n in cases:
        L = Row(V, thr, vw)
        bad = outside = 0
        first = None
        for r in range(n):
            x = (rng.standard_normal(V) * 2).astype(f32)
            if dt == "bf16":
                x = to_bf16(x)
            u = float(rng.random(dtype=np.float32))
            why = check_row(x, p, T, thr, vw, K, u, old, L)
            if why:
                bad += 1
                first = first or why
        print("%-4s %s %dx%d p=%g T=%g threads=%d vw=%d K=%d: %d/%d rows wrong%s" %
              ("OK" if not bad else "FAIL", dt, n, V, p, T, thr, vw, K, bad, n, (" (" + first + ")") if first else ""))
        fails += bad > 0
    # 2. same-row histogram like check_cases.py (seeded u), case 74's shape
    V, p, T, thr, vw, K, B = 300, 0.95, 2.0, 128, 4, 1, 2048
    x = (rng.standard_normal(V) * 2).astype(f32)
    L = Row(V, thr, vw)
    toks = np.array([kernel(x, p, T, thr, vw, K, splitmix_u(1234, r), old, L)[0] for r in range(B)])
    nuc, pr, cs, kk = reference(x, p, T)
    exp_ = np.zeros(V)
    exp_[nuc] = pr[nuc] / pr[nuc].sum() * B
    cnt = np.bincount(toks, minlength=V).astype(float)
    outside = cnt[exp_ == 0].sum()
    mm = exp_ > 0
    chi2 = ((cnt[mm] - exp_[mm]) ** 2 / exp_[mm]).sum()
    dof = max(1, mm.sum() - 1)
    zz = (chi2 - dof) / math.sqrt(2 * dof)
    again = np.array([kernel(x, p, T, thr, vw, K, splitmix_u(1234, r), old, L)[0] for r in range(64)])
    ok = outside == 0 and zz < 5 and np.array_equal(again, toks[:64])
    print("%-4s histogram 2048 draws of one row (V=300, p=0.95, T=2): chi2=%.1f dof=%d z=%.2f outside=%d" %
          ("OK" if ok else "FAIL", chi2, dof, zz, outside))
    fails += not ok
    # 3. random rows: shapes, schedules, ties, key signs, temperatures, p
    bad = 0
    n = 600
    for trial in range(n):
        V = int(rng.choice([1, 7, 33, 100, 300, 1000, 1001, 4099]))
        thr = int(rng.choice([32, 64, 128, 256, 1024]))
        vw = int(rng.choice([v for v in [1, 2, 4, 8] if v <= V]))
        K = int(rng.choice([1, 2, 3, 7, 15]))
        kind = trial % 8
        scale = float(rng.choice([0.5, 2, 5, 20]))
        x = (rng.standard_normal(V) * scale).astype(f32)
        if kind == 1:
            x = to_bf16(x)                      # bf16: heavy ties
        elif kind == 2:
            x = np.round(x).astype(f32)         # integer logits: ties
        elif kind == 3:
            x[:] = f32(rng.standard_normal())   # all equal
        elif kind == 4:
            x = -np.abs(x) - 1                  # all negative keys
        elif kind == 5:
            x = np.abs(x) + 1                   # all positive keys
        elif kind == 6:
            x = to_bf16(np.round(x / 4))        # few distinct values, huge ties
        p = float(rng.choice([1e-6, 0.01, 0.1, 0.5, 0.9, 0.95, 0.999, 0.999999, 1.0]))
        T = float(rng.choice([0.3, 0.7, 1.0, 1.5, 2.0]))
        u = float(rng.random(dtype=np.float32))
        if trial % 50 == 0:
            u = float(f32(1) - f32(2 ** -24))
        why = check_row(x, p, T, thr, vw, K, u, old)
        if why:
            bad += 1
            if bad <= 5:
                print("  V=%d threads=%d vw=%d K=%d kind=%d p=%g T=%g: %s" % (V, thr, vw, K, kind, p, T, why))
    print("%-4s random rows: %d/%d wrong" % ("OK" if not bad else "FAIL", bad, n))
    fails += bad > 0
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
