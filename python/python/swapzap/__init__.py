"""swapzap from Python: the exact plans of the Rust engine, batch-fast, with route pictures.

>>> import swapzap
>>> snap = swapzap.Snapshot.from_json(open("snapshot.json").read())   # doctest: +SKIP
>>> plan = snap.quote({"chainId": 8453, "inputTokens": [...], ...})   # doctest: +SKIP
>>> plan.to_dict()          # exactly what `cargo run --example quote -- --json` prints  # doctest: +SKIP

Classes: :class:`Snapshot` (a pool snapshot and its routing graph), :class:`Plan` (an exact
plan), :class:`Pool` (one pool priced as its contract) and :class:`SwapzapError` (every error
for bad input, a ``ValueError`` with the library's stable integer ``code``).
"""

from ._errors import SwapzapError
from ._native import Plan, Pool, Snapshot, __version__

__all__ = ["Plan", "Pool", "Snapshot", "SwapzapError", "__version__"]
