//! Quote a swap on a pool snapshot and print the route.
//!
//! ```text
//! cargo run --release --example quote                       # bundled data/snapshot.json + data/request.json
//! cargo run --release --example quote -- --snapshot S.json --request R.json [--json]
//! cargo run --release --example quote -- --instance ../shared/routing/instances/pub-07-single-t25-p100.json [--json]
//! options: --max-hops N   --gas-price P (output base units per gas unit; typical per-step gas)
//! ```
//!
//! `--json` prints the plan JSON alone on stdout (the format `../shared/routing/tools/score.py`
//! reads); otherwise a readable route: each step with pool, source, tokens, amounts and share of
//! the token spent, the outputs with minimum amounts, the dual upper bound and the time taken.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects,
    clippy::print_stdout
)]
#![allow(clippy::print_stderr)]

#[macro_use]
#[path = "common/cli.rs"]
mod cli;

use cli::human;
use std::collections::BTreeMap;

use std::process::ExitCode;
use std::time::Instant;
use swapzap::graph::PoolGraph;
use swapzap::plan::Step;
use swapzap::route::{self, GasModel};
use swapzap::service::request::QuoteRequest;
use swapzap::snapshot::Snapshot;
use swapzap::U256;

const USAGE: &str = "\
usage: quote [--snapshot FILE --request FILE | --instance FILE] [--json] [--max-hops N] [--gas-price P] [--exact-out AMOUNT]

