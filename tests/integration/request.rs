//! Request bodies, validation per deployment, error codes, quote lifetime and assembly.
//!
//! Expected values come from outside the code: EIP-55's own examples, well-known chain-101
//! addresses with bytes decoded by hand (the all-zero system program; the native mint ending in
//! `..., 0, 0, 0, 0, 1`), and arithmetic done on paper or with arbitrary precision.

use proptest::prelude::*;
use serde_json::json;
use swapzap::error::{AddressProblem, AmountProblem, DecimalProblem, ErrorClass, Field};
use swapzap::service::request::{
    check_assemble, is_stale, Address, AddressError, AssembleRequest, Deployment, JsonDecimal,
    Proportion, QuoteRequest, Request, Slippage, MAX_INPUT_TOKENS, MAX_OUTPUT_TOKENS, QUOTE_TTL_MS,
};
use swapzap::{Error, ErrorBody, RequestError, RouteError, SnapshotError, ZapError, U256};

const SOURCES: &[&str] = &["uniswap-v2", "sushiswap", "curve", "aerodrome-v2"];

// EIP-55's test cases (the four "normal" mixed-case ones, then all-caps, then all-lower).
const EIP55_MIXED: &[&str] = &[
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
];
const EIP55_CAPS: &[&str] = &[
    "0x52908400098527886E0F7030069857D2E4169EE7",
    "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
];
const EIP55_LOWER: &[&str] = &[
    "0xde709f2102306220921060314715629080e2fb77",
    "0x27b1fdb04752bbc536007a920d24acb045561c26",
];

// Chain 101.
const SYSTEM: &str = "11111111111111111111111111111111";
const WSOL: &str = "So11111111111111111111111111111111111111112";
const USDC101: &str = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const TOKEN_PROGRAM: &str = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";

fn evm_body() -> serde_json::Value {
    json!({
        "chainId": 1,
        "inputTokens": [{"tokenAddress": EIP55_LOWER[0], "amount": "1000000000000000000"}],
        "outputTokens": [
            {"tokenAddress": EIP55_MIXED[1], "proportion": 0.8},
            {"tokenAddress": EIP55_MIXED[2], "proportion": 0.2}
        ],
        "slippageLimitPercent": 0.5,
        "userAddr": EIP55_MIXED[0],
        "referralCode": 0,
        "compact": true,
        "sourceWhitelist": ["uniswap-v2", "curve"],
        "sourceBlacklist": ["curve"],
        "disableRFQs": true
    })
}

fn sol_body() -> serde_json::Value {
    json!({
        "chainId": 101,
        "inputTokens": [{"tokenAddress": WSOL, "amount": "1000000000"}],
        "outputTokens": [{"tokenAddress": USDC101, "proportion": 1}],
        "slippageLimitPercent": 1,
        "userAddr": TOKEN_PROGRAM,
        "sourceBlacklist": ["curve"],
        "disableRFQs": true
    })
}

fn body(v: &serde_json::Value) -> QuoteRequest {
    serde_json::from_value(v.clone()).unwrap()
}

fn validate(v: &serde_json::Value) -> Result<Request, Error> {
    body(v).validate(SOURCES)
}

fn req_err(v: &serde_json::Value) -> RequestError {
    match validate(v) {
        Err(Error::Request(e)) => e,
        other => panic!("expected a request error, got {other:?}"),
    }
}

fn with(mut v: serde_json::Value, path: &[&str], x: serde_json::Value) -> serde_json::Value {
    let mut cur = &mut v;
    for p in path {
        cur = match p.parse::<usize>() {
            Ok(i) => &mut cur[i],
            Err(_) => &mut cur[*p],
        };
    }
    *cur = x;
    v
}

fn without(mut v: serde_json::Value, key: &str) -> serde_json::Value {
    v.as_object_mut().unwrap().remove(key);
    v
}

// ---------------------------------------------------------------- bodies and serde

#[test]
fn evm_body_validates_into_typed_values() {
    let r = validate(&evm_body()).unwrap();
    assert_eq!(r.chain_id, 1);
    assert_eq!(r.deployment, Deployment::Evm);
    assert_eq!(r.inputs.len(), 1);
    assert_eq!(r.inputs[0].amount, U256::exp10(18));
    assert_eq!(
        r.outputs[0].proportion.as_ratio(),
        num_rational::Ratio::new(4, 5)
    );
    assert_eq!(
        r.outputs[1].proportion.as_ratio(),
        num_rational::Ratio::new(1, 5)
    );
    assert_eq!(r.slippage.as_fraction(), num_rational::Ratio::new(1, 200));
    assert_eq!(r.user_addr.unwrap().to_string(), EIP55_MIXED[0]);
    assert_eq!(r.referral_code, Some(0));
    assert!(r.compact);
    assert!(r.disable_rfqs);
    assert!(!r.rfqs_enabled());
    // Whitelist uniswap-v2 and curve, blacklist curve: only uniswap-v2 remains.
    assert!(r.sources.allows("uniswap-v2"));
    assert!(!r.sources.allows("curve"));
    assert!(!r.sources.allows("sushiswap"));
}

#[test]
fn chain101_body_validates_and_ignores_blacklist_and_rfq_flag() {
    let r = validate(&sol_body()).unwrap();
    assert_eq!(r.deployment, Deployment::Chain101);
    assert_eq!(
        r.inputs[0].token,
        Address::Base58([
            6, 155, 136, 87, 254, 171, 129, 132, 251, 104, 127, 99, 70, 24, 192, 53, 218, 196, 57,
            220, 26, 235, 59, 85, 152, 160, 240, 0, 0, 0, 0, 1
        ])
    );
    assert_eq!(r.inputs[0].amount, U256::from(1_000_000_000u64));
    assert_eq!(r.outputs[0].proportion, Proportion::ONE);
    assert_eq!(r.slippage.as_fraction(), num_rational::Ratio::new(1, 100));
    // The blacklist is kept but not applied.
    assert_eq!(r.sources.blacklist, Some(vec!["curve".to_string()]));
    assert!(!r.sources.apply_blacklist);
    assert!(r.sources.allows("curve"));
    // disableRFQs accepted; RFQs are off on chain 101 whatever it says.
    assert!(!r.rfqs_enabled());
    let r2 = validate(&without(sol_body(), "disableRFQs")).unwrap();
    assert!(!r2.rfqs_enabled());
}

#[test]
fn evm_rfqs_follow_the_flag() {
    let r = validate(&without(evm_body(), "disableRFQs")).unwrap();
    assert!(r.rfqs_enabled());
}

#[test]
fn unknown_fields_are_refused_and_known_names_are_exact() {
    let v = with(evm_body(), &["slippageLimitPercentage"], json!(1));
    let e = serde_json::from_value::<QuoteRequest>(v).unwrap_err();
    assert!(e.to_string().contains("slippageLimitPercentage"), "{e}");
    // disableRFQs is spelt with capitals; the snake/camel guess is unknown.
    let v = with(
        without(evm_body(), "disableRFQs"),
        &["disableRfqs"],
        json!(true),
    );
    assert!(serde_json::from_value::<QuoteRequest>(v).is_err());
    // Unknown fields inside entries too.
    let v = with(evm_body(), &["inputTokens", "0", "decimals"], json!(18));
    assert!(serde_json::from_value::<QuoteRequest>(v).is_err());
    // Assemble body.
    let a = json!({"userAddr": EIP55_MIXED[0], "pathId": "abc", "simulate": true, "x": 1});
    assert!(serde_json::from_value::<AssembleRequest>(a).is_err());
}

#[test]
fn optional_fields_may_be_omitted() {
    let mut v = evm_body();
    for k in [
        "userAddr",
        "referralCode",
        "compact",
        "sourceWhitelist",
        "sourceBlacklist",
        "disableRFQs",
    ] {
        v = without(v, k);
    }
    let r = validate(&v).unwrap();
    assert_eq!(r.user_addr, None);
    assert!(!r.compact && !r.disable_rfqs);
    assert!(r.sources.allows("sushiswap"));
    // Required fields may not.
    for k in [
        "chainId",
        "inputTokens",
        "outputTokens",
        "slippageLimitPercent",
    ] {
        assert!(
            serde_json::from_value::<QuoteRequest>(without(evm_body(), k)).is_err(),
            "{k}"
        );
    }
}

#[test]
fn body_serialises_with_spec_field_names() {
    let b = body(&evm_body());
    let v = serde_json::to_value(&b).unwrap();
    assert_eq!(v, evm_body());
}

// ---------------------------------------------------------------- chain ids

#[test]
fn chain_id_picks_the_deployment() {
    assert_eq!(Deployment::for_chain(1).unwrap(), Deployment::Evm);
    assert_eq!(Deployment::for_chain(8453).unwrap(), Deployment::Evm);
    assert_eq!(Deployment::for_chain(101).unwrap(), Deployment::Chain101);
    let e = req_err(&with(evm_body(), &["chainId"], json!(0)));
    assert_eq!(e, RequestError::UnsupportedChain { chain_id: 0 });
    // A chain-101 body on the EVM endpoint and back.
    let e = body(&sol_body())
        .validate_for(Deployment::Evm, SOURCES)
        .unwrap_err();
    assert_eq!(e.code(), 3002);
    assert!(body(&sol_body())
        .validate_for(Deployment::Chain101, SOURCES)
        .is_ok());
    assert!(body(&evm_body())
        .validate_for(Deployment::Chain101, SOURCES)
        .is_err());
}

