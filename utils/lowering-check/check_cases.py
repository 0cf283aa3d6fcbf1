#!/usr/bin/env python3
"""Runs the PTX kernels of cases.json on a CUDA GPU (driver API through
ctypes, tensors from PyTorch) on random inputs and compares each output with a
float64 PyTorch reference. ref = {"op": ..., "args": [[dtype, shape], ...],
"out": [dtype, shape], ...op params}."""
import ctypes, json, math, os, sys
import torch

cuda = ctypes.CDLL("libcuda.so.1")
DT = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16, "i32": torch.int32}


def check(rc):
    if rc != 0:
        raise RuntimeError("CUDA driver error %d" % rc)


def launch(ptx, entry, grid, block, ptrs):
    mod = ctypes.c_void_p()
    check(cuda.cuModuleLoadData(ctypes.byref(mod), ctypes.c_char_p(ptx.encode() + b"\0")))
    fn = ctypes.c_void_p()
    check(cuda.cuModuleGetFunction(ctypes.byref(fn), mod, entry.encode()))
    vals = [ctypes.c_void_p(p) for p in ptrs]
    params = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in vals])
    check(cuda.cuLaunchKernel(fn, *grid, *block, 0, None, params, None))
    torch.cuda.synchronize()


def reference(ref, ins):
    op = ref["op"]
    xs = [t.double() for t in ins]
    if op == "elementwise":
        return eval(ref["expr"], {"torch": torch, "x": xs})
    if op == "softmax":
        return torch.softmax(xs[0], -1)
    if op == "layernorm":
        x = xs[0]
        m = x.mean(-1, keepdim=True)
        v = ((x - m) ** 2).mean(-1, keepdim=True)
        y = (x - m) / torch.sqrt(v + ref["eps"])
        if len(xs) > 1:
            y = y * xs[1]
        if len(xs) > 2:
            y = y + xs[2]
        return y
    if op == "rmsnorm":
        x = xs[0]
        return x / torch.sqrt((x * x).mean(-1, keepdim=True) + ref["eps"]) * xs[1]
    if op == "reduce":
        x = xs[0]
        n = ref["dims"]
        x = x.reshape(*x.shape[: x.dim() - n], -1)
        return {"sum": x.sum(-1), "max": x.amax(-1), "min": x.amin(-1), "prod": x.prod(-1)}[ref["kind"]]
    if op == "rope":
        x, c, s = xs
        B, S, H, D = x.shape
        pos = torch.arange(S, device=x.device) + ref["offset"]
        c = c[pos][None, :, None, :]
        s = s[pos][None, :, None, :]
        if ref["layout"] == "neox":
            a, b = x[..., : D // 2], x[..., D // 2 :]
            return torch.cat([a * c - b * s, b * c + a * s], -1)
        a, b = x[..., 0::2], x[..., 1::2]
        out = torch.empty_like(x)
        out[..., 0::2] = a * c - b * s
        out[..., 1::2] = b * c + a * s
        return out
    if op == "matmul":
        a, b = xs[0], xs[1]
        if ref.get("transpose_a"):
            a = a.transpose(-1, -2)
        if ref.get("transpose_b"):
            b = b.transpose(-1, -2)
        acc = a @ b
        if "expr" in ref:
            return eval(ref["expr"], {"torch": torch, "acc": acc, "x": xs})
        return acc
    raise ValueError(op)


def run_case(dirname, case):
    ref = case["ref"]
    ptx = open(os.path.join(dirname, case["ptx"])).read()
    torch.manual_seed(0)
    ins = []
    for dt, shape in ref["args"]:
        t = torch.randn(shape, device="cuda", dtype=torch.float32) * ref.get("scale", 1.0)
        if ref.get("positive"):
            t = t.abs() + 0.5
        ins.append(t.to(DT[dt]))
    if ref.get("same_rows"):
        ins[0] = ins[0][:1].expand_as(ins[0]).contiguous()
    if ref.get("uniform_arg") is not None:
        ins[ref["uniform_arg"]] = torch.rand(ref["args"][ref["uniform_arg"]][1], device="cuda")
    odt, oshape = ref["out"]
    out = torch.full(oshape, float("nan"), device="cuda", dtype=DT[odt]) if odt != "i32" else torch.full(oshape, -7, device="cuda", dtype=torch.int32)
    if ref["op"] == "top_p":
        return check_top_p(ptx, case, ins, out)
    launch(ptx, case["entry"], case["grid"], case["block"], [t.data_ptr() for t in ins] + [out.data_ptr()])
    want = reference(ref, ins)
    got = out.double()
    tol = {"f32": 2e-5, "bf16": 1.6e-2, "f16": 2e-3}[odt]
    err = ((got - want).abs() / (want.abs() + 1)).max().item()
    ok = err <= tol and not torch.isnan(got).any().item()
    print("%-4s %-28s %-70s max_rel_err=%.3g" % ("OK" if ok else "FAIL", case["name"], case["schedule"], err))
    return ok


def nucleus(logits, p, t):
    # logits / temperature in float64, as the kernel's z = logits / T (f32,
    # correctly rounded); "scale" in the ref only scales the random logits.
    # A stable sort takes tied tokens by ascending id, as the kernel and the
    # runtime's reference do.
    probs = torch.softmax(logits.double() / t, -1)
    sp, idx = torch.sort(probs, dim=-1, descending=True, stable=True)
    cs = sp.cumsum(-1)
    k = (cs < p).sum(-1) + 1  # smallest prefix with mass >= p
    return probs, sp, idx, k


def check_top_p(ptx, case, ins, out):
    ref = case["ref"]
    logits = ins[0]
    ptrs = [t.data_ptr() for t in ins] + [out.data_ptr()]
    launch(ptx, case["entry"], case["grid"], case["block"], ptrs)
    B = logits.shape[0]
    probs, sp, idx, k = nucleus(logits, ref["p"], ref["temperature"])
    ok = True
    toks = out.long()
    for r in range(B):
        tok = toks[r].item()
        kr = k[r].item()
        nuc = set(idx[r, :kr].tolist())
        # ties at the boundary: any token with the boundary probability is fine
        bound = sp[r, kr - 1].item()
        if tok not in nuc and not (0 <= tok < logits.shape[1] and probs[r, tok].item() == bound):
            ok = False
            print("  row %d: token %d not in the nucleus (size %d)" % (r, tok, kr))
            break
    # with given uniforms: the token of the nucleus CDF walked in token-id
    # order (the runtime's sampleFromNucleus), up to 1e-4 of CDF mass
    if ok and ref.get("uniform_arg") is not None:
        us = ins[ref["uniform_arg"]].double()
        wrong = 0
        for r in range(B):
            kr = k[r].item()
            w = torch.zeros_like(probs[r])
            w[idx[r, :kr]] = sp[r, :kr] / sp[r, :kr].sum()
            cdf = w.cumsum(0)
            u = us[r].item()
            tok = toks[r].item()
            lo = cdf[tok].item() - w[tok].item()
            hi = cdf[tok].item()
            if not (u >= lo - 1e-4 and u < hi + 1e-4):
                if wrong == 0:
                    want = int(((cdf <= u) & (w > 0)).sum().item())
                    want = int(torch.nonzero(w > 0)[min(want, int((w > 0).sum().item()) - 1)].item())
                    print("  row %d: token %d, the nucleus CDF in token order gives %d (u = %.6f, CDF of %d spans [%.6f, %.6f))" % (r, tok, want, u, tok, lo, hi))
                wrong += 1
        if wrong:
            ok = False
            print("  %d of %d rows differ from the token-order CDF walk" % (wrong, B))
    # determinism: the same launch again gives the same tokens
    out2 = torch.full_like(out, -7)
    launch(ptx, case["entry"], case["grid"], case["block"], ptrs[:-1] + [out2.data_ptr()])
    if not torch.equal(out, out2):
        ok = False
        print("  not deterministic")
    extra = ""
    if ref.get("histogram"):
        # every row has the same logits: the histogram over rows must follow
        # the renormalised nucleus distribution
        kr = k[0].item()
        pn = sp[0, :kr] / sp[0, :kr].sum()
        counts = torch.zeros(logits.shape[1], dtype=torch.float64, device="cuda")
        counts.index_add_(0, toks, torch.ones(B, dtype=torch.float64, device="cuda"))
        expected = torch.zeros_like(counts)
        expected[idx[0, :kr]] = pn * B
        outside = counts[expected == 0].sum().item()
        m = expected > 0
        chi2 = (((counts[m] - expected[m]) ** 2) / expected[m]).sum().item()
        dof = max(1, int(m.sum().item()) - 1)
        z = (chi2 - dof) / math.sqrt(2 * dof)
        extra = " chi2=%.1f dof=%d z=%.2f outside=%d" % (chi2, dof, z, outside)
        if outside > 0 or z > 5:
            ok = False
    print("%-4s %-28s %-70s%s" % ("OK" if ok else "FAIL", case["name"], case["schedule"], extra))
    return ok


def main():
    d = sys.argv[1]
    cases = json.load(open(os.path.join(d, "cases.json")))
    torch.zeros(1, device="cuda")
    fails = 0
    for c in cases:
        try:
            if not run_case(d, c):
                fails += 1
        except Exception as e:
            fails += 1
            print("FAIL", c["name"], "exception", e)
    print("%d/%d passed" % (len(cases) - fails, len(cases)))
    n32 = sum(1 for c in cases if c.get("index_bitwidth") == 32)
    if n32:
        print("%d of them lowered with 32-bit indices (HKG_INDEX_BITWIDTH=32)" % n32)


if __name__ == "__main__":
    main()
