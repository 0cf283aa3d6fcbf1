"""The torch.compile backend's pieces (hkg/backend.py is the entry):
lowerings.py (which aten ops map to which hkg ops), emit.py (writing one
func.func of hkg ops), patterns.py (SDPA, RMSNorm and RoPE rewrites),
library.py (torch.ops.hkg.attention), report.py (explain's rows)."""
