//! The command line.

use std::path::PathBuf;

use clap::{ArgAction, Parser};
use mcp_wit_bench::cli::{Study, item};
use mcp_wit_bench::http::Era;
use mcp_wit_bench::results;

/// The benchmark matrix: `mcp-wit serve echo.wasm`, rmcp (native) and a bare
/// serde_json server (the floor) over stdio at each in-flight count and over
/// Streamable HTTP at each session count, in each era, repetitions
/// interleaved; then idle-session memory and cold starts. Writes
/// results.json, summary.md and the plots, and prints the summary.
#[derive(Parser, Debug)]
#[command(
    // A flag given twice counts once, the last value, as scripts may append.
    args_override_self = true,
    after_help = "Examples:\n  \
        cargo run --release -p mcp-wit-bench --bin report\n  \
        cargo run --release -p mcp-wit-bench --bin report -- --reps 3 --no-http --no-idle-memory\n  \
        cargo run --release -p mcp-wit-bench --bin report -- --no-build \\\n      \
        --mcp-wit old/target/release/mcp-wit --components old/target/guests/wasm32-wasip2/release"
)]
pub(crate) struct Cli {
    /// Measured calls of a stdio point.
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub(crate) calls: usize,
    /// Warm-up calls of a stdio point.
    #[arg(long, value_name = "N", default_value_t = 2_000)]
    pub(crate) warmup: usize,
    /// Repetitions of both load matrices.
    #[arg(long, value_name = "R", default_value_t = 7)]
    pub(crate) reps: usize,
    /// Calls in flight of the stdio matrix (comma-separated).
    #[arg(long, value_name = "N,...", value_delimiter = ',', value_parser = item::<usize>, action = ArgAction::Set,
          default_value = "1,2,4,8,16,32,64")]
    pub(crate) inflight: Vec<usize>,
    /// The CPU of the stdio runs at 1 in flight that pin client and server to one CPU.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) pin_cpu: usize,
    /// Leave those pinned runs out.
    #[arg(long)]
    pub(crate) no_pinned: bool,
    /// Cold-start runs per case.
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub(crate) cold_runs: usize,
    /// Where results.json, summary.md and the plots go.
    #[arg(long, value_name = "DIR", default_value_os_t = results::dated_dir("report"))]
    pub(crate) out: PathBuf,
    /// Session counts of the HTTP matrix (comma-separated), one call in flight per session.
    #[arg(long, value_name = "N,...", value_delimiter = ',', value_parser = item::<usize>, action = ArgAction::Set,
          default_value = "1,8,64,256")]
    pub(crate) sessions: Vec<usize>,
    /// Measured calls of an HTTP point, shared by its sessions (at least 20 each).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub(crate) http_calls: usize,
    /// Warm-up calls of an HTTP point, shared by its sessions (at least 2 each).
    #[arg(long, value_name = "N", default_value_t = 1_000)]
    pub(crate) http_warmup: usize,
    /// The eras measured (comma-separated): the HTTP matrix runs in each, and over stdio
    /// mcp-wit at 1 and 32 in flight.
    #[arg(long, value_name = "ERA,...", value_delimiter = ',', value_parser = item::<Era>, action = ArgAction::Set,
          default_value = "legacy,modern")]
    pub(crate) eras: Vec<Era>,
    /// Sessions of each idle-memory run.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub(crate) idle_sessions: usize,
    /// Idle-memory runs per server.
    #[arg(long, value_name = "K", default_value_t = 3)]
    pub(crate) idle_runs: usize,
    /// Leave the stdio matrix out.
    #[arg(long)]
    pub(crate) no_stdio: bool,
    /// Leave the HTTP matrix out.
    #[arg(long)]
    pub(crate) no_http: bool,
    /// Leave the idle-memory measurement out.
    #[arg(long)]
    pub(crate) no_idle_memory: bool,
    /// Leave the cold starts out.
    #[arg(long)]
    pub(crate) no_cold_start: bool,
    #[command(flatten)]
    pub(crate) study: Study,
    /// Another build of the host to measure (e.g. of an older revision); not built here.
    #[arg(long, value_name = "PATH")]
    pub(crate) mcp_wit: Option<PathBuf>,
    /// The built guests of that build [default: this workspace's fixtures].
    #[arg(long, value_name = "DIR")]
    pub(crate) components: Option<PathBuf>,
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn parse(line: &str) -> Result<Cli, clap::Error> {
        mcp_wit_bench::cli::parse(line)
    }

    #[test]
    fn defaults_as_benchmarks_md_lists_them() {
        let cli = parse("report").unwrap();
        assert_eq!((cli.calls, cli.warmup, cli.reps, cli.pin_cpu, cli.cold_runs), (20_000, 2_000, 7, 0, 10));
        assert_eq!(cli.inflight, [1, 2, 4, 8, 16, 32, 64]);
        assert_eq!((cli.sessions, cli.http_calls, cli.http_warmup), (vec![1, 8, 64, 256], 10_000, 1_000));
        assert_eq!((cli.eras, cli.idle_sessions, cli.idle_runs), (vec![Era::Legacy, Era::Modern], 1000, 3));
        assert_eq!(cli.out, results::dated_dir("report"));
        assert!(!(cli.no_pinned || cli.no_stdio || cli.no_http || cli.no_idle_memory || cli.no_cold_start));
        assert!(!cli.study.no_build && !cli.study.show_stderr);
        assert!(cli.mcp_wit.is_none() && cli.components.is_none());
        assert_eq!(parse("report --reps 3").unwrap().reps, 3);
    }

    #[test]
    fn every_flag() {
        let cli = parse(
            "report --calls 100 --warmup 10 --reps 3 --inflight 1,32 --pin-cpu 2 --cold-runs 4 --out /tmp/r \
             --sessions 8 --http-calls 500 --http-warmup 50 --eras=modern --idle-sessions 10 --idle-runs 1 \
             --show-stderr --no-build --mcp-wit old/mcp-wit --components old/guests",
        )
        .unwrap();
        assert_eq!((cli.calls, cli.warmup, cli.reps, cli.pin_cpu, cli.cold_runs), (100, 10, 3, 2, 4));
        assert_eq!((cli.inflight, cli.sessions, cli.eras), (vec![1, 32], vec![8], vec![Era::Modern]));
        assert_eq!((cli.http_calls, cli.http_warmup, cli.idle_sessions, cli.idle_runs), (500, 50, 10, 1));
        assert_eq!(cli.out, Path::new("/tmp/r"));
        assert_eq!((cli.mcp_wit, cli.components), (Some("old/mcp-wit".into()), Some("old/guests".into())));
        assert!(cli.study.no_build && cli.study.show_stderr);

        let cli = parse("report --no-pinned --no-stdio --no-http --no-idle-memory --no-cold-start").unwrap();
        assert!(cli.no_pinned && cli.no_stdio && cli.no_http && cli.no_idle_memory && cli.no_cold_start);
        let spaced = Cli::try_parse_from(["report", "--inflight", "1, 2", "--eras", "legacy, modern"]).unwrap();
        assert_eq!((spaced.inflight, spaced.eras), (vec![1, 2], vec![Era::Legacy, Era::Modern]));
    }

    #[test]
    fn rejects_what_it_does_not_take() {
        for line in
            ["report extra", "report -- server", "report --eras old", "report --inflight 1,,2", "report --engine"]
        {
            assert!(parse(line).is_err(), "{line}");
        }
    }
}
