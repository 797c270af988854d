//! The code table of `docs/error-codes.md` (included at compile time) against every variant of
//! every error enum, both directions.

use super::*;
use crate::chain::Deployment;
use crate::units::{PoolId, TokenId};
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::ToString;
use alloc::vec::Vec;
use primitive_types::U256;

/// The name of `e`'s variant (and of its inner variant for the top enum). The matches have no
/// wildcard arm, so a new variant does not compile until it is named here; [`VARIANTS`] counts
/// them and [`samples`] must build each one.
fn tag(e: &Error) -> &'static str {
    match e {
        Error::Math(m) => match m {
            MathError::Overflow => "Math::Overflow",
            MathError::Underflow => "Math::Underflow",
            MathError::DivisionByZero => "Math::DivisionByZero",
        },
        Error::Pool(p) => pool_tag(p),
        Error::Request(r) => request_tag(r),
        Error::Snapshot(s) => snapshot_tag(s),
        Error::Route(r) => route_tag(r),
        Error::Zap(z) => zap_tag(z),
    }
}

/// [`tag`] of a [`PoolError`].
fn pool_tag(p: &PoolError) -> &'static str {
    match p {
        PoolError::Math(_) => "Pool::Math",
        PoolError::TokenIndex { .. } => "Pool::TokenIndex",
        PoolError::SameToken => "Pool::SameToken",
        PoolError::InvalidState(_) => "Pool::InvalidState",
        PoolError::InsufficientInputAmount => "Pool::InsufficientInputAmount",
        PoolError::InsufficientOutputAmount => "Pool::InsufficientOutputAmount",
        PoolError::InsufficientLiquidity => "Pool::InsufficientLiquidity",
        PoolError::InvariantViolated => "Pool::InvariantViolated",
        PoolError::ReserveOverflow => "Pool::ReserveOverflow",
        PoolError::NoConvergence => "Pool::NoConvergence",
        PoolError::InsufficientLiquidityMinted => "Pool::InsufficientLiquidityMinted",
        PoolError::InsufficientLiquidityBurned => "Pool::InsufficientLiquidityBurned",
        PoolError::BurnExceedsSupply => "Pool::BurnExceedsSupply",
        PoolError::InvalidFirstDeposit => "Pool::InvalidFirstDeposit",
        PoolError::UnreachableOutput => "Pool::UnreachableOutput",
        PoolError::OracleRevert => "Pool::OracleRevert",
        PoolError::Unsupported(_) => "Pool::Unsupported",
        PoolError::Revert(_) => "Pool::Revert",
        PoolError::TickArraySequence => "Pool::TickArraySequence",
        PoolError::SqrtPriceOutOfBounds => "Pool::SqrtPriceOutOfBounds",
        PoolError::PriceLimit => "Pool::PriceLimit",
        PoolError::InvalidArgument(_) => "Pool::InvalidArgument",
    }
}

/// [`tag`] of a [`RequestError`].
fn request_tag(r: &RequestError) -> &'static str {
    match r {
        RequestError::MalformedBody { .. } => "Request::MalformedBody",
        RequestError::UnsupportedChain { .. } => "Request::UnsupportedChain",
        RequestError::WrongDeployment { .. } => "Request::WrongDeployment",
        RequestError::ChainMismatch { .. } => "Request::ChainMismatch",
        RequestError::InvalidAddress { .. } => "Request::InvalidAddress",
        RequestError::BadChecksum { .. } => "Request::BadChecksum",
        RequestError::NotChecksummed { .. } => "Request::NotChecksummed",
        RequestError::EvmAddressOnChain101 { .. } => "Request::EvmAddressOnChain101",
        RequestError::InvalidAmount { .. } => "Request::InvalidAmount",
        RequestError::InvalidProportion { .. } => "Request::InvalidProportion",
        RequestError::ProportionsDoNotSumToOne { .. } => "Request::ProportionsDoNotSumToOne",
        RequestError::InvalidSlippage { .. } => "Request::InvalidSlippage",
        RequestError::NoInputTokens => "Request::NoInputTokens",
        RequestError::NoOutputTokens => "Request::NoOutputTokens",
        RequestError::TooManyInputTokens { .. } => "Request::TooManyInputTokens",
        RequestError::TooManyOutputTokens { .. } => "Request::TooManyOutputTokens",
        RequestError::DuplicateInputToken { .. } => "Request::DuplicateInputToken",
        RequestError::DuplicateOutputToken { .. } => "Request::DuplicateOutputToken",
        RequestError::InputIsOutput { .. } => "Request::InputIsOutput",
        RequestError::UnknownSource { .. } => "Request::UnknownSource",
        RequestError::EmptyWhitelist => "Request::EmptyWhitelist",
        RequestError::AllSourcesExcluded => "Request::AllSourcesExcluded",
        RequestError::InvalidPathId => "Request::InvalidPathId",
        RequestError::StaleQuote { .. } => "Request::StaleQuote",
        RequestError::UserAddrMismatch => "Request::UserAddrMismatch",
        RequestError::QuoteWithoutUserAddr => "Request::QuoteWithoutUserAddr",
        RequestError::InvalidQueryParam { .. } => "Request::InvalidQueryParam",
    }
}

