#!/usr/bin/env python3
"""Runs the PTX kernels of cases.json on a CUDA GPU (driver API through
ctypes, tensors from PyTorch) on random inputs and compares each output with a
float64 PyTorch reference. ref = {"op": ..., "args": [[dtype, shape], ...],
"out": [dtype, shape], ...op params}."""
import ctypes, json, math, os, re, sys
import torch

cuda = ctypes.CDLL("libcuda.so.1")
DT = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16, "i32": torch.int32, "i8": torch.int8,
      "f8E4M3FN": torch.float8_e4m3fn, "f8E5M2": torch.float8_e5m2}
# Elementwise tolerance on |got - ref| / (|ref| + 1): the output rounding
# (half an ulp: 6e-8 f32, 4.9e-4 f16, 3.9e-3 bf16) plus a few f32 roundings of
# the op's own arithmetic. Matmul outputs get the accumulation bound of
# matmul_bound() on top (check_matmul).
TOL = {"f32": 2e-5, "bf16": 1.6e-2, "f16": 2e-3}
# Norm-wise tolerance on ||got - ref|| / ||ref|| (the runtime's, docs/Runtime.md).
NORM_TOL = {"f32": 1e-5, "bf16": 1e-2, "f16": 1e-3}


def check(rc):
    if rc != 0:
        raise RuntimeError("CUDA driver error %d" % rc)


def launch(ptx, entry, grid, block, ptrs, dynamic_lds=0):
    mod = ctypes.c_void_p()
    check(cuda.cuModuleLoadData(ctypes.byref(mod), ctypes.c_char_p(ptx.encode() + b"\0")))
    fn = ctypes.c_void_p()
    check(cuda.cuModuleGetFunction(ctypes.byref(fn), mod, entry.encode()))
    if dynamic_lds > 48 * 1024:  # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        check(cuda.cuFuncSetAttribute(fn, ctypes.c_int(8), ctypes.c_int(dynamic_lds)))
    vals = [ctypes.c_void_p(p) for p in ptrs]
    params = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in vals])
    check(cuda.cuLaunchKernel(fn, *grid, *block, ctypes.c_uint(dynamic_lds), None, params, None))
    torch.cuda.synchronize()


