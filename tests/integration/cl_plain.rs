//! A plain primitive-types `TickMath.getSqrtRatioAtTick` (the contract's hex constants, `U256`
//! products shifted by 128, `U256::MAX / r` for positive ticks): the reference side of the CL
//! property tests (`props_cl_ref`) and of the CL bench (`benches/pool_cl.rs`, by `#[path]`).
#![allow(dead_code, clippy::unwrap_used, clippy::arithmetic_side_effects)]
use swapzap::U256;

/// `TickMath`'s constants, as written in the contract (hex).
const FACTORS: [&str; 20] = [
    "fffcb933bd6fad37aa2d162d1a594001",
    "fff97272373d413259a46990580e213a",
    "fff2e50f5f656932ef12357cf3c7fdcc",
    "ffe5caca7e10e4e61c3624eaa0941cd0",
    "ffcb9843d60f6159c9db58835c926644",
    "ff973b41fa98c081472e6896dfb254c0",
    "ff2ea16466c96a3843ec78b326b52861",
    "fe5dee046a99a2a811c461f1969c3053",
    "fcbe86c7900a88aedcffc83b479aa3a4",
    "f987a7253ac413176f2b074cf7815e54",
    "f3392b0822b70005940c7a398e4b70f3",
    "e7159475a2c29b7443b29c7fa6e889d9",
    "d097f3bdfd2022b8845ad8f792aa5825",
    "a9f746462d870fdf8a65dc1f90e061e5",
    "70d869a156d2a1b890bb3df62baf32f7",
    "31be135f97d08fd981231505542fcfa6",
    "9aa508b5b7a84e1c677de54f3e99bc9",
    "5d6af8dedb81196699c329225ee604",
    "2216e584f5fa1ea926041bedfe98",
    "48a170391f7dc42444e8fa2",
];

/// The factors as `U256`s, parsed once.
pub fn factors() -> &'static [U256] {
    static F: std::sync::OnceLock<Vec<U256>> = std::sync::OnceLock::new();
    F.get_or_init(|| {
        FACTORS
            .iter()
            .map(|h| U256::from_str_radix(h, 16).unwrap())
            .collect()
    })
}

/// `TickMath.getSqrtRatioAtTick`.
pub fn ratio(t: i32) -> U256 {
    let a = t.unsigned_abs();
    assert!(a <= 887_272);
    let mut r = U256::one() << 128;
    for (i, f) in factors().iter().enumerate() {
        if a & (1 << i) != 0 {
            r = (r * *f) >> 128;
        }
    }
    if t > 0 {
        r = U256::MAX / r;
    }
    (r >> 32) + u8::from(!(r % (U256::one() << 32)).is_zero())
}
