//! Snapshots: loading never panics, on arbitrary bytes and on structured mutations of the
//! bundled snapshot (`data/snapshot.json`, compiled in) that get past the parser; on every
//! graph that loads, quotes never panic, every quoted plan verifies exactly, and its bound is
//! at least its value.
//!
//! The mutations rewrite numbers (reserves, fees, A, rates, decimals, ticks, liquidity) with
//! extreme or arbitrary values, drop or repeat pools and keys, and swap pool tokens, so the
//! fuzzer reaches the consistency checks, quarantine and the router, not only the JSON
//! parser. `Debug` of the input prints a repro.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use num_rational::Ratio;
use serde_json::Value;
use std::sync::OnceLock;
use swapzap::graph::PoolGraph;
use swapzap::route::{self, RouteRequest};
use swapzap::snapshot::Snapshot;
use swapzap::units::TokenId;
use swapzap::U256;

/// The bundled snapshot, parsed once per process: its JSON (what mutations start from), its
/// typed form and its graph.
struct Base {
    json: Value,
    snapshot: Snapshot,
    graph: PoolGraph,
}

fn base() -> &'static Base {
    static B: OnceLock<Base> = OnceLock::new();
    B.get_or_init(|| {
        let json: Value = serde_json::from_str(include_str!("../../data/snapshot.json")).unwrap();
        let snapshot: Snapshot = serde_json::from_value(json.clone()).unwrap();
        let graph = PoolGraph::from_snapshot(&snapshot).unwrap();
        Base {
            json,
            snapshot,
            graph,
        }
    })
}

/// `serde_json::from_value::<Snapshot>(v)` for a mutation of the bundled snapshot, without
/// deserialising again what the mutations left as it was. The derived `Deserialize` of
/// `Snapshot` reads its lists element by element, and mutations only rewrite `tokens` and
/// `pools`, so a token list equal to the bundled one, or a pool equal to one of the bundled
/// pools, deserialises to the bundled value; everything else goes through serde as before.
fn parse_mutated(v: Value) -> Option<Snapshot> {
    let b = base();
    let Value::Object(mut top) = v else {
        return serde_json::from_value(v).ok();
    };
    let top_as_bundled = top.len() == 3
        && top.get("chain_id") == b.json.get("chain_id")
        && top.contains_key("tokens")
        && top.get("pools").is_some_and(Value::is_array);
    if !top_as_bundled {
        // not reached (mutations keep the top level), but parsed as before all the same
        return serde_json::from_value(Value::Object(top)).ok();
    }
    let tokens = top.remove("tokens")?;
    let Some(Value::Array(pools)) = top.remove("pools") else {
        return None;
    };
    let tokens = if Some(&tokens) == b.json.get("tokens") {
        b.snapshot.tokens.clone()
    } else {
        serde_json::from_value(tokens).ok()?
    };
    let base_pools = b.json["pools"].as_array()?;
    let mut out = Vec::with_capacity(pools.len());
    for p in pools {
        match base_pools.iter().position(|q| *q == p) {
            Some(k) => out.push(b.snapshot.pools.get(k)?.clone()),
            None => out.push(serde_json::from_value(p).ok()?),
        }
    }
    Some(Snapshot {
        chain_id: b.snapshot.chain_id,
        tokens,
        pools: out,
    })
}

/// Numbers likely to hit a limit of some pool family.
const EXTREMES: &[&str] = &[
    "0",
    "1",
    "2",
    "1000",
    "5192296858534827628530496329220095", // 2^112 - 1
    "5192296858534827628530496329220096", // 2^112
    "340282366920938463463374607431768211455",
    "340282366920938463463374607431768211456",
    "115792089237316195423570985008687907853269984665640564039457584007913129639935",
    "115792089237316195423570985008687907853269984665640564039457584007913129639936",
    "-1",
    "887272",
    "-887272",
    "887273",
    "1461446703485210103287273052203988822378723970342", // CL max sqrt price
    "4295128739",                                        // CL min sqrt price
];

#[derive(Debug, Arbitrary)]
enum Num {
    Extreme(u8),
    Small(u16),
    Wide(u128),
    Scaled(u64, u8),
    Raw(String),
}

impl Num {
    fn text(&self) -> String {
        match self {
            Self::Extreme(i) => EXTREMES[usize::from(*i) % EXTREMES.len()].to_string(),
            Self::Small(x) => x.to_string(),
            Self::Wide(x) => x.to_string(),
            Self::Scaled(x, e) => format!("{x}{}", "0".repeat(usize::from(*e % 60))),
            Self::Raw(s) => s.clone(),
        }
    }
}

