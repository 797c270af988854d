"""The notebook example runs end to end and writes its pictures."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

from conftest import PYTHON_DIR


def test_notebook_example(tmp_path):
    r = subprocess.run(
        [sys.executable, str(PYTHON_DIR / "examples" / "notebook.py"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert "output 1,237,909.086791 USDT" in r.stdout  # the bundled quote, as `cargo run --example quote`
    ET.parse(tmp_path / "route.svg")
    assert (tmp_path / "route.dot").read_text().startswith("digraph route {")
    impacts = [float(line.split("impact")[1].split("%")[0]) for line in r.stdout.splitlines()
               if "WETH ->" in line and "impact" in line]
    assert len(impacts) == 10 and impacts == sorted(impacts)  # price impact grows with size
