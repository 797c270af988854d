#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects,
    clippy::print_stdout
)]
#[path = "common/vectors/mod.rs"]
mod vectors;
#[path = "common/zapvec.rs"]
mod zapvec;
use swapzap::U256;
fn main() {
    let id = std::env::args().nth(1).unwrap();
    let i: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let lo: u64 = std::env::args().nth(3).unwrap().parse().unwrap();
    let hi: u64 = std::env::args().nth(4).unwrap().parse().unwrap();
    let text = std::fs::read_to_string("../shared/zap/zap_in.jsonl").unwrap();
    let v: serde_json::Value = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v["id"] == id.as_str())
        .unwrap();
    let pool = zapvec::pool_of(&v).unwrap();
    let a: Vec<U256> = v["amounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| U256::from_dec_str(x.as_str().unwrap()).unwrap())
        .collect();
    let j = 1 - i;
    for s in lo..=hi {
        let s = U256::from(s);
        match pool.swap(i, j, s) {
            Ok((out, p1)) => {
                let mut h = a.clone();
                h[i] -= s;
                h[j] += out;
                println!(
                    "{s} out {out} mint {:?} bal {:?}",
                    p1.mint(&h).map(|x| x.0),
                    p1.balances()
                );
            }
            Err(e) => println!("{s} swap err {e} quote {:?}", pool.amount_out(i, j, s)),
        }
    }
    println!(
        "{:?}",
        swapzap::zap::zap_in_pool(&pool, &a, &Default::default()).map(|z| (z.swap, z.minted))
    );
}
