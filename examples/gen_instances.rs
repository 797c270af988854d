//! Writes generated routing instances in the format of `../shared/routing/instances` (snapshot,
//! request, meta with the reference USD prices), quotes each one and writes its plan beside it,
//! for `../shared/routing/tools/score.py`, which recomputes the optimum with `opt.py`.
//!
//! ```text
//! cargo run --release --example gen_instances -- --out DIR                        # 5000, 10000, 20000 pools
//! cargo run --release --example gen_instances -- --out DIR --sizes 400,1200,2000 --per-size 9
//! for f in DIR/gen-*[0-9a-z].json; do python3 ../shared/routing/tools/score.py --json $f ${f%.json}.plan; done
//! ```
//!
//! The markets are the route bench's generator (`tests/integration/route_gen.rs`) on other
//! seeds (`900 + pools`, or `--seed S` + pools); the requests are its heavy trades (each input 1e-4 to 0.3 of the
//! deepest reserve of its token) and its normal ones (1e3 to 3e6 USD): one input, two inputs
//! (the second a tenth of another request's), or two outputs 30/70. Each line printed: the
//! instance, the quote time (the better of two quotes; the first also builds the router's
//! index), the plan's value, bound and `bound_gap`. With `--checks`, each one-output instance
//! is also quoted exact-out (half and 90 % of what the whole input gets: the plan must verify,
//! deliver at least that, spend at most the input, and 1e-5 less input quoted exact-in must
//! deliver less) and with a gas price (a typical step costing 0.1 % and 1 % of the output: the
//! plan must net no less than the request capped at 1 to 6 hops); failures are counted and
//! make the exit status 1.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects,
    clippy::print_stdout,
    clippy::print_stderr
)]

#[path = "../tests/integration/route_gen.rs"]
mod route_gen;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use swapzap::graph::PoolGraph;
use swapzap::plan::Plan;
use swapzap::route::{self, GasModel, RouteRequest};
use swapzap::service::request::QuoteRequest;
use swapzap::U256;