/// [`tag`] of a [`SnapshotError`].
fn snapshot_tag(s: &SnapshotError) -> &'static str {
    match s {
        SnapshotError::UnknownToken { .. } => "Snapshot::UnknownToken",
        SnapshotError::Duplicate(_) => "Snapshot::Duplicate",
        SnapshotError::BadNumber { .. } => "Snapshot::BadNumber",
        SnapshotError::BadPool { .. } => "Snapshot::BadPool",
        SnapshotError::BadAddress(_) => "Snapshot::BadAddress",
        SnapshotError::PoolState { .. } => "Snapshot::PoolState",
        SnapshotError::BadToken { .. } => "Snapshot::BadToken",
        SnapshotError::Inconsistent { .. } => "Snapshot::Inconsistent",
        SnapshotError::UnknownField { .. } => "Snapshot::UnknownField",
        SnapshotError::TooManyEntries { .. } => "Snapshot::TooManyEntries",
    }
}

/// [`tag`] of a [`RouteError`].
fn route_tag(r: &RouteError) -> &'static str {
    match r {
        RouteError::UnknownToken { .. } => "Route::UnknownToken",
        RouteError::TokenOutOfRange(_) => "Route::TokenOutOfRange",
        RouteError::PoolOutOfRange(_) => "Route::PoolOutOfRange",
        RouteError::PoolFamilyMismatch { .. } => "Route::PoolFamilyMismatch",
        RouteError::BadRequest(_) => "Route::BadRequest",
        RouteError::NoRoute => "Route::NoRoute",
        RouteError::Simulation { .. } => "Route::Simulation",
        RouteError::InvalidPlan { .. } => "Route::InvalidPlan",
        RouteError::Math(_) => "Route::Math",
        RouteError::InsufficientLiquidity { .. } => "Route::InsufficientLiquidity",
        RouteError::TooManyHops { .. } => "Route::TooManyHops",
        RouteError::AllRoutesFiltered { .. } => "Route::AllRoutesFiltered",
        RouteError::AmountTooSmall { .. } => "Route::AmountTooSmall",
        RouteError::UnknownSource { .. } => "Route::UnknownSource",
        RouteError::SearchBudgetExceeded => "Route::SearchBudgetExceeded",
        RouteError::ExactOutUnreachable { .. } => "Route::ExactOutUnreachable",
        RouteError::NoSupply(_) => "Route::NoSupply",
        RouteError::PlanMismatch { .. } => "Route::PlanMismatch",
    }
}

/// [`tag`] of a [`ZapError`].
fn zap_tag(z: &ZapError) -> &'static str {
    match z {
        ZapError::AmountCount { .. } => "Zap::AmountCount",
        ZapError::EmptyInput => "Zap::EmptyInput",
        ZapError::NothingToMint => "Zap::NothingToMint",
        ZapError::Unsupported(_) => "Zap::Unsupported",
        ZapError::UnknownToken(_) => "Zap::UnknownToken",
        ZapError::NotAnLp(_) => "Zap::NotAnLp",
        ZapError::Proportions => "Zap::Proportions",
        ZapError::Pool(_) => "Zap::Pool",
        ZapError::Math(_) => "Zap::Math",
        ZapError::NoRoute { .. } => "Zap::NoRoute",
        ZapError::Route(_) => "Zap::Route",
        ZapError::NotAZap => "Zap::NotAZap",
        ZapError::BadOption { .. } => "Zap::BadOption",
        ZapError::InsufficientLiquidity { .. } => "Zap::InsufficientLiquidity",
        ZapError::ZeroSupply { .. } => "Zap::ZeroSupply",
    }
}

/// How many variants [`tag`] names.
const VARIANTS: usize = 3 + 22 + 27 + 10 + 18 + 15;

