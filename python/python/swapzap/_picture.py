"""Route pictures of a plan: Graphviz DOT text and a standalone SVG (no Graphviz needed).

Both draw the route graph of the plan's quote response (``Plan.response()["route"]``, built
by the library's ``response::RouteGraph``): tokens are nodes, pool legs are edges labelled with
the pool, the amounts and the share of the token that the leg spends. Amounts are shown in
whole tokens for reading; the exact integers are in ``Plan.to_dict()``.
"""

from __future__ import annotations

from html import escape
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

_AMOUNT_KEYS = frozenset(
    {"amount", "amount_in", "amount_out", "min_amount", "lp_in", "lp_out", "amounts_in", "amounts_out"}
)


def ints(value: Any) -> Any:
    """A copy of a plan JSON fragment with its decimal-string amounts turned into ints."""
    if isinstance(value, list):
        return [ints(v) for v in value]
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in _AMOUNT_KEYS and isinstance(v, str):
                out[k] = int(v)
            elif k in _AMOUNT_KEYS and isinstance(v, list):
                out[k] = [int(x) for x in v]
            else:
                out[k] = ints(v)
        return out
    return value


def human(amount: int, decimals: Optional[int]) -> str:
    """``amount`` base units as whole tokens, at most 6 decimals (display only)."""
    if not decimals:
        return str(amount)
    whole, frac = divmod(amount, 10**decimals)
    f = str(frac).rjust(decimals, "0")[:6].rstrip("0")
    return f"{whole:,}.{f}" if f else f"{whole:,}"


def short(address: str) -> str:
    """``0x867b..ecd6``: the first 6 and last 4 characters of an address or pool id tail."""
    tail = address.rsplit(":", 1)[-1]
    return tail if len(tail) <= 12 else f"{tail[:6]}..{tail[-4:]}"


def _decimals(response: Mapping[str, Any], decimals: Mapping[str, int], address: str) -> Optional[int]:
    return decimals.get(address.lower())


def _node_name(node: Mapping[str, Any]) -> str:
    return node.get("symbol") or short(node["tokenAddress"])


def _node_amounts(response: Mapping[str, Any]) -> Dict[str, Tuple[str, int]]:
    """Address (lower case) -> ("in" | "out", amount) for the plan's inputs and outputs."""
    amounts: Dict[str, Tuple[str, int]] = {}
    for t in response.get("inputTokens", []):
        amounts[t["tokenAddress"].lower()] = ("in", int(t["amount"]))
    for t in response.get("outputTokens", []):
        amounts[t["tokenAddress"].lower()] = ("out", int(t["amount"]))
    return amounts


def _link_label(link: Mapping[str, Any], nodes: Sequence[Mapping[str, Any]], decimals: Mapping[str, int]) -> List[str]:
    src, dst = nodes[link["source"]], nodes[link["target"]]
    a_in = human(int(link["amountIn"]), decimals.get(src["tokenAddress"].lower()))
    a_out = human(int(link["amountOut"]), decimals.get(dst["tokenAddress"].lower()))
    kind = "" if link.get("kind", "swap") == "swap" else f" {link['kind']}"
    return [
        f"{link['liquiditySource']} {short(link['pool'])}{kind}",
        f"{a_in} -> {a_out}",
        f"{100.0 * float(link['share']):.2f}%",
    ]


def _dot_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_dot(response: Mapping[str, Any], decimals: Optional[Mapping[str, int]] = None) -> str:
    """Graphviz DOT of the route: ``dot -Tsvg route.dot > route.svg`` draws it."""
    decimals = decimals or {}
    route = response["route"]
    nodes = route["nodes"]
    amounts = _node_amounts(response)
    lines = [
        "digraph route {",
        "  rankdir=LR;",
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fillcolor="#f4f4f4"];',
        '  edge [fontname="Helvetica", fontsize=10];',
    ]
    for n in nodes:
        label = [_node_name(n), short(n["tokenAddress"])]
        side = amounts.get(n["tokenAddress"].lower())
        if side is not None:
            label.append(f"{side[0]}: {human(side[1], decimals.get(n['tokenAddress'].lower()))}")
        color = "#cfe3ff" if n.get("isInput") else "#d3f5d3" if n.get("isOutput") else "#f4f4f4"
        lines.append(f"  n{n['id']} [label={_dot_str(chr(10).join(label))}, fillcolor={_dot_str(color)}];")
    for link in route["links"]:
        width = 1.0 + 5.0 * float(link["share"])
        label = "\n".join(_link_label(link, nodes, decimals))
        lines.append(
            f"  n{link['source']} -> n{link['target']} [label={_dot_str(label)}, penwidth={width:.2f}];"
        )
    lines.append("}")
    return "\n".join(lines) + "\n"