/// The fields a mutation may rewrite (on a pool, or a token for `decimals`).
const FIELDS: &[&str] = &[
    "reserves",
    "fee",
    "fee_bps",
    "a",
    "a_precision",
    "rates",
    "decimals",
    "total_supply",
    "sqrt_price_x96",
    "tick",
    "liquidity",
    "tick_spacing",
    "ticks",
    "admin_fee",
    "offpeg_fee_multiplier",
    "stable",
    "lp_token",
];

#[derive(Debug, Arbitrary)]
enum Mutation {
    /// set field `field` of pool `pool` (element `elem` of a list) to a number
    SetNum {
        pool: u8,
        field: u8,
        elem: u8,
        num: Num,
        as_json_number: bool,
    },
    /// remove a field of a pool
    Remove { pool: u8, field: u8 },
    /// set a token's decimals
    Decimals { token: u8, decimals: u16 },
    /// drop a pool
    DropPool(u8),
    /// repeat a pool (a duplicate id unless `rename`)
    Repeat { pool: u8, rename: bool },
    /// replace a token of a pool by another token of the table
    SwapToken { pool: u8, slot: u8, token: u8 },
    /// set a CL tick entry's net liquidity
    Tick { pool: u8, tick: u8, net: Num },
}

#[derive(Debug, Arbitrary)]
struct Quote {
    from: u8,
    to: u8,
    amount: [u64; 2],
    hops: u8,
}

#[derive(Debug, Arbitrary)]
enum Input {
    /// arbitrary bytes as a snapshot
    Raw(Vec<u8>),
    /// the bundled snapshot, mutated
    Mutated {
        mutations: Vec<Mutation>,
        quotes: Vec<Quote>,
    },
}

fn pick<T>(v: &mut [T], i: u8) -> Option<&mut T> {
    let n = v.len();
    if n == 0 {
        None
    } else {
        v.get_mut(usize::from(i) % n)
    }
}

fn set_num(slot: &mut Value, num: &Num, as_json_number: bool) {
    let t = num.text();
    *slot = if as_json_number {
        serde_json::from_str::<Value>(&t).unwrap_or(Value::String(t))
    } else {
        Value::String(t)
    };
}

fn mutate(snap: &mut Value, m: &Mutation) {
    let n_tokens = snap["tokens"].as_array().map_or(0, Vec::len);
    let token_addr = |snap: &Value, i: u8| -> Option<Value> {
        let toks = snap["tokens"].as_array()?;
        toks.get(usize::from(i) % toks.len().max(1))
            .map(|t| t["address"].clone())
    };
    let Some(pools) = snap["pools"].as_array_mut() else {
        return;
    };
    match m {
        Mutation::SetNum {
            pool,
            field,
            elem,
            num,
            as_json_number,
        } => {
            let Some(p) = pick(pools, *pool) else { return };
            let f = FIELDS[usize::from(*field) % FIELDS.len()];
            match p.get_mut(f) {
                Some(Value::Array(items)) => {
                    if let Some(x) = pick(items, *elem) {
                        set_num(x, num, *as_json_number);
                    }
                }
                Some(Value::Object(o)) => {
                    // a fraction fee {num, den}
                    let k = if elem % 2 == 0 { "num" } else { "den" };
                    if let Some(x) = o.get_mut(k) {
                        set_num(x, num, *as_json_number);
                    }
                }
                Some(x) => set_num(x, num, *as_json_number),
                None => {
                    let mut x = Value::Null;
                    set_num(&mut x, num, *as_json_number);
                    if let Some(o) = p.as_object_mut() {
                        o.insert(f.into(), x);
                    }
                }
            }
        }
        Mutation::Remove { pool, field } => {
            if let Some(o) = pick(pools, *pool).and_then(Value::as_object_mut) {
                o.remove(FIELDS[usize::from(*field) % FIELDS.len()]);
            }
        }
        Mutation::Decimals { token, decimals } => {
            if n_tokens > 0 {
                let k = usize::from(*token) % n_tokens;
                let token = snap["tokens"].get_mut(k).and_then(Value::as_object_mut);
                if let Some(t) = token {
                    t.insert("decimals".into(), Value::from(*decimals));
                }
            }
        }
        Mutation::DropPool(i) => {
            if !pools.is_empty() {
                let k = usize::from(*i) % pools.len();
                pools.remove(k);
            }
        }
        Mutation::Repeat { pool, rename } => {
            if let Some(p) = pick(pools, *pool) {
                let mut q = p.clone();
                if *rename {
                    let id = format!("{}-again", q["id"].as_str().unwrap_or(""));
                    if let Some(o) = q.as_object_mut() {
                        o.insert("id".into(), Value::String(id));
                    }
                }
                pools.push(q);
            }
        }
        Mutation::SwapToken { pool, slot, token } => {
            let addr = token_addr(snap, *token);
            let Some(pools) = snap["pools"].as_array_mut() else {
                return;
            };
            if let (Some(p), Some(a)) = (pick(pools, *pool), addr) {
                if let Some(toks) = p["tokens"].as_array_mut() {
                    if let Some(t) = pick(toks, *slot) {
                        *t = a;
                    }
                }
            }
        }
        Mutation::Tick { pool, tick, net } => {
            if let Some(p) = pick(pools, *pool) {
                if let Some(ticks) = p["ticks"].as_array_mut() {
                    // an earlier `Field` mutation may have replaced the tick by a number
                    if let Some(t) = pick(ticks, *tick).and_then(Value::as_object_mut) {
                        t.insert("liquidity_net".into(), Value::String(net.text()));
                    }
                }
            }
        }
    }
}

