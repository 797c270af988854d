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
            report_remedies(e);
        }
        Fail::Plain(m) => warn!("error: {m}"),
    }
    ExitCode::from(1)
}

/// The error's own remedy, else the class's general ones (for dust, "try a smaller amount"
/// would be wrong); backoff for a retryable error.
fn report_remedies(e: &Error) {
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

/// A file's JSON (after a leading UTF-8 byte-order mark, if any). An object that repeats a
/// key is refused with the parser's line and column: `serde_json::Value` would keep the last
/// one silently (a duplicate `amount` must not win over the first).
pub fn read_json(path: &str) -> Result<serde_json::Value, Fail> {
    let s = std::fs::read_to_string(path).map_err(|e| Fail::Plain(format!("{path}: {e}")))?;
    let text = swapzap::snapshot::strip_bom(&s);
    serde_json::from_str::<NoDuplicateKeys>(text)
        .map_err(|e| Fail::Plain(format!("{path}: not JSON: {e}")))?;
    serde_json::from_str(text).map_err(|e| Fail::Plain(format!("{path}: not JSON: {e}")))
}

/// A request body file's JSON, read as [`read_json`] does; a file that is not JSON is the
/// typed `MalformedBody` (3000) a service would answer.
pub fn read_body(path: &str) -> Result<serde_json::Value, Fail> {
    read_json(path).map_err(|f| match f {
        Fail::Plain(m) if m.contains("not JSON") => {
            Fail::Typed(RequestError::MalformedBody { reason: m }.into())
        }
        other => other,
    })
}

/// The part `key` (`snapshot`, `request`) of a `../shared/routing` instance file.
pub fn instance_part(
    v: &mut serde_json::Value,
    key: &str,
    path: &str,
) -> Result<serde_json::Value, Fail> {
    match v.get_mut(key) {
        Some(x) => Ok(x.take()),
        None => Err(Fail::Plain(format!(
            "{path}: not a routing instance: no `{key}` key"
        ))),
    }
}

/// Accepts any JSON whose objects never repeat a key (see [`read_json`]).
struct NoDuplicateKeys;

impl<'de> serde::Deserialize<'de> for NoDuplicateKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NoDuplicateKeysVisitor)
    }
}

struct NoDuplicateKeysVisitor;

impl<'de> serde::de::Visitor<'de> for NoDuplicateKeysVisitor {
    type Value = NoDuplicateKeys;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, _: bool) -> Result<NoDuplicateKeys, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_i64<E>(self, _: i64) -> Result<NoDuplicateKeys, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_u64<E>(self, _: u64) -> Result<NoDuplicateKeys, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_f64<E>(self, _: f64) -> Result<NoDuplicateKeys, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_str<E>(self, _: &str) -> Result<NoDuplicateKeys, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_unit<E>(self) -> Result<NoDuplicateKeys, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut s: A,
    ) -> Result<NoDuplicateKeys, A::Error> {
        while s.next_element::<NoDuplicateKeys>()?.is_some() {}
        Ok(NoDuplicateKeys)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut m: A,
    ) -> Result<NoDuplicateKeys, A::Error> {
        let mut seen = std::collections::BTreeSet::new();
        while let Some(k) = m.next_key::<String>()? {
            if !seen.insert(k.clone()) {
                return Err(serde::de::Error::custom(format!("duplicate key `{k}`")));
            }
            m.next_value::<NoDuplicateKeys>()?;
        }
        Ok(NoDuplicateKeys)
    }
}

/// `v` as a `T`, or the parser's error with where it lies in `v` (`pools[3] (id "…").fee`).
/// A `serde_json::Value` carries no line or column, so the place is found by leaving out one
/// key, or a run of elements, at a time: the part whose absence changes the error holds it.
pub fn from_value_located<T: serde::de::DeserializeOwned>(
    v: &serde_json::Value,
) -> Result<T, String> {
    let parse = |x: &serde_json::Value| T::deserialize(x).map(|_| ()).map_err(|e| e.to_string());
    match T::deserialize(v) {
        Ok(t) => Ok(t),
        Err(e) => {
            let place = locate(v, &parse);
            Err(if place.is_empty() {
                e.to_string()
            } else {
                format!("at {place}: {e}")
            })
        }
    }
}

