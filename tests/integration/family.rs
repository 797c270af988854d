//! The pool-family traits (`pool::PoolFamily`, `pool::LpFamily`): on every pool of the bundled
//! snapshots (all seven families), the verbs called generically on the family type, through
//! `Pool`'s trait impl and through `Pool`'s inherent methods give the same answers, and those
//! answers have the properties the verbs promise (the least input is least, a swap takes what
//! it is offered unless the family may take less, `swap_taken` is `exact_offer` then `swap`).
use std::collections::BTreeSet;
use swapzap::graph::PoolGraph;
use swapzap::pool::{LpFamily, Pool, PoolFamily};
use swapzap::snapshot::Snapshot;
use swapzap::{PoolError, U256};

fn graph(name: &str) -> PoolGraph {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name);
    let snap: Snapshot = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    PoolGraph::from_snapshot(&snap).unwrap()
}

/// What the swap verbs answer for `dx` of `i` into `j` (states as their balances).
type SwapAnswers = (
    Result<U256, PoolError>,
    Result<U256, PoolError>,
    Result<(U256, Vec<U256>), PoolError>,
    Result<U256, PoolError>,
    Result<(U256, U256, Vec<U256>), PoolError>,
    u64,
    bool,
);

/// The swap verbs of any family, called only through the trait.
fn swap_verbs<F: PoolFamily>(p: &F, i: usize, j: usize, dx: U256, dy: U256) -> SwapAnswers {
    (
        p.amount_out(i, j, dx),
        p.amount_in(i, j, dy),
        p.swap(i, j, dx).map(|(o, s)| (o, s.balances().to_vec())),
        p.exact_offer(i, j, dx),
        p.swap_taken(i, j, dx)
            .map(|(t, o, s)| (t, o, s.balances().to_vec())),
        p.marginal_rate(i, j).to_bits(),
        p.may_take_less(),
    )
}

/// The same through `Pool`'s inherent methods (no trait in the path).
fn inherent(p: &Pool, i: usize, j: usize, dx: U256, dy: U256) -> SwapAnswers {
    (
        Pool::amount_out(p, i, j, dx),
        Pool::amount_in(p, i, j, dy),
        Pool::swap(p, i, j, dx).map(|(o, s)| (o, s.balances().to_vec())),
        Pool::exact_offer(p, i, j, dx),
        Pool::swap_taken(p, i, j, dx).map(|(t, o, s)| (t, o, s.balances().to_vec())),
        Pool::marginal_rate(p, i, j).to_bits(),
        PoolFamily::may_take_less(p),
    )
}

/// The family value's answers (generic over its type).
fn family_answers(p: &Pool, i: usize, j: usize, dx: U256, dy: U256) -> (&'static str, SwapAnswers) {
    match p {
        Pool::ConstantProduct(f) => ("constant_product", swap_verbs(f, i, j, dx, dy)),
        Pool::Solidly(f) => ("solidly", swap_verbs(f, i, j, dx, dy)),
        Pool::StableSwap(f) => ("stableswap", swap_verbs(f, i, j, dx, dy)),
        Pool::SplTokenSwap(f) => ("spl_token_swap", swap_verbs(f, i, j, dx, dy)),
        Pool::Saber(f) => ("saber", swap_verbs(f, i, j, dx, dy)),
        Pool::Whirlpool(f) => ("whirlpool", swap_verbs(f, i, j, dx, dy)),
        Pool::ConcentratedLiquidity(f) => ("concentrated_liquidity", swap_verbs(f, i, j, dx, dy)),
        _ => panic!("a family this test does not know: {p:?}"),
    }
}

/// The LP verbs of a family, only through the trait.
type LpAnswers = (
    U256,
    Result<(U256, Vec<U256>), PoolError>,
    Result<(Vec<U256>, Vec<U256>), PoolError>,
    Result<(U256, Vec<U256>), PoolError>,
);

fn lp_verbs<F: LpFamily>(p: &F, deposit: &[U256], lp: U256) -> LpAnswers {
    (
        p.total_supply(),
        p.mint(deposit).map(|(m, s)| (m, s.balances().to_vec())),
        p.burn(lp).map(|(a, s)| (a.to_vec(), s.balances().to_vec())),
        p.burn_one(lp, 0).map(|(a, s)| (a, s.balances().to_vec())),
    )
}

fn lp_family_answers(p: &Pool, deposit: &[U256], lp: U256) -> Option<LpAnswers> {
    Some(match p {
        Pool::ConstantProduct(f) => lp_verbs(f, deposit, lp),
        Pool::Solidly(f) => lp_verbs(f, deposit, lp),
        Pool::StableSwap(f) => lp_verbs(f, deposit, lp),
        Pool::SplTokenSwap(f) => lp_verbs(f, deposit, lp),
        Pool::Saber(f) => lp_verbs(f, deposit, lp),
        _ => return None,
    })
}