/// One error of every variant.
fn samples() -> Vec<Error> {
    let mut v: Vec<Error> = [
        MathError::Overflow,
        MathError::Underflow,
        MathError::DivisionByZero,
    ]
    .map(Error::from)
    .into();
    v.extend(pool_samples().into_iter().map(Error::from));
    v.extend(request_samples().into_iter().map(Error::from));
    v.extend(snapshot_samples().into_iter().map(Error::from));
    v.extend(route_samples().into_iter().map(Error::from));
    v.extend(zap_samples().into_iter().map(Error::from));
    v
}

/// One [`PoolError`] of every variant: the plain ones of [`PoolError::PLAIN`] (one
/// arithmetic error of the three), then those with a reason or values.
fn pool_samples() -> Vec<PoolError> {
    let mut v: Vec<PoolError> = PoolError::PLAIN
        .into_iter()
        .filter(|e| !matches!(e, PoolError::Math(m) if *m != MathError::Overflow))
        .collect();
    v.extend([
        PoolError::TokenIndex {
            index: 2,
            n_coins: 2,
        },
        PoolError::InvalidState(PoolStateProblem::FeeAtOrAboveDenominator),
        PoolError::Unsupported(PoolUnsupported::OneCoinWithdrawal),
        PoolError::Revert(PoolRevert::TickOutOfRange { tick: 887_273 }),
        PoolError::InvalidArgument(PoolArgument::SlippageToleranceBps { bps: 10_001 }),
    ]);
    v
}

/// One [`RequestError`] of every variant.
fn request_samples() -> Vec<RequestError> {
    let f = Field::UserAddr;
    let mut v = request_list_samples();
    v.extend([
        RequestError::MalformedBody { reason: "x".into() },
        RequestError::UnsupportedChain { chain_id: 0 },
        RequestError::WrongDeployment {
            chain_id: 1,
            deployment: Deployment::Chain101,
        },
        RequestError::ChainMismatch {
            request: 1,
            snapshot: 8453,
        },
        RequestError::InvalidAddress {
            field: f,
            problem: AddressProblem::Empty,
        },
        RequestError::BadChecksum { field: f },
        RequestError::NotChecksummed { field: f },
        RequestError::EvmAddressOnChain101 { field: f },
        RequestError::UnknownSource {
            field: Field::SourceWhitelist(0),
            id: "Uniswap_V2".into(),
            suggestion: Some("uniswap-v2".into()),
        },
        RequestError::EmptyWhitelist,
        RequestError::AllSourcesExcluded,
        RequestError::InvalidPathId,
        RequestError::StaleQuote { age_ms: 61_000 },
        RequestError::UserAddrMismatch,
        RequestError::QuoteWithoutUserAddr,
        RequestError::InvalidQueryParam {
            name: "limit",
            value: "0".into(),
            why: QueryProblem::LimitRange { max: 1000 },
        },
    ]);
    v
}

/// The [`RequestError`]s of the token lists, amounts, proportions and slippage.
fn request_list_samples() -> Vec<RequestError> {
    Vec::from([
        RequestError::InvalidAmount {
            index: 0,
            problem: AmountProblem::Zero,
        },
        RequestError::InvalidProportion {
            index: 0,
            problem: DecimalProblem::TooLarge,
        },
        RequestError::ProportionsDoNotSumToOne {
            sum_e18: 500_000_000_000_000_000,
        },
        RequestError::InvalidSlippage {
            problem: DecimalProblem::TooLarge,
        },
        RequestError::NoInputTokens,
        RequestError::NoOutputTokens,
        RequestError::TooManyInputTokens { given: 17, max: 16 },
        RequestError::TooManyOutputTokens { given: 17, max: 16 },
        RequestError::DuplicateInputToken {
            first: 0,
            second: 1,
        },
        RequestError::DuplicateOutputToken {
            first: 0,
            second: 1,
        },
        RequestError::InputIsOutput {
            input: 0,
            output: 0,
        },
    ])
}

/// One [`SnapshotError`] of every variant.
fn snapshot_samples() -> Vec<SnapshotError> {
    let pool = || String::from("0xpool");
    Vec::from([
        SnapshotError::UnknownToken {
            pool: pool(),
            address: "0xabc".into(),
        },
        SnapshotError::Duplicate(pool()),
        SnapshotError::BadNumber {
            pool: pool(),
            field: "reserves",
        },
        SnapshotError::BadPool {
            pool: pool(),
            why: BadPoolProblem::CoinTwice,
        },
        SnapshotError::BadAddress("0x12".into()),
        SnapshotError::PoolState {
            pool: pool(),
            error: PoolError::ReserveOverflow,
        },
        SnapshotError::BadToken {
            token: "0xabc".into(),
            field: "decimals",
        },
        SnapshotError::Inconsistent {
            pool: pool(),
            token: "0xabc".into(),
            field: "decimals",
            why: Disagreement::DecimalsDiffer,
        },
        SnapshotError::UnknownField {
            pool: pool(),
            field: "fees.trade_fee_numeratr".into(),
        },
        SnapshotError::TooManyEntries { count: 1 << 32 },
    ])
}

