//! Trades beyond the liquidity a snapshot knows: a concentrated-liquidity pool's tick window
//! ends, so the pool takes at most a certain input. A plan spends its input whole (within a
//! thousandth where a window is full) or the quote is `InsufficientLiquidity` (4001); it never
//! hands most of the input back as a refund.
//! Capacities come from the pool's own exact verb (`amount_out` is an error past the window),
//! found by bisection here, not from the router.

use num_rational::Ratio;
use serde_json::{json, Value};
use swapzap::graph::PoolGraph;
use swapzap::plan::Step;
use swapzap::pool::concentrated_liquidity::tick_math::sqrt_ratio_at_tick;
use swapzap::route::{quote, RouteRequest};
use swapzap::snapshot::Snapshot;
use swapzap::units::{PoolId, TokenId};
use swapzap::{RouteError, U256};

const WETH: &str = "0x1111111111111111111111111111111111111111";
const USDC: &str = "0x2222222222222222222222222222222222222222";

/// A WETH/USDC concentrated-liquidity pool near 3000 USDC per WETH with `bands` nested
/// bands of `width` spacings each side of the price, about `usd` of virtual depth: its known
/// window ends a few percent from the price.
fn cl_pool(id: &str, usd: f64, bands: i32, width: i32) -> Value {
    let spacing = 10;
    let p = 3000.0 * 1e6 / 1e18;
    let tick = (f64::ln(p) / f64::ln(1.0001)).floor() as i32;
    let band = (usd / 2.0 * p.sqrt() * 1e18 / 3000.0 / f64::from(bands)).round();
    let base = tick.div_euclid(spacing) * spacing;
    let w = spacing * width;
    let mut ticks = Vec::new();
    for j in (1..=bands).rev() {
        ticks.push(
            json!({"index": (base - j * w).to_string(), "liquidity_net": format!("{band:.0}")}),
        );
    }
    for j in 1..=bands {
        ticks.push(
            json!({"index": (base + j * w).to_string(), "liquidity_net": format!("-{band:.0}")}),
        );
    }
    json!({"id": format!("uniswap-v3:{id}"), "source": "uniswap-v3",
        "kind": "concentrated_liquidity", "tokens": [WETH, USDC], "fee": "500",
        "sqrt_price_x96": (sqrt_ratio_at_tick(tick).unwrap().to_u256() + 1).to_string(),
        "tick": tick.to_string(), "liquidity": format!("{:.0}", band * f64::from(bands)),
        "tick_spacing": spacing.to_string(), "ticks": ticks})
}

fn v2_pool(id: &str, weth: u64) -> Value {
    json!({"id": format!("uniswap-v2:{id}"), "source": "uniswap-v2", "kind": "constant_product",
        "tokens": [WETH, USDC],
        "reserves": [(U256::exp10(18) * U256::from(weth)).to_string(),
            (U256::exp10(6) * U256::from(weth * 3000)).to_string()],
        "fee": {"num": "3", "den": "1000"}})
}

fn graph(pools: Vec<Value>) -> PoolGraph {
    let snap = json!({"chain_id": 1,
        "tokens": [{"address": WETH, "decimals": 18}, {"address": USDC, "decimals": 6}],
        "pools": pools});
    let s: Snapshot = serde_json::from_value(snap).unwrap();
    PoolGraph::from_snapshot(&s).unwrap()
}

fn ids(g: &PoolGraph) -> (TokenId, TokenId) {
    (g.token_id(WETH).unwrap(), g.token_id(USDC).unwrap())
}

