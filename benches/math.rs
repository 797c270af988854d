//! Criterion benches for `math` (ids `area/op/param`, deterministic inputs).
#![allow(missing_docs)]
use criterion::{criterion_group, criterion_main, Criterion};

fn benches(_c: &mut Criterion) {}

criterion_group!(group, benches);
criterion_main!(group);