fn u(x: [u64; 2]) -> U256 {
    (U256::from(x[1]) << 64) | U256::from(x[0])
}

/// Quote on `g`: no panic; a plan verifies exactly and stays within its bound. A bound over
/// every plan (no hop limit) is checked against other feasible plans too: the same request
/// under hop caps of 1 to 3, and a smaller amount of the same input (pool outputs only grow
/// with their inputs, so a plan for less can be extended to one for the whole amount that
/// gives at least as much).
fn quote_checked(g: &PoolGraph, q: &Quote) {
    let Some((req, plan)) = quote_one(g, q) else {
        return;
    };
    let Some(ub) = plan.upper_bound.filter(|_| plan.bound_max_hops.is_none()) else {
        return;
    };
    let amount = req.inputs[0].1;
    let smaller = amount - amount / 8;
    let mut others: Vec<(String, RouteRequest)> = (1..=3)
        .map(|h| {
            let mut r = req.clone();
            r.max_hops = Some(h);
            (format!("capped at {h} hops"), r)
        })
        .collect();
    if !smaller.is_zero() && smaller < amount {
        let mut r = req.clone();
        r.inputs[0].1 = smaller;
        others.push((format!("{smaller} in"), r));
    }
    for (what, r) in others {
        if let Ok(p) = route::quote(g, &r) {
            assert!(
                p.value <= ub,
                "a plan {what} gives {}, above the bound {ub} of every plan\n{p:?}\n{plan:?}",
                p.value
            );
        }
    }
}

/// [`quote_checked`]'s own request: its plan verified and within its own bound.
fn quote_one(g: &PoolGraph, q: &Quote) -> Option<(RouteRequest, swapzap::plan::Plan)> {
    let nt = g.n_tokens() as u32;
    if nt == 0 {
        return None;
    }
    let from = TokenId(u32::from(q.from) % nt);
    let to = TokenId(u32::from(q.to) % nt);
    let amount = u(q.amount);
    let mut req = RouteRequest::new(vec![(from, amount)], vec![(to, Ratio::from_integer(1))]);
    req.max_hops = match q.hops % 8 {
        0 => None,
        h => Some(usize::from(h)),
    };
    let plan = route::quote(g, &req).ok()?;
    if let Err(e) = plan.verify(g) {
        panic!("a quoted plan does not verify: {e}\n{plan:?}");
    }
    if let Some(ub) = plan.upper_bound {
        assert!(
            plan.value <= ub,
            "plan value {} above its bound {ub}\n{plan:?}",
            plan.value
        );
    }
    Some((req, plan))
}

fuzz_target!(|inp: Input| {
    match inp {
        Input::Raw(bytes) => {
            if let Ok(s) = serde_json::from_slice::<Snapshot>(&bytes) {
                if let Ok(g) = PoolGraph::from_snapshot(&s) {
                    let q = Quote {
                        from: 0,
                        to: 1,
                        amount: [1_000_000, 0],
                        hops: 0,
                    };
                    quote_checked(&g, &q);
                }
                let _ = PoolGraph::from_snapshot_strict(&s);
            }
        }
        Input::Mutated { mutations, quotes } => {
            let quotes = quotes.iter().take(3);
            if mutations.is_empty() {
                // the bundled snapshot itself: its graph is built once per process
                for q in quotes {
                    quote_checked(&base().graph, q);
                }
                return;
            }
            let mut v = base().json.clone();
            for m in mutations.iter().take(8) {
                mutate(&mut v, m);
            }
            let Some(s) = parse_mutated(v) else {
                return;
            };
            let Ok(g) = PoolGraph::from_snapshot(&s) else {
                return;
            };
            for q in quotes {
                quote_checked(&g, q);
            }
        }
    }
});