/// One step of a path into a JSON value.
enum Seg {
    Key(String),
    Index(usize),
}

fn node<'a>(v: &'a serde_json::Value, path: &[Seg]) -> Option<&'a serde_json::Value> {
    path.iter().try_fold(v, |x, s| match s {
        Seg::Key(k) => x.get(k),
        Seg::Index(i) => x.get(i),
    })
}

fn node_mut<'a>(v: &'a mut serde_json::Value, path: &[Seg]) -> Option<&'a mut serde_json::Value> {
    path.iter().try_fold(v, |x, s| match s {
        Seg::Key(k) => x.get_mut(k),
        Seg::Index(i) => x.get_mut(i),
    })
}

/// The path of the part of `v` that `parse` fails on (see [`from_value_located`]).
fn locate(
    v: &serde_json::Value,
    parse: &dyn Fn(&serde_json::Value) -> Result<(), String>,
) -> String {
    let Err(first) = parse(v) else {
        return String::new();
    };
    let changes = |path: &[Seg], cut: &dyn Fn(&mut serde_json::Value)| -> bool {
        let mut w = v.clone();
        if let Some(n) = node_mut(&mut w, path) {
            cut(n);
        }
        parse(&w).err().as_ref() != Some(&first)
    };
    // "missing field `x`" is this object's fault when giving it an `x` changes the error
    // other than into an unknown field (a deeper object is at fault otherwise)
    let missing_here = |path: &[Seg]| -> bool {
        let Some(x) = first
            .strip_prefix("missing field `")
            .and_then(|r| r.split('`').next())
        else {
            return false;
        };
        let mut w = v.clone();
        if let Some(o) = node_mut(&mut w, path).and_then(|n| n.as_object_mut()) {
            o.insert(x.to_string(), serde_json::Value::Null);
        }
        match parse(&w) {
            Ok(()) => true,
            Err(e) => e != first && !e.starts_with("unknown field"),
        }
    };
    let unknown = first
        .strip_prefix("unknown field `")
        .and_then(|r| r.split('`').next());
    let unknown_key = |m: &serde_json::Map<String, serde_json::Value>, path: &[Seg]| {
        unknown.filter(|k| {
            m.contains_key(*k)
                && changes(path, &|n: &mut serde_json::Value| {
                    if let Some(o) = n.as_object_mut() {
                        o.remove(*k);
                    }
                })
        })
    };
    let mut path: Vec<Seg> = Vec::new();
    let mut text = String::new();
    loop {
        let next = match node(v, &path) {
            // A missing field is the object's own fault. Otherwise the reader stops at the
            // first bad value in key order, so a key holds the fault when nulling it changes
            // the error and nulling any later key does not: the last key that changes it.
            Some(serde_json::Value::Object(_)) if missing_here(&path) => None,
            // an unknown key of this object is named as it is
            Some(serde_json::Value::Object(m)) if unknown_key(m, &path).is_some() => {
                unknown_key(m, &path).map(|k| Seg::Key(k.to_string()))
            }
            Some(serde_json::Value::Object(m)) => m
                .keys()
                .rfind(|k| {
                    changes(&path, &|n: &mut serde_json::Value| {
                        if let Some(x) = n.get_mut(k.as_str()) {
                            *x = serde_json::Value::Null;
                        }
                    })
                })
                .map(|k| Seg::Key(k.clone())),
            Some(serde_json::Value::Array(a)) => {
                // halve the run of elements that holds the culprit
                let (mut lo, mut hi) = (0usize, a.len());
                while hi.saturating_sub(lo) > 1 {
                    let mid = lo.saturating_add(hi.saturating_sub(lo) / 2);
                    let cut_low = changes(&path, &|n: &mut serde_json::Value| {
                        if let Some(x) = n.as_array_mut() {
                            x.drain(lo..mid);
                        }
                    });
                    if cut_low {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                let one = hi == lo.saturating_add(1)
                    && changes(&path, &|n: &mut serde_json::Value| {
                        if let Some(x) = n.as_array_mut() {
                            x.remove(lo);
                        }
                    });
                one.then_some(Seg::Index(lo))
            }
            _ => None,
        };
        let Some(seg) = next else { break };
        match &seg {
            Seg::Key(k) if text.is_empty() => text.push_str(k),
            Seg::Key(k) => text.push_str(&format!(".{k}")),
            Seg::Index(i) => text.push_str(&format!("[{i}]")),
        }
        path.push(seg);
        // name a pool by its id and a token by its address
        if let (Some(Seg::Index(_)), Some(serde_json::Value::Object(o))) =
            (path.last(), node(v, &path))
        {
            for key in ["id", "address"] {
                if let Some(serde_json::Value::String(s)) = o.get(key) {
                    text.push_str(&format!(" ({key} {s:?})"));
                    break;
                }
            }
        }
    }
    text
}

/// The graph of a snapshot JSON value; a snapshot the schema refuses is named by the part
/// at fault (`pools[3] (id …).fee`), a pool the loader refuses by its typed error.
pub fn graph_of(v: serde_json::Value) -> Result<PoolGraph, Fail> {
    let snap: Snapshot = from_value_located(&v)
        .map_err(|e| Fail::Plain(format!("snapshot does not follow the schema: {e}")))?;
    Ok(PoolGraph::from_snapshot(&snap)?)
}

/// A spec body as the typed body, the malformed part named (`MalformedBody`, 3000).
pub fn body_of(v: &serde_json::Value) -> Result<QuoteRequest, Fail> {
    from_value_located(v)
        .map_err(|reason| Fail::Typed(RequestError::MalformedBody { reason }.into()))
}

/// A spec body validated for its `chainId` (the deployment's rules) on the graph's sources;
/// a body for another chain than the snapshot's is refused.
pub fn validate_body(v: serde_json::Value, graph: &PoolGraph) -> Result<Request, Fail> {
    Ok(body_of(&v)?.validate_on(graph)?)
}

/// `text` with each `token #N` of the graph followed by its symbol and address, so that an
/// error naming the router's dense token ids names the tokens a user knows.
pub fn name_tokens(text: &str, g: &PoolGraph) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(k) = rest.find("token #") {
        let (head, tail) = rest.split_at(k.saturating_add("token #".len()));
        out.push_str(head);
        let digits: String = tail.chars().take_while(char::is_ascii_digit).collect();
        out.push_str(&digits);
        rest = tail.get(digits.len()..).unwrap_or_default();
        let token = digits.parse::<u32>().ok().map(TokenId);
        if let Some((t, info)) = token.and_then(|t| g.token(t).map(|i| (t, i))) {
            out.push_str(&format!(" ({} {})", sym(g, t), info.address));
        }
    }
    out.push_str(rest);
    out
}

/// [`report`] for an error of a request on `g`: its tokens named (see [`name_tokens`]).
pub fn report_on(f: &Fail, g: &PoolGraph) -> ExitCode {
    match f {
        Fail::Typed(e) => {
            warn!(
                "error {} [{}, HTTP {}]: {}",
                e.code(),
                e.class(),
                e.http_status(),
                name_tokens(&e.to_string(), g)
            );
            report_remedies(e);
            ExitCode::from(1)
        }
        Fail::Plain(_) => report(f),
    }
}

/// Each pool the loader left out (its state is one the exact math refuses), as a line.
pub fn quarantine_lines(g: &PoolGraph) -> Vec<String> {
    g.quarantined()
        .iter()
        .map(|q| {
            format!(
                "left out: {} (error {}): {}",
                q.id,
                q.reason.code(),
                q.reason
            )
        })
        .collect()
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
