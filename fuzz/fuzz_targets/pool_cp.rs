//! Constant-product pools: arbitrary states and operation sequences must never panic; the
//! quote equals an exact big-integer evaluation of the contract formula; exact-out answers are
//! consistent with the forward function.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use swapzap::pool::ConstantProduct;
use swapzap::U256;

#[derive(Debug, Arbitrary)]
enum Op {
    Swap { i: bool, dx: u128, shift: u8 },
    ExactOut { i: bool, dy: u128 },
    Mint { a0: u128, a1: u128 },
    Burn { lp: u128 },
    Quote { i: bool, amount: u128 },
}

#[derive(Debug, Arbitrary)]
struct Input {
    r0: u128,
    r1: u128,
    fee_num: u64,
    fee_den: u64,
    ts: u128,
    k_last: u128,
    fee_on: bool,
    ops: Vec<Op>,
}

fn big(x: U256) -> BigUint {
    BigUint::from_bytes_le(&x.to_little_endian())
}

fuzz_target!(|inp: Input| {
    let mask = (1u128 << 112) - 1;
    let Ok(pool) = ConstantProduct::new(
        [U256::from(inp.r0 & mask), U256::from(inp.r1 & mask)],
        inp.fee_num,
        inp.fee_den,
        U256::from(inp.ts),
    ) else {
        return;
    };
    let mut pool = pool.with_protocol_fee(U256::from(inp.k_last), inp.fee_on);
    for op in inp.ops.iter().take(16) {
        let _ = pool.marginal_rate(0, 1);
        let _ = pool.supply_for_mint();
        match *op {
            Op::Swap { i, dx, shift } => {
                let i = usize::from(i);
                let dx = U256::from(dx) << usize::from(shift % 128);
                let quoted = pool.amount_out(i, 1 - i, dx);
                if let Ok(out) = quoted {
                    let r = pool.reserves();
                    let (ri, ro) = (big(r[i]), big(r[1 - i]));
                    let (n, d) = pool.fee();
                    let af = big(dx) * BigUint::from(d - n);
                    let want = &af * &ro / (ri * BigUint::from(d) + &af);
                    assert_eq!(big(out), want);
                }
                if let Ok((out, next)) = pool.swap(i, 1 - i, dx) {
                    assert_eq!(Ok(out), quoted);
                    let k0 = big(pool.reserves()[0]) * big(pool.reserves()[1]);
                    let k1 = big(next.reserves()[0]) * big(next.reserves()[1]);
                    assert!(k1 >= k0);
                    pool = next;
                }
            }
            Op::ExactOut { i, dy } => {
                let i = usize::from(i);
                let dy = U256::from(dy);
                if let Ok(x) = pool.min_amount_in(i, 1 - i, dy) {
                    if let Ok(out) = pool.amount_out(i, 1 - i, x) {
                        assert!(out >= dy);
                        if x > U256::one() {
                            assert!(pool.amount_out(i, 1 - i, x - 1).map_or(true, |o| o < dy));
                        }
                    }
                    let router = pool.amount_in(i, 1 - i, dy).expect("same preconditions");
                    assert!(router == x || router == x + 1);
                }
            }
            Op::Mint { a0, a1 } => {
                if let Ok(m) = pool.mint_detailed([U256::from(a0), U256::from(a1)]) {
                    assert_eq!(
                        m.pool.total_supply(),
                        pool.supply_for_mint().expect("mint succeeded")
                            + m.minted
                            + if pool.supply_for_mint().expect("ok").is_zero() {
                                U256::from(1000)
                            } else {
                                U256::zero()
                            }
                    );
                    pool = m.pool;
                }
            }
            Op::Burn { lp } => {
                if let Ok(b) = pool.burn_detailed(U256::from(lp)) {
                    assert!(b.amounts[0] <= pool.reserves()[0]);
                    assert!(b.amounts[1] <= pool.reserves()[1]);
                    pool = b.pool;
                }
            }
            Op::Quote { i, amount } => {
                let i = usize::from(i);
                let _ = pool.quote(i, 1 - i, U256::from(amount));
            }
        }
    }
});
