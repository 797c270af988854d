//! Check vector files (or folders of them) in the schema of `../shared/vectors` against the library.
//!
//! ```sh
//! cargo run --release --example verify_vectors -- ../shared/vectors
//! ```
//!
//! Prints one line per file and a last line `N passed, M failed`; exits non-zero on any failure.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects,
    clippy::print_stdout,
    clippy::print_stderr
)]

#[path = "common/vectors/mod.rs"]
mod vectors;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn collect(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        entries.sort();
        for p in entries {
            if p.is_dir() || p.extension().is_some_and(|e| e == "jsonl") {
                collect(&p, out)?;
            }
        }
    } else {
        out.push(path.to_path_buf());
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        eprintln!("usage: verify_vectors PATH... (vector files or folders of .jsonl files)");
        return ExitCode::from(2);
    }
    let mut files = Vec::new();
    for a in &args {
        if let Err(e) = collect(Path::new(a), &mut files) {
            eprintln!("{a}: {e}");
            return ExitCode::from(2);
        }
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{}: {e}", f.display());
                failed += 1;
                continue;
            }
        };
        let (mut p, mut m) = (0usize, 0usize);
        let mut first_failure = None;
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let res = serde_json::from_str::<serde_json::Value>(line)
                .map_err(|e| format!("line {}: not JSON: {e}", n + 1))
                .and_then(|v| vectors::check(&v));
            match res {
                Ok(()) => p += 1,
                Err(e) => {
                    m += 1;
                    first_failure.get_or_insert(e);
                }
            }
        }
        match first_failure {
            None => println!("{}: {p} passed, {m} failed", f.display()),
            Some(e) => println!("{}: {p} passed, {m} failed (first: {e})", f.display()),
        }
        passed += p;
        failed += m;
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 && passed > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