const USAGE: &str = "usage: gen_instances --out DIR [--sizes P,P,...] [--per-size N] [--seed S] [--checks]
  --out DIR       folder for NAME.json (the instance) and NAME.plan (our plan, `quote --json`'s form)
  --sizes         pool counts, each one of 400 1200 2000 5000 10000 20000 (default 5000,10000,20000)
  --per-size N    instances per size, cycling heavy single, two inputs, two outputs, then the
                  normal trades of the same three kinds (default 6)
  --pick T:K:KIND instead, request K (0-23) of the trades T (heavy or normal) shaped as KIND
                  (single, multi_input or multi_output); repeatable
  --seed S        market seeds S + pools (default 900; other values give markets no earlier
                  run saw, for measuring on instances held back from the tuning)
  --checks        also check exact-out (valid, minimal to 1e-5) and gas (never nets less than
                  a hop cap of 1-6) on the one-output instances";

/// Tokens of the generated market of `pools` pools (the route bench's sizes).
fn tokens_for(pools: usize) -> Option<usize> {
    Some(match pools {
        400 => 60,
        1200 => 180,
        2000 => 300,
        5000 => 600,
        10000 => 1000,
        20000 => 1500,
        _ => return None,
    })
}

struct Opts {
    out: PathBuf,
    sizes: Vec<usize>,
    per_size: usize,
    checks: bool,
    picks: Vec<(bool, usize, &'static str)>,
    /// The market of `p` pools is `route_gen::market(seed + p, ..)`.
    seed: u64,
}

/// `T:K:KIND` of `--pick`: heavy or not, the request index and the kind.
fn pick(v: &str) -> Result<(bool, usize, &'static str), String> {
    let bad = || format!("--pick wants TRADE:K:KIND, got {v}");
    let mut it = v.split(':');
    let heavy = match it.next() {
        Some("heavy") => true,
        Some("normal") => false,
        _ => return Err(bad()),
    };
    let k = it
        .next()
        .and_then(|k| k.parse::<usize>().ok())
        .filter(|k| *k < 24)
        .ok_or_else(bad)?;
    let kind = match it.next() {
        Some("single") => "single",
        Some("multi_input") => "multi_input",
        Some("multi_output") => "multi_output",
        _ => return Err(bad()),
    };
    Ok((heavy, k, kind))
}

fn parse(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts {
        out: PathBuf::new(),
        sizes: vec![5000, 10000, 20000],
        per_size: 6,
        checks: false,
        picks: Vec::new(),
        seed: 900,
    };
    let mut out = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--out" => out = Some(PathBuf::from(value()?)),
            "--sizes" => {
                o.sizes = value()?
                    .split(',')
                    .map(|s| match s.parse::<usize>() {
                        Ok(p) if tokens_for(p).is_some() => Ok(p),
                        _ => Err(format!("no generated market of {s} pools")),
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--per-size" => {
                let v = value()?;
                o.per_size = v
                    .parse()
                    .map_err(|_| format!("--per-size is not a number: {v}"))?;
            }
            "--seed" => {
                let v = value()?;
                o.seed = v
                    .parse()
                    .map_err(|_| format!("--seed is not a number: {v}"))?;
            }
            "--checks" => o.checks = true,
            "--pick" => o.picks.push(pick(value()?)?),
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    o.out = out.ok_or("--out DIR is required")?;
    Ok(o)
}

/// One request body (the spec's form) on market `m`: request `k` of `reqs`, shaped as `kind`
/// with the next request's input or output as the second token. `None` when the two clash.
fn body(
    m: &route_gen::Market,
    reqs: &[RouteRequest],
    k: usize,
    kind: &str,
) -> Option<serde_json::Value> {
    let addr = |t: swapzap::units::TokenId| m.snapshot.tokens[t.0 as usize].address.clone();
    let r = &reqs[k % reqs.len()];
    let next = &reqs[(k + 1) % reqs.len()];
    let (from, amount) = r.inputs[0];
    let to = r.outputs[0].0;
    let mut inputs =
        vec![serde_json::json!({"tokenAddress": addr(from), "amount": amount.to_string()})];
    let mut outputs = vec![serde_json::json!({"tokenAddress": addr(to), "proportion": 1})];
    match kind {
        "multi_input" => {
            let (f2, a2) = next.inputs[0];
            if f2 == from || f2 == to || a2 / 10 == U256::zero() {
                return None;
            }
            inputs.push(
                serde_json::json!({"tokenAddress": addr(f2), "amount": (a2 / 10).to_string()}),
            );
        }
        "multi_output" => {
            let to2 = next.outputs[0].0;
            if to2 == from || to2 == to {
                return None;
            }
            outputs = vec![
                serde_json::json!({"tokenAddress": addr(to), "proportion": 0.3}),
                serde_json::json!({"tokenAddress": addr(to2), "proportion": 0.7}),
            ];
        }
        _ => {}
    }
    Some(serde_json::json!({
        "chainId": m.snapshot.chain_id,
        "inputTokens": inputs,
        "outputTokens": outputs,
        "slippageLimitPercent": 0.5,
        "userAddr": "0x31Ad0fB76c7b4AAd8Afc25dA1eCC71afF19808Db",
    }))
}

/// The better of two quotes of `req` (the first on a graph also builds the router's index).
fn timed_quote(g: &PoolGraph, req: &RouteRequest) -> (Result<Plan, swapzap::RouteError>, Duration) {
    let mut best = Duration::MAX;
    let mut res = None;
    for _ in 0..2 {
        let t0 = Instant::now();
        let p = route::quote(g, req);
        best = best.min(t0.elapsed());
        res = Some(p);
    }
    (res.unwrap(), best)
}

/// Exact-out at half and 90 % of `got` (what the whole input gets): problems found.
fn check_exact_out(g: &PoolGraph, req: &RouteRequest, got: U256) -> Vec<String> {
    let mut bad = Vec::new();
    for wanted in [got / 2, got - got / 10] {
        let mut r = req.clone();
        r.exact_out = Some(wanted);
        let plan = match route::quote(g, &r) {
            Ok(p) => p,
            Err(e) => {
                bad.push(format!("exact-out {wanted}: {e}"));
                continue;
            }
        };
        if let Err(e) = plan.verify(g) {
            bad.push(format!("exact-out {wanted}: does not verify: {e}"));
        }
        let spent = plan.inputs[0].amount;
        if plan.outputs[0].amount < wanted || spent > req.inputs[0].1 {
            bad.push(format!(
                "exact-out {wanted}: delivers {} spending {spent}",
                plan.outputs[0].amount
            ));
        }
        let mut less = req.clone();
        less.inputs[0].1 = spent - spent / 100_000 - 1;
        let under = route::quote(g, &less).map_or(U256::zero(), |p| p.outputs[0].amount);
        if under >= wanted {
            bad.push(format!(
                "exact-out {wanted}: 1e-5 less input still gives {under}"
            ));
        }
    }
    bad
}

/// Gas at a typical step costing 0.1 % and 1 % of `value`: the plan nets no less than the
/// request capped at 1 to 6 hops. Problems found.
fn check_gas(g: &PoolGraph, req: &RouteRequest, value: f64) -> Vec<String> {
    let mut bad = Vec::new();
    for cost in [0.001, 0.01] {
        let mut r = req.clone();
        r.gas = Some(GasModel::typical(cost * value / 60_000.0));
        let net = match route::quote(g, &r) {
            Ok(p) => p,
            Err(e) => {
                bad.push(format!("gas {cost}: {e}"));
                continue;
            }
        };
        if let Err(e) = net.verify(g) {
            bad.push(format!("gas {cost}: does not verify: {e}"));
        }
        for h in 1..=6 {
            let mut capped = r.clone();
            capped.max_hops = Some(h);
            if let Ok(c) = route::quote(g, &capped) {
                if c.value > net.value {
                    bad.push(format!(
                        "gas {cost}: cap {h} nets {} > {}",
                        c.value, net.value
                    ));
                }
            }
        }
    }
    bad
}

fn write(path: &Path, v: &impl serde::Serialize) -> Result<(), String> {
    let text = serde_json::to_string(v).map_err(|e| e.to_string())?;
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let o = match parse(&args) {
        Ok(o) => o,
        Err(m) => {
            eprintln!("error: {m}\n{USAGE}");
            return ExitCode::from(1);
        }
    };
    if let Err(e) = std::fs::create_dir_all(&o.out) {
        eprintln!("error: {}: {e}", o.out.display());
        return ExitCode::from(1);
    }
    let mut failures = 0usize;
    println!("instance\tquote_ms\tvalue\tbound\tbound_gap\tchecks");
    for &p in &o.sizes {
        let t = tokens_for(p).unwrap_or(300);
        let m = route_gen::market(o.seed + p as u64, t, p);
        let g = PoolGraph::from_snapshot(&m.snapshot).unwrap();
        let heavy = route_gen::heavy_requests(&m, t, 7 + p as u64);
        let normal = route_gen::bench_requests(&m, t, 7 + p as u64);
        let prices = route_gen::prices_by_address(&m);
        let snapshot = serde_json::to_value(&m.snapshot).unwrap();
        // (trade, request index, kind) of each instance to write
        let mut todo: Vec<(bool, usize, &str)> = o.picks.clone();
        if todo.is_empty() {
            // the kinds in turn, heavy trades first, from request 1 on, skipping clashes
            let mut k = 0usize;
            while todo.len() < o.per_size && k < 2 * heavy.len() {
                k += 1;
                let n = todo.len();
                let (h, kind) = (
                    (n / 3) % 2 == 0,
                    ["single", "multi_input", "multi_output"][n % 3],
                );
                if body(&m, if h { &heavy } else { &normal }, k, kind).is_some() {
                    todo.push((h, k, kind));
                }
            }
        }
        for (h, k, kind) in todo {
            let (trade, reqs) = if h {
                ("heavy", &heavy)
            } else {
                ("normal", &normal)
            };
            let Some(body_v) = body(&m, reqs, k, kind) else {
                eprintln!("{trade} request {k} as {kind}: its tokens clash, skipped");
                continue;
            };
            let name = format!("gen-{p}p-{trade}-{k}-{kind}");
            let qr: QuoteRequest = serde_json::from_value(body_v.clone()).unwrap();
            let req = match RouteRequest::from_body(&qr, &g) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("{name}: request refused: {e}");
                    continue;
                }
            };
            let (plan, dt) = timed_quote(&g, &req);
            let plan = match plan {
                Ok(pl) => pl,
                Err(e) => {
                    eprintln!("{name}: no quote: {e}");
                    continue;
                }
            };
            if let Err(e) = plan.verify(&g) {
                println!("{name}\tplan does not verify: {e}");
                failures += 1;
                continue;
            }
            let inst = serde_json::json!({
                "name": name,
                "snapshot": snapshot,
                "request": body_v,
                "meta": { "kind": kind, "trade": trade, "n_tokens": t, "n_pools": p,
                          "reference_prices_usd": prices },
            });
            let plan_json = plan.to_json(&g).unwrap();
            for (file, res) in [
                (
                    format!("{name}.json"),
                    write(&o.out.join(format!("{name}.json")), &inst),
                ),
                (
                    format!("{name}.plan"),
                    write(&o.out.join(format!("{name}.plan")), &plan_json),
                ),
            ] {
                if let Err(e) = res {
                    eprintln!("error: {file}: {e}");
                    return ExitCode::from(1);
                }
            }
            let mut checks = String::from("-");
            if o.checks && req.inputs.len() == 1 && req.outputs.len() == 1 {
                let mut bad = check_exact_out(&g, &req, plan.outputs[0].amount);
                bad.extend(check_gas(&g, &req, plan.value));
                failures += bad.len();
                checks = if bad.is_empty() {
                    "exact-out and gas ok".into()
                } else {
                    bad.join("; ")
                };
            }
            println!(
                "{name}\t{:.2}\t{:.6e}\t{:.9e}\t{:.3e}\t{checks}",
                dt.as_secs_f64() * 1e3,
                plan.value,
                plan.upper_bound.unwrap_or(f64::NAN),
                plan.bound_gap().unwrap_or(f64::NAN),
            );
        }
    }
    if failures > 0 {
        eprintln!("{failures} check(s) failed");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
