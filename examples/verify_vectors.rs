//! Check vector files (or folders of them) in the schema of `../shared/vectors` against the library.
//!
//! ```sh
//! cargo run --release --example verify_vectors -- ../shared/vectors ../shared/vectors-cl
//! ```
//!
//! The chain-101 folder (`saber_stableswap`, `spl_token_swap`, `orca_whirlpool`, schema in its
//! README) is read the same way; records are dispatched by their `family`:
//!
//! ```sh
//! cargo run --release --example verify_vectors -- ../shared/vectors-101
//! ```
//!
//! Zap-in vector files in the schema of `../shared/zap` are detected from their content (a
//! record with `amounts` and `expect.best_minted`) and judged by the rules of that README:
//!
//! ```sh
//! cargo run --release --example verify_vectors -- ../shared/zap --results zap_results.jsonl
//! ```
//!
//! With `--results FILE`, the library's result for every zap vector is written to `FILE`, one
//! JSON line each (`id`, `minted`, `swap`, `deposit`, or `id`, `error`). With `--baselines`, a
//! table of how far the vectors' recorded baselines fall short, against the library, is printed
//! after the zap files.
//!
//! Prints one line per file and a last line `N passed, M failed`; exits non-zero on any failure.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects,
    clippy::print_stdout,
    clippy::print_stderr
)]

#[macro_use]
#[path = "common/cli.rs"]
mod cli;
#[path = "common/vectors/mod.rs"]
mod vectors;
#[path = "common/zapvec.rs"]
mod zapvec;

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

const USAGE: &str = "usage: verify_vectors [--results FILE] [--baselines] PATH...

  PATH         vector files or folders of .jsonl files (pool vectors of ../shared/vectors and
               ../shared/vectors-cl, or zap-in vectors of ../shared/zap, told apart by content)
  --results F  write the library's zap results to F, one JSON line per zap vector
  --baselines  print how the zap vectors' recorded baselines compare with the library
  -h, --help   this text

Prints a line per file and `N passed, M failed`; exits non-zero on any failure.";

fn main() -> ExitCode {
    let mut args: Vec<String> = Vec::new();
    let mut results_path: Option<String> = None;
    let mut baselines = false;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--results" => match it.next() {
                Some(f) => results_path = Some(f),
                None => {
                    warn!("--results needs a file name");
                    return ExitCode::from(2);
                }
            },
            "--baselines" => baselines = true,
            "-h" | "--help" => {
                out!("{USAGE}");
                out!("Checks pool-operation vectors (../shared/vectors) and zap-in vectors (../shared/zap),");
                out!("detected by content: a line per file, `N passed, M failed`, exit 1 on a failure.");
                return ExitCode::SUCCESS;
            }
            _ => args.push(a),
        }
    }
    if args.is_empty() {
        warn!("{USAGE}");
        return ExitCode::from(2);
    }
    let mut results = String::new();
    let mut zap_records: Vec<serde_json::Value> = Vec::new();
    let mut zap_outcomes: Vec<zapvec::Outcome> = Vec::new();
    let mut zap_tally = zapvec::Tally::default();
    let mut files = Vec::new();
    for a in &args {
        if let Err(e) = collect(Path::new(a), &mut files) {
            warn!("{a}: {e}");
            return ExitCode::from(2);
        }
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                warn!("{}: {e}", f.display());
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
                .and_then(|v| {
                    if zapvec::is_zap_vector(&v) {
                        let o = zapvec::run(&v);
                        results.push_str(&o.to_json().to_string());
                        results.push('\n');
                        let r = zapvec::check(&v, &o);
                        zap_tally.add(&v, &r);
                        if baselines {
                            zap_records.push(v);
                            zap_outcomes.push(o);
                        }
                        r
                    } else {
                        vectors::check(&v)
                    }
                });
            match res {
                Ok(()) => p += 1,
                Err(e) => {
                    m += 1;
                    first_failure.get_or_insert(e);
                }
            }
        }
        match first_failure {
            None => out!("{}: {p} passed, {m} failed", f.display()),
            Some(e) => out!("{}: {p} passed, {m} failed (first: {e})", f.display()),
        }
        passed += p;
        failed += m;
    }
    if !zap_tally.families.is_empty() {
        cli::emit(&format!("zap vectors by family:\n{}", zap_tally.summary()));
    }
    if baselines && !zap_records.is_empty() {
        out!("{}", zapvec::baseline_table(&zap_records, &zap_outcomes));
    }
    if let Some(path) = results_path {
        if let Err(e) = std::fs::write(&path, &results) {
            warn!("{path}: {e}");
            return ExitCode::from(2);
        }
    }
    out!("{passed} passed, {failed} failed");
    if failed == 0 && passed > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
