//! Validate a quote request body the way the service would.
//!
//! ```sh
//! cargo run --release --example validate -- examples/requests/evm-swap.json
//! cargo run --release --example validate -- examples/requests/chain101-swap.json
//! ```
//!
//! The deployment follows `chainId` (101: chain-101, base58; others: EVM, 0x hex). Prints the
//! typed request, or the error's code, class, HTTP status and detail and exits with status 1
//! (also for a usage or file error). `--sources a,b,c` replaces the known liquidity source ids;
//! `--help` prints the usage.
#![allow(missing_docs, clippy::print_stdout, clippy::print_stderr)]

#[macro_use]
#[path = "common/cli.rs"]
mod cli;

use std::process::ExitCode;
use swapzap::service::request::QuoteRequest;
use swapzap::{Error, ErrorBody, RequestError};

/// Source ids this example treats as known (a transport gets them from its source list).
const DEFAULT_SOURCES: &[&str] = &[
    "uniswap-v2",
    "sushiswap",
    "aerodrome-v2",
    "velodrome-v2",
    "curve",
    "curve-ng",
    "raydium",
    "orca",
    "meteora",
];

const USAGE: &str = "usage: validate [--sources a,b,c] REQUEST.json";

fn report(e: &Error) -> ExitCode {
    let mut out = String::new();
    say!(
        out,
        "error {} [{}, HTTP {}]",
        e.code(),
        e.class(),
        e.http_status()
    );
    say!(out, "  detail: {e}");
    for s in e.class().suggestions() {
        say!(out, "  suggestion: {s}");
    }
    let body = ErrorBody::new(e, "local");
    say!(
        out,
        "  body: {}",
        serde_json::to_string(&body).unwrap_or_else(|_| "?".into())
    );
    cli::emit(&out);
    ExitCode::from(1)
}

fn main() -> ExitCode {
    let mut out = String::new();
    let mut args = std::env::args().skip(1);
    let mut path = None;
    let mut sources: Vec<String> = DEFAULT_SOURCES.iter().map(|s| s.to_string()).collect();
    while let Some(a) = args.next() {
        if a == "-h" || a == "--help" {
            say!(out, "{USAGE}");
            say!(
                out,
                "Validates a quote body (POST /sor/quote/v2, /v2/zap, /v3) for the deployment its"
            );
            say!(
                out,
                "chainId names and prints the typed request, or the error code, class and detail."
            );
            cli::emit(&out);
            return ExitCode::SUCCESS;
        }
        if a == "--sources" {
            let Some(list) = args.next() else {
                warn!("--sources needs a comma-separated list");
                return ExitCode::from(1);
            };
            sources = list.split(',').map(str::to_string).collect();
        } else if a.starts_with("--") {
            warn!("error: unknown argument {a}\n{USAGE}");
            return ExitCode::from(1);
        } else if let Some(first) = &path {
            warn!("error: one request file at a time ({first}, then {a})\n{USAGE}");
            return ExitCode::from(1);
        } else {
            path = Some(a);
        }
    }
    let Some(path) = path else {
        warn!("{USAGE}");
        return ExitCode::from(1);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            warn!("error: {path}: {e}");
            return ExitCode::from(1);
        }
    };
    // as the service reads a body: a leading byte-order mark is tolerated, a repeated key is
    // refused (the derived reader does, with its line and column)
    let body: QuoteRequest = match serde_json::from_str(swapzap::snapshot::strip_bom(&text)) {
        Ok(b) => b,
        Err(e) => {
            return report(&Error::Request(RequestError::MalformedBody {
                reason: e.to_string(),
            }))
        }
    };
    let known: Vec<&str> = sources.iter().map(String::as_str).collect();
    match body.validate(&known) {
        Ok(r) => {
            say!(
                out,
                "valid {} request, chainId {}",
                r.deployment,
                r.chain_id
            );
            for (i, t) in r.inputs.iter().enumerate() {
                say!(out, "  input[{i}]  {} amount {}", t.token, t.amount);
            }
            for (i, t) in r.outputs.iter().enumerate() {
                say!(
                    out,
                    "  output[{i}] {} proportion {} (= {})",
                    t.token,
                    t.proportion,
                    t.proportion.as_ratio()
                );
            }
            say!(
                out,
                "  slippage {} % (fraction {}); min out of 1000000 quoted: {}",
                r.slippage,
                r.slippage.as_fraction(),
                r.min_amount_out(1_000_000u32.into())
            );
            match &r.user_addr {
                Some(a) => say!(out, "  userAddr {a}"),
                None => say!(out, "  userAddr none (the quote cannot be assembled)"),
            }
            let allowed: Vec<&str> = known
                .iter()
                .copied()
                .filter(|s| r.sources.allows(s))
                .collect();
            say!(out, "  sources {}", allowed.join(", "));
            if r.sources.blacklist.is_some() && !r.sources.apply_blacklist {
                say!(
                    out,
                    "  sourceBlacklist accepted and not applied on this deployment"
                );
            }
            say!(
                out,
                "  referralCode {:?}, compact {}, RFQs {}",
                r.referral_code,
                r.compact,
                if r.rfqs_enabled() { "on" } else { "off" }
            );
            cli::emit(&out);
            ExitCode::SUCCESS
        }
        Err(e) => report(&e),
    }
}
