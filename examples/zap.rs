//! A zap-in and a zap-out on the bundled snapshot (`data/snapshot.json`).
//!
//! ```sh
//! cargo run --release --example zap [-- SNAPSHOT.json]
//! ```
//!
//! 1. Zap-in: WBTC and DAI (two tokens outside the pool, any ratio) into the LP of the first
//!    WETH/USDC constant-product pool: the swap legs are routed into WETH and USDC, the target
//!    pool's own optimal swap rebalances, the mint takes the least amounts that mint the most.
//! 2. Zap-out: half of that LP into USDT (100 %), then into WETH 30 % / DAI 70 %.
//! 3. LP-to-LP: the same LP into a Curve LP.
//!
//! Every plan is checked with `Plan::verify` and printed as JSON.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects,
    clippy::print_stdout,
    clippy::print_stderr
)]

use num_rational::Ratio;
use swapzap::graph::PoolGraph;
use swapzap::plan::Plan;
use swapzap::snapshot::{PoolKind, Snapshot};
use swapzap::units::TokenId;
use swapzap::zap::{lp_to_lp, zap_in, zap_out, ZapOptions};
use swapzap::U256;

fn token(g: &PoolGraph, symbol: &str) -> TokenId {
    (0..g.n_tokens() as u32)
        .map(TokenId)
        .find(|t| g.token(*t).unwrap().symbol == symbol)
        .unwrap_or_else(|| panic!("no token {symbol}"))
}

fn units(g: &PoolGraph, t: TokenId, whole: f64) -> U256 {
    let d = g.token(t).unwrap().decimals;
    U256::from((whole * 1e6) as u64) * U256::exp10(d as usize) / U256::from(1_000_000u32)
}

fn show(g: &PoolGraph, title: &str, plan: &Plan) {
    plan.verify(g)
        .unwrap_or_else(|e| panic!("{title}: plan does not verify: {e}"));
    println!("== {title} (verified)");
    println!(
        "{}",
        serde_json::to_string_pretty(&plan.to_json(g).unwrap()).unwrap()
    );
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "data/snapshot.json".to_string());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let snap: Snapshot = serde_json::from_str(&text).unwrap();
    let g = PoolGraph::from_snapshot(&snap).unwrap();
    let (weth, usdc, usdt, dai, wbtc) = (
        token(&g, "WETH"),
        token(&g, "USDC"),
        token(&g, "USDT"),
        token(&g, "DAI"),
        token(&g, "WBTC"),
    );
    let target = g
        .pools()
        .iter()
        .position(|p| {
            p.kind == PoolKind::ConstantProduct
                && p.tokens.contains(&weth)
                && p.tokens.contains(&usdc)
        })
        .expect("a WETH/USDC constant-product pool");
    let target = swapzap::units::PoolId(target as u32);
    let lp = g.lp_token(target).unwrap();
    let opts = ZapOptions::default();

    // 1. Zap-in from two outside tokens at an arbitrary ratio.
    let inputs = [(wbtc, units(&g, wbtc, 0.5)), (dai, units(&g, dai, 7_000.0))];
    let z = zap_in(&g, &inputs, lp, &opts).unwrap();
    println!(
        "zap-in: {} LP of pool {} minted, rebalance {:?}, fee {} bps",
        z.minted,
        g.pool(target).unwrap().id,
        z.rebalance,
        z.plan.zap_fee.as_ref().map_or(0, |f| f.rate_bps)
    );
    show(&g, "zap-in WBTC + DAI -> WETH/USDC LP", &z.plan);

    // 2. Zap-out of half of it into USDT, then into WETH/DAI by 30/70.
    let half = z.minted / U256::from(2u8);
    let out1 = zap_out(&g, &[(lp, half)], &[(usdt, Ratio::new(1, 1))], &opts).unwrap();
    show(&g, "zap-out LP -> USDT", &out1);
    let out2 = zap_out(
        &g,
        &[(lp, half)],
        &[(weth, Ratio::new(3, 10)), (dai, Ratio::new(7, 10))],
        &opts,
    )
    .unwrap();
    show(&g, "zap-out LP -> WETH 30 % / DAI 70 %", &out2);

    // 3. LP-to-LP into a Curve pool, if the snapshot has one.
    if let Some(k) = g
        .pools()
        .iter()
        .position(|p| p.kind == PoolKind::Stableswap)
    {
        let curve_lp = g.lp_token(swapzap::units::PoolId(k as u32)).unwrap();
        let z2 = lp_to_lp(&g, &[(lp, half)], curve_lp, &opts).unwrap();
        println!("lp-to-lp: {} LP of pool {}", z2.minted, g.pools()[k].id);
        show(&g, "LP-to-LP WETH/USDC LP -> Curve LP", &z2.plan);
    }
}
