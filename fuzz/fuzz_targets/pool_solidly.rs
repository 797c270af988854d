//! Solidly pools (volatile and stable): arbitrary states and operation sequences must never
//! panic; exact-out answers are consistent with the exact forward function; a successful swap
//! never lowers the invariant.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use swapzap::pool::Solidly;
use swapzap::U256;

#[derive(Debug, Arbitrary)]
enum Op {
    Swap { i: bool, dx: u128, shift: u8 },
    ExactOut { i: bool, dy: u128 },
    Mint { a0: u128, a1: u128 },
    Burn { lp: u128 },
}

#[derive(Debug, Arbitrary)]
struct Input {
    r0: u128,
    r1: u128,
    shift: u8,
    dec: [u8; 2],
    stable: bool,
    fee_bps: u16,
    ts: u128,
    ops: Vec<Op>,
}

fuzz_target!(|inp: Input| {
    let sh = usize::from(inp.shift % 100);
    let Ok(mut pool) = Solidly::new(
        [U256::from(inp.r0) << sh, U256::from(inp.r1) << sh],
        [inp.dec[0] % 19, inp.dec[1] % 19],
        inp.stable,
        u32::from(inp.fee_bps % 10_000),
        U256::from(inp.ts),
    ) else {
        return;
    };
    for op in inp.ops.iter().take(8) {
        let _ = pool.marginal_rate(0, 1);
        match *op {
            Op::Swap { i, dx, shift } => {
                let i = usize::from(i);
                let dx = U256::from(dx) << usize::from(shift % 128);
                if let Ok((_, next)) = pool.swap(i, 1 - i, dx) {
                    assert!(next.invariant().expect("checked") >= pool.invariant().expect("ok"));
                    pool = next;
                }
            }
            Op::ExactOut { i, dy } => {
                let i = usize::from(i);
                let dy = U256::from(dy);
                if let Ok(x) = pool.amount_in(i, 1 - i, dy) {
                    assert!(pool.amount_out(i, 1 - i, x).expect("reaches") >= dy);
                    if !x.is_zero() {
                        assert!(pool.amount_out(i, 1 - i, x - 1).map_or(true, |o| o < dy));
                    }
                }
            }
            Op::Mint { a0, a1 } => {
                if let Ok(m) = pool.mint_detailed([U256::from(a0), U256::from(a1)]) {
                    pool = m.pool;
                }
            }
            Op::Burn { lp } => {
                if let Ok(b) = pool.burn_detailed(U256::from(lp)) {
                    pool = b.pool;
                }
            }
        }
    }
});
