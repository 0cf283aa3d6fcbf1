"""torch.ops.hkg.attention: F.scaled_dot_product_attention without dropout
(with or without an `attn_mask`), as one opaque op.

The backend puts it in place of such SDPA calls in the graph dynamo gives
it, before AOT autograd traces that graph to aten: traced, SDPA becomes
whichever of torch's kernels the device and dtype select (flash, efficient,
the CPU flash kernel, or the math decomposition when none applies, as for
grouped-query heads on some builds), and hkg.attention is one op for all of
them. `attn_mask` is SDPA's: a float mask added to the scaled scores, or a
bool one (True: attend), broadcastable to [B, Hq, Sq, Skv]. In eager (a
fallback) it runs F.scaled_dot_product_attention."""

from typing import Optional

import torch
import torch.nn.functional as F

if not hasattr(torch.ops.hkg, "attention"):
    @torch.library.custom_op("hkg::attention", mutates_args=())
    def attention(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                  attn_mask: Optional[torch.Tensor], is_causal: bool,
                  scale: Optional[float], enable_gqa: bool) -> torch.Tensor:
        kwargs = {"enable_gqa": True} if enable_gqa else {}
        return F.scaled_dot_product_attention(
            query, key, value, attn_mask=attn_mask, is_causal=is_causal,
            scale=scale, **kwargs).contiguous()

    @attention.register_fake
    def _(query, key, value, attn_mask, is_causal, scale, enable_gqa):
        return query.new_empty(tuple(query.shape[:-1]) + (value.shape[-1],))
