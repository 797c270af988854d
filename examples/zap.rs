//! Quote a zap (the spec's `POST /sor/quote/v2/zap` body) on a pool snapshot.
//!
//! ```text
//! cargo run --release --example zap                      # bundled data/snapshot.json + data/zap-request.json
//! cargo run --release --example zap -- --snapshot S.json --request R.json [--json]
//! options: --gas-price P (output base units per gas unit; typical per-step gas)
//! ```
//!
//! The body is validated by the spec's rules for its `chainId` on the snapshot's sources, then
//! planned by `swapzap::service::zap::zap_request`: zap-in (tokens and LP tokens into the one LP of
//! `outputTokens`, proportion 1; LP-to-LP), or zap-out (LP tokens, and tokens, into tokens by
//! their proportions). The plan is checked with `Plan::verify_request` before it is printed:
//! a table of its steps, the LP minted or the outputs with their minimums, the zap fee, the
//! rebalancing swap and the refunds; `--json` prints the plan JSON alone (what
//! `examples/verify.rs` reads back). Errors print their code, class and remedies and exit 1.
#![allow(missing_docs, clippy::print_stdout, clippy::print_stderr)]

#[macro_use]
#[path = "common/cli.rs"]
mod cli;

use cli::{amount, human, report, sym, Fail};
use std::process::ExitCode;
use swapzap::graph::PoolGraph;
use swapzap::plan::{PlanRequest, Step};
use swapzap::route::GasModel;
use swapzap::service::zap::{zap_request, ZapKind};
use swapzap::zap::{Rebalance, ZapOptions};
use swapzap::{Error, ZapError};

const USAGE: &str = "usage: zap [--snapshot FILE --request FILE] [--json] [--gas-price P]

Plans a zap body of the spec (POST /sor/quote/v2/zap) on a pool snapshot:
  zap-in   inputTokens: tokens and/or LP tokens; outputTokens: one LP token, proportion 1
  zap-out  inputTokens: LP tokens (and tokens); outputTokens: tokens with proportions
  LP->LP   an LP token in, another LP token out
With no arguments: the bundled data/zap-request.json on data/snapshot.json.
  --json         the plan JSON alone (read back by the verify example)
  --gas-price P  price swap steps at typical gas units, P output base units per unit
A plain swap body (no LP token) is refused: use the quote example.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        cli::emit(&format!("{USAGE}\n"));
        return ExitCode::SUCCESS;
    }
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            let code = report(&f);
            if let Fail::Typed(Error::Zap(ZapError::NotAZap)) = f {
                warn!("  this body is a plain swap: run the quote example on it");
            }
            code
        }
    }
}

fn run(args: &[String]) -> Result<(), Fail> {
    if let Some(a) = cli::unknown_arg(
        args,
        &["--json"],
        &["--snapshot", "--request", "--gas-price"],
    ) {
        return Err(Fail::Plain(format!("unknown argument {a}\n{USAGE}")));
    }
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let snap_path = cli::flag_value(args, "--snapshot")?;
    let req_path = cli::flag_value(args, "--request")?;
    if snap_path.is_some() != req_path.is_some() {
        return Err(Fail::Plain(
            "--snapshot and --request go together (with neither: the bundled pair)".into(),
        ));
    }
    let snap_path = snap_path.unwrap_or_else(|| format!("{data}/snapshot.json"));
    let req_path = req_path.unwrap_or_else(|| format!("{data}/zap-request.json"));
    let gas_price = match cli::flag_value(args, "--gas-price")? {
        None => None,
        Some(p) => match p.parse::<f64>() {
            Ok(x) if x.is_finite() && x >= 0.0 => Some(x),
            _ => return Err(Fail::Plain(format!("--gas-price {p}: not a number ≥ 0"))),
        },
    };
    let json = args.iter().any(|a| a == "--json");
    let graph = cli::graph_of(cli::read_json(&snap_path)?)?;
    let req = cli::validate_body(cli::read_body(&req_path)?, &graph)?;
    let opts = ZapOptions {
        gas: gas_price.map(GasModel::typical),
        ..ZapOptions::default()
    };
    let z = zap_request(&graph, &req, &opts)?;
    let mut want = PlanRequest::from_request(&req, &graph)?;
    want.gas = opts.gas;
    z.plan().verify_request(&graph, &want)?;
    if json {
        let text = serde_json::to_string_pretty(&z.plan().to_json(&graph)?)
            .map_err(|e| Fail::Plain(e.to_string()))?;
        cli::emit(&format!("{text}\n"));
        return Ok(());
    }
    cli::emit(&table(&graph, &req, &z));
    Ok(())
}

