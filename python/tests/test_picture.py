"""Route pictures: DOT text and a standalone SVG of the plan's route graph."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET


def test_dot_names_every_leg(bundled, bundled_request):
    plan = bundled.quote(bundled_request)
    dot = plan.to_dot()
    assert dot.startswith("digraph route {") and dot.rstrip().endswith("}")
    route = plan.response()["route"]
    edges = re.findall(r"^  n(\d+) -> n(\d+) \[label=", dot, flags=re.M)
    assert [(int(a), int(b)) for a, b in edges] == [(l["source"], l["target"]) for l in route["links"]]
    assert len(edges) == len([s for s in plan.steps if s["kind"] == "swap"])
    # every pool of the plan is named in the picture, with its share
    for link in route["links"]:
        tail = link["pool"].rsplit(":", 1)[-1]
        assert f"{tail[:6]}..{tail[-4:]}" in dot
        assert f"{100 * link['share']:.2f}%" in dot
    assert "USDT" in dot and "WETH" in dot


def test_svg_is_standalone(bundled, bundled_request):
    plan = bundled.quote(bundled_request)
    svg = plan._repr_svg_()
    assert svg == plan.to_svg()
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    ns = {"s": "http://www.w3.org/2000/svg"}
    route = plan.response()["route"]
    pairs = {(l["source"], l["target"]) for l in route["links"]}
    assert len(root.findall("s:path", ns)) == len(pairs) < len(route["links"])  # parallel pools share an edge
    assert len(root.findall("s:rect", ns)) == len(route["nodes"]) + 1  # + the background
    texts = " ".join("".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "WETH" in texts and "USDT" in texts and "400 WETH" in texts
    for link in route["links"]:  # every pool is labelled
        tail = link["pool"].rsplit(":", 1)[-1]
        assert f"{tail[:6]}..{tail[-4:]}" in texts
