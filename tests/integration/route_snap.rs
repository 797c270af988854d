//! Solidly legs at the top of their fee units. A solidly pool charges `⌊x·fee_bps/10000⌋`
//! of an input `x`, so the inputs up to the next fee unit are swapped without a fee; where a
//! token is split over several solidly pools, a plan whose legs beside the token's last one
//! (which spends what is left) each end just below a fee unit pays about one input unit less
//! fee per leg than the float split floored. On 8-decimal WBTC (one unit worth 6e14 units of
//! an 18-decimal output) that is what the plan is worth to a few parts in 1e9.

use serde_json::json;
use swapzap::graph::PoolGraph;
use swapzap::pool::Pool;
use swapzap::route::{self, RouteRequest};
use swapzap::snapshot::Snapshot;
use swapzap::units::{PoolId, TokenId};
use swapzap::U256;

/// Solidly volatile pools between the two tokens: (fee bps, reserve of the input in units of
/// 1e9, the output's price off the input's by this share).
const SOLIDLY: [(u32, u64, f64); 5] = [
    (5, 90, 0.0002),
    (30, 140, -0.001),
    (100, 60, 0.004),
    (30, 110, 0.0007),
    (5, 70, -0.0001),
];

fn addr(k: usize) -> String {
    format!("0x{:040x}", k + 1)
}

/// Token 0 an 8-decimal coin worth 6e14 units of token 1 (18 decimals); the solidly pools of
/// [`SOLIDLY`] and one x·y = k pool of 0.3 % between them.
fn market() -> PoolGraph {
    let tokens = [(0usize, 8u8), (1, 18)]
        .map(|(k, d)| json!({"address": addr(k), "symbol": format!("C{k}"), "decimals": d}));
    let reserves = |units: u64, off: f64| {
        let a = units * 1_000_000_000;
        let b = a as f64 * 6e14 * (1.0 + off);
        [a.to_string(), format!("{b:.0}")]
    };
    let mut pools: Vec<_> = SOLIDLY
        .iter()
        .enumerate()
        .map(|(i, (bps, units, off))| {
            json!({"id": format!("aerodrome:{}", addr(100 + i)), "source": "aerodrome",
                "kind": "solidly", "tokens": [addr(0), addr(1)],
                "reserves": reserves(*units, *off), "stable": false,
                "fee_bps": bps.to_string(), "decimals": [8, 18],
                "total_supply": "1000000000"})
        })
        .collect();
    pools.push(
        json!({"id": format!("uniswap-v2:{}", addr(200)), "source": "uniswap-v2",
        "kind": "constant_product", "tokens": [addr(0), addr(1)],
        "reserves": reserves(100, 0.0), "fee": {"num": "3", "den": "1000"}}),
    );
    let snap: Snapshot =
        serde_json::from_value(json!({"chain_id": 8453, "tokens": tokens, "pools": pools}))
            .unwrap();
    PoolGraph::from_snapshot(&snap).unwrap()
}

/// The exact output of pool `p` (on its snapshot state) for `x` of token 0.
fn out(g: &PoolGraph, p: PoolId, x: U256) -> U256 {
    g.pool(p).unwrap().pool.amount_out(0, 1, x).unwrap()
}

/// On several trade sizes: the plan verifies and gives at least the untrimmed plan; every
/// solidly leg but the last sits at the top of a fee unit; and such a leg one unit higher, the
/// last leg one lower, gives no more of the output when swapped exactly. (Half a fee unit
/// lower can give more: where the last leg is a solidly pool too, the units moved to it may
/// land inside its own fee unit; the snap wins about half a fee unit per leg on average, not
/// on every leg.)
#[test]
fn solidly_legs_beside_the_last_end_at_the_top_of_a_fee_unit() {
    let g = market();
    let mut snapped = 0;
    for amount in [1_234_567_891u64, 4_000_000_007, 9_876_543_211] {
        let req = RouteRequest::new(
            vec![(TokenId(0), U256::from(amount))],
            vec![(TokenId(1), num_rational::Ratio::new(1, 1))],
        );
        let plan = route::quote(&g, &req).unwrap();
        route::verify_quote(&g, &req, &plan).unwrap();
        let untrimmed = route::quote_untrimmed(&g, &req).unwrap();
        assert!(
            plan.outputs[0].amount >= untrimmed.outputs[0].amount,
            "{amount}"
        );
        let legs: Vec<(PoolId, U256, U256)> = plan
            .steps
            .iter()
            .map(|s| {
                let (p, sold, bought) = s.as_swap().unwrap();
                assert_eq!((sold.token, bought.token), (TokenId(0), TokenId(1)));
                (p, sold.amount, bought.amount)
            })
            .collect();
        assert!(legs.len() >= 3, "{amount}: {} legs", legs.len());
        let (last, x_last, y_last) = *legs.last().unwrap();
        for &(p, x, y) in &legs[..legs.len() - 1] {
            let Pool::Solidly(s) = &g.pool(p).unwrap().pool else {
                continue;
            };
            let fee = |a: U256| a * U256::from(s.fee_bps()) / U256::from(10_000u32);
            assert!(
                fee(x + 1) > fee(x),
                "{amount}: the leg through {p:?} ({x}) is not at the top of a fee unit"
            );
            snapped += 1;
            // one unit more pays one more fee unit, for at most one the last leg saves
            let moved = out(&g, p, x + 1) + out(&g, last, x_last - 1);
            assert!(
                moved <= y + y_last,
                "{amount}: {x} + 1 through {p:?}, the last leg taking the rest, gives {moved} \
                 against the plan's {}",
                y + y_last
            );
        }
    }
    assert!(
        snapped >= 6,
        "only {snapped} solidly legs beside a last one"
    );
}