def _layers(route: Mapping[str, Any]) -> Dict[int, int]:
    """Column of each node: inputs in column 0, each leg one column right of its source (legs
    in execution order), outputs in the last column."""
    nodes = route["nodes"]
    col = {n["id"]: 0 for n in nodes}
    inputs = {n["id"] for n in nodes if n.get("isInput")}
    for link in route["links"]:
        s, t = link["source"], link["target"]
        if t not in inputs:
            col[t] = max(col[t], col[s] + 1)
    last = max(col.values(), default=0)
    for n in nodes:
        if n.get("isOutput") and not n.get("isInput"):
            col[n["id"]] = max(last, 1)
    return col


def _short_amount(amount: int, decimals: Optional[int]) -> str:
    """A compact display amount: 2 decimals from 1000 up, 4 from 1, else 6 significant digits."""
    x = amount / 10 ** (decimals or 0)
    if x >= 1000:
        return f"{x:,.2f}"
    if x >= 1:
        return f"{x:.4f}"
    return f"{x:.6g}"


def _order_columns(by_col: Dict[int, List[int]], edges: Sequence[Tuple[int, int]]) -> None:
    """Order each column by the mean position of its nodes' neighbours in the column before
    (a few barycentre sweeps: fewer crossings)."""
    for _ in range(3):
        rank = {i: r for ids in by_col.values() for r, i in enumerate(ids)}
        for c in sorted(by_col)[1:]:
            def key(i: int) -> float:
                prev = [rank[s] for s, t in edges if t == i and s in rank]
                return sum(prev) / len(prev) if prev else rank[i]
            by_col[c].sort(key=key)


def _place_labels(labels: List[Tuple[float, float, List[Tuple[str, str]]]]) -> List[str]:
    """SVG text of the edge labels; labels of one gap that would overlap are pushed down."""
    out = []
    by_x: Dict[float, List[Tuple[float, List[Tuple[str, str]]]]] = {}
    for x, y, lines in labels:
        by_x.setdefault(round(x, 1), []).append((y, lines))
    for x, items in by_x.items():
        floor = -1e9
        for y, lines in sorted(items, key=lambda i: i[0]):
            y = max(y, floor)
            floor = y + 12 * len(lines) + 4
            spans = "".join(
                f'<tspan x="{x:.1f}" y="{y + 12 * k:.1f}" font-weight="{wt}">{escape(txt)}</tspan>'
                for k, (txt, wt) in enumerate(lines)
            )
            out.append(
                f'<text text-anchor="middle" fill="#1d2a3a" stroke="white" stroke-width="3" '
                f'paint-order="stroke">{spans}</text>'
            )
    return out