// ---------------------------------------------------------------- EVM addresses

#[test]
fn eip55_examples_are_accepted_and_printed_checksummed() {
    for s in EIP55_MIXED {
        let a = Address::parse_evm(s, true).unwrap();
        assert_eq!(a.to_string(), *s);
        assert_eq!(Address::parse_evm(&s.to_lowercase(), false).unwrap(), a);
        assert_eq!(a.to_lowercase_string(), s.to_lowercase());
    }
    // EIP-55's all-caps and all-lower examples are addresses whose checksum form happens to be
    // all caps or all lower: they pass even where the checksum is required.
    for s in EIP55_CAPS.iter().chain(EIP55_LOWER) {
        let a = Address::parse_evm(s, true).unwrap();
        assert_eq!(a.to_string(), *s);
    }
    // Any all-lower or all-upper spelling carries no checksum: fine for a token address.
    for s in EIP55_MIXED {
        let upper = format!("0x{}", s[2..].to_uppercase());
        assert_eq!(
            Address::parse_evm(&upper, false).unwrap(),
            Address::parse_evm(s, false).unwrap()
        );
        assert_eq!(
            Address::parse_evm(&upper, true),
            Err(AddressError::NotChecksummed)
        );
    }
}

#[test]
fn a_flipped_case_letter_fails_the_checksum() {
    // 0x5aAeb6... -> 0x5AAeb6... (second letter flipped to upper case).
    let bad = "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    assert_eq!(
        Address::parse_evm(bad, false),
        Err(AddressError::BadChecksum)
    );
    let e = req_err(&with(
        evm_body(),
        &["outputTokens", "0", "tokenAddress"],
        json!(bad),
    ));
    assert_eq!(
        e,
        RequestError::BadChecksum {
            field: Field::OutputTokenAddress(0)
        }
    );
    assert_eq!(Error::from(e.clone()).code(), 3011);
    assert!(e.to_string().contains("outputTokens[0].tokenAddress"));
}

#[test]
fn user_addr_must_be_checksummed_on_evm() {
    let e = req_err(&with(
        evm_body(),
        &["userAddr"],
        json!(EIP55_MIXED[0].to_lowercase()),
    ));
    assert_eq!(
        e,
        RequestError::NotChecksummed {
            field: Field::UserAddr
        }
    );
    let upper = format!("0x{}", EIP55_MIXED[3][2..].to_uppercase());
    let e = req_err(&with(evm_body(), &["userAddr"], json!(upper)));
    assert_eq!(Error::from(e).code(), 3012);
    // EIP-55's all-caps example is its own checksum form: a valid userAddr.
    assert!(validate(&with(evm_body(), &["userAddr"], json!(EIP55_CAPS[0]))).is_ok());
    // A lower-case token address is fine.
    assert!(validate(&with(
        evm_body(),
        &["outputTokens", "0", "tokenAddress"],
        json!(EIP55_MIXED[1].to_lowercase())
    ))
    .is_ok());
}

/// Each case's address as the first input token of `body()`: refused as that address problem
/// at `inputTokens[0].tokenAddress`. The errors, in the cases' order.
fn input_address_errors(
    body: fn() -> serde_json::Value,
    cases: &[(&str, AddressProblem)],
) -> Vec<RequestError> {
    let at = ["inputTokens", "0", "tokenAddress"];
    let mut errors = Vec::new();
    for (s, p) in cases {
        let e = req_err(&with(body(), &at, json!(s)));
        let want = RequestError::InvalidAddress {
            field: Field::InputTokenAddress(0),
            problem: *p,
        };
        assert_eq!(e, want, "{s:?}");
        errors.push(e);
    }
    errors
}

#[test]
fn malformed_evm_addresses_name_the_problem() {
    let cases: &[(&str, AddressProblem)] = &[
        ("", AddressProblem::Empty),
        (
            "5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
            AddressProblem::MissingPrefix,
        ),
        (
            "0X5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
            AddressProblem::MissingPrefix,
        ),
        (
            "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae",
            AddressProblem::WrongLength { len: 39 },
        ),
        (
            "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed00",
            AddressProblem::WrongLength { len: 42 },
        ),
        (
            "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg",
            AddressProblem::NotHex,
        ),
        (
            " 0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
            AddressProblem::MissingPrefix,
        ),
        (
            "0x5aaeb6053f3e94c9b9a09f33669435e7ef1bea d",
            AddressProblem::NotHex,
        ),
        (USDC101, AddressProblem::MissingPrefix),
    ];
    for e in input_address_errors(evm_body, cases) {
        assert!(e
            .to_string()
            .starts_with("Invalid token address at inputTokens[0].tokenAddress"));
    }
    // Multi-byte characters of the right byte length must not panic the hex reader.
    let s = format!("0x{}", "é".repeat(20));
    assert!(Address::parse_evm(&s, false).is_err());
}

// ---------------------------------------------------------------- chain-101 addresses

#[test]
fn well_known_base58_addresses_decode_to_their_bytes() {
    assert_eq!(
        Address::parse_base58(SYSTEM).unwrap(),
        Address::Base58([0; 32])
    );
    let tp = Address::parse_base58(TOKEN_PROGRAM).unwrap();
    assert_eq!(
        tp.as_bytes(),
        &[
            6, 221, 246, 225, 215, 101, 161, 147, 217, 203, 225, 70, 206, 235, 121, 172, 28, 180,
            133, 237, 95, 91, 55, 145, 58, 140, 245, 133, 126, 255, 0, 169
        ]
    );
    for s in [SYSTEM, WSOL, USDC101, TOKEN_PROGRAM] {
        assert_eq!(Address::parse_base58(s).unwrap().to_string(), s);
        assert_eq!(s.parse::<Address>().unwrap().to_string(), s);
    }
}

#[test]
fn base58_is_case_sensitive() {
    let lower = USDC101.to_lowercase();
    if let Ok(a) = Address::parse_base58(&lower) {
        assert_ne!(a, Address::parse_base58(USDC101).unwrap());
    }
    // This particular lower-casing decodes to 33 bytes (checked with an independent decoder).
    assert_eq!(
        Address::parse_base58(&lower),
        Err(AddressError::Format(AddressProblem::WrongByteLength {
            len: 33
        }))
    );
}

#[test]
fn evm_addresses_in_a_chain101_request_say_so() {
    let e = req_err(&with(sol_body(), &["userAddr"], json!(EIP55_MIXED[0])));
    assert_eq!(
        e,
        RequestError::EvmAddressOnChain101 {
            field: Field::UserAddr
        }
    );
    assert!(e.to_string().starts_with("Invalid userAddr"), "{e}");
    assert!(e.to_string().contains("EVM"), "{e}");
    let e = req_err(&with(
        sol_body(),
        &["outputTokens", "0", "tokenAddress"],
        json!(EIP55_LOWER[0]),
    ));
    assert_eq!(Error::from(e.clone()).code(), 3013);
    assert!(e.to_string().starts_with("Invalid token address"), "{e}");
    assert!(e.to_string().contains("/info/tokens/101"), "{e}");
}

#[test]
fn malformed_base58_addresses_name_the_problem() {
    let cases: &[(&str, AddressProblem)] = &[
        ("", AddressProblem::Empty),
        // '0', 'O', 'I', 'l' are not base58.
        (
            "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10",
            AddressProblem::NotBase58,
        ),
        (
            "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1O",
            AddressProblem::NotBase58,
        ),
        (
            "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1l",
            AddressProblem::NotBase58,
        ),
        (
            "EPjFWdd5AufqSSqeM2qN1xzy apC8G4wEGGkZwyTDt1v",
            AddressProblem::NotBase58,
        ),
        // 31 ones: 31 zero bytes.
        (
            "1111111111111111111111111111111",
            AddressProblem::WrongByteLength { len: 31 },
        ),
        // 33 ones: 33 zero bytes.
        (
            "111111111111111111111111111111111",
            AddressProblem::WrongByteLength { len: 33 },
        ),
        // 33*58^2 + 34*58 + 35 = 113019 = 0x01B97B: 3 bytes.
        ("abc", AddressProblem::WrongByteLength { len: 3 }),
        (
            "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1vEPjF",
            AddressProblem::WrongLength { len: 48 },
        ),
    ];
    input_address_errors(sol_body, cases);
    let e = req_err(&with(sol_body(), &["userAddr"], json!("1111")));
    assert!(e.to_string().starts_with("Invalid userAddr"), "{e}");
}

// ---------------------------------------------------------------- amounts