#[test]
fn the_verbs_agree_across_family_trait_and_pool_on_all_seven_families() {
    let mut families = BTreeSet::new();
    let mut checked = 0usize;
    for name in ["snapshot.json", "snapshot-101.json"] {
        let g = graph(name);
        for info in g.pools() {
            let p = &info.pool;
            let n = p.n_coins();
            assert_eq!(PoolFamily::n_coins(p), n);
            assert_eq!(PoolFamily::balances(p), p.balances());
            for i in 0..n {
                for j in (0..n).filter(|j| *j != i) {
                    let bi = p.balances()[i];
                    let bj = p.balances()[j];
                    for (dx, dy) in [
                        (bi / 10_000, bj / 10_000),
                        (bi / 50, bj / 50),
                        (bi / 3, bj / 3),
                        (U256::zero(), U256::zero()),
                    ] {
                        let (family, by_family) = family_answers(p, i, j, dx, dy);
                        families.insert(family);
                        let by_trait = swap_verbs(p, i, j, dx, dy);
                        assert_eq!(by_family, by_trait, "{} {i}->{j} dx {dx}", info.id);
                        assert_eq!(by_trait, inherent(p, i, j, dx, dy), "{}", info.id);
                        check_promises(family, p, i, j, dx, dy, &by_trait);
                        checked += 1;
                    }
                }
            }
            let deposit: Vec<U256> = p.balances().iter().map(|b| *b / 1000).collect();
            let lp = LpFamily::total_supply(p) / 1000;
            match lp_family_answers(p, &deposit, lp) {
                Some(by_family) => {
                    let by_pool = lp_verbs(p, &deposit, lp);
                    assert_eq!(by_family, by_pool, "{}", info.id);
                    // (an SPL pool's mint wants the exact proportion: only its burn is asked)
                    assert!(by_pool.2.is_ok(), "{}: {by_pool:?}", info.id);
                    let spl = matches!(p, Pool::SplTokenSwap(_));
                    assert!(spl || by_pool.1.is_ok(), "{}: {by_pool:?}", info.id);
                    // one-coin withdrawal: Curve and Saber only
                    let one = matches!(p, Pool::StableSwap(_) | Pool::Saber(_));
                    assert_eq!(by_pool.3.is_ok(), one, "{}: {:?}", info.id, by_pool.3);
                }
                None => {
                    // no LP token: the pool's LP verbs refuse
                    assert!(matches!(p.mint(&deposit), Err(PoolError::Unsupported(_))));
                    assert!(matches!(p.burn(lp), Err(PoolError::Unsupported(_))));
                    assert!(matches!(p.burn_one(lp, 0), Err(PoolError::Unsupported(_))));
                }
            }
        }
    }
    let all: BTreeSet<&str> = [
        "constant_product",
        "solidly",
        "stableswap",
        "spl_token_swap",
        "saber",
        "whirlpool",
        "concentrated_liquidity",
    ]
    .into();
    assert_eq!(families, all);
    assert!(checked > 100, "{checked}");
}

/// What each verb promises, read from its answers.
fn check_promises(family: &str, p: &Pool, i: usize, j: usize, dx: U256, dy: U256, a: &SwapAnswers) {
    let (out, least, swap, offer, taken, rate, may_take_less) = a;
    assert_eq!(
        *may_take_less,
        matches!(
            family,
            "spl_token_swap" | "concentrated_liquidity" | "whirlpool"
        ),
        "{family}"
    );
    // the least input buys dy, one unit less does not
    if let Ok(x) = least {
        assert!(p.amount_out(i, j, *x).is_ok_and(|o| o >= dy), "{family}");
        if !x.is_zero() {
            let below = p.amount_out(i, j, *x - 1).map_or(true, |o| o < dy);
            assert!(below, "{family}: {x} is not the least input for {dy}");
        }
    }
    // swap pays what the quote says
    if let (Ok(o), Ok((so, _))) = (out, swap) {
        assert_eq!(o, so, "{family}");
    }
    // swap_taken is exact_offer then swap
    match (offer, taken) {
        (Ok(x), Ok((t, o, after))) => {
            assert_eq!(x, t);
            assert!(*t <= dx);
            if !*may_take_less {
                assert_eq!(*t, dx, "{family} took less than offered");
            }
            let (o2, s2) = p.swap(i, j, *t).unwrap();
            assert_eq!((o2, s2.balances().to_vec()), (*o, after.clone()));
        }
        (Err(_), Err(_)) => {}
        (Ok(x), Err(_)) => assert!(p.swap(i, j, *x).is_err()),
        (Err(e), Ok(_)) => panic!("{family}: exact_offer {e:?} but swap_taken succeeded"),
    }
    // a rate for search: finite and non-negative where the pool quotes
    let r = f64::from_bits(*rate);
    assert!(r.is_finite() && r >= 0.0, "{family}: {r}");
}
