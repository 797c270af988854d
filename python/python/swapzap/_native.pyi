"""Type stubs of the native module (PyO3). The classes are re-exported by ``swapzap``."""

from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, SupportsIndex, Tuple, Union, final

from ._errors import SwapzapError

__all__ = ["Snapshot", "Plan", "Pool", "__version__"]
__version__: str

_Json = Union[str, Mapping[str, Any]]
"""A body as a dict, or as its JSON text."""

_Token = Union[str, int]
"""A pool coin: its address, or its index in the pool's coin order."""

@final
class Snapshot:
    """A validated pool snapshot (schema of ``../shared/routing/README.md`` §2) and its routing
    graph. Immutable; safe to share between threads."""

    @staticmethod
    def from_json(text: str) -> "Snapshot":
        """Read a snapshot from JSON text. Raises ``SwapzapError`` (3000 for JSON that does not
        match the schema, 4030-4033 for bad tokens or pools, 4002 for a pool coin missing from
        the token table)."""
    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> "Snapshot":
        """Read a snapshot from a dict of the same schema."""
    @property
    def chain_id(self) -> int:
        """The chain id."""
    @property
    def sources(self) -> List[str]:
        """The liquidity source ids of the pools, sorted (the known sources of validation)."""
    def tokens(self) -> List[Dict[str, Any]]:
        """The graph's tokens, LP tokens included: ``address``, ``symbol``, ``decimals``,
        ``lp_of`` (the pool whose LP token it is, else None)."""
    def pools(self) -> List[Dict[str, Any]]:
        """The pools as given in the snapshot (dicts of the snapshot schema)."""
    def pool(self, id: str) -> "Pool":
        """One pool by id, for exact pricing."""
    def quote(
        self,
        request: _Json,
        *,
        max_hops: Optional[int] = None,
        gas_price: Optional[float] = None,
        exact_out: Optional[SupportsIndex] = None,
    ) -> "Plan":
        """Quote a spec quote body (``chainId``, ``inputTokens``, ``outputTokens``,
        ``slippageLimitPercent``, ...): validated by the library's rules, routed by
        ``route::quote``. ``max_hops`` (1 to 32) keeps the pool directions on some path of at
        most that many hops from an input to an output, a radius, not a cap on each path's
        length (default: none, and the bound is over every plan on the snapshot); ``gas_price`` (output base units per gas
        unit) prices the steps; ``exact_out`` asks for at least that many base units of the only
        output with the least input (to 1e-7 of it), the body's input amount being the most
        to spend (4006 when even that does not reach it). Raises ``SwapzapError``."""
    def quote_batch(
        self,
        requests: Iterable[_Json],
        *,
        max_hops: Optional[int] = None,
        gas_price: Optional[float] = None,
        exact_out: Optional[SupportsIndex] = None,
        return_exceptions: Optional[bool] = None,
    ) -> List[Union["Plan", SwapzapError]]:
        """Quote many bodies in parallel with the GIL released: the same plans, in the same order,
        as one by one. A bad request raises (before anything is routed) unless
        ``return_exceptions`` is true, when its ``SwapzapError`` takes its place in the list."""
    def zap(self, request: _Json, *, gas_price: Optional[float] = None) -> "Plan":
        """Plan a spec zap body with the library's ``service::zap::zap_request``: one LP output with
        proportion 1 is a zap-in (LP-to-LP from LP inputs); LP inputs with token outputs are a
        zap-out. A body without LP tokens raises ``SwapzapError`` 5011 (use ``quote``), an LP
        among several outputs 5001. ``gas_price`` prices the swap legs."""
    def validate(self, request: _Json) -> Dict[str, Any]:
        """Validate a quote body without routing it: the canonical body back, or
        ``SwapzapError`` with the code of the first rule it breaks."""