fn table(
    g: &PoolGraph,
    req: &swapzap::service::request::Request,
    z: &swapzap::service::zap::ZapPlan,
) -> String {
    let mut out = String::new();
    let plan = z.plan();
    say!(
        out,
        "snapshot:  chain {}, {} tokens (LP tokens included), {} pools",
        g.chain_id(),
        g.n_tokens(),
        g.n_pools()
    );
    let ins: Vec<String> = plan
        .inputs
        .iter()
        .map(|i| amount(g, i.token, i.amount))
        .collect();
    let outs: Vec<String> = req
        .outputs
        .iter()
        .zip(&plan.outputs)
        .map(|(w, o)| format!("{} ({})", sym(g, o.token), w.proportion))
        .collect();
    let kind = match z.kind() {
        ZapKind::In => "zap-in",
        ZapKind::Out => "zap-out",
    };
    say!(
        out,
        "request:   {kind}, {} -> {}, slippage {} %",
        ins.join(" + "),
        outs.join(" + "),
        req.slippage
    );
    if let Some(f) = &plan.zap_fee {
        let taken: Vec<String> = f
            .taken
            .iter()
            .map(|t| amount(g, t.token, t.amount))
            .collect();
        say!(
            out,
            "zap fee:   {} bps of each input (swapMulti): {}",
            f.rate_bps,
            if taken.is_empty() {
                "nothing (inputs below 10000 base units)".to_string()
            } else {
                taken.join(" + ")
            }
        );
    }
    say!(out);
    for line in cli::step_table(g, plan) {
        say!(out, "  {line}");
    }
    say!(out);
    for o in &plan.outputs {
        let label = match z.kind() {
            ZapKind::In => "minted:",
            ZapKind::Out => "output:",
        };
        say!(
            out,
            "{label:<10} {}   (minimum after {} % slippage: {})",
            amount(g, o.token, o.amount),
            req.slippage,
            human(o.min_amount, cli::dec(g, o.token))
        );
    }
    if let Some(zin) = z.zap_in() {
        let (p, rb) = (zin.pool, zin.rebalance);
        let id = g.pool(p).map_or("?".to_string(), |i| i.id.clone());
        // the rebalancing swap is the target pool's swap right before the final mint
        let n = plan.steps.len();
        let swap = match plan.steps.get(n.saturating_sub(2)..) {
            Some([s, Step::Mint { .. }]) => s.as_swap().filter(|(pool, ..)| *pool == p),
            _ => None,
        }
        .map(|(_, sold, bought)| {
            format!(
                "{} -> {}",
                amount(g, sold.token, sold.amount),
                amount(g, bought.token, bought.amount)
            )
        });
        let what = match (rb, swap) {
            (Rebalance::Swapped, Some(s)) => format!("swapped {s} in the target pool"),
            (Rebalance::NotWorthGas { gain }, _) => format!(
                "skipped: it would add {gain} LP base units, worth less than its gas (refunded)"
            ),
            (Rebalance::BelowThreshold { wasted_ppm }, _) => format!(
                "skipped: the imbalance wastes {wasted_ppm} ppm, below the threshold (refunded)"
            ),
            _ => "none needed (the holdings already match the pool's ratio)".to_string(),
        };
        say!(
            out,
            "target:    {id} (LP minted by the final mint: {})",
            zin.minted
        );
        say!(out, "rebalance: {what}");
    }
    for r in &plan.refunds {
        say!(
            out,
            "refund:    {} (not taken by the mint, returned to the user)",
            amount(g, r.token, r.amount)
        );
    }
    match (z.kind(), plan.upper_bound, plan.outputs.first()) {
        (ZapKind::In, Some(b), Some(o)) => say!(
            out,
            "bound:     no zap can mint more than {} LP (this plan: {}, gap {:.2e})",
            human_f(b),
            o.amount,
            plan.bound_gap().unwrap_or(0.0)
        ),
        (ZapKind::In, None, _) => say!(
            out,
            "bound:     none (an LP input that a pool trades or whose pool has LP coins, or a family without one: not bounded)"
        ),
        _ => {}
    }
    if plan.gas_units > 0 {
        say!(out, "gas:       {} units", plan.gas_units);
    }
    say!(out,
        "verified:  {} steps re-simulated exactly; inputs, fee, outputs, minimums and refunds answer the request",
        plan.steps.len()
    );
    for line in cli::quarantine_lines(g) {
        say!(out, "{line}");
    }
    out
}

/// A float LP amount in base units, as an integer (the bound is a float for information).
fn human_f(b: f64) -> String {
    if b.is_finite() && b < 1e30 {
        format!("{b:.0}")
    } else {
        format!("{b:e}")
    }
}