#[test]
fn amounts_are_canonical_integers_in_range() {
    let max = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
    let r = validate(&with(
        evm_body(),
        &["inputTokens", "0", "amount"],
        json!(max),
    ))
    .unwrap();
    assert_eq!(r.inputs[0].amount, U256::MAX);
    let r = validate(&with(
        evm_body(),
        &["inputTokens", "0", "amount"],
        json!("1"),
    ))
    .unwrap();
    assert_eq!(r.inputs[0].amount, U256::one());

    let two_256 = "115792089237316195423570985008687907853269984665640564039457584007913129639936";
    let cases: &[(&str, AmountProblem)] = &[
        ("", AmountProblem::Empty),
        ("0", AmountProblem::Zero),
        ("000", AmountProblem::Zero),
        ("007", AmountProblem::LeadingZero),
        ("-1", AmountProblem::NotAnInteger),
        ("+1", AmountProblem::NotAnInteger),
        ("1.0", AmountProblem::NotAnInteger),
        ("1e18", AmountProblem::NotAnInteger),
        (" 1", AmountProblem::NotAnInteger),
        ("1 ", AmountProblem::NotAnInteger),
        ("0x10", AmountProblem::NotAnInteger),
        ("1_000", AmountProblem::NotAnInteger),
        ("１", AmountProblem::NotAnInteger), // full-width digit
        (two_256, AmountProblem::TooLarge),
    ];
    for (s, p) in cases {
        let e = req_err(&with(sol_body(), &["inputTokens", "0", "amount"], json!(s)));
        assert_eq!(
            e,
            RequestError::InvalidAmount {
                index: 0,
                problem: *p
            },
            "{s:?}"
        );
        assert_eq!(Error::from(e).code(), 3020);
    }
    // A JSON number is not an amount string.
    assert!(serde_json::from_value::<QuoteRequest>(with(
        evm_body(),
        &["inputTokens", "0", "amount"],
        json!(1)
    ))
    .is_err());
}

// ---------------------------------------------------------------- proportions

fn outs(ps: &[serde_json::Value]) -> serde_json::Value {
    let addrs = [
        EIP55_MIXED[1],
        EIP55_MIXED[2],
        EIP55_MIXED[3],
        EIP55_CAPS[0],
        EIP55_CAPS[1],
    ];
    let v: Vec<_> = ps
        .iter()
        .zip(addrs)
        .map(|(p, a)| json!({"tokenAddress": a, "proportion": p}))
        .collect();
    with(evm_body(), &["outputTokens"], json!(v))
}

#[test]
fn proportions_are_read_exactly() {
    // 0.1 + 0.2 + 0.7 is 1 in decimals, not in doubles (0.1 + 0.2 != 0.3 in f64).
    let r = validate(&outs(&[json!(0.1), json!(0.2), json!(0.7)])).unwrap();
    let ratios: Vec<_> = r.outputs.iter().map(|o| o.proportion.as_ratio()).collect();
    assert_eq!(
        ratios,
        [
            num_rational::Ratio::new(1, 10),
            num_rational::Ratio::new(1, 5),
            num_rational::Ratio::new(7, 10)
        ]
    );
    // 0.5 and 0.5, 1 and 1.0, as strings too.
    assert!(validate(&outs(&[json!(0.5), json!(0.5)])).is_ok());
    assert!(validate(&outs(&[json!(1.0)])).is_ok());
    assert!(validate(&outs(&[json!("1")])).is_ok());
    assert!(validate(&outs(&[json!("0.8"), json!(0.2)])).is_ok());
    // Thirds need strings with 18 decimals to sum exactly to 1.
    assert!(validate(&outs(&[
        json!("0.333333333333333333"),
        json!("0.333333333333333333"),
        json!("0.333333333333333334")
    ]))
    .is_ok());
    // Trailing zeros past 18 places change nothing.
    assert!(validate(&outs(&[json!("0.50000000000000000000000"), json!(0.5)])).is_ok());
    // Small but representable: 1e-18 as a JSON number prints as 0.000000000000000001.
    assert!(validate(&outs(&[json!(1e-18), json!("0.999999999999999999")])).is_ok());
}

#[test]
fn proportions_must_sum_to_exactly_one() {
    let e = req_err(&outs(&[json!(0.3333), json!(0.3333), json!(0.3333)]));
    assert_eq!(
        e,
        RequestError::ProportionsDoNotSumToOne {
            sum_e18: 999_900_000_000_000_000
        }
    );
    assert!(e.to_string().ends_with("0.9999"), "{e}");
    assert_eq!(Error::from(e).code(), 3031);
    let e = req_err(&outs(&[json!(0.5), json!(0.6)]));
    assert!(e.to_string().ends_with("1.1"), "{e}");
    // 1/3 three times in doubles: the decimals sum to 0.9999999999999999.
    let third = 1.0f64 / 3.0;
    assert!(matches!(
        req_err(&outs(&[json!(third), json!(third), json!(third)])),
        RequestError::ProportionsDoNotSumToOne { .. }
    ));
}

#[test]
fn bad_proportions_name_the_problem() {
    let cases: &[(serde_json::Value, DecimalProblem)] = &[
        (json!(0), DecimalProblem::Zero),
        (json!(0.0), DecimalProblem::Zero),
        (json!("0"), DecimalProblem::Zero),
        (json!(-0.5), DecimalProblem::Negative),
        (json!(-0.0), DecimalProblem::Negative),
        (json!("-0.5"), DecimalProblem::Negative),
        (json!(1.5), DecimalProblem::TooLarge),
        (json!(2), DecimalProblem::TooLarge),
        (json!(1e300), DecimalProblem::TooLarge),
        (json!("1.000000000000000001"), DecimalProblem::TooLarge),
        (json!(1e-19), DecimalProblem::TooManyDecimals { max: 18 }),
        (
            json!("0.0000000000000000001"),
            DecimalProblem::TooManyDecimals { max: 18 },
        ),
        (json!(""), DecimalProblem::Empty),
        (json!("NaN"), DecimalProblem::NotADecimal),
        (json!("inf"), DecimalProblem::NotADecimal),
        (json!("1e-1"), DecimalProblem::NotADecimal),
        (json!("+0.5"), DecimalProblem::NotADecimal),
        (json!(" 0.5"), DecimalProblem::NotADecimal),
        (json!(".5"), DecimalProblem::NotADecimal),
        (json!("5."), DecimalProblem::NotADecimal),
        (json!("00.5"), DecimalProblem::NotADecimal),
        (json!("0,5"), DecimalProblem::NotADecimal),
        (json!("1/2"), DecimalProblem::NotADecimal),
    ];
    for (p, want) in cases {
        let e = req_err(&outs(std::slice::from_ref(p)));
        assert_eq!(
            e,
            RequestError::InvalidProportion {
                index: 0,
                problem: *want
            },
            "{p}"
        );
        assert_eq!(Error::from(e).code(), 3030);
    }
    // NaN and infinities cannot come from JSON; built by hand they are refused.
    let mut b = body(&evm_body());
    b.output_tokens.truncate(1);
    for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        b.output_tokens[0].proportion = JsonDecimal::Number(x);
        assert_eq!(
            b.validate(SOURCES).unwrap_err(),
            Error::Request(RequestError::InvalidProportion {
                index: 0,
                problem: DecimalProblem::NotFinite
            })
        );
    }
    // Not a number at all: a serde error.
    assert!(serde_json::from_value::<QuoteRequest>(outs(&[json!(true)])).is_err());
}

// ---------------------------------------------------------------- slippage

#[test]
fn slippage_is_an_exact_percent_with_bounds() {
    let s = |x: serde_json::Value| validate(&with(evm_body(), &["slippageLimitPercent"], x));
    let frac = |x: serde_json::Value| s(x).unwrap().slippage.as_fraction();
    use num_rational::Ratio;
    assert_eq!(frac(json!(0.1)), Ratio::new(1, 1000));
    assert_eq!(frac(json!(0.5)), Ratio::new(1, 200));
    assert_eq!(frac(json!(1)), Ratio::new(1, 100));
    assert_eq!(frac(json!(1.0)), Ratio::new(1, 100));
    assert_eq!(frac(json!("0.05")), Ratio::new(1, 2000));
    assert_eq!(frac(json!(0)), Ratio::new(0, 1));
    assert_eq!(frac(json!(50)), Ratio::new(1, 2));
    let bad: &[(serde_json::Value, DecimalProblem)] = &[
        (json!(50.000001), DecimalProblem::TooLarge),
        (json!("50.000000000000000001"), DecimalProblem::TooLarge),
        (json!(100), DecimalProblem::TooLarge),
        (json!(-0.5), DecimalProblem::Negative),
        (json!("abc"), DecimalProblem::NotADecimal),
        (json!(""), DecimalProblem::Empty),
        (json!(5e-19), DecimalProblem::TooManyDecimals { max: 18 }),
    ];
    for (x, p) in bad {
        match s(x.clone()) {
            Err(Error::Request(RequestError::InvalidSlippage { problem })) => {
                assert_eq!(problem, *p, "{x}");
            }
            other => panic!("{x}: {other:?}"),
        }
    }
    let e = s(json!(75)).unwrap_err();
    assert_eq!(e.code(), 3040);
    assert!(e.to_string().contains("at most 50 percent"), "{e}");
}

