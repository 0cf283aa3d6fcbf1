"""What the torch.compile backend did with each node: the rows of
`hkg.explain` and the statistics of a compile."""


class NodeReport:
    """One aten node: `name`, `op` (aten.mm.default, or hkg_rmsnorm for a
    fused composition, whose `fused` lists the nodes it replaced), `where`
    ("hkg" or "eager"), `partition` (its index when in hkg), `hkg_op` (the
    hkg op it became, "view" for a reshape / transpose / slice) and
    `reason` (why it is in eager)."""

    __slots__ = ("name", "op", "where", "partition", "hkg_op", "reason", "fused", "view")

    def __init__(self, name, op, view=False, fused=None):
        self.name = name
        self.op = op
        self.view = view
        self.fused = list(fused or [])
        self.where = "eager"
        self.partition = None
        self.hkg_op = ""
        self.reason = ""

    def __repr__(self):
        return (f"<NodeReport {self.name} {self.op}: {self.where}"
                f"{' ' + self.hkg_op if self.hkg_op else ''}"
                f"{' (' + self.reason + ')' if self.reason else ''}>")


class PartitionReport:
    """One hkg partition: its nodes, the MLIR function written for it, the
    kernels it compiled to (the Program's steps), or why it runs in eager."""

    __slots__ = ("index", "nodes", "mlir", "kernels", "program", "reason")

    def __init__(self, index, nodes):
        self.index = index
        self.nodes = list(nodes)
        self.mlir = None
        self.kernels = []
        self.program = None
        self.reason = ""

    @property
    def compiled(self):
        return self.program is not None


class GraphReport:
    """One graph dynamo handed the backend."""

    def __init__(self, index, target=None):
        self.index = index
        self.target = target
        self.nodes = []
        self.partitions = []
        self.reason = ""  # why the whole graph ran in eager

    def node(self, name):
        """The row of node `name` (a fused node is also found by the name
        of any node it replaced)."""
        for n in self.nodes:
            if n.name == name or name in n.fused:
                return n
        raise KeyError(name)

    @property
    def kernels(self):
        return [k for p in self.partitions if p.compiled for k in p.kernels]

    @property
    def stats(self):
        compiled = [p for p in self.partitions if p.compiled]
        eager = [n for n in self.nodes if n.where == "eager"]
        return {
            "partitions": len(compiled),
            "kernels": sum(len(p.kernels) for p in compiled),
            "nodes_in_hkg": sum(1 for n in self.nodes if n.where == "hkg"),
            "nodes_in_eager": len(eager),
            "compute_nodes_in_eager": sum(1 for n in eager if not n.view),
        }

    def table(self):
        s = self.stats
        head = (f"graph {self.index}: {len(self.nodes)} aten nodes, "
                f"{s['nodes_in_hkg']} in hkg ({s['partitions']} partition(s), "
                f"{s['kernels']} kernel(s)), {s['nodes_in_eager']} in eager")
        if self.target:
            head += f"; target {self.target}"
        lines = [head]
        if self.reason:
            lines.append(f"  all in eager: {self.reason}")
        rows = [("node", "aten op", "where", "hkg op", "why")]
        fused = {}
        for n in self.nodes:
            where = f"hkg p{n.partition}" if n.where == "hkg" else "eager"
            rows.append((n.name, n.op, where, n.hkg_op, n.reason))
            if n.fused:
                fused[len(rows) - 1] = "replaces " + ", ".join(n.fused)
        widths = [min(max(len(r[i]) for r in rows), cap)
                  for i, cap in enumerate((32, 44, 8, 28, 0))]
        for k, r in enumerate(rows):
            cells = [r[i].ljust(widths[i]) if len(r[i]) <= widths[i] else r[i]
                     for i in range(4)]
            lines.append(("  " + "  ".join(cells) + "  " + r[4]).rstrip())
            if k in fused:
                lines.append("  " + " " * (widths[0] + 2) + fused[k])
        for p in self.partitions:
            if p.compiled:
                lines.append(f"  partition {p.index}: {len(p.nodes)} nodes -> "
                             f"{len(p.kernels)} kernel(s): {', '.join(p.kernels)}")
            else:
                lines.append(f"  partition {p.index}: {len(p.nodes)} nodes, in eager: "
                             f"{p.reason}")
        return "\n".join(lines)


class Explanation:
    """What `hkg.explain` returns: one GraphReport per graph dynamo compiled
    (several where the function has graph breaks). `str()` is the table."""

    def __init__(self, target=None):
        self.target = target
        self.graphs = []
        self.notes = []

    def new_graph(self, target=None):
        g = GraphReport(len(self.graphs), target or self.target)
        self.graphs.append(g)
        return g

    @property
    def nodes(self):
        return [n for g in self.graphs for n in g.nodes]

    def node(self, name):
        for g in self.graphs:
            try:
                return g.node(name)
            except KeyError:
                pass
        raise KeyError(name)

    @property
    def partitions(self):
        return [p for g in self.graphs for p in g.partitions]

    @property
    def kernels(self):
        return [k for g in self.graphs for k in g.kernels]

    @property
    def stats(self):
        total = {}
        for g in self.graphs:
            for k, v in g.stats.items():
                total[k] = total.get(k, 0) + v
        total["graphs"] = len(self.graphs)
        return total

    def __str__(self):
        s = self.stats
        lines = [f"hkg.explain: {s.get('graphs', 0)} graph(s), "
                 f"{s.get('partitions', 0)} hkg partition(s), "
                 f"{s.get('kernels', 0)} kernel(s), "
                 f"{s.get('nodes_in_eager', 0)} node(s) in eager"]
        lines += self.notes
        lines += [g.table() for g in self.graphs]
        return "\n".join(lines)

    def __repr__(self):
        return f"<hkg.Explanation {self.stats}>"
