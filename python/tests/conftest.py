"""Shared fixtures: the repository, the shared material beside it (``../shared``) and the
bundled snapshot. Vectors and instances are read from ``../shared`` at test time."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import swapzap

PYTHON_DIR = Path(__file__).resolve().parents[1]
REPO = PYTHON_DIR.parent
SHARED = Path(os.environ.get("SWAPZAP_SHARED", REPO.parent / "shared"))


def shared(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.fail(f"{path} is missing: the tests read ../shared beside the repository")
    return path


def read_jsonl(path: Path) -> list:
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="session")
def bundled() -> swapzap.Snapshot:
    return swapzap.Snapshot.from_json((REPO / "data" / "snapshot.json").read_text())


@pytest.fixture(scope="session")
def bundled_request() -> dict:
    return json.loads((REPO / "data" / "request.json").read_text())


def rust_example(name: str):
    """The binary of the crate's example `name` (built with cargo, a no-op when up to date), or
    None when neither it nor cargo is available (SWAPZAP_RUST_EXAMPLES=0 turns the comparisons
    with the examples off)."""
    if os.environ.get("SWAPZAP_RUST_EXAMPLES") == "0":
        return None
    exe = REPO / "target" / "release" / "examples" / name
    if shutil.which("cargo"):
        subprocess.run(["cargo", "build", "--release", "--example", name], cwd=REPO, check=True)
    return exe if exe.exists() else None


@pytest.fixture(scope="session")
def quote_example():
    return rust_example("quote")


@pytest.fixture(scope="session")
def zap_example():
    return rust_example("zap")