#[test]
fn min_amount_out_rounds_down() {
    let at = |pct: &str, amount: U256| Slippage::parse_percent(pct).unwrap().min_amount_out(amount);
    // 1000 * 0.995 = 995 exactly; 999 * 0.995 = 994.005 -> 994.
    assert_eq!(at("0.5", 1000u32.into()), 995u32.into());
    assert_eq!(at("0.5", 999u32.into()), 994u32.into());
    assert_eq!(at("0", 12345u32.into()), 12345u32.into());
    assert_eq!(at("50", 7u32.into()), 3u32.into());
    assert_eq!(at("1", 1u32.into()), U256::zero());
    // (2^256 - 1) * 199 / 200, floor, computed in arbitrary precision.
    assert_eq!(
        at("0.5", U256::MAX),
        U256::from_dec_str(
            "115213128791129614446453130083644468314003634742312361219260296087873563991735"
        )
        .unwrap()
    );
    assert_eq!(
        at("50", U256::MAX),
        U256::from_dec_str(
            "57896044618658097711785492504343953926634992332820282019728792003956564819967"
        )
        .unwrap()
    );
    // Through Request too.
    let r = validate(&evm_body()).unwrap();
    assert_eq!(r.min_amount_out(200u32.into()), 199u32.into());
}

// ---------------------------------------------------------------- token lists

#[test]
fn token_lists_have_bounds_and_no_repeats() {
    let e = req_err(&with(evm_body(), &["inputTokens"], json!([])));
    assert_eq!(e, RequestError::NoInputTokens);
    let e = req_err(&with(evm_body(), &["outputTokens"], json!([])));
    assert_eq!(e, RequestError::NoOutputTokens);

    // 17 distinct inputs.
    let many: Vec<_> = (0..=MAX_INPUT_TOKENS)
        .map(|i| json!({"tokenAddress": format!("0x{:040x}", i + 1), "amount": "1"}))
        .collect();
    let e = req_err(&with(evm_body(), &["inputTokens"], json!(many)));
    assert_eq!(e, RequestError::TooManyInputTokens { given: 17, max: 16 });
    // Exactly 16 is fine.
    let ok: Vec<_> = many[..MAX_INPUT_TOKENS].to_vec();
    assert!(validate(&with(evm_body(), &["inputTokens"], json!(ok))).is_ok());

    let many: Vec<_> = (0..=MAX_OUTPUT_TOKENS)
        .map(|i| json!({"tokenAddress": format!("0x{:040x}", i + 100), "proportion": "0.0625"}))
        .collect();
    let e = req_err(&with(evm_body(), &["outputTokens"], json!(many)));
    assert_eq!(e, RequestError::TooManyOutputTokens { given: 17, max: 16 });
    // 16 outputs of 1/16 each sum to 1.
    assert!(validate(&with(
        evm_body(),
        &["outputTokens"],
        json!(many[..16].to_vec())
    ))
    .is_ok());

    // The same token twice, in two spellings (lower case and checksummed).
    let v = with(
        evm_body(),
        &["inputTokens"],
        json!([
            {"tokenAddress": EIP55_MIXED[0], "amount": "1"},
            {"tokenAddress": EIP55_MIXED[0].to_lowercase(), "amount": "2"}
        ]),
    );
    assert_eq!(
        req_err(&v),
        RequestError::DuplicateInputToken {
            first: 0,
            second: 1
        }
    );
    let v = outs(&[json!(0.5), json!(0.5)]);
    let v = with(
        v,
        &["outputTokens", "1", "tokenAddress"],
        json!(EIP55_MIXED[1].to_uppercase().replace("0X", "0x")),
    );
    assert_eq!(
        req_err(&v),
        RequestError::DuplicateOutputToken {
            first: 0,
            second: 1
        }
    );
    // An input that is also an output.
    let v = with(
        evm_body(),
        &["outputTokens", "1", "tokenAddress"],
        json!(EIP55_LOWER[0]),
    );
    let e = req_err(&v);
    assert_eq!(
        e,
        RequestError::InputIsOutput {
            input: 0,
            output: 1
        }
    );
    assert_eq!(Error::from(e).code(), 3056);
}

// ---------------------------------------------------------------- sources

#[test]
fn whitelist_ids_must_be_known_exactly() {
    let e = req_err(&with(
        evm_body(),
        &["sourceWhitelist"],
        json!(["uniswap-v2", "Uniswap_V2"]),
    ));
    assert_eq!(
        e,
        RequestError::UnknownSource {
            field: Field::SourceWhitelist(1),
            id: "Uniswap_V2".into(),
            suggestion: Some("uniswap-v2".into())
        }
    );
    assert!(e.to_string().contains("did you mean \"uniswap-v2\""), "{e}");
    assert_eq!(Error::from(e).code(), 3060);
    let e = req_err(&with(evm_body(), &["sourceWhitelist"], json!(["balancer"])));
    assert!(matches!(
        e,
        RequestError::UnknownSource {
            suggestion: None,
            ..
        }
    ));
    // The same on chain 101.
    let e = req_err(&with(sol_body(), &["sourceWhitelist"], json!(["CURVE"])));
    assert!(matches!(e, RequestError::UnknownSource { .. }));
    assert!(validate(&with(sol_body(), &["sourceWhitelist"], json!(["curve"]))).is_ok());
    // Empty whitelist.
    assert_eq!(
        req_err(&with(evm_body(), &["sourceWhitelist"], json!([]))),
        RequestError::EmptyWhitelist
    );
}

#[test]
fn blacklist_accepts_unknown_ids_and_cannot_exclude_everything() {
    let v = without(
        with(evm_body(), &["sourceBlacklist"], json!(["no-such-source"])),
        "sourceWhitelist",
    );
    let r = validate(&v).unwrap();
    assert!(SOURCES.iter().all(|s| r.sources.allows(s)));
    let e = req_err(&with(
        evm_body(),
        &["sourceBlacklist"],
        json!(["uniswap-v2", "curve"]),
    ));
    assert_eq!(e, RequestError::AllSourcesExcluded);
    let v = without(
        with(evm_body(), &["sourceBlacklist"], json!(SOURCES)),
        "sourceWhitelist",
    );
    assert_eq!(req_err(&v), RequestError::AllSourcesExcluded);
    // On chain 101 the blacklist is not applied, so it cannot exclude everything.
    assert!(validate(&with(sol_body(), &["sourceBlacklist"], json!(SOURCES))).is_ok());
}

// ---------------------------------------------------------------- errors

#[test]
fn errors_have_codes_classes_and_statuses() {
    let samples: Vec<(Error, u32, ErrorClass, u16)> = vec![
        (
            RequestError::NoInputTokens.into(),
            3050,
            ErrorClass::Validation,
            400,
        ),
        (
            RequestError::StaleQuote { age_ms: 60_000 }.into(),
            3071,
            ErrorClass::Validation,
            400,
        ),
        (RouteError::NoRoute.into(), 4000, ErrorClass::NoRoute, 422),
        (
            RouteError::InsufficientLiquidity {
                from: swapzap::units::TokenId(0),
                to: swapzap::units::TokenId(1),
            }
            .into(),
            4001,
            ErrorClass::NoRoute,
            422,
        ),
        (
            RouteError::SearchBudgetExceeded.into(),
            4005,
            ErrorClass::Retryable,
            503,
        ),
        (
            RouteError::UnknownToken {
                pool: String::new(),
                address: "0xabc".into(),
            }
            .into(),
            4002,
            ErrorClass::Validation,
            400,
        ),
        (
            RouteError::InvalidPlan {
                step: None,
                why: swapzap::error::PlanProblem::HoldingsDiffer,
            }
            .into(),
            4013,
            ErrorClass::Validation,
            400,
        ),
        (
            SnapshotError::Duplicate("x".into()).into(),
            4030,
            ErrorClass::Retryable,
            503,
        ),
        (
            RouteError::Math(swapzap::MathError::Overflow).into(),
            4021,
            ErrorClass::Retryable,
            503,
        ),
        (
            ZapError::NothingToMint.into(),
            5000,
            ErrorClass::NoRoute,
            422,
        ),
        (
            swapzap::MathError::Overflow.into(),
            1000,
            ErrorClass::Retryable,
            503,
        ),
        (
            swapzap::PoolError::InsufficientLiquidity.into(),
            2001,
            ErrorClass::NoRoute,
            422,
        ),
    ];
    for (e, code, class, status) in samples {
        assert_eq!(e.code(), code, "{e}");
        assert_eq!(e.class(), class, "{e}");
        assert_eq!(e.http_status(), status, "{e}");
        assert_eq!(e.is_retryable(), class == ErrorClass::Retryable);
    }
    assert_eq!(ErrorClass::NoRoute.suggestions().len(), 4);
    assert!(ErrorClass::NoRoute.suggestions()[0].contains("smaller amount"));
    assert!(ErrorClass::Validation.suggestions().is_empty());
}

