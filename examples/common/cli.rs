//! What the command-line examples share: reading files, the snapshot, a spec body validated for
//! its `chainId` on the snapshot's sources, amounts in whole tokens, the step table, and error
//! reports (code, class, HTTP status, detail and the spec's remedies; exit status 1).
#![allow(dead_code)]

use std::process::ExitCode;

/// `writeln!` into a `String` of stdout lines (written at once by [`emit`]).
#[allow(unused_macros)]
macro_rules! say {
    ($o:expr) => {{
        $o.push('\n');
    }};
    ($o:expr, $($t:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($o, $($t)*);
    }};
}

/// `println!` through [`emit`]: a closed stdout ends the example quietly instead of panicking.
#[allow(unused_macros)]
macro_rules! out {
    ($($t:tt)*) => {{
        crate::cli::emit(&format!("{}\n", format_args!($($t)*)));
    }};
}

/// `eprintln!` that ignores a closed stderr (never panics).
#[allow(unused_macros)]
macro_rules! warn {
    ($($t:tt)*) => {{
        crate::cli::emit_err(&format!("{}\n", format_args!($($t)*)));
    }};
}

/// Write `text` to stdout. A closed pipe (`| head`) is not an error of the example: the
/// reader has what it wanted, so the example exits at once with status 0 and no message
/// (instead of `println!`'s panic); other write errors are ignored.
pub fn emit(text: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
    }
}

/// Write `text` to stderr, ignoring a closed stderr.
pub fn emit_err(text: &str) {
    use std::io::Write as _;
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}
use swapzap::graph::PoolGraph;
use swapzap::plan::{Plan, Step};
use swapzap::service::request::{QuoteRequest, Request};
use swapzap::snapshot::{PoolKind, Snapshot};
use swapzap::units::TokenId;
use swapzap::{Error, RequestError, U256};

/// A failure of an example: a typed library error, or a file that cannot be read.
pub enum Fail {
    /// a library error: code, class, remedies
    Typed(Error),
    /// a file or argument problem (no code)
    Plain(String),
}

impl<E: Into<Error>> From<E> for Fail {
    fn from(e: E) -> Self {
        Fail::Typed(e.into())
    }
}

/// Print the failure on stderr and give exit status 1.
pub fn report(f: &Fail) -> ExitCode {
    match f {
        Fail::Typed(e) => {
            warn!(
                "error {} [{}, HTTP {}]: {e}",
                e.code(),
                e.class(),
                e.http_status()
            );
            // the error's own remedy, else the class's general ones (for dust, "try a
            // smaller amount" would be wrong)
            match e.remedy() {
                Some(r) => warn!("  remedy: {r}"),
                None => {
                    for s in e.class().suggestions() {
                        warn!("  remedy: {s}");
                    }
                }
            }
            if e.class() == swapzap::ErrorClass::Retryable {
                warn!("  remedy: retry with exponential backoff and jitter");
            }
        }
        Fail::Plain(m) => warn!("error: {m}"),
    }
    ExitCode::from(1)
}

/// A file's JSON (after a leading UTF-8 byte-order mark, if any).
pub fn read_json(path: &str) -> Result<serde_json::Value, Fail> {
    let s = std::fs::read_to_string(path).map_err(|e| Fail::Plain(format!("{path}: {e}")))?;
    serde_json::from_str(swapzap::snapshot::strip_bom(&s))
        .map_err(|e| Fail::Plain(format!("{path}: not JSON: {e}")))
}

/// The graph of a snapshot JSON value.
pub fn graph_of(v: serde_json::Value) -> Result<PoolGraph, Fail> {
    let snap: Snapshot = serde_json::from_value(v)
        .map_err(|e| Fail::Plain(format!("snapshot does not follow the schema: {e}")))?;
    Ok(PoolGraph::from_snapshot(&snap)?)
}

/// A spec body validated for its `chainId` (the deployment's rules) on the graph's sources;
/// a body for another chain than the snapshot's is refused.
pub fn validate_body(v: serde_json::Value, graph: &PoolGraph) -> Result<Request, Fail> {
    let body: QuoteRequest =
        serde_json::from_value(v).map_err(|e| RequestError::MalformedBody {
            reason: e.to_string(),
        })?;
    Ok(body.validate_on(graph)?)
}

/// The value after `flag` in `args`, and whether the flag was there without one.
pub fn flag_value(args: &[String], flag: &str) -> Result<Option<String>, Fail> {
    match args.iter().position(|a| a == flag) {
        None => Ok(None),
        Some(k) => args
            .get(k.saturating_add(1))
            .filter(|v| !v.starts_with("--"))
            .cloned()
            .map(Some)
            .ok_or_else(|| Fail::Plain(format!("{flag} needs a value"))),
    }
}

/// Arguments that are not among `known` flags (`known_valued` take a value).
pub fn unknown_arg(args: &[String], known: &[&str], known_valued: &[&str]) -> Option<String> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if known_valued.contains(&a.as_str()) {
            it.next();
        } else if !known.contains(&a.as_str()) {
            return Some(a.clone());
        }
    }
    None
}

/// A base-unit amount as a decimal number of whole tokens (at most 6 decimals shown).
pub fn human(a: U256, decimals: u8) -> String {
    let s = a.to_string();
    let d = usize::from(decimals);
    if d == 0 {
        return s;
    }
    let s = format!("{s:0>width$}", width = d.saturating_add(1));
    let (i, f) = s.split_at(s.len().saturating_sub(d));
    let f = f.trim_end_matches('0');
    let f = f[..f.len().min(6)].trim_end_matches('0');
    if f.is_empty() && i.trim_start_matches('0').is_empty() && !a.is_zero() {
        // below the sixth decimal: the base units, exactly
        format!("{a}e-{d}")
    } else if f.is_empty() {
        i.to_string()
    } else {
        format!("{i}.{f}")
    }
}