def reference(ref, ins):
    op = ref["op"]
    xs = [t.double() for t in ins]
    if op == "elementwise":
        return eval(ref["expr"], {"torch": torch, "x": xs})
    if op == "softmax":
        return torch.softmax(xs[0], ref.get("axis", -1))
    if op in ("layernorm", "rmsnorm"):
        # Over ref["axes"] (default: the last dim); the weight and bias (which
        # ref["affine"] names, default: as many as given) have the normalized
        # dims' shape, broadcast over the dims around them.
        x = xs[0]
        axes = ref.get("axes", [x.dim() - 1])
        affine = ref.get("affine", "wb"[:len(xs) - 1])
        m = x.mean(axes, keepdim=True) if op == "layernorm" else 0
        v = ((x - m) ** 2).mean(axes, keepdim=True)
        y = (x - m) / torch.sqrt(v + ref["eps"])
        view = [d if i in axes else 1 for i, d in enumerate(x.shape)]
        i = 1
        if "w" in affine:
            y = y * xs[i].reshape(view)
            i += 1
        if "b" in affine:
            y = y + xs[i].reshape(view)
        return y
    if op == "reduce":
        x = xs[0]
        axes = ref["axes"] if "axes" in ref else list(range(x.dim() - ref["dims"], x.dim()))
        keep = ref.get("keepdim", False)
        f = {"sum": torch.sum, "max": torch.amax, "min": torch.amin}.get(ref["kind"])
        if f is None:  # prod: one axis at a time
            for a in reversed(axes):
                x = x.prod(a, keepdim=keep)
            return x
        return f(x, dim=axes, keepdim=keep)
    if op == "rope":
        x, c, s = xs
        B, S, H, D = x.shape
        pos = torch.arange(S, device=x.device) + ref["offset"]
        c = c[pos][None, :, None, :]
        s = s[pos][None, :, None, :]
        # [P, D/2] tables: entry k serves both outputs of pair k; [P, D]
        # tables: entry i serves output i.
        full = c.shape[-1] == D
        if ref["layout"] == "neox":
            a, b = x[..., : D // 2], x[..., D // 2 :]
            ca, sa, cb, sb = (c[..., : D // 2], s[..., : D // 2], c[..., D // 2 :], s[..., D // 2 :]) if full else (c, s, c, s)
            return torch.cat([a * ca - b * sa, b * cb + a * sb], -1)
        a, b = x[..., 0::2], x[..., 1::2]
        ca, sa, cb, sb = (c[..., 0::2], s[..., 0::2], c[..., 1::2], s[..., 1::2]) if full else (c, s, c, s)
        out = torch.empty_like(x)
        out[..., 0::2] = a * ca - b * sa
        out[..., 1::2] = b * cb + a * sb
        return out
    if op == "matmul_w4a16":
        return w4a16_reference(ref, ins)
    if op == "matmul":
        a, b = matmul_operands(ref, xs)
        return epilogue(ref, a @ b, xs)
    if op == "attention":
        return attention_reference(ref, xs)
    raise ValueError(op)


def w4a16_dequant(ref, w, s, z):
    """The [N, K] float64 weights of packed int4 `w` ([N, K / 2] int8: low
    nibble k = 2j, high nibble k = 2j + 1), (q - z) * s per group."""
    b = w.to(torch.int16) & 0xFF
    q = torch.stack([b & 0xF, b >> 4], dim=-1).reshape(w.shape[0], -1).double()
    g = ref["group_size"]
    zz = z.double().repeat_interleave(g, dim=1)
    ss = s.double().repeat_interleave(g, dim=1)
    return (q - zz) * ss


def w4a16_reference(ref, ins):
    x, w, s, z = ins
    return x.double() @ w4a16_dequant(ref, w, s, z).T


def w4a16_inputs(ref):
    """Activations randn, every weight byte uniform, zero points 0..15,
    positive scales ~ 1 / (4 sqrt(K)): outputs O(1)."""
    (dt, xs), (_, ws), (_, ss), (_, zs) = ref["args"]
    k = xs[1]
    x = torch.randn(xs, device="cuda").to(DT[dt])
    w = torch.randint(-128, 128, ws, device="cuda", dtype=torch.int8)
    s = ((torch.rand(ss, device="cuda") + 0.5) / (4 * k ** 0.5)).to(DT[dt])
    z = torch.randint(0, 16, zs, device="cuda", dtype=torch.int8)
    return [x, w, s, z]


def attention_reference(ref, xs):
    """softmax(q k^T * scale [+ mask] [+ causal mask: key j visible to query
    i iff j <= i + Skv - Sq]) v in float64, one (batch, head) at a time; rows
    that see no key are 0 (as hkg's reference). With layout bshd the operands
    and the result are [B, S, H, D]; the mask (xs[ref["mask_arg"]], when
    given) is [B, Hq, Sq, Skv] in every layout, any dim 1 to broadcast."""
    q, k, v = xs[:3]
    mask = xs[ref["mask_arg"]] if ref.get("mask_arg") is not None else None
    if ref.get("layout") == "bshd":
        bhsd = dict(ref, layout="bhsd", mask_arg=3 if mask is not None else None)
        q, k, v = (x.transpose(1, 2) for x in (q, k, v))
        return attention_reference(bhsd, [q, k, v] + ([mask] if mask is not None else [])).transpose(1, 2).contiguous()
    B, H, Sq, D = q.shape
    Hkv, Skv = k.shape[1], k.shape[2]
    out = torch.zeros(B, H, Sq, v.shape[3], dtype=torch.float64, device=q.device)
    if mask is not None:
        mask = mask.double().expand(B, H, Sq, Skv)
    keep = None
    if ref["causal"]:
        i = torch.arange(Sq, device=q.device)[:, None]
        j = torch.arange(Skv, device=q.device)[None, :]
        keep = j <= i + (Skv - Sq)
    for bi in range(B):
        for h in range(H):
            kh = h // (H // Hkv)
            s = q[bi, h] @ k[bi, kh].T * ref["attn_scale"]
            if mask is not None:
                s = s + mask[bi, h]
            if keep is not None:
                s = s.masked_fill(~keep, float("-inf"))
            p = torch.softmax(s, -1).nan_to_num(0.0)
            out[bi, h] = p @ v[bi, kh]
    return out


def attention_mask(shape, dt):
    """An additive attention mask of `shape` (its last dim the keys) in
    dtype `dt`: each row a window of visible keys (the whole row, or cut at
    either end at random) with values uniform in [-3, 1), about 1/16 of them
    -inf, -inf outside the window; about 1/16 of the rows -inf throughout
    (no key visible: the output row is 0) and 1/16 the dtype's lowest
    finite value throughout (Hugging Face's padding rows: every key equally
    weighted, no overflow to -inf)."""
    L = shape[-1]
    rows = math.prod(shape[:-1])
    dev = "cuda"
    cut_lo = torch.rand(rows, device=dev) < 0.5
    cut_hi = torch.rand(rows, device=dev) < 0.5
    lo = torch.where(cut_lo, torch.randint(0, L, (rows,), device=dev), torch.zeros(rows, dtype=torch.long, device=dev))
    span = L - lo  # >= 1
    hi = torch.where(cut_hi, lo + 1 + (torch.rand(rows, device=dev) * span).long().clamp(max=span - 1),
                     torch.full((rows,), L, dtype=torch.long, device=dev))
    j = torch.arange(L, device=dev)[None, :]
    inside = (j >= lo[:, None]) & (j < hi[:, None])
    inside &= torch.rand(rows, L, device=dev) >= 1 / 16
    inside &= (torch.rand(rows, device=dev) >= 1 / 16)[:, None]
    m = torch.rand(rows, L, device=dev) * 4 - 3
    m = m.masked_fill(~inside, float("-inf"))
    m = m.masked_fill((torch.rand(rows, device=dev) < 1 / 16)[:, None], torch.finfo(DT[dt]).min)
    return m.reshape(shape).to(DT[dt])


def run_case(dirname, case):
    ref = case["ref"]
    ptx = open(os.path.join(dirname, case["ptx"])).read()
    torch.manual_seed(0)
    ins = []
    for i, (dt, shape) in enumerate(ref["args"]):
        if i == ref.get("mask_arg"):
            ins.append(attention_mask(shape, dt))
            continue
        t = torch.randn(shape, device="cuda", dtype=torch.float32) * ref.get("scale", 1.0)
        if ref.get("positive"):
            t = t.abs() + 0.5
        ins.append(t.to(DT[dt]))
    if ref["op"] == "matmul_w4a16":
        ins = w4a16_inputs(ref)
    if ref.get("transform"):
        x = ins[0].float()
        ins[0] = eval(ref["transform"], {"torch": torch, "x": x}).to(ins[0].dtype)
    if ref.get("same_rows"):
        ins[0] = ins[0][:1].expand_as(ins[0]).contiguous()
    if ref.get("uniform_arg") is not None:
        ins[ref["uniform_arg"]] = torch.rand(ref["args"][ref["uniform_arg"]][1], device="cuda")
    odt, oshape = ref["out"]
    out = torch.full(oshape, float("nan"), device="cuda", dtype=DT[odt]) if odt != "i32" else torch.full(oshape, -7, device="cuda", dtype=torch.int32)
    if ref["op"] == "top_p":
        return check_top_p(ptx, case, ins, out)
    launch(ptx, case["entry"], case["grid"], case["block"], [t.data_ptr() for t in ins] + [out.data_ptr()],
           case.get("dynamic_lds", 0))
    if ref["op"] == "matmul" and odt == "i32":
        return check_matmul_exact(case, ins, out)
    if ref["op"] == "matmul":
        return check_matmul(case, ins, out)
    want = reference(ref, ins)
    got = out.double()
    tol = TOL[odt]
    if ref["op"] == "matmul_w4a16":
        # The weights are dequantized into the activations' 16-bit type
        # before the product (docs/Runtime.md, "W4A16's operand precision"):
        # an f32 output is as exact as that product, as hkg-run judges it.
        tol = max(tol, TOL[ref["args"][0][0]])
    err = ((got - want).abs() / (want.abs() + 1)).max().item()
    ok = err <= tol and not torch.isnan(got).any().item()
    print("%-4s %-28s %-70s max_rel_err=%.3g" % ("OK" if ok else "FAIL", case["name"], case["schedule"], err))
    return ok


def matmul_operands(ref, xs):
    a, b = xs[0], xs[1]
    if ref.get("transpose_a"):
        a = a.transpose(-1, -2)
    if ref.get("transpose_b"):
        b = b.transpose(-1, -2)
    return a, b


def epilogue(ref, acc, xs):
    if "expr" in ref:
        return eval(ref["expr"], {"torch": torch, "acc": acc, "x": xs})
    return acc


U32 = 2.0 ** -24  # unit roundoff of f32
CUBLAS_FACTOR = 4.0
# --controls: also feed outputs with planted defects (inputs rounded to TF32, the
# accumulator rounded to the input dtype, the last k dropped) through the
# matmul check; each must be rejected.
CONTROLS = "--controls" in sys.argv


def matmul_bound(schedule, a, b, n_out, dtype=None):
    """Per-element bound on |acc - A B| of the kernel's f32 accumulation.

    (|A||B|)_ij = sum_k |a_ik||b_kj| bounds every partial sum of any order.

    - FMA path (mma = none): each output is one f32 accumulator,
      acc = fma(a_k, b_k, acc) for k = 0..K-1, one round-to-nearest per k,
      so acc = sum_k a_k b_k prod_{l>=k} (1 + d_l), |d_l| <= u. Deterministic
      (Higham, Thm 3.1 / (3.5)): |err| <= gamma_K (|A||B|)_ij, gamma_K =
      K u / (1 - K u): 2.4e-4 * 2600 = 0.64 at K = 4096 for randn inputs,
      too loose to see anything. Probabilistic (Higham & Mary 2019, Thm 3.1
      and the inner-product corollary): with the d_l independent and mean
      zero (round to nearest of random data), |err| <= gamma~_K(lam)
      (|A||B|)_ij, gamma~_K(lam) = exp(lam sqrt(K) u + K u^2 / (1 - u)) - 1,
      fails with probability at most 2 K exp(-lam^2 (1 - u)^2 / 2) per
      element. lam is set so that this summed over all n_out elements is
      <= 1e-6: lam = sqrt(2 ln(2 K n_out / 1e-6)) / (1 - u), 8.9 for
      4096^3. Bound at 4096^3: 8.9 * 64 * 6e-8 * 2600 = 0.09 absolute.
      (The expected error is far below: ~0.43 u sqrt(sum_k s_k^2), s_k the
      partial sums, 1e-4 for 4096^3; matmul_error_model.py.)
    - Matrix-core paths (mma_*): the hardware does not round to nearest
      (products are aligned to the largest exponent with truncation and the
      block sum is normalised toward zero; Fasi, Higham, Mikaitis, Pranesh
      2021), so the errors are biased and only the deterministic bound holds:
      per block of >= 4 products two truncations of at most 2u each relative
      to |c| + sum |a_i b_i| <= (|A||B|)_ij, i.e. <= K u (|A||B|)_ij in all,
      which is gamma_K(u) to first order.
    - 3xTF32 (mma_16x8x8_tf32x3, f32 inputs; docs/Matmul.md): three such
      MMAs per product, 3 K u, and what the split leaves out of each
      product (a_small b_small and the small terms' own rounding), at most
      3 * 2^-22 (1 + 2^-10) |a||b| < 12.02 u |a||b|; with tf32_split =
      trunc (wgmma_64x128x8_tf32x3: big truncated) < 32.02 u |a||b|.
    - fp8 wgmma (sm_90): the products are exact, but the tensor core keeps
      its fp8 sums in a narrower accumulator than f32 (about 14 bits,
      DeepSeek-V3 report, arXiv 2412.19437, 3.3.2; taken as 13, e8m13):
      the matrix-core model above with UACC = 2^-13 for u, K UACC. With
      wgmma_promote = 1 each K step of tile_k values is summed from zero
      that way and added to the running f32 sums: tile_k UACC + (K /
      tile_k) u. Vacuous at large K for random data (the check then rests
      on the comparison with cuBLAS's fp8 GEMM in the same mode).
    """
    K = a.shape[-1]
    absab = a.abs() @ b.abs()
    if fp8_wgmma(schedule, dtype):
        if "wgmma_promote = 1" in schedule:
            tk = int(re.search(r"tile_k = (\d+)", schedule).group(1))
            gam = min(tk, K) * UACC_FP8 + math.ceil(K / tk) * U32
        else:
            gam = K * UACC_FP8
    elif "mma = none" in schedule:
        lam = math.sqrt(2 * math.log(2 * K * n_out / 1e-6)) / (1 - U32)
        gam = math.expm1(lam * math.sqrt(K) * U32 + K * U32 * U32 / (1 - U32))
    elif "_tf32x3" in schedule:
        # tf32_split = trunc (the wgmma form): a - big < 2^-10 |a| and the
        # small term's rounding 2^-21 |a|, so 2^-20 + 2 * 2^-21 (1 + 2^-10).
        split = 32.02 if "tf32_split = trunc" in schedule else 12.02
        gam = (3 * K + split) * U32 / (1 - 3 * K * U32)
    else:
        gam = K * U32 / (1 - K * U32)
    return gam * absab, gam


def seq_fma_emulation(a, b):
    """The FMA path's arithmetic on the device: acc = f32(a_k * b_k + acc)
    for k in order, the product and sum in float64 (a product of two f32 is
    exact in float64; the double rounding differs from one fma only when the
    sum lands on an f32 midpoint)."""
    a64, b64 = a.double(), b.double()
    acc = torch.zeros(a.shape[:-1] + (b.shape[-1],), dtype=torch.float32, device=a.device)
    for k in range(a.shape[-1]):
        acc = (acc.double() + a64[..., :, k:k + 1] * b64[..., k:k + 1, :]).float()
    return acc


UACC_FP8 = 2.0 ** -13  # sm_90 fp8 wgmma's accumulator (matmul_bound)
FP8 = (torch.float8_e4m3fn, torch.float8_e5m2)


def fp8_wgmma(schedule, dtype):
    """fp8 operands on sm_90's wgmma: sums in the tensor core's narrower
    accumulator (promoted into f32 each K step with wgmma_promote = 1)."""
    return dtype in FP8 and "mma = wgmma_" in schedule


def scaled_mm_acc(a, b, fast):
    """cuBLAS's fp8 GEMM (torch._scaled_mm, unit scales, f32 result) in the
    given accumulation mode: use_fast_accum = fast (the fp8 sums kept in the
    tensor core's accumulator) or promoted into f32 (cuBLAS's default).
    cuBLAS has no e5m2 x e5m2 GEMM: such operands are rounded to e4m3 (its
    error is then measured against the float64 product of those roundings).
    Dims are zero-padded to multiples of 16 (zeros add nothing). Returns the
    accumulator and the operands it multiplied."""
    e4 = torch.float8_e4m3fn
    a4 = a if a.dtype == e4 else a.float().to(e4)
    b4 = b if b.dtype == e4 else b.float().to(e4)
    (m, k), n = a4.shape, b4.shape[1]
    up = lambda x: (x + 15) // 16 * 16
    pa = torch.zeros(up(m), up(k), device=a.device)
    pa[:m, :k] = a4.float()
    pb = torch.zeros(up(n), up(k), device=a.device)  # B as [N, K]: column-major for cuBLAS
    pb[:n, :k] = b4.float().t()
    one = torch.ones((), device=a.device)
    out = torch._scaled_mm(pa.to(e4), pb.to(e4).t(), scale_a=one, scale_b=one, out_dtype=torch.float32,
                           use_fast_accum=fast)
    how = "scaled_mm %s%s" % ("fast" if fast else "promoted", "" if a4 is a and b4 is b else ", e4m3 roundings")
    return out[:m, :n], how, a4, b4


def cublas_acc(a, b):
    """cuBLAS on the same inputs, f32 accumulation and f32 result, no TF32.
    f16/bf16 inputs: the tensor-core GEMM with out_dtype=f32 where torch has
    it, else the f32 GEMM of the (exactly) widened inputs."""
    if a.dtype == torch.float32:
        return torch.matmul(a, b), "sgemm"
    try:
        f = torch.bmm if a.dim() == 3 else torch.mm
        return f(a, b, out_dtype=torch.float32), "%s->f32" % str(a.dtype)[6:]
    except (TypeError, RuntimeError):
        return torch.matmul(a.float(), b.float()), "sgemm(widened)"


def to_tf32(x):
    """f32 rounded to nearest even at TF32's 10 mantissa bits (finite x)."""
    bits = x.contiguous().view(torch.int32)
    bits = (bits + 0xFFF + ((bits >> 13) & 1)) & ~0x1FFF
    return bits.view(torch.float32)


def check_matmul_exact(case, ins, out):
    """i8 operands, i32 result: the exact sums (float64 holds them exactly
    while |sum| < 2^53)."""
    ref = case["ref"]
    a, b = matmul_operands(ref, [t.double() for t in ins])
    want = epilogue(ref, a @ b, [t.double() for t in ins])
    got = out.double()
    wrong = (got != want).sum().item()
    ok = wrong == 0
    print("%-4s %-28s %-70s wrong=%d of %d (exact i32)" % ("OK" if ok else "FAIL", case["name"], case["schedule"],
                                                           wrong, got.numel()))
    return ok


def check_matmul(case, ins, out):
    """|got - ref| <= TOL[odt] (|ref| + 1) + D_ij elementwise, D_ij the
    accumulation bound of matmul_bound() carried through the epilogue (the
    larger change of the float64 epilogue over acc +- bound); and the error
    within CUBLAS_FACTOR of cuBLAS's on the same inputs in the same metric
    max |err| / (|ref| + 1), and norm-wise (||err|| / ||ref||) within the
    runtime's tolerance or CUBLAS_FACTOR of cuBLAS's. fp8 on wgmma: cuBLAS's
    fp8 GEMM in the kernel's accumulation mode (scaled_mm_acc)."""
    ref = case["ref"]
    odt = ref["out"][0]
    xs = [t.double() for t in ins]
    a, b = matmul_operands(ref, xs)
    acc = a @ b
    want = epilogue(ref, acc, xs)
    bound, gam = matmul_bound(case["schedule"], a, b, out.numel(), ins[0].dtype)
    prop = torch.maximum((epilogue(ref, acc + bound, xs) - want).abs(), (epilogue(ref, acc - bound, xs) - want).abs())
    allowed = TOL[odt] * (want.abs() + 1) + prop
    # cuBLAS on the same inputs; its epilogue in f32 (as the kernel's) and
    # rounded to the output dtype. fp8 on wgmma: cuBLAS's fp8 GEMM in the
    # kernel's accumulation mode (its f32 GEMM of the widened operands
    # would be a yardstick no fp8 tensor core meets).
    ta, tb = matmul_operands(ref, ins)
    xf = [t.float() for t in ins]
    cwant = want
    with torch.no_grad():
        if fp8_wgmma(case["schedule"], ta.dtype) and ta.dim() == 2:
            cacc, how, ya, yb = scaled_mm_acc(ta, tb, "wgmma_promote = 1" not in case["schedule"])
            if ya is not ta or yb is not tb:
                cwant = epilogue(ref, ya.double() @ yb.double(), xs)
        else:
            cacc, how = cublas_acc(ta, tb)
        cub = epilogue(ref, cacc, xf).to(DT[odt]).double()
    cmetric = ((cub - cwant).abs() / (cwant.abs() + 1)).max().item()
    cnorm = ((cub - cwant).norm() / cwant.norm()).item()

    def judge(got):
        diff = (got - want).abs()
        metric = (diff / (want.abs() + 1)).max().item()
        use = (diff / allowed).max().item()
        nan = torch.isnan(got).any().item()
        # Within the output-rounding tolerance the accumulation does not
        # matter (small K; bf16/f16 outputs); above it, within
        # CUBLAS_FACTOR of cuBLAS's error.
        ok = use <= 1 and not nan and (metric <= TOL[odt] or metric <= CUBLAS_FACTOR * cmetric)
        # And norm-wise: where the yardstick's own largest error is large
        # (fp8 tensor cores: 0.3 of |ref| + 1 at 4096^3), the largest error
        # alone would pass an accumulator rounded to fp8.
        norm = ((got - want).norm() / want.norm()).item()
        ok = ok and (norm <= NORM_TOL[odt] or norm <= CUBLAS_FACTOR * cnorm)
        text = "max_rel_err=%.3g cublas(%s)=%.3g ratio=%.2f bound_use=%.3g norm=%.3g cublas_norm=%.3g" % (
            metric, how, cmetric, metric / cmetric if cmetric > 0 else float("inf"), use, norm, cnorm)
        return ok, text

    got = out.double()
    ok, text = judge(got)
    if "mma = none" in case["schedule"] and ins[0].dtype == torch.float32:
        seq = epilogue(ref, seq_fma_emulation(ta, tb), xf).to(DT[odt]).double()
        smetric = ((seq - want).abs() / (want.abs() + 1)).max().item()
        same = (seq == got).double().mean().item()
        text += " seq_fma=%.3g (bitwise equal to hkg: %.4f%%)" % (smetric, 100 * same)
    print("%-4s %-28s %-70s %s" % ("OK" if ok else "FAIL", case["name"], case["schedule"], text))
    if not CONTROLS:
        return ok
    # Negative controls: outputs with a known defect must be rejected.
    bad = []
    with torch.no_grad():
        if ta.dtype == torch.float32:
            # (not cuBLAS with allow_tf32: it keeps M = 1 on the f32 cores)
            bad.append(("inputs as tf32", (to_tf32(ta).double() @ to_tf32(tb).double()).float()))
        elif odt == "f32":
            bad.append(("acc rounded to %s" % ref["args"][0][0], cacc.to(ta.dtype).float()))
        bad.append(("last k dropped", cacc - ta[..., :, -1:].float() * tb[..., -1:, :].float()))
    for label, bacc in bad:
        bok, btext = judge(epilogue(ref, bacc, xf).to(DT[odt]).double())
        print("  control %-18s %s %s" % (label, "ACCEPTED (the check is too weak)" if bok else "rejected", btext))
        ok = ok and not bok
    return ok


def nucleus(logits, p, t):
    # logits / temperature in float64, as the kernel's z = logits / T (f32,
    # correctly rounded); "scale" in the ref only scales the random logits.
    # A stable sort takes tied tokens by ascending id, as the kernel and the
    # runtime's reference do.
    probs = torch.softmax(logits.double() / t, -1)
    sp, idx = torch.sort(probs, dim=-1, descending=True, stable=True)
    cs = sp.cumsum(-1)
    k = ((cs < p).sum(-1) + 1).clamp(max=probs.shape[-1])  # smallest prefix with mass >= p (all tokens when p = 1)
    return probs, sp, idx, k


def check_top_p(ptx, case, ins, out):
    ref = case["ref"]
    logits = ins[0]
    ptrs = [t.data_ptr() for t in ins] + [out.data_ptr()]
    launch(ptx, case["entry"], case["grid"], case["block"], ptrs, case.get("dynamic_lds", 0))
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
    launch(ptx, case["entry"], case["grid"], case["block"], ptrs[:-1] + [out2.data_ptr()], case.get("dynamic_lds", 0))
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
    d = [x for x in sys.argv[1:] if not x.startswith("--")][0]
    cases = json.load(open(os.path.join(d, "cases.json")))
    torch.zeros(1, device="cuda")
    # cuBLAS at full f32 precision for the side-by-side matmul errors
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
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