#[test]
fn error_body_has_the_spec_fields() {
    let e = req_err(&with(sol_body(), &["userAddr"], json!(EIP55_MIXED[0])));
    let b = ErrorBody::new(&e.into(), "trace-123");
    let v = serde_json::to_value(&b).unwrap();
    assert_eq!(v["errorCode"], json!(3013));
    assert_eq!(v["traceId"], json!("trace-123"));
    assert!(v["detail"]
        .as_str()
        .unwrap()
        .starts_with("Invalid userAddr"));
    assert_eq!(v.as_object().unwrap().len(), 3);
}

/// Every code in `docs/error-codes.md` has the class and status the code gives, and every
/// request error code is in the file.
#[test]
fn error_code_table_matches_the_docs() {
    let md = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/error-codes.md"),
    )
    .unwrap();
    // A wrapping error (a simulation, route arithmetic, a zap's pool, math or route leg) has
    // the class and status of its cause: its row reads "(the cause's)" in both columns.
    let rows: std::collections::HashMap<u32, (String, String)> = md
        .lines()
        .filter_map(|l| {
            let cells: Vec<_> = l.split('|').map(str::trim).collect();
            let code = cells.get(1)?.parse().ok()?;
            Some((code, (cells[2].to_string(), cells[3].to_string())))
        })
        .collect();
    let f = Field::UserAddr;
    let all: Vec<Error> = vec![
        RequestError::MalformedBody { reason: "x".into() }.into(),
        RequestError::UnsupportedChain { chain_id: 0 }.into(),
        RequestError::WrongDeployment {
            chain_id: 1,
            deployment: Deployment::Chain101,
        }
        .into(),
        RequestError::InvalidAddress {
            field: f,
            problem: AddressProblem::Empty,
        }
        .into(),
        RequestError::BadChecksum { field: f }.into(),
        RequestError::NotChecksummed { field: f }.into(),
        RequestError::EvmAddressOnChain101 { field: f }.into(),
        RequestError::InvalidAmount {
            index: 0,
            problem: AmountProblem::Zero,
        }
        .into(),
        RequestError::InvalidProportion {
            index: 0,
            problem: DecimalProblem::Zero,
        }
        .into(),
        RequestError::ProportionsDoNotSumToOne { sum_e18: 0 }.into(),
        RequestError::InvalidSlippage {
            problem: DecimalProblem::Zero,
        }
        .into(),
        RequestError::NoInputTokens.into(),
        RequestError::NoOutputTokens.into(),
        RequestError::TooManyInputTokens { given: 17, max: 16 }.into(),
        RequestError::TooManyOutputTokens { given: 17, max: 16 }.into(),
        RequestError::DuplicateInputToken {
            first: 0,
            second: 1,
        }
        .into(),
        RequestError::DuplicateOutputToken {
            first: 0,
            second: 1,
        }
        .into(),
        RequestError::InputIsOutput {
            input: 0,
            output: 0,
        }
        .into(),
        RequestError::UnknownSource {
            field: f,
            id: "x".into(),
            suggestion: None,
        }
        .into(),
        RequestError::EmptyWhitelist.into(),
        RequestError::AllSourcesExcluded.into(),
        RequestError::InvalidPathId.into(),
        RequestError::StaleQuote { age_ms: 0 }.into(),
        RequestError::UserAddrMismatch.into(),
        RequestError::QuoteWithoutUserAddr.into(),
        RouteError::UnknownToken {
            pool: String::new(),
            address: "0x".into(),
        }
        .into(),
        RouteError::TooManyHops { max: 3, needed: 4 }.into(),
        RouteError::BadRequest(swapzap::error::BadRouteRequest::NoInputs).into(),
        RouteError::AllRoutesFiltered {
            filter: swapzap::error::RouteFilter::SourceWhitelist,
        }
        .into(),
        RouteError::AmountTooSmall {
            from: swapzap::units::TokenId(0),
            to: swapzap::units::TokenId(1),
        }
        .into(),
        RouteError::UnknownSource {
            id: "x".into(),
            suggestion: None,
        }
        .into(),
        RouteError::SearchBudgetExceeded.into(),
        RouteError::InsufficientLiquidity {
            from: swapzap::units::TokenId(0),
            to: swapzap::units::TokenId(1),
        }
        .into(),
        RouteError::NoRoute.into(),
        RouteError::Simulation {
            pool: "p".into(),
            error: swapzap::PoolError::InsufficientLiquidity,
        }
        .into(),
        SnapshotError::Duplicate("x".into()).into(),
        SnapshotError::BadNumber {
            pool: "p".into(),
            field: "f",
        }
        .into(),
        SnapshotError::BadPool {
            pool: "p".into(),
            why: swapzap::error::BadPoolProblem::CoinTwice,
        }
        .into(),
        SnapshotError::BadAddress("x".into()).into(),
        RouteError::TokenOutOfRange(swapzap::units::TokenId(9)).into(),
        RouteError::PoolOutOfRange(swapzap::units::PoolId(9)).into(),
        RouteError::Math(swapzap::MathError::Overflow).into(),
        ZapError::NothingToMint.into(),
        ZapError::Unsupported(swapzap::error::ZapUnsupported::LpAmongSeveralOutputs).into(),
        ZapError::NotAnLp(swapzap::units::TokenId(0)).into(),
        ZapError::AmountCount {
            expected: 2,
            got: 3,
        }
        .into(),
        ZapError::EmptyInput.into(),
        ZapError::UnknownToken(swapzap::units::TokenId(0)).into(),
        ZapError::Proportions.into(),
        ZapError::NoRoute {
            from: swapzap::units::TokenId(0),
            to: swapzap::units::TokenId(1),
        }
        .into(),
        ZapError::Pool(swapzap::PoolError::SameToken).into(),
        ZapError::Math(swapzap::MathError::Overflow).into(),
        ZapError::NotAZap.into(),
        RouteError::NoSupply("p".into()).into(),
        RequestError::InvalidQueryParam {
            name: "limit",
            value: "0".into(),
            why: swapzap::error::QueryProblem::LimitRange { max: 1000 },
        }
        .into(),
        RouteError::PlanMismatch {
            field: swapzap::PlanField::Steps,
            index: Some(0),
            why: swapzap::error::PlanProblem::AmountOutDiffers,
        }
        .into(),
        swapzap::MathError::Underflow.into(),
        swapzap::MathError::DivisionByZero.into(),
        swapzap::PoolError::SameToken.into(),
        swapzap::PoolError::InsufficientInputAmount.into(),
    ];
    let mut seen = std::collections::HashSet::new();
    for e in &all {
        let (class, status) = rows
            .get(&e.code())
            .unwrap_or_else(|| panic!("code {} ({e}) missing in docs/error-codes.md", e.code()));
        if class != "(the cause's)" {
            assert_eq!(class, &e.class().to_string(), "{}", e.code());
            assert_eq!(*status, e.http_status().to_string(), "{}", e.code());
        }
        if !matches!(e, Error::Math(_) | Error::Pool(_)) {
            assert!(seen.insert(e.code()), "code {} used twice", e.code());
        }
    }
}

// ---------------------------------------------------------------- quote lifetime, assembly

#[test]
fn quotes_go_stale_at_sixty_seconds() {
    assert_eq!(QUOTE_TTL_MS, 60_000);
    assert!(!is_stale(1_000, 1_000));
    assert!(!is_stale(1_000, 60_999));
    assert!(is_stale(1_000, 61_000));
    assert!(is_stale(0, u64::MAX));
    // A clock behind the quote's counts as fresh and never overflows.
    assert!(!is_stale(u64::MAX, 0));
    assert!(!is_stale(u64::MAX, u64::MAX));
}

#[test]
fn assemble_checks_user_path_and_age() {
    let user = Address::parse_evm(EIP55_MIXED[0], true).unwrap();
    let req = AssembleRequest {
        user_addr: EIP55_MIXED[0].into(),
        path_id: "a1b2c3".into(),
        simulate: Some(true),
    };
    let ok = check_assemble(&req, Deployment::Evm, Some(&user), 5_000, 64_999).unwrap();
    assert_eq!(ok.user_addr, user);
    assert!(ok.simulate);

    let e = check_assemble(&req, Deployment::Evm, Some(&user), 5_000, 65_000).unwrap_err();
    assert_eq!(
        e,
        Error::Request(RequestError::StaleQuote { age_ms: 60_000 })
    );
    assert!(e.to_string().contains("new quote"), "{e}");

    let other = Address::parse_evm(EIP55_MIXED[1], true).unwrap();
    let e = check_assemble(&req, Deployment::Evm, Some(&other), 0, 0).unwrap_err();
    assert_eq!(e.code(), 3072);

    let e = check_assemble(&req, Deployment::Evm, None, 0, 0).unwrap_err();
    assert_eq!(e.code(), 3073);

    let mut lower = req.clone();
    lower.user_addr = EIP55_MIXED[0].to_lowercase();
    let e = check_assemble(&lower, Deployment::Evm, Some(&user), 0, 0).unwrap_err();
    assert_eq!(e.code(), 3012);

    for bad in ["", "has space", &"x".repeat(257), "tab\t"] {
        let mut r = req.clone();
        r.path_id = bad.to_string();
        let e = check_assemble(&r, Deployment::Evm, Some(&user), 0, 0).unwrap_err();
        assert_eq!(e.code(), 3070, "{bad:?}");
    }

    // Chain 101: base58 user, EVM user refused as such.
    let sol_user = Address::parse_base58(TOKEN_PROGRAM).unwrap();
    let r = AssembleRequest {
        user_addr: TOKEN_PROGRAM.into(),
        path_id: "p".into(),
        simulate: None,
    };
    assert!(check_assemble(&r, Deployment::Chain101, Some(&sol_user), 0, 1).is_ok());
    let e = check_assemble(&req, Deployment::Chain101, Some(&sol_user), 0, 1).unwrap_err();
    assert_eq!(e.code(), 3013);

    // The JSON body.
    let a: AssembleRequest =
        serde_json::from_value(json!({"userAddr": TOKEN_PROGRAM, "pathId": "p"})).unwrap();
    assert_eq!(a, r);
}

