//! `figures`: the performance page's table and the README's "Fast." bullet,
//! rendered again from the results under `bench/results/`.
//!
//! ```text
//! cargo run -p mcp-wit-bench --bin figures            # rewrite the pages
//! cargo run -p mcp-wit-bench --bin figures -- --check # only say which differ
//! cargo run -p mcp-wit-bench --bin figures -- --criterion bench/results/<study>
//!                                  # keep criterion's latest estimates in a study
//! ```
//!
//! What is quoted, and from which study, is `mcp_wit_bench::figures::FIGURES`.

use clap::Parser;
use mcp_wit_bench::figures;

/// Renders the generated figures of docs/users/performance.md and README.md
/// from the benchmark results.
#[derive(Parser, Debug)]
struct Cli {
    /// Change nothing; fail when a page differs from what the data gives.
    #[arg(long, conflicts_with = "criterion")]
    check: bool,
    /// Instead: write criterion's latest estimates (target/criterion) to
    /// DIR/criterion.json, the study's data for the instance figures.
    #[arg(long, value_name = "DIR")]
    criterion: Option<std::path::PathBuf>,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let root = figures::workspace_root();
    if let Some(out) = cli.criterion {
        let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), Into::into);
        return match figures::record_criterion(&target.join("criterion"), &out) {
            Ok(file) => {
                eprintln!("figures: wrote {}", file.display());
                std::process::ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("figures: {e:#}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    let outcome = if cli.check { figures::stale(&root) } else { figures::write(&root) };
    match outcome {
        Ok(changed) if changed.is_empty() => {
            eprintln!("figures: the pages match the data");
            std::process::ExitCode::SUCCESS
        }
        Ok(changed) => {
            for path in &changed {
                let verb = if cli.check { "differs from the data" } else { "rewritten" };
                eprintln!("figures: {} {verb}", path.strip_prefix(&root).unwrap_or(path).display());
            }
            if cli.check { std::process::ExitCode::FAILURE } else { std::process::ExitCode::SUCCESS }
        }
        Err(e) => {
            eprintln!("figures: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