/// One [`RouteError`] of every variant.
fn route_samples() -> Vec<RouteError> {
    let (t0, t1) = (TokenId(0), TokenId(1));
    Vec::from([
        RouteError::UnknownToken {
            pool: String::new(),
            address: "0xabc".into(),
        },
        RouteError::TokenOutOfRange(TokenId(9)),
        RouteError::PoolOutOfRange(PoolId(9)),
        RouteError::PoolFamilyMismatch { pool: PoolId(3) },
        RouteError::BadRequest(BadRouteRequest::NoInputs),
        RouteError::NoRoute,
        RouteError::Simulation {
            pool: String::from("0xpool"),
            error: PoolError::InsufficientLiquidity,
        },
        RouteError::InvalidPlan {
            step: Some(1),
            why: PlanProblem::AmountOutDiffers,
        },
        RouteError::Math(MathError::Overflow),
        RouteError::InsufficientLiquidity { from: t0, to: t1 },
        RouteError::TooManyHops { max: 1, needed: 2 },
        RouteError::AllRoutesFiltered {
            filter: RouteFilter::SourceWhitelist,
        },
        RouteError::AmountTooSmall { from: t0, to: t1 },
        RouteError::UnknownSource {
            id: "x".into(),
            suggestion: None,
        },
        RouteError::SearchBudgetExceeded,
        RouteError::ExactOutUnreachable {
            wanted: U256::from(10u8),
            best: U256::from(9u8),
        },
        RouteError::NoSupply(String::from("0xpool")),
        RouteError::PlanMismatch {
            field: PlanField::Steps,
            index: Some(0),
            why: PlanProblem::TokenListedTwice,
        },
    ])
}

/// One [`ZapError`] of every variant.
fn zap_samples() -> Vec<ZapError> {
    let (t0, t1) = (TokenId(0), TokenId(1));
    Vec::from([
        ZapError::AmountCount {
            expected: 2,
            got: 3,
        },
        ZapError::EmptyInput,
        ZapError::NothingToMint,
        ZapError::Unsupported(ZapUnsupported::NotTwoCoins { given: 3 }),
        ZapError::UnknownToken(t0),
        ZapError::NotAnLp(t1),
        ZapError::Proportions,
        ZapError::Pool(PoolError::SameToken),
        ZapError::Math(MathError::Overflow),
        ZapError::NoRoute { from: t0, to: t1 },
        ZapError::Route(RouteError::NoRoute),
        ZapError::NotAZap,
        ZapError::BadOption {
            field: "max_swaps",
            max: 8,
        },
        ZapError::InsufficientLiquidity {
            pool: String::from("0xpool"),
        },
        ZapError::ZeroSupply {
            pool: String::from("0xpool"),
        },
    ])
}

/// The rows of the code table: code → (class, HTTP status), both as written.
fn doc_rows() -> BTreeMap<u32, (String, String)> {
    include_str!("../../docs/error-codes.md")
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let code: u32 = cells.get(1)?.parse().ok()?;
            Some((code, (cells.get(2)?.to_string(), cells.get(3)?.to_string())))
        })
        .collect()
}

/// The class of the error a wrapping variant carries (the rows marked "(the cause's)").
fn cause_class(e: &Error) -> Option<ErrorClass> {
    match e {
        Error::Route(RouteError::Simulation { error, .. }) | Error::Zap(ZapError::Pool(error)) => {
            Some(error.class())
        }
        Error::Route(RouteError::Math(m)) | Error::Zap(ZapError::Math(m)) => Some(m.class()),
        Error::Zap(ZapError::Route(r)) => Some(r.class()),
        _ => None,
    }
}

#[test]
fn every_variant_has_a_sample() {
    let all = samples();
    let tags: BTreeSet<&str> = all.iter().map(tag).collect();
    assert_eq!(tags.len(), all.len(), "a variant sampled twice");
    assert_eq!(tags.len(), VARIANTS, "a variant without a sample");
}

