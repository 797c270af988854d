//! Typed error reasons: a pool's revert names the check and its values (the contract's own
//! code kept as a fact), and a plan read back from its JSON keeps the reasons it can.

use swapzap::error::{PoolError, PoolRevert, PoolUnsupported};
use swapzap::pool::concentrated_liquidity::{ConcentratedLiquidity, SwapAmount, Tick};
use swapzap::pool::Pool;
use swapzap::U256;

/// Price 1 (tick 0), one full-range position of liquidity 10^18, spacing 60, 0.3 % fee.
fn cl() -> ConcentratedLiquidity {
    let l: u128 = 1_000_000_000_000_000_000;
    let ticks = vec![
        Tick {
            index: -887_220,
            liquidity_net: l as i128,
            liquidity_gross: l,
        },
        Tick {
            index: 887_220,
            liquidity_net: -(l as i128),
            liquidity_gross: l,
        },
    ];
    ConcentratedLiquidity::new(U256::one() << 96, 0, l, 3_000, 60, ticks).unwrap()
}

fn revert_of<T: std::fmt::Debug>(r: Result<T, PoolError>) -> PoolRevert {
    match r {
        Err(PoolError::Revert(why)) => why,
        other => panic!("expected a revert, got {other:?}"),
    }
}

#[test]
fn concentrated_liquidity_reverts_name_the_check_and_the_ticks() {
    let p = cl();
    // the positions' tick checks of UniswapV3Pool (TLU, TLM, TUM), with the ticks given
    let why = revert_of(p.mint(120, 60, 1));
    assert_eq!(
        why,
        PoolRevert::TickLowerNotBelowUpper {
            lower: 120,
            upper: 60
        }
    );
    assert_eq!(why.contract_code(), Some("TLU"));
    let why = revert_of(p.mint(-887_280, 60, 1));
    assert_eq!(why, PoolRevert::TickLowerTooLow { lower: -887_280 });
    assert_eq!(why.contract_code(), Some("TLM"));
    let why = revert_of(p.mint(-60, 887_280, 1));
    assert_eq!(why, PoolRevert::TickUpperTooHigh { upper: 887_280 });
    assert_eq!(why.contract_code(), Some("TUM"));
    // a newly initialised tick off the spacing (60): the tick and the spacing
    assert_eq!(
        revert_of(p.mint(-61, 60, 1)),
        PoolRevert::TickNotOnSpacing {
            tick: -61,
            spacing: 60
        }
    );
    assert_eq!(revert_of(p.mint(-60, 60, 0)), PoolRevert::ZeroMintAmount);
    assert_eq!(revert_of(p.burn(-60, 60, 0, 0)), PoolRevert::NoPosition);
    // the swap's argument checks: AS, then SPL (a limit above the price for zero-for-one)
    let zero = SwapAmount::ExactIn(U256::zero());
    let why = revert_of(p.execute_swap(true, zero, U256::one() << 95));
    assert_eq!(
        (why, why.contract_code()),
        (PoolRevert::ZeroAmountSpecified, Some("AS"))
    );
    let one = SwapAmount::ExactIn(U256::one());
    let why = revert_of(p.execute_swap(true, one, U256::one() << 97));
    assert_eq!(
        (why, why.contract_code()),
        (PoolRevert::SqrtPriceLimit, Some("SPL"))
    );
    assert_eq!(
        PoolError::Revert(why).to_string(),
        "contract reverts: SPL",
        "a revert without values reads as before"
    );
}

#[test]
fn unsupported_operations_name_the_operation() {
    let pool = Pool::ConcentratedLiquidity(cl());
    assert_eq!(
        pool.mint(&[U256::one(), U256::one()]).map(|_| ()),
        Err(PoolError::Unsupported(
            PoolUnsupported::ConcentratedLiquidityLp
        ))
    );
    assert_eq!(
        pool.burn(U256::one()).map(|_| ()),
        Err(PoolError::Unsupported(
            PoolUnsupported::ConcentratedLiquidityLp
        ))
    );
}

#[test]
fn snapshot_pool_reasons_read_with_their_values() {
    use swapzap::error::{BadPoolProblem, SnapshotError};
    let missing = SnapshotError::BadPool {
        pool: "orca:x".into(),
        why: BadPoolProblem::MissingField("tick_spacing"),
    };
    assert_eq!(missing.to_string(), "pool orca:x: tick_spacing missing");
    assert_eq!(missing.code(), 4032);
    let t = PoolError::Revert(PoolRevert::TickOutOfRange { tick: 900_000 });
    let refused = BadPoolProblem::ClStateRejected(t);
    assert_eq!(
        refused.to_string(),
        "concentrated-liquidity state rejected (contract reverts: T (tick 900000 beyond ±887272))"
    );
}
