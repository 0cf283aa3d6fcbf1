#!/usr/bin/env python3
"""NOTE: this models the previous threshold-search top-p kernel (before the
integer-mass histogram sampler of 2026-11-29, see docs/Lowering.md); it no
longer describes lib/Conversion/HkgToGPU/Sampling.cpp.

A NumPy model of the top-p algorithm of lib/Conversion/HkgToGPU/Sampling.cpp
(f32 keys, multi-threshold key search, tie resolution, thread-major draw
order), checked against a sort-based float64 nucleus on random rows, rows with
many ties and rows of equal logits. It checks the algorithm, not the kernel:
check_cases.py checks the kernel on a GPU. Differences it reports are float64
vs f32 rounding of the reference's cumulative sum (equal-probability rows,
where the smallest set is exact in the model).

Superseded by topp_emulate.py: this model uses Python ints for the key
bounds (it could not see the i32 overflow of hi - lo that broke the kernel)
and the old thread-major draw order (the kernel now draws in token-id order)."""
import numpy as np
rng = np.random.default_rng(0)

def key(z):
    b = z.view(np.int32)
    return b ^ ((b >> 31) & 0x7FFFFFFF)

def model(x, p, T, threads, vw, K, u):
    V = x.size
    z = (x.astype(np.float32) * np.float32(1.0 / T)).astype(np.float32)
    k = key(z.copy())
    m = z.max(); e = np.exp((z - m).astype(np.float32)).astype(np.float32)
    Z = e.sum(dtype=np.float32); P = np.float32(Z * np.float32(p))
    lo, hi, fhi = int(k.min()), int(k.max()) + 1, np.float32(0)
    it = 0
    if p >= 1.0:  # the kernel skips the search: every token is in
        hi = lo + 1
    while hi - lo > 1 and it < 64:
        r = hi - lo
        thr = [lo + (j + 1) * r // (K + 1) for j in range(K)]
        M = [e[k >= t].sum(dtype=np.float32) for t in thr]
        inr = (k >= lo) & (k < hi)
        cmin, cmax = int(k[inr].min()), int(k[inr].max())
        nlo, nhi, nf = lo, hi, fhi
        for j in range(K):
            if M[j] >= P: nlo = thr[j]
        for j in reversed(range(K)):
            if M[j] < P: nhi, nf = thr[j], M[j]
        lo, hi, fhi = max(nlo, cmin), min(nhi, cmax + 1), nf
        it += 1
    c = lo
    cz = np.array([c ^ ((c >> 31) & 0x7FFFFFFF)], np.int32).view(np.float32)[0]
    ec = np.float32(np.exp(np.float32(cz - m)))
    kt = max(np.ceil(np.float32((P - fhi) / ec)), 1.0) if p < 1.0 else np.inf
    # thread-major order
    numVec = V // vw
    order = []
    for t in range(threads):
        for s in range((numVec + threads - 1) // threads):
            vi = s * threads + t
            if vi < numVec:
                order += list(range(vi * vw, vi * vw + vw))
        for j in range((V % vw + threads - 1) // threads):
            el = j * threads + t
            if el < V % vw:
                order.append(numVec * vw + el)
    seen = 0; nuc = []
    for i in order:
        if k[i] > c: nuc.append(i)
        elif k[i] == c:
            if seen < kt: nuc.append(i)
            seen += 1
    w = e[nuc].astype(np.float64)
    target = u * w.sum()
    idx = np.searchsorted(np.cumsum(w), target, side='right')
    return nuc[min(idx, len(nuc) - 1)], set(nuc), it

def nucleus(x, p, T):
    pr = np.exp((x / T - (x / T).max()).astype(np.float64)); pr /= pr.sum()
    o = np.argsort(-pr, kind='stable'); cs = np.cumsum(pr[o])
    kk = min(int((cs < p).sum()) + 1, len(x))
    return set(o[:kk].tolist()), pr, pr[o[kk - 1]]

bad = 0; its = []
for trial in range(300):
    V = int(rng.choice([7, 100, 1001, 4096, 128256 // 8]))
    x = (rng.standard_normal(V) * rng.choice([0.5, 2, 5])).astype(np.float32)
    if trial % 5 == 0:
        x = np.round(x)  # many ties
    if trial % 7 == 0:
        x[:] = 1.0
    p = float(rng.choice([0.1, 0.5, 0.9, 0.95, 1.0])); T = float(rng.choice([0.7, 1.0, 2.0]))
    K = int(rng.choice([1, 3, 7, 15]))
    tok, nuc, it = model(x, p, T, 64, 4, K, rng.random())
    its.append(it)
    ref, pr, bound = nucleus(x, p, T)
    # same size, same mass (ties may pick different members)
    ok = tok in nuc and (len(nuc) == len(ref) or abs(len(nuc) - len(ref)) <= 1 and np.isclose(pr[list(nuc)].sum(), pr[list(ref)].sum(), atol=1e-5)) and all(pr[i] >= bound * (1 - 1e-5) for i in nuc)
    if not ok:
        bad += 1
        print("mismatch V=%d p=%g T=%g K=%d nuc=%d ref=%d equal=%s rounded=%s massdiff=%.3g tokin=%s" % (V, p, T, K, len(nuc), len(ref), trial % 7 == 0, trial % 5 == 0, pr[list(nuc)].sum() - pr[list(ref)].sum(), tok in nuc))
print("bad", bad, "of 300; search passes max", max(its), "mean", np.mean(its))
