//! Request parsing and validation never panic, on arbitrary bytes and on structured JSON built
//! from arbitrary pieces; every valid request round-trips through its body unchanged.
//!
//! The input's first byte picks the mode: raw bytes as a JSON body, or a structured body whose
//! strings and numbers are drawn from the rest (so the fuzzer reaches validation, not only the
//! JSON parser). `Debug` of the structured input prints a repro.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use swapzap::service::request::{
    check_assemble, is_stale, Address, AssembleRequest, Deployment, QuoteRequest,
};

const SOURCES: &[&str] = &["uniswap-v2", "curve", "sushiswap"];

/// Pieces likely to reach deep checks, mixed with arbitrary strings.
const ADDRS: &[&str] = &[
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "So11111111111111111111111111111111111111112",
    "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
    "11111111111111111111111111111111",
];

#[derive(Debug, Arbitrary)]
enum Str {
    Addr(u8),
    Digits(u128),
    Raw(String),
}

impl Str {
    fn value(&self) -> String {
        match self {
            Self::Addr(i) => ADDRS[usize::from(*i) % ADDRS.len()].to_string(),
            Self::Digits(n) => n.to_string(),
            Self::Raw(s) => s.clone(),
        }
    }
}

#[derive(Debug, Arbitrary)]
enum Num {
    F(f64),
    U(u64),
    I(i64),
    S(Str),
    Bool(bool),
}

impl Num {
    fn value(&self) -> Value {
        match self {
            // JSON has no NaN or infinity: serde_json writes null for them.
            Self::F(x) => json!(x),
            Self::U(x) => json!(x),
            Self::I(x) => json!(x),
            Self::S(s) => json!(s.value()),
            Self::Bool(b) => json!(b),
        }
    }
}

#[derive(Debug, Arbitrary)]
struct Body {
    chain_id: u64,
    chain101: bool,
    inputs: Vec<(Str, Str)>,
    outputs: Vec<(Str, Num)>,
    slippage: Num,
    user: Option<Str>,
    whitelist: Option<Vec<Str>>,
    blacklist: Option<Vec<Str>>,
    extra_field: Option<String>,
    path_id: String,
    quoted_at: u64,
    now: u64,
}

fn check(body: &QuoteRequest) {
    for r in [
        body.validate(SOURCES),
        body.validate_for(Deployment::Evm, SOURCES),
        body.validate_for(Deployment::Chain101, &[]),
    ] {
        match r {
            Ok(req) => {
                // A valid request reads back from its own body, through JSON.
                let text = serde_json::to_string(&req.to_body()).expect("serialise");
                let back: QuoteRequest = serde_json::from_str(&text).expect("reparse");
                let again = back.validate(SOURCES).expect("revalidate");
                assert_eq!(again, req);
                for o in &req.outputs {
                    let _ = req.min_amount_out(o.proportion.share_of(req.inputs[0].amount));
                }
            }
            Err(e) => {
                let _ = (e.code(), e.class(), e.to_string());
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode % 2 == 0 {
        if let Ok(body) = serde_json::from_slice::<QuoteRequest>(rest) {
            check(&body);
        }
        if let Ok(a) = serde_json::from_slice::<AssembleRequest>(rest) {
            let _ = check_assemble(&a, Deployment::Evm, None, 0, 0);
            let _ = check_assemble(&a, Deployment::Chain101, None, 0, 0);
        }
        if let Ok(s) = std::str::from_utf8(rest) {
            let _ = s.parse::<Address>().map(|a| a.to_string());
        }
        return;
    }
    let Ok(b) = Body::arbitrary(&mut Unstructured::new(rest)) else {
        return;
    };
    let chain = if b.chain101 { 101 } else { b.chain_id };
    let mut v = json!({
        "chainId": chain,
        "inputTokens": b.inputs.iter().map(|(t, a)| json!({"tokenAddress": t.value(), "amount": a.value()})).collect::<Vec<_>>(),
        "outputTokens": b.outputs.iter().map(|(t, p)| json!({"tokenAddress": t.value(), "proportion": p.value()})).collect::<Vec<_>>(),
        "slippageLimitPercent": b.slippage.value(),
    });
    let obj = v.as_object_mut().expect("object");
    if let Some(u) = &b.user {
        obj.insert("userAddr".into(), json!(u.value()));
    }
    if let Some(w) = &b.whitelist {
        obj.insert(
            "sourceWhitelist".into(),
            json!(w.iter().map(Str::value).collect::<Vec<_>>()),
        );
    }
    if let Some(bl) = &b.blacklist {
        obj.insert(
            "sourceBlacklist".into(),
            json!(bl.iter().map(Str::value).collect::<Vec<_>>()),
        );
    }
    if let Some(x) = &b.extra_field {
        obj.insert(x.clone(), json!(1));
    }
    if let Ok(body) = serde_json::from_value::<QuoteRequest>(v) {
        check(&body);
        if let Some(u) = &b.user {
            let a = AssembleRequest {
                user_addr: u.value(),
                path_id: b.path_id.clone(),
                simulate: None,
            };
            let quote_user = body.validate(SOURCES).ok().and_then(|r| r.user_addr);
            let r = check_assemble(&a, Deployment::Evm, quote_user.as_ref(), b.quoted_at, b.now);
            if r.is_ok() {
                assert!(!is_stale(b.quoted_at, b.now));
            }
        }
    }
});
