//! Plans: quoting never panics, every quoted plan verifies and round-trips through its JSON
//! view, a tampered plan never verifies, and `Plan::verify` never panics on arbitrary plans.
//!
//! The graph is the bundled example snapshot (`data/snapshot.json`, compiled in). `Debug` of
//! the input prints a repro.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use num_rational::Ratio;
use std::sync::OnceLock;
use swapzap::graph::PoolGraph;
use swapzap::plan::{Output, Plan, Step, TokenAmount};
use swapzap::route::{self, RouteRequest};
use swapzap::snapshot::Snapshot;
use swapzap::units::{PoolId, TokenId};
use swapzap::U256;

fn graph() -> &'static PoolGraph {
    static G: OnceLock<PoolGraph> = OnceLock::new();
    G.get_or_init(|| {
        let s: Snapshot = serde_json::from_str(include_str!("../../data/snapshot.json")).unwrap();
        PoolGraph::from_snapshot(&s).unwrap()
    })
}

#[derive(Debug, Arbitrary)]
struct RawStep {
    pool: u8,
    a: u8,
    b: u8,
    amount_in: [u64; 2],
    amount_out: [u64; 2],
}

#[derive(Debug, Arbitrary)]
enum Input {
    /// quote, verify, JSON round trip, then tamper with one step
    Quote {
        from: u8,
        to: u8,
        to2: Option<(u8, u8)>,
        amount: [u64; 2],
        hops: u8,
        tamper: (u8, u64, bool),
    },
    /// an arbitrary plan: verify must return, never panic
    Raw {
        input: (u8, [u64; 2]),
        steps: Vec<RawStep>,
        out: (u8, [u64; 2]),
    },
}

fn u(x: [u64; 2]) -> U256 {
    (U256::from(x[1]) << 64) | U256::from(x[0])
}

fuzz_target!(|inp: Input| {
    let g = graph();
    let nt = g.n_tokens() as u32;
    match inp {
        Input::Quote {
            from,
            to,
            to2,
            amount,
            hops,
            tamper,
        } => {
            let from = TokenId(u32::from(from) % nt);
            let to = TokenId(u32::from(to) % nt);
            let outputs = match to2 {
                Some((t, w)) => {
                    let w = u64::from(w % 99) + 1;
                    vec![
                        (to, Ratio::new(w, 100)),
                        (TokenId(u32::from(t) % nt), Ratio::new(100 - w, 100)),
                    ]
                }
                None => vec![(to, Ratio::new(1, 1))],
            };
            let mut req = RouteRequest::new(vec![(from, u(amount))], outputs);
            // 0 (refused) to 40 (above the limit: refused), and none
            req.max_hops = (hops % 42 != 41).then_some(usize::from(hops % 42));
            let Ok(plan) = route::quote(g, &req) else {
                return;
            };
            plan.verify(g).expect("a quoted plan verifies");
            assert!(plan.upper_bound.map_or(true, |b| b >= plan.value));
            // the bound's rounding part: given exactly with the bound, inside it
            match (plan.upper_bound, plan.rounding_slack) {
                (Some(b), Some(s)) => assert!(s >= 0.0 && s <= b, "slack {s} of bound {b}"),
                (None, None) => {}
                other => panic!("bound and slack {other:?}"),
            }
            let orig = plan.to_json(g).unwrap();
            let j = serde_json::to_string(&orig).unwrap();
            let back: swapzap::plan::json::PlanJson = serde_json::from_str(&j).unwrap();
            // exact fields exactly; floats (informational) to their printed precision
            assert_eq!(
                (&back.steps, &back.outputs, &back.inputs, &back.refunds),
                (&orig.steps, &orig.outputs, &orig.inputs, &orig.refunds)
            );
            assert!((back.value - orig.value).abs() <= 1e-12 * orig.value.abs());
            assert_eq!(back.rounding_slack.is_some(), orig.rounding_slack.is_some());
            if plan.steps.is_empty() || tamper.1 == 0 {
                return;
            }
            let mut p = plan.clone();
            let k = usize::from(tamper.0) % p.steps.len();
            if let Step::Swap {
                amount_in,
                amount_out,
                ..
            } = &mut p.steps[k]
            {
                if tamper.2 {
                    *amount_out = amount_out.overflowing_add(U256::from(tamper.1)).0;
                } else {
                    *amount_in = amount_in.overflowing_sub(U256::from(tamper.1)).0;
                }
            }
            assert!(p.verify(g).is_err(), "a tampered plan verified");
        }
        Input::Raw { input, steps, out } => {
            let np = g.n_pools() as u32;
            let plan = Plan {
                inputs: vec![TokenAmount {
                    token: TokenId(u32::from(input.0) % (nt + 2)),
                    amount: u(input.1),
                }],
                steps: steps
                    .iter()
                    .map(|s| Step::Swap {
                        pool: PoolId(u32::from(s.pool) % (np + 2)),
                        token_in: TokenId(u32::from(s.a) % (nt + 2)),
                        token_out: TokenId(u32::from(s.b) % (nt + 2)),
                        amount_in: u(s.amount_in),
                        amount_out: u(s.amount_out),
                    })
                    .collect(),
                outputs: vec![Output {
                    token: TokenId(u32::from(out.0) % (nt + 2)),
                    amount: u(out.1),
                    min_amount: U256::zero(),
                }],
                ..Plan::default()
            };
            let _ = plan.verify(g);
        }
    }
});