// ---------------------------------------------------------------- round trips

fn evm_addr() -> impl Strategy<Value = Address> {
    any::<[u8; 20]>().prop_map(Address::Evm)
}

fn sol_addr() -> impl Strategy<Value = Address> {
    any::<[u8; 32]>().prop_map(Address::Base58)
}

fn amount() -> impl Strategy<Value = U256> {
    prop_oneof![
        (1u64..).prop_map(U256::from),
        any::<[u64; 4]>().prop_map(|l| U256(l).max(U256::one())),
    ]
}

/// `k` positive parts summing to 10^18, on a grid of 10^d (so some are short decimals).
fn parts(k: usize) -> impl Strategy<Value = Vec<u64>> {
    (0u32..=17, proptest::collection::vec(any::<u64>(), k)).prop_map(move |(d, raw)| {
        let unit = 10u64.pow(d);
        let slots = 1_000_000_000_000_000_000u64 / unit;
        if slots < k as u64 {
            // Too coarse for k parts: fall back to the finest grid.
            return split(1_000_000_000_000_000_000, 1, &raw);
        }
        split(slots, unit, &raw)
    })
}

fn split(slots: u64, unit: u64, raw: &[u64]) -> Vec<u64> {
    let k = raw.len() as u64;
    let mut cuts: Vec<u64> = raw.iter().map(|r| 1 + r % (slots - 1).max(1)).collect();
    cuts.truncate(raw.len() - 1);
    cuts.sort_unstable();
    cuts.dedup();
    let mut out = Vec::new();
    let mut prev = 0;
    for c in cuts {
        out.push((c - prev) * unit);
        prev = c;
    }
    out.push((slots - prev) * unit);
    assert!(out.len() as u64 <= k);
    out
}

fn request(chain101: bool) -> impl Strategy<Value = Request> {
    let addr = if chain101 {
        sol_addr().boxed()
    } else {
        evm_addr().boxed()
    };
    (
        1usize..=4,
        1usize..=4,
        proptest::collection::vec(addr, 8),
        proptest::collection::vec(amount(), 4),
        0u128..=50_000_000_000_000_000_000,
        any::<Option<u64>>(),
        any::<(bool, bool, bool)>(),
    )
        .prop_flat_map(
            move |(n_in, n_out, addrs, amounts, slip, referral, flags)| {
                parts(n_out).prop_map(move |ps| {
                    let mut addrs = addrs.clone();
                    addrs.sort();
                    addrs.dedup();
                    prop_assume_ok(addrs.len() == 8);
                    let inputs = (0..n_in)
                        .map(|i| swapzap::service::request::InputAmount {
                            token: addrs[i],
                            amount: amounts[i],
                        })
                        .collect();
                    let outputs = ps
                        .iter()
                        .enumerate()
                        .map(|(j, p)| swapzap::service::request::OutputShare {
                            token: addrs[4 + j],
                            proportion: Proportion::from_parts(*p).unwrap(),
                        })
                        .collect();
                    let deployment = if chain101 {
                        Deployment::Chain101
                    } else {
                        Deployment::Evm
                    };
                    Request {
                        chain_id: if chain101 { 101 } else { 8453 },
                        deployment,
                        inputs,
                        outputs,
                        slippage: Slippage::from_percent_e18(slip).unwrap(),
                        user_addr: flags.0.then_some(addrs[7]),
                        referral_code: referral,
                        compact: flags.1,
                        sources: swapzap::service::request::SourceFilter {
                            whitelist: flags.2.then(|| vec!["curve".to_string()]),
                            blacklist: (!flags.2).then(|| vec!["sushiswap".to_string()]),
                            apply_blacklist: !chain101,
                        },
                        disable_rfqs: flags.2,
                    }
                })
            },
        )
}

/// Random 8-address draws collide with negligible probability; a collision would be a test bug.
fn prop_assume_ok(b: bool) {
    assert!(b, "address collision in the generator");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn valid_requests_round_trip_through_json_unchanged(r in any::<bool>().prop_flat_map(request)) {
        let text = serde_json::to_string(&r.to_body()).unwrap();
        let back: QuoteRequest = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&back, &r.to_body());
        let again = back.validate(SOURCES).unwrap();
        prop_assert_eq!(again, r);
    }

    #[test]
    fn exact_decimals_print_and_parse_back(p in 1u64..=1_000_000_000_000_000_000) {
        let prop = Proportion::from_parts(p).unwrap();
        prop_assert_eq!(Proportion::parse(&prop.to_string()).unwrap(), prop);
    }

    #[test]
    fn json_numbers_with_up_to_15_digits_read_as_typed(m in 1u64..=999_999_999_999_999, d in 0u32..=15) {
        // The literal m * 10^-d, written as a JSON number.
        let s = if d == 0 { m.to_string() } else {
            let digits = format!("{m:0>w$}", w = d as usize + 1);
            let (i, f) = digits.split_at(digits.len() - d as usize);
            format!("{i}.{f}")
        };
        let x: f64 = s.parse().unwrap();
        let v = with(evm_body(), &["slippageLimitPercent"], serde_json::from_str(&s).unwrap());
        let exact = Slippage::parse_percent(&s);
        match (exact, validate(&v)) {
            (Ok(want), Ok(r)) => prop_assert_eq!(r.slippage, want, "{} read as {}", s, x),
            (Err(p), Err(Error::Request(RequestError::InvalidSlippage { problem }))) => prop_assert_eq!(p, problem),
            (a, b) => prop_assert!(false, "{}: {:?} vs {:?}", s, a, b),
        }
    }
}

#[test]
fn sample_request_files_validate() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/requests");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let b: QuoteRequest = serde_json::from_str(&text).unwrap();
        let ok = b.validate(swapzap_sources()).is_ok();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert_eq!(ok, !name.starts_with("bad-"), "{name}");
        n += 1;
    }
    assert!(n >= 2);
}

/// The source ids the validate example knows (kept in step with it).
fn swapzap_sources() -> &'static [&'static str] {
    &[
        "uniswap-v2",
        "sushiswap",
        "aerodrome-v2",
        "velodrome-v2",
        "curve",
        "curve-ng",
        "raydium",
        "orca",
        "meteora",
    ]
}

// ---------------------------------------------------------------- response body

mod response {
    use serde_json::json;
    use swapzap::math::float::to_f64;
    use swapzap::service::response::{
        optimality_gap, Leg, LegKind, OutputBody, QuoteResponse, RouteGraph, TokenAmountBody,
        ZapFeeBody,
    };
    use swapzap::U256;

    fn leg(a: &str, b: &str, pool: &str, amount_in: u64, amount_out: u64) -> Leg {
        let step = pool[1..].parse::<usize>().unwrap() - 1;
        Leg {
            step,
            token_in: a.into(),
            token_out: b.into(),
            pool: pool.into(),
            liquidity_source: "uniswap-v2".into(),
            kind: LegKind::Swap,
            amount_in: amount_in.into(),
            amount_out: amount_out.into(),
        }
    }

    /// A -> C split 3:1 over a direct pool and a hop through B.
    fn split_graph() -> RouteGraph {
        let legs = [
            leg("A", "C", "p1", 750, 700),
            leg("A", "B", "p2", 250, 240),
            leg("B", "C", "p3", 240, 230),
        ];
        RouteGraph::from_legs(&["A".into()], &["C".into()], &legs, |a| {
            (a == "A").then(|| "TKA".to_string())
        })
    }