def to_svg(response: Mapping[str, Any], decimals: Optional[Mapping[str, int]] = None) -> str:
    """The route as a standalone SVG, left to right: inputs in the first column, outputs in the
    last; one edge per token pair, as wide as the share of the source token it carries, labelled
    with each pool, its amounts in and out and its share."""
    decimals = decimals or {}
    route = response["route"]
    nodes = route["nodes"]
    amounts = _node_amounts(response)
    col = _layers(route)
    # one edge per (source, target); its pools in execution order
    groups: Dict[Tuple[int, int], List[Mapping[str, Any]]] = {}
    for link in route["links"]:
        groups.setdefault((link["source"], link["target"]), []).append(link)
    by_col: Dict[int, List[int]] = {}
    for n in nodes:
        by_col.setdefault(col[n["id"]], []).append(n["id"])
    _order_columns(by_col, list(groups))
    node_w, node_h, col_gap, row_gap, top = 120, 50, 400, 110, 56
    rows = max((len(v) for v in by_col.values()), default=1)
    pos: Dict[int, Tuple[float, float]] = {}
    for c, ids in by_col.items():
        offset = (rows - len(ids)) * row_gap / 2.0
        for r, i in enumerate(ids):
            pos[i] = (20 + c * col_gap, top + offset + r * row_gap)
    width = 40 + max(by_col, default=0) * col_gap + node_w
    height = top + rows * row_gap + 40
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif" font-size="11">',
        '<rect width="100%" height="100%" fill="white"/>',
    ]
    summary = []
    for n in nodes:
        side = amounts.get(n["tokenAddress"].lower())
        if side is not None:
            summary.append(f"{side[0]} {human(side[1], decimals.get(n['tokenAddress'].lower()))} {_node_name(n)}")
    out.append(f'<text x="20" y="24" font-size="13" font-weight="bold">{escape("  |  ".join(summary))}</text>')
    labels = []
    for (s, t), links in groups.items():
        (x1, y1), (x2, y2) = pos[s], pos[t]
        y1 += node_h / 2
        y2 += node_h / 2
        share = min(1.0, sum(float(l["share"]) for l in links))
        w = 1.5 + 9.0 * share
        color = "#3b7dd8" if all(l.get("kind", "swap") == "swap" for l in links) else "#b8860b"
        if x2 > x1:  # forward: from the right side of the source to the left side of the target
            x1 += node_w
            mx = (x1 + x2) / 2
            path = f"M{x1:.1f},{y1:.1f} C{mx:.1f},{y1:.1f} {mx:.1f},{y2:.1f} {x2:.1f},{y2:.1f}"
            gap = col_gap - node_w
            # the label sits in the gap after the source, or before the target for a long edge
            lx = x1 + gap / 2 if col[t] - col[s] <= 1 else x2 - gap / 2
            frac = (lx - x1) / (x2 - x1)
            ly = y1 + (y2 - y1) * (3 * frac**2 - 2 * frac**3)  # on the curve, near enough
        else:  # back into an earlier column (or the same): a loop under the nodes
            x1, x2 = x1 + node_w / 2, x2 + node_w / 2
            y1, y2 = y1 + node_h / 2, y2 + node_h / 2
            bend = 50.0
            path = f"M{x1:.1f},{y1:.1f} C{x1:.1f},{y1 + bend:.1f} {x2:.1f},{y2 + bend:.1f} {x2:.1f},{y2:.1f}"
            lx, ly = (x1 + x2) / 2, max(y1, y2) + bend
        out.append(
            f'<path d="{path}" fill="none" stroke="{color}" stroke-opacity="0.45" stroke-width="{w:.2f}">'
            f"<title>{escape(_node_name(nodes[s]))} -> {escape(_node_name(nodes[t]))}</title></path>"
        )
        lines = []
        for l in links:
            a_in = _short_amount(int(l["amountIn"]), decimals.get(nodes[s]["tokenAddress"].lower()))
            a_out = _short_amount(int(l["amountOut"]), decimals.get(nodes[t]["tokenAddress"].lower()))
            kind = "" if l.get("kind", "swap") == "swap" else f" ({l['kind']})"
            lines.append((f"{l['liquiditySource']} {short(l['pool'])}{kind}", "bold"))
            lines.append((f"{a_in} -> {a_out}  {100.0 * float(l['share']):.1f}%", "normal"))
        labels.append((lx, ly - 6 * len(lines) + 9, lines))
    for n in nodes:
        x, y = pos[n["id"]]
        fill = "#cfe3ff" if n.get("isInput") else "#d3f5d3" if n.get("isOutput") else "#f4f4f4"
        out.append(f'<rect x="{x}" y="{y}" width="{node_w}" height="{node_h}" rx="8" fill="{fill}" stroke="#555"/>')
        out.append(
            f'<text x="{x + node_w / 2}" y="{y + 21}" text-anchor="middle" font-size="13" '
            f'font-weight="bold">{escape(_node_name(n))}</text>'
        )
        out.append(
            f'<text x="{x + node_w / 2}" y="{y + 38}" text-anchor="middle" fill="#555">'
            f"{escape(short(n['tokenAddress']))}</text>"
        )
    out.extend(_place_labels(labels))  # on top of edges and nodes
    out.append("</svg>")
    return "\n".join(out) + "\n"