@final
class Plan:
    """An exact plan: every amount comes from integer simulation of the pools."""

    def to_dict(self) -> Dict[str, Any]:
        """Exactly the JSON that ``cargo run --example quote -- --json`` prints for the same input
        (amounts as decimal strings)."""
    def to_json(self, pretty: Optional[bool] = None) -> str:
        """The plan's JSON text; pretty (the default, ``None`` or true) is exactly the quote
        example's ``--json`` output, ``pretty=False`` one line."""
    def response(self) -> Dict[str, Any]:
        """The spec's quote response body for this plan (no ``pathId``), with the route graph."""
    def verify(self, snapshot: Snapshot, request: _Json, *, exact_out: Optional[SupportsIndex] = None, max_hops: Optional[int] = None) -> None:
        """The library's ``Plan::verify_request``: every step re-simulated exactly on
        ``snapshot``, and the plan checked against ``request`` field by field (inputs, zap fee,
        slippage, outputs and minimums, refunds, gas, value, bound). With ``exact_out`` the
        input may be less than the request's and the output must reach ``exact_out``; a plan
        quoted with ``max_hops`` is verified with the same ``max_hops`` (its swaps within the
        limit, its bound over those plans), and every swap obeys the request's source
        filters. A swap's bound is re-derived (a dual solve) and must not be below the
        router's (its rounding slack the certificate's, its price impact that of its outputs at
        the request's mid prices); a zap's must not be below the bound of the engine's own zap
        of the body (a zap without one carries none) and its price impact must be that zap's.
        Raises ``SwapzapError`` (4014 naming the field, 4013 for an exact-out
        shortfall)."""
    @property
    def value(self) -> float:
        """The objective value: base units of the output (the basket's value for several)."""
    @property
    def upper_bound(self) -> Optional[float]:
        """The dual upper bound: no plan that swaps each pool direction once gets more."""
    @property
    def gap(self) -> Optional[float]:
        """``(upper_bound - value) / upper_bound`` in [0, 1]: how far from optimal at most."""
    @property
    def rounding_slack(self) -> Optional[float]:
        """The part of ``upper_bound`` that is integer rounding a plan can win against the
        pools' float curves (a solidly fee floored, a Curve output a unit above its curve);
        None for zap plans."""
    @property
    def float_gap(self) -> Optional[float]:
        """The distance from the float model's bound ``upper_bound - rounding_slack``."""
    @property
    def price_impact(self) -> float:
        """Price impact against mid prices, as a fraction (fees included)."""
    @property
    def bound_max_hops(self) -> Optional[int]:
        """The hop limit the bound is over (None: every plan on the snapshot)."""
    @property
    def gas_price(self) -> Optional[float]:
        """The gas price the plan was chosen with (None: no gas model)."""
    @property
    def gas_units(self) -> int:
        """Gas units of the steps (0 without a gas price)."""
    @property
    def steps(self) -> List[Dict[str, Any]]:
        """The steps in execution order, as in ``to_dict()["steps"]`` with int amounts."""
    @property
    def inputs(self) -> List[Dict[str, Any]]:
        """The inputs: ``token``, ``amount`` (int)."""
    @property
    def outputs(self) -> List[Dict[str, Any]]:
        """The outputs: ``token``, ``amount``, ``min_amount`` (ints)."""
    @property
    def excluded(self) -> List[Dict[str, Any]]:
        """Pools left out because their exact swap reverted: ``pool`` (id), ``reason`` (text)."""
    @property
    def refunds(self) -> List[Dict[str, Any]]:
        """What the plan returns unspent: ``token``, ``amount`` (int)."""
    @property
    def amount_out(self) -> int:
        """The amount of the first output."""
    def to_dot(self) -> str:
        """The route as Graphviz DOT: tokens as nodes, pools as edges labelled with amounts and
        shares."""
    def to_svg(self) -> str:
        """The route as a standalone SVG picture (no Graphviz needed)."""
    def _repr_svg_(self) -> str:
        """Notebook display: the SVG picture."""
    def __len__(self) -> int:
        """Number of steps."""

@final
class Pool:
    """One pool priced exactly as its contract; values, never mutated (operations that change
    the state return the pool after)."""

    @staticmethod
    def from_dict(
        pool: Mapping[str, Any], *, decimals: Optional[Sequence[int]] = None, chain_id: Optional[int] = None
    ) -> "Pool":
        """A pool of the snapshot schema. Token decimals default to the pool's ``decimals``
        field, else 18 (Curve pools use ``rates``); ``chain_id=101`` reads base58 addresses."""
    @property
    def id(self) -> str:
        """The pool id."""
    @property
    def source(self) -> str:
        """The liquidity source id."""
    @property
    def kind(self) -> str:
        """The pool family."""
    @property
    def tokens(self) -> List[str]:
        """The coin addresses in pool order."""
    @property
    def balances(self) -> List[int]:
        """The balances in pool order."""
    @property
    def total_supply(self) -> int:
        """The LP total supply."""
    def amount_out(self, token_in: _Token, token_out: _Token, amount: SupportsIndex) -> int:
        """The contract's quote for an exact input (``getAmountOut``, ``get_dy``). Amounts are
        ints in [0, 2^256); anything else raises ``SwapzapError`` 4010."""
    def amount_in(self, token_in: _Token, token_out: _Token, amount: SupportsIndex) -> int:
        """The least input whose exact output is at least ``amount``."""
    def get_amount_in(self, token_in: _Token, token_out: _Token, amount: SupportsIndex) -> int:
        """Uniswap V2's ``getAmountIn`` (constant-product pools): one above its floor division."""
    def swap(self, token_in: _Token, token_out: _Token, amount: SupportsIndex) -> Tuple[int, "Pool"]:
        """The exact-in swap as the contract executes it: the output and the pool after."""
    def mint(self, amounts: Sequence[SupportsIndex]) -> int:
        """LP minted for depositing ``amounts`` (one per coin, pool order)."""
    def deposit(self, amounts: Sequence[SupportsIndex]) -> Tuple[int, "Pool"]:
        """LP minted and the pool after."""
    def burn(self, lp: SupportsIndex) -> List[int]:
        """Coins returned for burning ``lp`` proportionally."""
    def withdraw(self, lp: SupportsIndex) -> Tuple[List[int], "Pool"]:
        """Coins returned and the pool after."""
    def burn_one(self, lp: SupportsIndex, token: _Token) -> Tuple[int, "Pool"]:
        """Curve ``remove_liquidity_one_coin``: the coin returned and the pool after."""
    def marginal_rate(self, token_in: _Token, token_out: _Token) -> float:
        """d(out)/d(in) at zero size, fee included, raw units (a float, for plots)."""