    #[test]
    fn route_graph_has_token_nodes_and_pool_links_with_shares() {
        let g = split_graph();
        let addrs: Vec<_> = g.nodes.iter().map(|n| n.token_address.as_str()).collect();
        assert_eq!(addrs, ["A", "C", "B"]);
        assert!(g.nodes[0].is_input && !g.nodes[0].is_output);
        assert!(g.nodes[1].is_output);
        assert!(!g.nodes[2].is_input && !g.nodes[2].is_output);
        assert_eq!(g.nodes[0].symbol.as_deref(), Some("TKA"));
        assert_eq!(g.nodes[2].symbol, None);
        let ends: Vec<_> = g.links.iter().map(|l| (l.source, l.target)).collect();
        assert_eq!(ends, [(0, 1), (0, 2), (2, 1)]);
        // 750 / 1000 and 250 / 1000 of A; all of B.
        assert_eq!(g.links[0].share, 0.75);
        assert_eq!(g.links[1].share, 0.25);
        assert_eq!(g.links[2].share, 1.0);
        let v = serde_json::to_value(&g).unwrap();
        assert_eq!(v["links"][0]["amountIn"], json!("750"));
        assert_eq!(v["links"][0]["liquiditySource"], json!("uniswap-v2"));
        assert_eq!(v["links"][0]["kind"], json!("swap"));
        assert_eq!(v["nodes"][0]["tokenAddress"], json!("A"));
        assert!(v["nodes"][2].get("symbol").is_none());
    }

    #[test]
    fn burn_legs_of_one_step_share_its_lp_amount() {
        let burn = |coin: &str, out: u64| Leg {
            token_in: "LP".into(),
            token_out: coin.into(),
            pool: "p".into(),
            liquidity_source: "curve".into(),
            kind: LegKind::Burn,
            amount_in: 100u64.into(),
            amount_out: out.into(),
            step: 0,
        };
        let mut swap_lp = leg("LP", "Z", "p2", 300, 290);
        swap_lp.step = 1;
        let g = RouteGraph::from_legs(
            &["LP".into()],
            &["X".into(), "Y".into()],
            &[burn("X", 50), burn("Y", 51), swap_lp],
            |_| None,
        );
        // 100 of 400 LP burned, 300 swapped.
        assert_eq!(g.links[0].share, 0.25);
        assert_eq!(g.links[1].share, 0.25);
        assert_eq!(g.links[2].share, 0.75);
        assert_eq!(g.links[1].kind, LegKind::Burn);
    }

    #[test]
    fn zap_fee_is_one_basis_point_rounded_down() {
        use swapzap::zap::{zap_fee, ZAP_FEE_BPS};
        let zap_fee_amount = |a: u64| zap_fee(U256::from(a), ZAP_FEE_BPS).unwrap();
        assert_eq!(zap_fee_amount(1_000_000), U256::from(100u64));
        assert_eq!(zap_fee_amount(9_999), U256::zero());
        assert_eq!(zap_fee_amount(19_999), U256::one());
        assert_eq!(ZapFeeBody::from_bps(1, vec![]).percent, "0.01");
        assert_eq!(ZapFeeBody::from_bps(30, vec![]).percent, "0.3");
        assert_eq!(ZapFeeBody::from_bps(100, vec![]).percent, "1");
        assert_eq!(ZapFeeBody::from_bps(125, vec![]).percent, "1.25");
    }

    #[test]
    fn optimality_gap_is_a_clamped_fraction() {
        assert_eq!(optimality_gap(90.0, Some(100.0)), Some(0.1));
        assert_eq!(optimality_gap(101.0, Some(100.0)), Some(0.0));
        assert_eq!(optimality_gap(1.0, None), None);
        assert_eq!(optimality_gap(1.0, Some(0.0)), None);
        assert_eq!(optimality_gap(f64::NAN, Some(1.0)), None);
    }

    #[test]
    fn to_f64_is_close() {
        assert_eq!(to_f64(U256::from(12345u64)), 12345.0);
        assert_eq!(to_f64(U256::one() << 200), 2f64.powi(200));
        let m = to_f64(U256::MAX);
        assert!((m / 2f64.powi(256) - 1.0).abs() < 1e-15);
    }

    #[test]
    fn quote_response_serialises_with_camel_case_and_decimal_amounts() {
        let r = QuoteResponse {
            chain_id: 1,
            input_tokens: vec![TokenAmountBody {
                token_address: "A".into(),
                amount: U256::from(1000u64),
            }],
            output_tokens: vec![OutputBody {
                token_address: "C".into(),
                amount: U256::from(930u64),
                min_amount: U256::from(925u64),
            }],
            refunds: vec![],
            price_impact: 0.01,
            value: 930.0,
            upper_bound: Some(931.0),
            optimality_gap: optimality_gap(930.0, Some(931.0)),
            rounding_slack: Some(0.25),
            gas_estimate: Some(330_000),
            zap_fee: None,
            route: split_graph(),
        };
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["chainId"], json!(1));
        assert_eq!(v["outputTokens"][0]["minAmount"], json!("925"));
        assert_eq!(v["inputTokens"][0]["amount"], json!("1000"));
        assert_eq!(v["gasEstimate"], json!(330_000));
        assert_eq!(v["roundingSlack"], json!(0.25));
        assert_eq!(v["route"]["links"][2]["step"], json!(2));
        assert!(v.get("refunds").is_none() && v.get("zapFee").is_none());
        assert_eq!(v["route"]["links"].as_array().unwrap().len(), 3);
        let back: QuoteResponse = serde_json::from_value(v).unwrap();
        assert_eq!(back, r);
    }
}

/// Found by the round-trip property: a 17-digit proportion written as a JSON number came back
/// one ulp off through serde_json, so long decimals are written as strings.
#[test]
fn long_decimals_round_trip_as_strings() {
    let v = outs(&[json!("0.89092982935474929"), json!("0.10907017064525071")]);
    let r = validate(&v).unwrap();
    let b = r.to_body();
    assert_eq!(
        b.output_tokens[1].proportion,
        JsonDecimal::Text("0.10907017064525071".into())
    );
    assert_eq!(b.slippage_limit_percent, JsonDecimal::Number(0.5));
    let text = serde_json::to_string(&b).unwrap();
    let back: QuoteRequest = serde_json::from_str(&text).unwrap();
    assert_eq!(back.validate(SOURCES).unwrap(), r);
}

fn any_json_decimal() -> impl Strategy<Value = serde_json::Value> {
    prop_oneof![
        any::<f64>().prop_map(|x| json!(x)),
        any::<i64>().prop_map(|x| json!(x)),
        "[-+0-9.eE ]{0,24}".prop_map(|s| json!(s)),
        any::<String>().prop_map(|s| json!(s)),
    ]
}

