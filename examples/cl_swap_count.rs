//! A small driver for instruction counts of CL swaps (`valgrind --tool=cachegrind`), which do
//! not depend on the machine's load: `cl_swap_count <within_tick|cross_1|cross_10> <reps>`
//! runs the bench's 64 swaps of that case `reps` times (`benches/pool_cl.rs`, same pool and
//! inputs). The instructions of one swap are the difference between two counts (say `reps`
//! 2000 and 0) divided by the difference in swaps (64 · 2000): setup cancels out.
//!
//! `--amount-out` times the family verb that returns only the output instead of `swap`.
#![allow(
    clippy::unwrap_used,
    clippy::arithmetic_side_effects,
    clippy::print_stderr
)]
use std::hint::black_box;

#[path = "../benches/common/cl_pool.rs"]
mod cl_pool;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let crossed = match args.first().map(String::as_str) {
        Some("within_tick") => 0,
        Some("cross_1") => 1,
        Some("cross_10") => 10,
        _ => {
            eprintln!("usage: cl_swap_count <within_tick|cross_1|cross_10> <reps> [--amount-out]");
            std::process::exit(2);
        }
    };
    let reps: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let amount_out = args.iter().any(|a| a == "--amount-out");
    let pool = cl_pool::pool();
    let xs = cl_pool::inputs(&pool, crossed);
    for _ in 0..reps {
        for &x in &xs {
            if amount_out {
                black_box(black_box(&pool).amount_out(0, 1, x).unwrap());
            } else {
                black_box(black_box(&pool).swap(0, 1, x).unwrap());
            }
        }
    }
}