#[test]
fn code_table_matches_every_variant() {
    let rows = doc_rows();
    let mut codes: BTreeMap<u32, &'static str> = BTreeMap::new();
    for e in &samples() {
        let code = e.code();
        let (class, status) = rows
            .get(&code)
            .unwrap_or_else(|| panic!("code {code} ({}) missing in docs/error-codes.md", tag(e)));
        if class == "(the cause's)" {
            assert_eq!(status, "(the cause's)", "{code}");
            assert_eq!(cause_class(e), Some(e.class()), "{code} {}", tag(e));
        } else {
            assert!(
                cause_class(e).is_none(),
                "{code}: a wrapping variant has class (the cause's)"
            );
            assert_eq!(
                class,
                &e.class().to_string(),
                "class of {code} ({})",
                tag(e)
            );
            assert_eq!(status, &e.http_status().to_string(), "status of {code}");
        }
        assert_eq!(e.is_retryable(), e.class() == ErrorClass::Retryable);
        assert!(!e.detail().is_empty());
        // one code per variant, except the pool errors that share 2000-2002 and the unknown
        // token of a request or of a snapshot pool (4002)
        if let Some(other) = codes.insert(code, tag(e)) {
            assert!(
                (other.starts_with("Pool::") && tag(e).starts_with("Pool::"))
                    || (code == 4002 && other.ends_with("::UnknownToken")),
                "code {code} of both {other} and {}",
                tag(e)
            );
        }
    }
    // and back: every row of the table is the code of some variant
    for code in rows.keys() {
        assert!(
            codes.contains_key(code),
            "docs/error-codes.md row {code} has no variant"
        );
    }
}

#[test]
fn wrapped_errors_keep_their_cause() {
    let m = MathError::Overflow;
    assert!(Error::from(m).is_retryable());
    assert!(Error::from(RouteError::Math(m)).is_retryable());
    assert!(Error::from(ZapError::Math(m)).is_retryable());
    assert!(Error::from(ZapError::Route(RouteError::Math(m))).is_retryable());
    let dry = PoolError::InsufficientLiquidity;
    assert_eq!(
        Error::from(ZapError::Pool(dry)).class(),
        ErrorClass::NoRoute
    );
    assert_eq!(
        Error::from(ZapError::Pool(PoolError::NoConvergence)).class(),
        ErrorClass::Retryable
    );
    assert!(Error::from(SnapshotError::PoolState {
        pool: String::new(),
        error: dry
    })
    .is_retryable());
}

#[test]
fn pool_errors_read_back_from_their_text() {
    for e in samples() {
        let Error::Pool(p) = e else { continue };
        let back = PoolError::from_text(&p.to_string());
        let lost = match p {
            PoolError::InvalidState(_) => PoolError::InvalidState(PoolStateProblem::ReadBack),
            PoolError::Revert(PoolRevert::TickOutOfRange { .. }) => {
                PoolError::Revert(PoolRevert::ReadBack)
            }
            PoolError::InvalidArgument(_) => PoolError::InvalidArgument(PoolArgument::ReadBack),
            PoolError::TokenIndex { .. } => PoolError::TokenIndex {
                index: 0,
                n_coins: 0,
            },
            exact => exact,
        };
        assert_eq!(back, Some(lost), "{p}");
    }
    for r in PoolRevert::PLAIN {
        let e = PoolError::Revert(r);
        assert_eq!(PoolError::from_text(&e.to_string()), Some(e));
    }
    assert_eq!(PoolError::from_text("no such error"), None);
}

#[test]
fn pool_reasons_keep_the_contract_code_and_the_values() {
    let t = PoolRevert::TickOutOfRange { tick: -887_273 };
    assert_eq!(t.contract_code(), Some("T"));
    assert_eq!(
        PoolError::Revert(t).to_string(),
        "contract reverts: T (tick -887273 beyond ±887272)"
    );
    let tlu = PoolRevert::TickLowerNotBelowUpper {
        lower: 60,
        upper: 60,
    };
    assert_eq!(tlu.contract_code(), Some("TLU"));
    assert!(tlu
        .to_string()
        .contains("lower tick 60 not below upper tick 60"));
    assert_eq!(PoolRevert::SqrtPriceLimit.to_string(), "SPL");
    assert_eq!(PoolRevert::Int128Cast.contract_code(), None);
}

#[test]
fn pool_error_stays_small() {
    // a `Result<U256, PoolError>` on the swap paths: the reasons' values must not grow it
    assert!(core::mem::size_of::<PoolError>() <= 24);
}