Quotes a swap (the spec's quote body, validated for its chainId) on a pool snapshot and prints
the route; with no arguments, the bundled data/request.json on data/snapshot.json.

  --snapshot FILE   pool snapshot (schema of ../shared/routing/README.md)
  --request FILE    quote request body (the spec's POST /sor/quote body)
  --instance FILE   a ../shared/routing instance (snapshot and request in one file)
  --json            print the plan JSON alone (the format ../shared/routing/tools/score.py reads)
  --max-hops N      only pools on a path of at most N hops (1-32; default none)
  --gas-price P     price of one gas unit in base units of the (first) output token
  --exact-out AMOUNT  deliver this many base units of the (only) output with the least input;
                    the request's input amount is then the most to spend
  -h, --help        this text";

fn usage(ok: bool) -> ExitCode {
    if ok {
        out!("{USAGE}");
        ExitCode::SUCCESS
    } else {
        warn!("{USAGE}");
        ExitCode::from(1)
    }
}

/// Print a library error with its code, class and the spec's remedies; exit code 1.
fn report(what: &str, e: &swapzap::Error) -> ExitCode {
    warn!("{what}:");
    cli::report(&cli::Fail::Typed(e.clone()))
}

/// The command line, read strictly: every flag known, every value present and in range.
#[derive(Default)]
struct Opts {
    snapshot_path: Option<String>,
    request_path: Option<String>,
    instance_path: Option<String>,
    json: bool,
    max_hops: Option<usize>,
    gas_price: Option<f64>,
    exact_out: Option<U256>,
}

fn parse_args(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .filter(|v| !v.starts_with("--"))
                .cloned()
                .ok_or_else(|| format!("{a} needs a value"))
        };
        match a.as_str() {
            "--snapshot" => o.snapshot_path = Some(value()?),
            "--request" => o.request_path = Some(value()?),
            "--instance" => o.instance_path = Some(value()?),
            "--json" => o.json = true,
            "--max-hops" => {
                let v = value()?;
                // the range itself is the router's (a typed error beyond it)
                o.max_hops = Some(v.parse::<usize>().map_err(|_| {
                    format!(
                        "--max-hops {v}: not a whole number (1..={})",
                        route::MAX_HOPS_LIMIT
                    )
                })?);
            }
            "--gas-price" => {
                let v = value()?;
                match v.parse::<f64>() {
                    Ok(p) if p.is_finite() && p >= 0.0 => o.gas_price = Some(p),
                    _ => return Err(format!("--gas-price {v}: not a finite number ≥ 0")),
                }
            }
            "--exact-out" => {
                let v = value()?;
                o.exact_out = Some(U256::from_dec_str(&v).map_err(|_| {
                    format!("--exact-out {v}: not a base-unit integer below 2^256")
                })?);
            }
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    if o.instance_path.is_some() && (o.snapshot_path.is_some() || o.request_path.is_some()) {
        return Err("--instance replaces --snapshot and --request: give one or the other".into());
    }
    if o.snapshot_path.is_some() != o.request_path.is_some() {
        return Err("--snapshot and --request go together (with neither: the bundled pair)".into());
    }
    Ok(o)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return usage(true);
    }
    let o = match parse_args(&args) {
        Ok(o) => o,
        Err(m) => {
            warn!("error: {m}");
            return usage(false);
        }
    };
    let Opts {
        snapshot_path,
        request_path,
        instance_path,
        json,
        max_hops,
        gas_price,
        exact_out,
    } = o;
    // files may start with a UTF-8 byte-order mark
    let loaded = (|| -> Result<(serde_json::Value, serde_json::Value), cli::Fail> {
        if let Some(p) = &instance_path {
            let mut v = cli::read_json(p)?;
            return Ok((
                cli::instance_part(&mut v, "snapshot", p)?,
                cli::instance_part(&mut v, "request", p)?,
            ));
        }
        let data = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
        let sp = snapshot_path
            .clone()
            .unwrap_or_else(|| format!("{data}/snapshot.json"));
        let rp = request_path
            .clone()
            .unwrap_or_else(|| format!("{data}/request.json"));
        Ok((cli::read_json(&sp)?, cli::read_body(&rp)?))
    })();
    let (snap_v, req_v) = match loaded {
        Ok(x) => x,
        Err(e) => return cli::report(&e),
    };
    let snap: Snapshot = match cli::from_value_located(&snap_v) {
        Ok(s) => s,
        Err(e) => {
            warn!("error: snapshot does not follow the schema: {e}");
            return ExitCode::from(1);
        }
    };
    let body: QuoteRequest = match cli::body_of(&req_v) {
        Ok(b) => b,
        Err(f) => {
            warn!("request:");
            return cli::report(&f);
        }
    };
    let t_graph = Instant::now();
    let graph = match PoolGraph::from_snapshot(&snap) {
        Ok(g) => g,
        Err(e) => return report("snapshot", &e.into()),
    };
    let graph_time = t_graph.elapsed();
    if let Ok(valid) = body.validate(&graph.sources()) {
        if swapzap::service::zap::is_zap_body(&graph, &valid) {
            warn!(
                "error: this body names an LP token: it is a zap; use the zap tool \
                 (cargo run --release --example zap -- --snapshot FILE --request FILE)"
            );
            return ExitCode::from(1);
        }
    }
    let mut req = match route::RouteRequest::from_body(&body, &graph) {
        Ok(r) => r,
        Err(e) => return report("request", &e),
    };
    if let Some(h) = max_hops {
        req.max_hops = Some(h);
    }
    if let Some(p) = gas_price {
        req.gas = Some(GasModel::typical(p));
    }
    req.exact_out = exact_out;
    let t0 = Instant::now();
    let plan = match route::quote(&graph, &req) {
        Ok(p) => p,
        Err(e) => {
            warn!("no quote:");
            return cli::report_on(&cli::Fail::Typed(e.into()), &graph);
        }
    };
    let quote_time = t0.elapsed();
    if let Err(e) = plan.verify(&graph) {
        warn!("error: plan does not verify: {e}");
        return ExitCode::from(1);
    }
    if json {
        out!(
            "{}",
            serde_json::to_string_pretty(&plan.to_json(&graph).unwrap()).unwrap()
        );
        return ExitCode::SUCCESS;
    }

    let sym = |t: swapzap::units::TokenId| cli::sym(&graph, t);
    let dec = |t: swapzap::units::TokenId| cli::dec(&graph, t);
    out!(
        "snapshot: chain {}, {} tokens (LP tokens included), {} pools (graph built in {:?})",
        graph.chain_id(),
        graph.n_tokens(),
        graph.n_pools(),
        graph_time
    );
    let ins: Vec<String> = plan
        .inputs
        .iter()
        .map(|i| format!("{} {}", human(i.amount, dec(i.token)), sym(i.token)))
        .collect();
    let outs: Vec<String> = req
        .outputs
        .iter()
        .map(|(t, w)| format!("{} ({}/{})", sym(*t), w.numer(), w.denom()))
        .collect();
    let hops = req
        .max_hops
        .map_or_else(|| "no hop limit".to_string(), |h| format!("max {h} hops"));
    out!(
        "request:  {} -> {}, {hops}",
        ins.join(" + "),
        outs.join(" + ")
    );
    if let (Some(w), Some(o)) = (req.exact_out, plan.outputs.first()) {
        let (t, cap) = req.inputs[0];
        out!(
            "exact-out: {} {} wanted; spends {} of at most {} {}",
            human(w, dec(o.token)),
            sym(o.token),
            human(plan.inputs[0].amount, dec(t)),
            human(cap, dec(t)),
            sym(t)
        );
    }
    out!("");
    // totals spent per token, for the share column
    let mut spent: BTreeMap<u32, U256> = BTreeMap::new();
    for (_, sold, _) in plan.steps.iter().filter_map(Step::as_swap) {
        *spent.entry(sold.token.0).or_default() += sold.amount;
    }
    // the step table: every column as wide as its widest cell
    let mut rows: Vec<[String; 7]> = vec![[
        "#".into(),
        "source".into(),
        "pool".into(),
        "swap".into(),
        "amount in".into(),
        "amount out".into(),
        "share".into(),
    ]];
    for (k, s) in plan.steps.iter().enumerate() {
        if let Some((pool, sold, bought)) = s.as_swap() {
            let (source, label) = cli::pool_label(&graph, pool);
            let total = spent.get(&sold.token.0).copied().unwrap_or_default();
            let share = if total.is_zero() {
                0.0
            } else {
                sold.amount.to_string().parse::<f64>().unwrap()
                    / total.to_string().parse::<f64>().unwrap()
            };
            rows.push([
                (k + 1).to_string(),
                source,
                label,
                format!("{}->{}", sym(sold.token), sym(bought.token)),
                human(sold.amount, dec(sold.token)),
                human(bought.amount, dec(bought.token)),
                format!("{:.2}%", share * 100.0),
            ]);
        }
    }
    for line in cli::align(&rows, [true, false, false, false, true, true, true]) {
        out!("{line}");
    }
    out!("     (share: of all of the step's input token that the plan swaps; for an input token, of the input)");
    out!("");
    for o in &plan.outputs {
        out!(
            "output:   {} {}   (minimum after {}% slippage: {})",
            human(o.amount, dec(o.token)),
            sym(o.token),
            *req.slippage.numer() as f64 * 100.0 / *req.slippage.denom() as f64,
            human(o.min_amount, dec(o.token))
        );
    }
    if let Some(ub) = plan.upper_bound {
        let gap = plan.bound_gap().unwrap_or(f64::NAN);
        // value and bound are in base units of the (first) output token
        let o0 = plan.outputs[0].token;
        let scale = 10f64.powi(i32::from(dec(o0)));
        let what = if plan.outputs.len() == 1 {
            ""
        } else {
            " worth of basket"
        };
        let scope = plan
            .bound_max_hops
            .map_or_else(String::new, |h| format!(" within {h} hops"));
        out!(
            "bound:    no plan{scope} can give more than {:.6} {}{} (this plan: {:.6}, gap {:.2e})",
            ub / scale,
            sym(o0),
            what,
            plan.value / scale,
            gap
        );
        if let (Some(s), Some(fg)) = (plan.rounding_slack, plan.float_gap()) {
            out!(
                "          of which {:.6} {} is what integer rounding can win against the \
                 pools' float curves (gap to the float bound {:.2e})",
                s / scale,
                sym(o0),
                fg
            );
        }
    }
    out!(
        "impact:   {:.4}% against mid prices (fees included)",
        plan.price_impact * 100.0
    );
    for r in &plan.refunds {
        out!(
            "refund:   {} {}",
            human(r.amount, dec(r.token)),
            sym(r.token)
        );
    }
    if plan.gas_units > 0 {
        out!("gas:      {} units", plan.gas_units);
    }
    out!("steps:    {}, verified exactly", plan.steps.len());
    for x in &plan.excluded {
        let id = graph.pool(x.pool).map_or("?", |p| p.id.as_str());
        out!(
            "left out: {id}: its exact swap reverts ({}); quoted without it, still in the bound",
            x.error
        );
    }
    for line in cli::quarantine_lines(&graph) {
        out!("{line}");
    }
    out!("time:     {quote_time:?} to quote");
    ExitCode::SUCCESS
}
