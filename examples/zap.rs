//! Placeholder; implemented by its issue.
#![allow(missing_docs)]
fn main() {}
