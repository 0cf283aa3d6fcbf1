#!/usr/bin/env python3
"""A model of the top-p kernel's algorithm (lib/Conversion/HkgToGPU/
Sampling.cpp): integer masses, the mass histogram over bins uniform in z, the
cut's bin gathered into a list (or, past the list's capacity, key histograms
over the bin's key range), ties at the cut by token id, and the draw walked
in token-id order. It checks the algorithm, not the GPU code: the model's
exp is Python's (rounded to f32), the same function in every step, as the
kernel's is one function of z.

Against a direct definition on the same integer masses (sort by key, the
smallest prefix reaching P = ceil(p Z), ties by ascending id, the token where
the running mass in token-id order passes floor(u M)), the model must pick
the same token for every row and u, with and without the light-token rule of
branch topp-light-tokens (tokens with q <= ((1 - p) 2^S - 1) / V - 1 left out
of the histogram; the rule also asserts that every such token is outside the
nucleus).

  python3 topp_hist_model.py --self-test    # exits 1 on a difference
"""
import math
import random
import struct
import sys


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def key_of(z):
    bits = struct.unpack("<i", struct.pack("<f", z))[0]
    return bits ^ 0x7FFFFFFF if bits < 0 else bits


def mass_shift(v):
    logv = max(1, math.ceil(math.log2(max(v, 2))))
    return min(60, 62 - logv, 3 * (32 - logv) - 1)


def masses(x, temperature):
    z = [f32(f32(f32(v) / temperature) + 0.0) for v in x]
    m = max(z)
    s = mass_shift(len(x))
    q = [int(f32(math.exp(f32(zi - m))) * 2.0 ** s) if zi != -math.inf else 0 for zi in z]
    return z, q, s


def target(total, p):
    return min(max(math.ceil(float(total) * p), 1), total)


def draw(x_keys, q, cut, k_ties, u):
    nucleus = []
    seen = 0
    for i, k in enumerate(x_keys):
        if k > cut or (k == cut and seen < k_ties):
            nucleus.append(i)
        if k == cut:
            seen += 1
    mass = sum(q[i] for i in nucleus)
    d = min(int(u * float(mass)), mass - 1)
    acc = 0
    for i in nucleus:
        acc += q[i]
        if acc > d:
            return i, set(nucleus)
    raise AssertionError("the walk ended without a token")


def reference(x, p, temperature, u):
    z, q, _ = masses(x, temperature)
    keys = [key_of(zi) for zi in z]
    total = sum(q)
    P = target(total, p)
    order = sorted(range(len(x)), key=lambda i: (-keys[i], i))
    acc, nucleus = 0, []
    for i in order:
        nucleus.append(i)
        acc += q[i]
        if acc >= P:
            break
    nucleus = sorted(nucleus)
    mass = sum(q[i] for i in nucleus)
    d = min(int(u * float(mass)), mass - 1)
    acc = 0
    for i in nucleus:
        acc += q[i]
        if acc > d:
            return i, set(nucleus)


