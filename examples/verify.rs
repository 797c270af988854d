//! Check a stored plan (the JSON of `quote --json` or `zap --json`) against a snapshot and the
//! request it answers.
//!
//! ```text
//! cargo run --release --example verify -- --snapshot S.json --request R.json --plan P.json
//! cargo run --release --example verify -- --instance ../shared/routing/instances/pub-00-single-t5-p10.json --plan P.json
//! ```
//!
//! The plan is read back with `Plan::from_json` and checked with `Plan::verify_request`: every
//! step re-simulated exactly in order, the request's inputs spent exactly, outputs and refunds
//! what the steps leave, each `min_amount` `floor(amount × (1 − slippage))`, the zap fee (a
//! body with an LP token is a zap) exactly 1 bps of each input, gas, value and bound; with
//! `--exact-out AMOUNT` (a plan of `quote --exact-out`), the inputs at most the request's and
//! the output at least AMOUNT; with `--max-hops N` (a plan of `quote --max-hops N`), every swap
//! through a pool direction within N hops and the bound said to be over those plans; without
//! it, a bound over every plan. A swap's bound is also re-derived (`route::verify_quote`: a dual
//! solve) and must not be below the router's certificate for the request, its rounding slack
//! must be the certificate's and its price impact that of its outputs at the request's mid
//! prices; a zap's bound must not be below the bound of the engine's own zap of the body (a
//! zap without one carries none) and its price impact must be that zap's. Exit 0 with one line when the plan holds; else exit 1 with the
//! error code, class and detail.
#![allow(missing_docs, clippy::print_stdout, clippy::print_stderr)]

#[macro_use]
#[path = "common/cli.rs"]
mod cli;

use cli::{report, Fail};
use std::process::ExitCode;
use swapzap::plan::json::PlanJson;
use swapzap::plan::Plan;
use swapzap::route::GasModel;

const USAGE: &str =
    "usage: verify (--instance FILE | --snapshot FILE --request FILE) --plan FILE [--gas-price P]
              [--exact-out AMOUNT] [--max-hops N]

Reads a plan JSON (quote --json, zap --json) back and checks it against the snapshot and the
request body: steps re-simulated exactly, inputs spent exactly, outputs, refunds, min_amount,
zap fee, gas units, value and bound (a swap's or zap's bound re-derived: not below the engine's; a swap's rounding slack the certificate's; the price impact the engine's), source
filters. Exit 0 and one line when it holds, else exit 1 with the error code, class and detail.
  --gas-price P  the plan was priced with typical gas units at P output base units per unit
  --exact-out AMOUNT  an exact-out plan: the request's input amounts are the most to spend,
                 and the output must reach AMOUNT (base units)
  --max-hops N   the plan was quoted with this hop limit: its swaps only through pool
                 directions on a path of at most N hops, its bound over those plans";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        cli::emit(&format!("{USAGE}\n"));
        return ExitCode::SUCCESS;
    }
    if args.is_empty() {
        warn!("{USAGE}");
        return ExitCode::from(1);
    }
    match run(&args) {
        Ok(line) => {
            cli::emit(&format!("{line}\n"));
            ExitCode::SUCCESS
        }
        Err(f) => report(&f),
    }
}

fn run(args: &[String]) -> Result<String, Fail> {
    if let Some(a) = cli::unknown_arg(
        args,
        &[],
        &[
            "--instance",
            "--snapshot",
            "--request",
            "--plan",
            "--gas-price",
            "--exact-out",
            "--max-hops",
        ],
    ) {
        return Err(Fail::Plain(format!("unknown argument {a}\n{USAGE}")));
    }
    let need = |flag: &str| -> Result<String, Fail> {
        cli::flag_value(args, flag)?
            .ok_or_else(|| Fail::Plain(format!("{flag} is required\n{USAGE}")))
    };
    let (snap, body) = match cli::flag_value(args, "--instance")? {
        Some(p) => {
            if args.iter().any(|a| a == "--snapshot" || a == "--request") {
                return Err(Fail::Plain(format!(
                    "--instance replaces --snapshot and --request: give one or the other\n{USAGE}"
                )));
            }
            let mut v = cli::read_json(&p)?;
            (
                cli::instance_part(&mut v, "snapshot", &p)?,
                cli::instance_part(&mut v, "request", &p)?,
            )
        }
        None => (
            cli::read_json(&need("--snapshot")?)?,
            cli::read_body(&need("--request")?)?,
        ),
    };
    let plan_path = need("--plan")?;
    let gas = match cli::flag_value(args, "--gas-price")? {
        None => None,
        Some(p) => match p.parse::<f64>() {
            Ok(x) if x.is_finite() && x >= 0.0 => Some(GasModel::typical(x)),
            _ => return Err(Fail::Plain(format!("--gas-price {p}: not a number ≥ 0"))),
        },
    };
    let exact_out = match cli::flag_value(args, "--exact-out")? {
        None => None,
        Some(a) => match swapzap::U256::from_dec_str(&a) {
            Ok(x) if !x.is_zero() => Some(x),
            _ => {
                return Err(Fail::Plain(format!(
                    "--exact-out {a}: not a positive integer below 2^256"
                )))
            }
        },
    };
    let max_hops = match cli::flag_value(args, "--max-hops")? {
        None => None,
        Some(h) => match h.parse::<usize>() {
            Ok(x) if (1..=swapzap::route::MAX_HOPS_LIMIT).contains(&x) => Some(x),
            _ => {
                return Err(Fail::Plain(format!(
                    "--max-hops {h}: not a whole number (1..={})",
                    swapzap::route::MAX_HOPS_LIMIT
                )))
            }
        },
    };
    let graph = cli::graph_of(snap)?;
    let req = cli::validate_body(body, &graph)?;
    let pj: PlanJson = cli::from_value_located(&cli::read_json(&plan_path)?)
        .map_err(|e| Fail::Plain(format!("{plan_path}: not a plan JSON: {e}")))?;
    let plan = Plan::from_json(&pj, &graph)?;
    swapzap::service::verify_plan(&graph, &req, &plan, (gas, exact_out, max_hops))?;
    pj.check_bound_gap(&plan)?;
    let outs: Vec<String> = plan
        .outputs
        .iter()
        .map(|o| cli::amount(&graph, o.token, o.amount))
        .collect();
    Ok(format!(
        "ok: {} holds: {} steps re-simulated exactly, {} ({})",
        plan_path,
        plan.steps.len(),
        outs.join(" + "),
        if swapzap::service::zap::is_zap_body(&graph, &req) {
            "zap"
        } else {
            "swap"
        }
    ))
}