/// The most WETH pool `p` takes whole (its exact `amount_out` succeeds), by bisection.
fn capacity(g: &PoolGraph, p: PoolId) -> U256 {
    let pool = &g.pool(p).unwrap().pool;
    let (mut lo, mut hi) = (U256::zero(), U256::exp10(30));
    while hi - lo > U256::one() {
        let mid = (lo + hi) / 2;
        if pool.amount_out(0, 1, mid).is_ok() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

fn out_of(g: &PoolGraph, p: PoolId, x: U256) -> U256 {
    g.pool(p).unwrap().pool.amount_out(0, 1, x).unwrap()
}

fn sell(g: &PoolGraph, x: U256) -> Result<swapzap::plan::Plan, RouteError> {
    let (weth, usdc) = ids(g);
    quote(
        g,
        &RouteRequest::new(vec![(weth, x)], vec![(usdc, Ratio::from_integer(1))]),
    )
}

/// The plan spends its input whole: no refund, and the first steps' inputs sum to it.
fn spends_whole(g: &PoolGraph, plan: &swapzap::plan::Plan, x: U256) {
    plan.verify(g).unwrap();
    assert!(plan.refunds.is_empty(), "refunds {:?}", plan.refunds);
    let (weth, _) = ids(g);
    let spent = plan.steps.iter().fold(U256::zero(), |s, st| match st {
        Step::Swap {
            token_in,
            amount_in,
            ..
        } if *token_in == weth => s + *amount_in,
        _ => s,
    });
    assert_eq!(spent, x);
}

/// A market of one narrow window: the graph, the pool and its capacity.
fn one_window() -> (PoolGraph, PoolId, U256) {
    let g = graph(vec![cl_pool(
        "0x00000000000000000000000000000000000000c1",
        5e6,
        3,
        10,
    )]);
    let p = g
        .pool_id("uniswap-v3:0x00000000000000000000000000000000000000c1")
        .unwrap();
    let cap = capacity(&g, p);
    (g, p, cap)
}

#[test]
fn a_trade_beyond_the_only_pools_window_is_insufficient_liquidity_not_a_refund() {
    let (g, p, cap) = one_window();
    // a few WETH: the window is narrow
    assert!(
        cap > U256::exp10(18) && cap < U256::exp10(20),
        "capacity {cap}"
    );
    let (weth, usdc) = ids(&g);
    // before: a plan that sold the window's worth and refunded the rest of the 2x
    for x in [cap * 2, cap + cap / 100, cap * 1000] {
        let e = sell(&g, x).unwrap_err();
        assert_eq!(
            e,
            RouteError::InsufficientLiquidity {
                from: weth,
                to: usdc
            },
            "{x}"
        );
        assert_eq!(e.code(), 4001);
    }
    // within the window: the one pool's exact output, all of the input spent
    for x in [cap / 2, cap - cap / 100] {
        let plan = sell(&g, x).unwrap();
        spends_whole(&g, &plan, x);
        assert_eq!(plan.outputs[0].amount, out_of(&g, p, x));
    }
}

#[test]
fn two_windows_share_a_trade_that_neither_takes_alone_and_refuse_one_beyond_both() {
    let g = graph(vec![
        cl_pool("0x00000000000000000000000000000000000000c1", 5e6, 3, 10),
        cl_pool("0x00000000000000000000000000000000000000c2", 2e7, 2, 6),
    ]);
    let p1 = g
        .pool_id("uniswap-v3:0x00000000000000000000000000000000000000c1")
        .unwrap();
    let p2 = g
        .pool_id("uniswap-v3:0x00000000000000000000000000000000000000c2")
        .unwrap();
    let (c1, c2) = (capacity(&g, p1), capacity(&g, p2));
    let x = (c1 + c2) * 9 / 10;
    assert!(x > c1.max(c2));
    let plan = sell(&g, x).unwrap();
    spends_whole(&g, &plan, x);
    // a feasible split for comparison: the larger window filled, the rest to the other
    let (big, small, cb) = if c1 > c2 { (p1, p2, c1) } else { (p2, p1, c2) };
    let split = out_of(&g, big, cb) + out_of(&g, small, x - cb);
    let got = plan.outputs[0].amount;
    assert!(got * 1_000_000u64 >= split * 999_999u64, "{got} < {split}");
    assert!(matches!(
        sell(&g, (c1 + c2) * 3 / 2),
        Err(RouteError::InsufficientLiquidity { .. })
    ));
}

#[test]
fn a_v2_pool_takes_what_a_full_window_cannot() {
    let g = graph(vec![
        cl_pool("0x00000000000000000000000000000000000000c1", 5e6, 3, 10),
        v2_pool("0x00000000000000000000000000000000000000c2", 300),
    ]);
    let p1 = g
        .pool_id("uniswap-v3:0x00000000000000000000000000000000000000c1")
        .unwrap();
    let cap = capacity(&g, p1);
    let x = cap * 4;
    let plan = sell(&g, x).unwrap();
    spends_whole(&g, &plan, x);
    // the window is worth filling at this size: nearly all of it is used
    let into_cl = plan.steps.iter().fold(U256::zero(), |s, st| match st {
        Step::Swap {
            pool, amount_in, ..
        } if *pool == p1 => s + *amount_in,
        _ => s,
    });
    assert!(
        into_cl * 1_000_000u64 >= cap * 999_999u64 && into_cl <= cap,
        "{into_cl} of {cap}"
    );
}

#[test]
fn exact_out_with_a_cap_beyond_the_window_finds_the_least_input_inside_it() {
    let (g, p, cap) = one_window();
    let (weth, usdc) = ids(&g);
    let wanted = out_of(&g, p, cap / 2);
    let mut req = RouteRequest::new(vec![(weth, cap * 3)], vec![(usdc, Ratio::from_integer(1))]);
    req.exact_out = Some(wanted);
    let plan = quote(&g, &req).unwrap();
    plan.verify(&g).unwrap();
    let spent = plan.inputs[0].amount;
    assert!(
        plan.outputs[0].amount >= wanted && spent <= cap,
        "{spent} of {cap}"
    );
    // minimal: 1e-5 less input gives less than wanted (the pool's own verb)
    assert!(out_of(&g, p, spent - spent / 100_000) < wanted);
    // more than the whole window pays: no input is enough
    req.exact_out = Some(out_of(&g, p, cap) + 1);
    assert!(matches!(
        quote(&g, &req),
        Err(RouteError::ExactOutUnreachable { .. } | RouteError::InsufficientLiquidity { .. })
    ));
}

/// `verify_request` holds a swap to the same rule: a plan that swaps half its input and hands
/// the rest back (every step exact, the holdings balanced, so `verify` passes) is refused on
/// its refunds. Before, it passed.
#[test]
fn verify_request_refuses_a_swap_that_hands_back_part_of_its_input() {
    use swapzap::plan::{PlanRequest, TokenAmount};
    use swapzap::PlanField;
    let id = "0x00000000000000000000000000000000000000c2";
    let g = graph(vec![v2_pool(id, 300)]);
    let p = g.pool_id(&format!("uniswap-v2:{id}")).unwrap();
    let (weth, usdc) = ids(&g);
    let x = U256::exp10(18);
    let plan = sell(&g, x).unwrap();
    let req = RouteRequest::new(vec![(weth, x)], vec![(usdc, Ratio::from_integer(1))]);
    let want = PlanRequest::swap(&req);
    plan.verify_request(&g, &want).unwrap();
    let half = x / 2;
    let got = out_of(&g, p, half);
    let mut q = plan.clone();
    q.steps = vec![Step::Swap {
        pool: p,
        token_in: weth,
        token_out: usdc,
        amount_in: half,
        amount_out: got,
    }];
    let (n, d) = (*q.slippage.numer(), *q.slippage.denom());
    q.outputs[0].amount = got;
    q.outputs[0].min_amount = got * U256::from(d - n) / U256::from(d);
    q.value = swapzap::math::float::to_f64(got);
    q.refunds = vec![TokenAmount {
        token: weth,
        amount: x - half,
    }];
    q.verify(&g).unwrap();
    let e = q.verify_request(&g, &want).unwrap_err();
    assert!(
        matches!(
            e,
            RouteError::PlanMismatch {
                field: PlanField::Refunds,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(format!("{e}").contains("partial fill"), "{e}");
}