/// A token's symbol (or the head of its address); an LP token as `LP(coin/coin)`.
pub fn sym(g: &PoolGraph, t: TokenId) -> String {
    if let Some(info) = g.pool_of_lp(t).and_then(|p| g.pool(p)) {
        let coins: Vec<String> = info.tokens.iter().map(|c| sym(g, *c)).collect();
        return format!("LP({})", coins.join("/"));
    }
    match g.token(t) {
        Some(i) if !i.symbol.is_empty() => i.symbol.clone(),
        Some(i) => i.address.chars().take(10).collect(),
        None => format!("#{}", t.0),
    }
}

/// A token's decimals (18 when unknown).
pub fn dec(g: &PoolGraph, t: TokenId) -> u8 {
    g.token(t).map_or(18, |i| i.decimals)
}

/// An amount with its symbol.
pub fn amount(g: &PoolGraph, t: TokenId, a: U256) -> String {
    format!("{} {}", human(a, dec(g, t)), sym(g, t))
}

/// `0x1234..abcd kind` for a pool.
pub fn pool_label(g: &PoolGraph, p: swapzap::units::PoolId) -> (String, String) {
    let Some(info) = g.pool(p) else {
        return ("?".into(), format!("#{}", p.0));
    };
    let kind = match (info.kind, info.stable) {
        (PoolKind::ConstantProduct, _) => "x*y=k",
        (PoolKind::Solidly, false) => "volatile",
        (PoolKind::Solidly, true) => "stable",
        (PoolKind::Stableswap, _) => "curve",
        (PoolKind::ConcentratedLiquidity, _) => "cl",
        (PoolKind::SplTokenSwap, _) => "spl x*y=k",
        (PoolKind::SaberStableswap, _) => "saber",
        (PoolKind::OrcaWhirlpool, _) => "whirlpool",
    };
    let addr = info.id.rsplit(':').next().unwrap_or(&info.id);
    let n = addr.chars().count();
    let head: String = addr.chars().take(6).collect();
    let tail: String = addr.chars().skip(n.saturating_sub(4)).collect();
    (info.source.clone(), format!("{head}..{tail} {kind}"))
}

/// The steps of a plan as a table whose columns line up: source, pool, what the step does, what
/// goes in, what comes out.
pub fn step_table(g: &PoolGraph, plan: &Plan) -> Vec<String> {
    let join = |v: Vec<String>| v.join(" + ");
    let mut rows: Vec<[String; 6]> = vec![[
        "#".into(),
        "source".into(),
        "pool".into(),
        "step".into(),
        "in".into(),
        "out".into(),
    ]];
    // a pool's coins with their amounts; an LP amount with the pool's LP token when known
    let coins = |pool, amounts: &[U256]| {
        let coins = g.pool(pool).map(|p| p.tokens.clone()).unwrap_or_default();
        join(
            coins
                .iter()
                .zip(amounts)
                .map(|(t, a)| amount(g, *t, *a))
                .collect(),
        )
    };
    let lp = |pool, a: U256| g.lp_token(pool).map_or(a.to_string(), |t| amount(g, t, a));
    for (k, s) in plan.steps.iter().enumerate() {
        let (what, pool, ins, outs) = match s {
            Step::Mint {
                pool,
                amounts_in,
                lp_out,
            } => (
                "mint".into(),
                *pool,
                coins(*pool, amounts_in),
                lp(*pool, *lp_out),
            ),
            Step::Burn {
                pool,
                lp_in,
                amounts_out,
            } => (
                "burn".into(),
                *pool,
                lp(*pool, *lp_in),
                coins(*pool, amounts_out),
            ),
            Step::BurnOne {
                pool,
                lp_in,
                token_out,
                amount_out,
            } => (
                format!("burn one {}", sym(g, *token_out)),
                *pool,
                lp(*pool, *lp_in),
                amount(g, *token_out, *amount_out),
            ),
            // a swap, or a kind of step this table does not know
            _ => s.as_swap().map_or_else(
                || {
                    (
                        "?".into(),
                        swapzap::units::PoolId(u32::MAX),
                        String::new(),
                        String::new(),
                    )
                },
                |(pool, sold, bought)| {
                    (
                        format!("swap {}->{}", sym(g, sold.token), sym(g, bought.token)),
                        pool,
                        amount(g, sold.token, sold.amount),
                        amount(g, bought.token, bought.amount),
                    )
                },
            ),
        };
        let (source, label) = pool_label(g, pool);
        rows.push([
            k.saturating_add(1).to_string(),
            source,
            label,
            what,
            ins,
            outs,
        ]);
    }
    align(&rows, [true, false, false, false, true, true])
}

/// Rows of cells as lines whose columns line up: every column as wide as its widest cell,
/// right-aligned where `right` says so, two spaces between columns.
pub fn align<const N: usize>(rows: &[[String; N]], right: [bool; N]) -> Vec<String> {
    let mut width = [0usize; N];
    for r in rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    rows.iter()
        .map(|r| {
            let cells: Vec<String> = r
                .iter()
                .zip(width.iter().zip(right))
                .map(|(c, (w, right))| {
                    if right {
                        format!("{c:>w$}")
                    } else {
                        format!("{c:<w$}")
                    }
                })
                .collect();
            cells.join("  ").trim_end().to_string()
        })
        .collect()
}
