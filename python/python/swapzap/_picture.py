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


def to_svg(response: Mapping[str, Any], decimals: Optional[Mapping[str, int]] = None) -> str:
    """The route as a standalone SVG (layered left to right; edge width follows the share)."""
    decimals = decimals or {}
    route = response["route"]
    nodes = route["nodes"]
    links = route["links"]
    amounts = _node_amounts(response)
    col = _layers(route)
    by_col: Dict[int, List[int]] = {}
    for n in nodes:
        by_col.setdefault(col[n["id"]], []).append(n["id"])
    node_w, node_h, col_gap, row_gap, top = 150, 54, 330, 96, 50
    pos: Dict[int, Tuple[float, float]] = {}
    rows = max((len(v) for v in by_col.values()), default=1)
    for c, ids in by_col.items():
        offset = (rows - len(ids)) * row_gap / 2.0
        for r, i in enumerate(ids):
            pos[i] = (20 + c * col_gap, top + offset + r * row_gap)
    width = 40 + (max(by_col, default=0)) * col_gap + node_w
    height = top + rows * row_gap + 20
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
    out.append(f'<text x="20" y="22" font-size="13" font-weight="bold">{escape(" | ".join(summary))}</text>')
    # parallel legs between one pair of nodes are fanned out
    seen: Dict[Tuple[int, int], int] = {}
    for link in links:
        s, t = link["source"], link["target"]
        k = seen.get((s, t), 0)
        seen[(s, t)] = k + 1
        (x1, y1), (x2, y2) = pos[s], pos[t]
        x1 += node_w
        y1 += node_h / 2
        y2 += node_h / 2
        if x2 <= x1:  # a leg back into an earlier column: loop under the nodes
            x1, x2 = x1 - node_w / 2, x2 + node_w / 2
            y1, y2 = y1 + node_h / 2, y2 + node_h / 2
            bend = 60 + 24 * k
            path = f"M{x1:.1f},{y1:.1f} C{x1:.1f},{y1 + bend:.1f} {x2:.1f},{y2 + bend:.1f} {x2:.1f},{y2:.1f}"
            lx, ly = (x1 + x2) / 2, max(y1, y2) + bend * 0.75
        else:
            fan = (k - 0.0) * 30.0
            mx = (x1 + x2) / 2
            path = f"M{x1:.1f},{y1:.1f} C{mx:.1f},{y1 + fan:.1f} {mx:.1f},{y2 + fan:.1f} {x2:.1f},{y2:.1f}"
            lx, ly = mx, (y1 + y2) / 2 + fan * 0.75
        w = 1.0 + 7.0 * float(link["share"])
        color = "#3b7dd8" if link.get("kind", "swap") == "swap" else "#b8860b"
        out.append(f'<path d="{path}" fill="none" stroke="{color}" stroke-opacity="0.55" stroke-width="{w:.2f}"/>')
        label = _link_label(link, nodes, decimals)
        out.append(
            f'<text x="{lx:.1f}" y="{ly - 8:.1f}" text-anchor="middle" fill="#222">'
            f'<tspan x="{lx:.1f}" dy="0">{escape(label[0])}</tspan>'
            f'<tspan x="{lx:.1f}" dy="12">{escape(label[1])} ({escape(label[2])})</tspan></text>'
        )
    for n in nodes:
        x, y = pos[n["id"]]
        fill = "#cfe3ff" if n.get("isInput") else "#d3f5d3" if n.get("isOutput") else "#f4f4f4"
        out.append(
            f'<rect x="{x}" y="{y}" width="{node_w}" height="{node_h}" rx="8" fill="{fill}" stroke="#555"/>'
        )
        out.append(
            f'<text x="{x + node_w / 2}" y="{y + 21}" text-anchor="middle" font-size="13" '
            f'font-weight="bold">{escape(_node_name(n))}</text>'
        )
        out.append(
            f'<text x="{x + node_w / 2}" y="{y + 38}" text-anchor="middle" fill="#555">'
            f"{escape(short(n['tokenAddress']))}</text>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