fn any_address() -> impl Strategy<Value = String> {
    prop_oneof![
        "0x[0-9a-fA-F]{38,42}",
        "[1-9A-HJ-NP-Za-km-z]{30,46}",
        any::<String>(),
        Just(EIP55_MIXED[0].to_string()),
        Just(USDC101.to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Validation answers every body, valid or not, with a value or a typed error: no panic,
    /// and every error has a code in the request range and a non-empty detail.
    #[test]
    fn validation_never_panics_and_errors_are_typed(
        chain in prop_oneof![Just(0u64), Just(1), Just(101), any::<u64>()],
        ins in proptest::collection::vec((any_address(), "[0-9]{0,80}|.{0,10}"), 0..4),
        outs in proptest::collection::vec((any_address(), any_json_decimal()), 0..4),
        slip in any_json_decimal(),
        user in proptest::option::of(any_address()),
        white in proptest::option::of(proptest::collection::vec("[a-zA-Z_-]{0,12}", 0..3)),
    ) {
        let mut v = json!({
            "chainId": chain,
            "inputTokens": ins.iter().map(|(a, m)| json!({"tokenAddress": a, "amount": m})).collect::<Vec<_>>(),
            "outputTokens": outs.iter().map(|(a, p)| json!({"tokenAddress": a, "proportion": p})).collect::<Vec<_>>(),
            "slippageLimitPercent": slip,
        });
        if let Some(u) = user { v["userAddr"] = json!(u); }
        if let Some(w) = white { v["sourceWhitelist"] = json!(w); }
        if let Ok(b) = serde_json::from_value::<QuoteRequest>(v) {
            match b.validate(SOURCES) {
                Ok(r) => {
                    let back: QuoteRequest = serde_json::from_str(&serde_json::to_string(&r.to_body()).unwrap()).unwrap();
                    prop_assert_eq!(back.validate(SOURCES).unwrap(), r);
                }
                Err(e) => {
                    prop_assert!((3000..4000).contains(&e.code()), "{}", e);
                    prop_assert!(!e.to_string().is_empty());
                    prop_assert_eq!(e.class(), ErrorClass::Validation);
                }
            }
        }
    }
}

// ---------------------------------------------------------------- plans and prices on a graph

mod on_graph {
    use serde_json::json;
    use swapzap::graph::PoolGraph;
    use swapzap::route::{quote, RouteRequest};
    use swapzap::service::pricing::{
        lp_price, price_table, routable_price, token_price, NotRoutable, DEFAULT_MAX_HOPS,
    };
    use swapzap::service::request::Address;
    use swapzap::service::response::{GasTable, LegKind, QuoteResponse};
    use swapzap::snapshot::Snapshot;
    use swapzap::U256;

    const A: &str = "0x00000000000000000000000000000000000000aa"; // 18 decimals
    const B: &str = "0x00000000000000000000000000000000000000bb"; // 6 decimals: numeraire
    const C: &str = "0x00000000000000000000000000000000000000cc"; // 18 decimals
    const D: &str = "0x00000000000000000000000000000000000000dd"; // in no pool
    const AB: &str = "0x0000000000000000000000000000000000000ab0";
    const CB: &str = "0x0000000000000000000000000000000000000cb0";
    const CA: &str = "0x0000000000000000000000000000000000000ca0";

    /// A/B deep: 1000 A : 2,000,000 B (2000 B per A at mid), 1000 LP.
    /// C/B shallow: 1 C : 1 B. C/A deep: 1000 C : 1 A (C = 2 B at mid through A).
    /// C/A lists a zero LP supply (a missing supply defaults to sqrt(r0 r1) in the graph).
    fn graph() -> PoolGraph {
        let cp = |id: &str, t: [&str; 2], r: [&str; 2], supply: Option<&str>| {
            let mut p = json!({
                "id": format!("uniswap-v2:{id}"), "source": "uniswap-v2", "kind": "constant_product",
                "tokens": t, "reserves": r, "fee": {"num": "3", "den": "1000"},
            });
            if let Some(s) = supply {
                p["total_supply"] = json!(s);
            }
            p
        };
        let snap: Snapshot = serde_json::from_value(json!({
            "chain_id": 1,
            "tokens": [
                {"address": A, "symbol": "AAA", "decimals": 18},
                {"address": B, "symbol": "BBB", "decimals": 6},
                {"address": C, "symbol": "CCC", "decimals": 18},
                {"address": D, "symbol": "DDD", "decimals": 18},
            ],
            "pools": [
                cp(AB, [A, B], ["1000000000000000000000", "2000000000000"], Some("1000000000000000000000")),
                cp(CB, [C, B], ["1000000000000000000", "1000000"], Some("1000000")),
                cp(CA, [C, A], ["1000000000000000000000", "1000000000000000000"], Some("0")),
            ],
        }))
        .unwrap();
        PoolGraph::from_snapshot(&snap).unwrap()
    }

    fn close(x: f64, want: f64) -> bool {
        (x / want - 1.0).abs() < 1e-9
    }

    #[test]
    fn token_prices_follow_the_deepest_route() {
        let g = graph();
        let (a, b, c) = (
            g.token_id(A).unwrap(),
            g.token_id(B).unwrap(),
            g.token_id(C).unwrap(),
        );
        // A in B through A/B: 2000 B per A at mid, less the 0.3 % fee = 1994.
        let pa = token_price(&g, a, b, DEFAULT_MAX_HOPS).unwrap();
        assert!(close(pa.per_token, 1994.0), "{pa:?}");
        assert!(close(pa.raw, 1994.0 / 1e12), "{pa:?}");
        assert_eq!(pa.hops, 1);
        // C in B: the direct pool holds 1 B; C -> A -> B is far deeper, so C is priced at
        // 0.997 * (1 A / 1000 C) * 1994 B per A = 1.988018 B, not 0.997 B.
        let pc = token_price(&g, c, b, DEFAULT_MAX_HOPS).unwrap();
        assert!(close(pc.per_token, 0.997 * 0.001 * 1994.0), "{pc:?}");
        assert_eq!(pc.hops, 2);
        // With one hop allowed only the shallow pool is left.
        let pc1 = token_price(&g, c, b, 1).unwrap();
        assert!(close(pc1.per_token, 0.997), "{pc1:?}");
        // The numeraire itself.
        let pb = token_price(&g, b, b, DEFAULT_MAX_HOPS).unwrap();
        assert_eq!((pb.raw, pb.per_token, pb.hops), (1.0, 1.0, 0));
        // D is in no pool.
        let d = g.token_id(D).unwrap();
        assert!(token_price(&g, d, b, DEFAULT_MAX_HOPS).is_err());
        assert!(price_table(&g, swapzap::units::TokenId(999), 3).is_err());
    }

    #[test]
    fn lp_price_is_pool_value_over_supply() {
        let g = graph();
        let b = g.token_id(B).unwrap();
        let table = price_table(&g, b, DEFAULT_MAX_HOPS).unwrap();
        let ab = g.pool_id(&format!("uniswap-v2:{AB}")).unwrap();
        // (1000 A * 1994 + 2,000,000 B) / 1000 LP = 3994 B per LP.
        let p = lp_price(&g, ab, &table).unwrap();
        assert!(close(p.per_token, 3994.0), "{p:?}");
        // No supply: no price.
        let ca = g.pool_id(&format!("uniswap-v2:{CA}")).unwrap();
        assert!(lp_price(&g, ca, &table).is_err());
    }

    #[test]
    fn routable_test_for_zap_tokens() {
        let g = graph();
        let b = g.token_id(B).unwrap();
        assert!(close(
            routable_price(&g, C, b, 4).unwrap().per_token,
            1.988018
        ));
        // Addresses are looked up case-insensitively on EVM chains.
        let checksummed = Address::parse_evm(A, false).unwrap().to_string();
        assert!(routable_price(&g, &checksummed, b, 4).is_ok());
        // The A/B pool's LP token is its own address.
        assert!(close(
            routable_price(&g, AB, b, 4).unwrap().per_token,
            3994.0
        ));
        assert_eq!(routable_price(&g, CA, b, 4), Err(NotRoutable::EmptyPool));
        assert_eq!(routable_price(&g, D, b, 4), Err(NotRoutable::NoLiquidity));
        assert_eq!(
            routable_price(&g, "0x00000000000000000000000000000000000000ee", b, 4),
            Err(NotRoutable::UnknownToken)
        );
        assert_eq!(
            routable_price(&g, "not an address", b, 4),
            Err(NotRoutable::UnknownToken)
        );
    }

    #[test]
    fn quote_response_from_a_real_plan() {
        let g = graph();
        let (a, b) = (g.token_id(A).unwrap(), g.token_id(B).unwrap());
        let amount = U256::exp10(18);
        let req = RouteRequest::new(vec![(a, amount)], vec![(b, num_rational::Ratio::new(1, 1))]);
        let plan = quote(&g, &req).unwrap();
        let gas = GasTable::default();
        let r = QuoteResponse::from_plan(&plan, &g, &gas).unwrap();
        assert_eq!(r.chain_id, 1);
        // Canonical (EIP-55) addresses.
        let a_sum = Address::parse_evm(A, false).unwrap().to_string();
        let b_sum = Address::parse_evm(B, false).unwrap().to_string();
        assert_eq!(r.input_tokens[0].token_address, a_sum);
        assert_eq!(r.input_tokens[0].amount, amount);
        assert_eq!(r.output_tokens[0].token_address, b_sum);
        assert_eq!(r.output_tokens[0].amount, plan.outputs[0].amount);
        assert_eq!(r.output_tokens[0].min_amount, plan.outputs[0].min_amount);
        // the bound and its rounding part as the plan has them
        assert_eq!(
            (r.upper_bound, r.rounding_slack),
            (plan.upper_bound, plan.rounding_slack)
        );
        assert!(r.rounding_slack.is_some());
        // Selling 1 of 1000 A into 2,000,000 B: a little under 1994 B.
        let out = r.output_tokens[0].amount.as_u128();
        assert!(out > 1_980_000_000 && out < 1_994_000_000, "{out}");
        // Every step is a link; what leaves A adds up to the input; shares of A sum to 1.
        assert!(!r.route.links.is_empty());
        let a_node = r
            .route
            .nodes
            .iter()
            .find(|n| n.token_address == a_sum)
            .unwrap();
        assert!(a_node.is_input);
        assert_eq!(a_node.symbol.as_deref(), Some("AAA"));
        let from_a: Vec<_> = r
            .route
            .links
            .iter()
            .filter(|l| l.source == a_node.id)
            .collect();
        let total = from_a.iter().fold(U256::zero(), |s, l| s + l.amount_in);
        assert_eq!(total, amount);
        let shares: f64 = from_a.iter().map(|l| l.share).sum();
        assert!((shares - 1.0).abs() < 1e-12);
        assert!(r
            .route
            .links
            .iter()
            .all(|l| l.kind == LegKind::Swap && l.liquidity_source == "uniswap-v2"));
        // Gas: base plus one constant-product swap per step.
        assert_eq!(
            r.gas_estimate,
            Some(gas.base + gas.constant_product * plan.steps.len() as u64)
        );
        assert_eq!(r.value, plan.value);
        assert_eq!(r.upper_bound, plan.upper_bound);
        assert!(r.zap_fee.is_none());
        // And it serialises.
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(
            v["outputTokens"][0]["minAmount"],
            json!(plan.outputs[0].min_amount.to_string())
        );
    }

    #[test]
    fn from_plan_refuses_a_plan_of_another_graph() {
        let g = graph();
        let mut plan = swapzap::plan::Plan::default();
        plan.inputs.push(swapzap::plan::TokenAmount {
            token: swapzap::units::TokenId(999),
            amount: U256::one(),
        });
        let e = QuoteResponse::from_plan(&plan, &g, &GasTable::default()).unwrap_err();
        assert!(e.code() >= 4000 && e.code() < 5000, "{e}");
    }
}
