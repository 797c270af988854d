//! Zap tests: every vector of ../shared/zap meets the rules of its README, and plan-level zaps
//! (zap-out, LP-to-LP, multi-token zap-in) verify end to end.

#[path = "../../examples/common/zapvec.rs"]
mod zapvec;

use crate::shared;

fn records() -> Vec<serde_json::Value> {
    let path = shared().join("zap").join("zap_in.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn run_family(pred: &dyn Fn(&serde_json::Value) -> bool) -> (zapvec::Tally, usize) {
    let recs: Vec<_> = records().into_iter().filter(|v| pred(v)).collect();
    let mut tally = zapvec::Tally::default();
    for v in &recs {
        assert!(zapvec::is_zap_vector(v));
        let o = zapvec::run(v);
        tally.add(v, &zapvec::check(v, &o));
    }
    (tally, recs.len())
}

fn assert_all(name: &str, pred: &dyn Fn(&serde_json::Value) -> bool, want: usize) {
    let (t, n) = run_family(pred);
    let (p, f) = t.totals();
    assert_eq!(n, want, "{name}: vector count");
    assert!(
        f == 0 && p == want,
        "{name}: {p} passed, {f} failed\n{}first failures:\n{}",
        t.summary(),
        t.failures.join("\n")
    );
}

/// Every one of the 1500 zap vectors meets the rules of ../shared/zap/README.md: exact best
/// mint and at least the keep_most leftover value (v2/solidly), within 1e-6 of the best found
/// (curve), and never over-reported (each plan is re-run through the pool types).
#[test]
fn zap_vectors_all_meet_the_readme_rules() {
    assert_all("zap_in.jsonl", &|_| true, 1500);
}

mod plans {
    use crate::shared;
    use num_rational::Ratio;
    use swapzap::graph::PoolGraph;
    use swapzap::plan::Step;
    use swapzap::pool::Pool;
    use swapzap::snapshot::{PoolKind, Snapshot};
    use swapzap::units::{PoolId, TokenId};
    use swapzap::zap::{lp_to_lp, zap_in, zap_out, ZapOptions, ZAP_FEE_BPS};
    use swapzap::U256;

    fn graph(name: &str) -> PoolGraph {
        let path = shared().join("routing/instances").join(name);
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let snap: Snapshot = serde_json::from_value(v["snapshot"].clone()).unwrap();
        PoolGraph::from_snapshot(&snap).unwrap()
    }

    /// The first pool of a kind (and solidly curve).
    fn pool_of(g: &PoolGraph, kind: PoolKind, stable: bool) -> PoolId {
        let k = g
            .pools()
            .iter()
            .position(|p| p.kind == kind && (kind != PoolKind::Solidly || p.stable == stable))
            .unwrap();
        PoolId(k as u32)
    }

    /// A token outside `p` with the most pools (so a route exists).
    fn outside(g: &PoolGraph, p: PoolId) -> TokenId {
        let coins = &g.pool(p).unwrap().tokens;
        (0..g.n_tokens() as u32)
            .map(TokenId)
            .filter(|t| !coins.contains(t) && g.pool_of_lp(*t).is_none())
            .max_by_key(|t| g.pools_of(*t).len())
            .unwrap()
    }

    /// A few units of a token: 10^decimals.
    fn unit(g: &PoolGraph, t: TokenId, n: u64) -> U256 {
        U256::from(n) * U256::exp10(g.token(t).unwrap().decimals as usize)
    }

    fn fee_of(a: U256) -> U256 {
        a * U256::from(ZAP_FEE_BPS) / U256::from(10_000u32)
    }

    /// Zap-in into each pool family from a token outside the pool: the plan verifies, routes,
    /// mints, states a 1 bps fee taken from the input, and refunds only dust.
    #[test]
    fn zap_in_from_an_outside_token_verifies_for_every_family() {
        let g = graph("pub-03-single-t10-p30.json");
        let opts = ZapOptions::default();
        for (kind, stable) in [
            (PoolKind::ConstantProduct, false),
            (PoolKind::Solidly, false),
            (PoolKind::Solidly, true),
            (PoolKind::Stableswap, false),
        ] {
            let p = pool_of(&g, kind, stable);
            let lp = g.lp_token(p).unwrap();
            let t = outside(&g, p);
            let a = unit(&g, t, 3);
            let z = zap_in(&g, &[(t, a)], lp, &opts).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
            z.plan.verify(&g).unwrap_or_else(|e| panic!("{kind:?}: {e} {:#?}", z.plan));
            assert!(z.minted > U256::zero());
            assert_eq!(z.plan.outputs.len(), 1);
            assert_eq!(z.plan.outputs[0].token, lp);
            assert_eq!(z.plan.outputs[0].amount, z.minted);
            let fee = z.plan.zap_fee.as_ref().unwrap();
            assert_eq!(fee.rate_bps, 1);
            assert_eq!(fee.taken[0].amount, fee_of(a));
            assert!(matches!(z.plan.steps.last(), Some(Step::Mint { .. })));
            assert!(z.plan.steps.iter().any(|s| matches!(s, Step::Swap { .. })));
            // Only dust comes back: every refund is below 1 bps of the routed coin's holding.
            for r in &z.plan.refunds {
                let minted_from: U256 = z
                    .plan
                    .steps
                    .iter()
                    .filter_map(|s| match s {
                        Step::Mint { amounts_in, pool, .. } if *pool == p => {
                            let k = g.coin_index(p, r.token)?;
                            Some(amounts_in[k])
                        }
                        _ => None,
                    })
                    .fold(U256::zero(), |x, y| x + y);
                assert!(
                    r.amount * U256::from(10_000u32) <= minted_from.max(U256::one()) * U256::from(2u8),
                    "{kind:?}: refund {} of token {} against a deposit of {minted_from}",
                    r.amount,
                    r.token.0
                );
            }
        }
    }

    /// Multi-token zap-in: two outside tokens and one pool coin at an arbitrary ratio.
    #[test]
    fn multi_token_zap_in_verifies() {
        let g = graph("pub-03-single-t10-p30.json");
        let p = pool_of(&g, PoolKind::ConstantProduct, false);
        let lp = g.lp_token(p).unwrap();
        let coins = g.pool(p).unwrap().tokens.clone();
        let t1 = outside(&g, p);
        let t2 = (0..g.n_tokens() as u32)
            .map(TokenId)
            .filter(|t| !coins.contains(t) && *t != t1 && g.pool_of_lp(*t).is_none())
            .max_by_key(|t| g.pools_of(*t).len())
            .unwrap();
        let inputs = [(t1, unit(&g, t1, 2)), (t2, unit(&g, t2, 5)), (coins[0], unit(&g, coins[0], 1))];
        let z = zap_in(&g, &inputs, lp, &ZapOptions::default()).unwrap();
        z.plan.verify(&g).unwrap();
        assert!(z.minted > U256::zero());
        assert_eq!(z.plan.inputs.len(), 3);
        assert_eq!(z.plan.zap_fee.as_ref().unwrap().taken.len(), 3);
    }

    /// Zap-out of an LP into one token, and into two tokens by proportions.
    #[test]
    fn zap_out_verifies_and_follows_proportions() {
        let g = graph("pub-03-single-t10-p30.json");
        for (kind, stable) in [(PoolKind::ConstantProduct, false), (PoolKind::Stableswap, false)] {
            let p = pool_of(&g, kind, stable);
            let lp = g.lp_token(p).unwrap();
            let supply = g.pool(p).unwrap().pool.total_supply();
            let lp_in = supply / U256::from(10_000u32);
            let coins = g.pool(p).unwrap().tokens.clone();
            // One output, a coin of the pool: burn, route the other coin into it.
            let plan = zap_out(&g, &[(lp, lp_in)], &[(coins[0], Ratio::new(1, 1))], &ZapOptions::default())
                .unwrap();
            plan.verify(&g).unwrap();
            assert!(matches!(plan.steps[0], Step::Burn { .. }));
            assert!(plan.outputs[0].amount > U256::zero());
            assert!(plan.refunds.is_empty());
            // Two outputs outside the pool, 30/70.
            let o1 = outside(&g, p);
            let o2 = (0..g.n_tokens() as u32)
                .map(TokenId)
                .filter(|t| !coins.contains(t) && *t != o1 && g.pool_of_lp(*t).is_none())
                .max_by_key(|t| g.pools_of(*t).len())
                .unwrap();
            let plan = zap_out(
                &g,
                &[(lp, lp_in)],
                &[(o1, Ratio::new(3, 10)), (o2, Ratio::new(7, 10))],
                &ZapOptions::default(),
            )
            .unwrap();
            plan.verify(&g).unwrap();
            assert_eq!(plan.outputs.len(), 2);
            assert!(plan.outputs.iter().all(|o| o.amount > U256::zero()));
        }
        // Bad proportions are a typed error.
        let p = pool_of(&g, PoolKind::ConstantProduct, false);
        let lp = g.lp_token(p).unwrap();
        let t = outside(&g, p);
        assert!(zap_out(&g, &[(lp, U256::one())], &[(t, Ratio::new(1, 2))], &ZapOptions::default()).is_err());
    }

    /// LP-to-LP: burn a constant-product LP and zap into a Curve LP (and the reverse).
    #[test]
    fn lp_to_lp_verifies() {
        let g = graph("pub-03-single-t10-p30.json");
        let a = pool_of(&g, PoolKind::ConstantProduct, false);
        let b = pool_of(&g, PoolKind::Stableswap, false);
        for (from, to) in [(a, b), (b, a)] {
            let lp_from = g.lp_token(from).unwrap();
            let lp_to = g.lp_token(to).unwrap();
            let amount = g.pool(from).unwrap().pool.total_supply() / U256::from(100_000u32);
            let z = lp_to_lp(&g, &[(lp_from, amount)], lp_to, &ZapOptions::default()).unwrap();
            z.plan.verify(&g).unwrap();
            assert!(matches!(z.plan.steps[0], Step::Burn { .. }));
            assert!(matches!(z.plan.steps.last(), Some(Step::Mint { .. })));
            assert!(z.minted > U256::zero());
        }
    }

    /// Errors, not panics: unknown LP, empty input, dust.
    #[test]
    fn bad_zap_requests_are_typed_errors() {
        let g = graph("pub-03-single-t10-p30.json");
        let p = pool_of(&g, PoolKind::ConstantProduct, false);
        let lp = g.lp_token(p).unwrap();
        let t = outside(&g, p);
        let opts = ZapOptions::default();
        assert!(zap_in(&g, &[(t, U256::one())], t, &opts).is_err());
        assert!(zap_in(&g, &[], lp, &opts).is_err());
        assert!(zap_in(&g, &[(t, U256::zero())], lp, &opts).is_err());
        assert!(zap_in(&g, &[(TokenId(9_999), U256::one())], lp, &opts).is_err());
        // Pools are plain values: a zap never changes the graph.
        let before: Vec<Pool> = g.pools().iter().map(|p| p.pool.clone()).collect();
        let _ = zap_in(&g, &[(t, unit(&g, t, 1))], lp, &opts);
        let after: Vec<Pool> = g.pools().iter().map(|p| p.pool.clone()).collect();
        assert_eq!(before, after);
    }
}