def kernel(x, p, temperature, u, bins=2048, capacity=1024, light=False):
    z, q, s = masses(x, temperature)
    v = len(x)
    keys = [key_of(zi) for zi in z]
    if p >= 1.0:
        return draw(keys, q, -2**31, 2**63 - 1, u)
    m = max(z)
    lo = min(zi for zi in z if zi != -math.inf)
    rng = f32(m - lo)
    scale = f32((bins - 1) / rng) if rng > 0 else 0.0

    def bin_of(zi):
        t = f32(f32(m - zi) * scale) if zi != -math.inf else math.inf
        t = bins - 1 if (t != t or t > bins - 1) else t
        return int(t)

    b_of = [bin_of(zi) for zi in z]
    tau = max(0, math.floor(((1.0 - p) * 2.0 ** s - 1.0) / v) - 1) if light else -1
    hist = [0] * bins
    light_mass = 0
    for i in range(v):
        if q[i] <= tau:
            light_mass += q[i]
        else:
            hist[b_of[i]] += q[i]
    total = sum(hist) + light_mass
    P = target(total, p)
    acc, cut_bin, above = 0, None, 0
    for bi, h in enumerate(hist):
        if acc < P <= acc + h:
            cut_bin, above = bi, acc
            break
        acc += h
    assert cut_bin is not None, "no bin holds the cut"
    members = [i for i in range(v) if b_of[i] == cut_bin]
    if len(members) <= capacity:
        cut = None
        for j in members:
            g = sum(q[i] for i in members if keys[i] > keys[j])
            t = sum(q[i] for i in members if keys[i] == keys[j])
            if above + g < P <= above + g + t:
                cut, f_above = keys[j], above + g
        assert cut is not None, "no list entry is the cut"
    else:
        k_lo, k_hi = min(keys[i] for i in members), max(keys[i] for i in members)
        base = above
        bits = int(math.log2(bins))
        while k_hi > k_lo:
            span = k_hi - k_lo
            shift = sum(1 for k in range(bits, 33) if span >= 1 << k)
            last = span >> shift
            sub = [0] * bins
            for i in range(v):
                if k_lo <= keys[i] <= k_hi:
                    sub[last - ((keys[i] - k_lo) >> shift)] += q[i]
            acc = base
            for si, h in enumerate(sub):
                if acc < P <= acc + h:
                    break
                acc += h
            else:
                raise AssertionError("no sub-range holds the cut")
            base = acc
            k_lo = k_lo + ((last - si) << shift)
            k_hi = min(k_hi, k_lo + (1 << shift) - 1)
        cut, f_above = k_lo, base
    q_cut = q[keys.index(cut)]
    k_ties = max(1, -(-(P - f_above) // q_cut))
    tok, nucleus = draw(keys, q, cut, k_ties, u)
    if light:
        outside = [i for i in range(v) if q[i] <= tau and i in nucleus]
        assert not outside, "a light token is in the nucleus: %s" % outside[:3]
    return tok, nucleus


def rows(rng):
    """(name, logits, p, temperature)"""
    for v in (300, 1001, 5000):
        for sigma in (0.3, 1.0, 4.0, 12.0):
            yield "randn*%g V=%d" % (sigma, v), [rng.gauss(0, sigma) for _ in range(v)], 0.9, 1.0
    yield "rounded (ties)", [float(round(rng.gauss(0, 2))) for _ in range(4000)], 0.9, 1.0
    yield "rounded/4, p=0.5", [round(rng.gauss(0, 1) * 4) / 4 for _ in range(3000)], 0.5, 1.0
    yield "constant, signed zeros", [0.0 * rng.choice((-1, 1)) for _ in range(2000)], 0.5, 1.0
    yield "masked", [(-math.inf if i % 3 == 0 else rng.gauss(0, 3)) for i in range(3000)], 0.9, 1.0
    yield "outlier, p=0.99, T=0.5", [20.0] + [rng.gauss(0, 1) for _ in range(2999)], 0.99, 0.5
    yield "uniform [-6, 6], T=0.7", [rng.uniform(-6, 6) for _ in range(4097)], 0.95, 0.7
    yield "p=1", [rng.gauss(0, 1) for _ in range(500)], 1.0, 1.0


def self_test():
    rng = random.Random(7)
    checked = differ = 0
    for name, x, p, t in rows(rng):
        us = [rng.random() for _ in range(6)] + [0.0, 1.0 - 2.0 ** -24]
        for bins, capacity in ((2048, 1024), (256, 1024), (2048, 8), (512, 4)):
            for light in (False, True):
                for u in us:
                    want, _ = reference(x, p, t, u)
                    got, _ = kernel(x, p, t, u, bins, capacity, light)
                    checked += 1
                    if got != want:
                        differ += 1
                        if differ <= 5:
                            print("DIFF %s bins=%d cap=%d light=%s u=%.6f: model %d, definition %d"
                                  % (name, bins, capacity, light, u, got, want))
    print("%s top-p model: %d draws, %d differ from the definition"
          % ("OK" if differ == 0 else "FAIL", checked, differ))
    return differ == 0


if __name__ == "__main__":
    if "--self-test" in sys.argv:
        sys.exit(0 if self_test() else 1)
    print(__doc__)
