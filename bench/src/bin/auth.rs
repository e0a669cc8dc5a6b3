//! What authorization costs on the HTTP request path: the echo call over
//! Streamable HTTP, served by the same `mcp-wit` binary without and with
//! `--auth-issuer`, runs interleaved, server CPU per call and throughput.
//!
//! The tokens are JWTs (ES256 unless `--alg` says RS256 or EdDSA) signed here and verified against a JWKS file
//! (no network). Each session reuses its token, as clients do, so a call
//! costs what a remembered token costs; the signature check a new token
//! costs once is measured apart, in process (`jsonwebtoken::decode` with the
//! server's settings).
//!
//! With `--engine`, the same echo router wrapped by `mcp-wit wrap` is
//! measured too, on `wasmtime serve` without and with the adapter's
//! `MCP_WIT_AUTH_*` settings (keys inline): there every request is an
//! instance of its own, so every call checks its token in full.
//!
//! usage: auth [--sessions 1,8,64] [--calls N] [--warmup N] [--reps R] [--eras legacy,modern]
//!             [--out DIR] [--mcp-wit PATH] [--engine] [--wasmtime PATH] [--alg ES256|RS256|EdDSA]
//!             [--show-stderr]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, ensure};
use clap::{ArgAction, Parser};
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use mcp_wit_bench::cli::item;
use mcp_wit_bench::http::{self, Era, HttpLoadOptions, HttpLoadResult, run_http_load};
use mcp_wit_bench::results;
use mcp_wit_bench::stats::{median, min_max};
use mcp_wit_bench::wasmtime;
use serde_json::json;

const ISSUER: &str = "https://issuer.bench.invalid";

/// The runs of each point: (server, era, sessions, with authorization) →
/// results.
type Runs = Vec<((Server, Era, usize, bool), Vec<HttpLoadResult>)>;

/// What serves the router.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
enum Server {
    /// `mcp-wit serve --http`.
    Native,
    /// `mcp-wit wrap` on `wasmtime serve -Scli`.
    Wrapped,
}

impl Server {
    fn name(self) -> &'static str {
        match self {
            Server::Native => "mcp-wit serve",
            Server::Wrapped => "wrapped, wasmtime serve",
        }
    }
}
const RESOURCE: &str = "https://mcp.bench.invalid/mcp";

/// What authorization costs on the HTTP request path: the echo call over
/// Streamable HTTP, served by the same `mcp-wit` binary without and with
/// `--auth-issuer`, interleaved; server CPU per call and throughput. Tokens
/// are JWTs signed here, checked against a JWKS file.
#[derive(Parser, Debug)]
#[command(
    // A flag given twice counts once, the last value, as scripts may append.
    args_override_self = true,
    after_help = "Examples:\n  \
        cargo run --release -p mcp-wit-bench --bin auth\n  \
        cargo run --release -p mcp-wit-bench --bin auth -- \\\n      \
        --engine --alg EdDSA --sessions 1,8 --eras modern --reps 3 --calls 3000"
)]
struct Cli {
    /// Session counts measured (comma-separated), one call in flight per session.
    #[arg(long, value_name = "N,...", value_delimiter = ',', value_parser = item::<usize>, action = ArgAction::Set,
          default_value = "1,8,64")]
    sessions: Vec<usize>,
    /// Measured calls of a point, shared by its sessions (at least 20 each).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    calls: usize,
    /// Warm-up calls of a point, shared by its sessions (at least 2 each).
    #[arg(long, value_name = "N", default_value_t = 1_000)]
    warmup: usize,
    /// Repetitions of every point.
    #[arg(long, value_name = "R", default_value_t = 5)]
    reps: usize,
    /// The eras measured (comma-separated); on an engine, `modern` only.
    #[arg(long, value_name = "ERA,...", value_delimiter = ',', value_parser = item::<Era>, action = ArgAction::Set,
          default_value = "legacy,modern")]
    eras: Vec<Era>,
    /// Where results.json and summary.md go.
    #[arg(long, value_name = "DIR", default_value_os_t = results::dated_dir("auth"))]
    out: PathBuf,
    /// The `mcp-wit` binary [default: the one beside this binary].
    #[arg(long, value_name = "PATH")]
    mcp_wit: Option<PathBuf>,
    /// Measure the router wrapped by `mcp-wit wrap` on `wasmtime serve` too, with the adapter's
    /// `MCP_WIT_AUTH_*` settings: every request checks its token in full.
    #[arg(long)]
    engine: bool,
    /// The `wasmtime` CLI for `--engine` [default: the one the engine tests install under the target directory's peers/].
    #[arg(long, value_name = "PATH")]
    wasmtime: Option<PathBuf>,
    /// The tokens' signature algorithm: ES256, RS256 or EdDSA.
    #[arg(long, value_name = "ALG", default_value = "ES256")]
    alg: Algorithm,
    /// Pass the servers' stderr through.
    #[arg(long)]
    show_stderr: bool,
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("auth: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> anyhow::Result<()> {
    let Cli { sessions, calls, warmup, reps, eras, out: out_dir, mcp_wit, engine, wasmtime, alg, show_stderr } =
        Cli::parse();
    ensure!(
        reps > 0 && calls > 0 && sessions.iter().all(|&n| n > 0),
        "--reps, --calls and --sessions must be positive"
    );
    let binary = match mcp_wit {
        Some(path) => path,
        None => std::env::current_exe()?.parent().context("no directory for this binary")?.join("mcp-wit"),
    };
    ensure!(binary.exists(), "{} is missing: build with `cargo build --release -p mcp-wit-cli`", binary.display());
    let echo = Path::new(mcp_wit_tests::FIXTURES).join("echo.wasm");

    // The issuer's key, its JWKS in a file, and one token per run.
    let work = std::env::temp_dir().join(format!("mcp-wit-bench-auth-{}", std::process::id()));
    std::fs::create_dir_all(&work)?;
    let (encoding, decoding, jwks) = signing_key(alg)?;
    let jwks_file = work.join("jwks.json");
    std::fs::write(&jwks_file, serde_json::to_vec(&jwks)?)?;
    let now = SystemTime::now().duration_since(UNIX_EPOCH)?.as_secs();
    let claims = json!({
        "iss": ISSUER, "sub": "bench", "aud": RESOURCE, "client_id": "bench-client",
        "scope": "mcp", "iat": now, "exp": now + 24 * 3600,
    });
    let mut header = Header::new(alg);
    header.kid = Some("bench".into());
    let token = jsonwebtoken::encode(&header, &claims, &encoding)?;

    let servers = if engine { vec![Server::Native, Server::Wrapped] } else { vec![Server::Native] };
    let wrapped = work.join("echo-wrapped.wasm");
    let wasmtime = if engine {
        wasmtime::wrap(&binary, &echo, &wrapped)?;
        let bin_dir = binary.parent().context("no directory for mcp-wit")?;
        wasmtime.map_or_else(|| wasmtime::installed(bin_dir), Ok)?
    } else {
        PathBuf::new()
    };
    let jwks_text = serde_json::to_string(&jwks)?;
    let engine = |auth: bool| {
        let mut command: Vec<String> = vec![wasmtime.display().to_string(), "serve".into(), "-Scli".into()];
        command.extend(["--addr", http::ADDR].map(String::from));
        if auth {
            for setting in [
                format!("MCP_WIT_AUTH_ISSUERS={ISSUER}"),
                format!("MCP_WIT_AUTH_RESOURCE={RESOURCE}"),
                "MCP_WIT_AUTH_SCOPES=mcp".to_string(),
                format!("MCP_WIT_AUTH_JWKS={jwks_text}"),
            ] {
                command.extend(["--env".to_string(), setting]);
            }
        }
        command.push(wrapped.display().to_string());
        command
    };
    let serve = |auth: bool| {
        let mut command: Vec<String> =
            [binary.to_str().unwrap(), "serve", echo.to_str().unwrap()].iter().map(|s| s.to_string()).collect();
        command.extend(["--guest-output", "discard", "--http", http::ADDR].map(String::from));
        if auth {
            command.extend(
                ["--auth-issuer", ISSUER, "--auth-resource", RESOURCE, "--auth-scope", "mcp"].map(String::from),
            );
            command.extend(["--auth-jwks-file".to_string(), jwks_file.display().to_string()]);
        }
        command
    };

    let mut results: Runs = Vec::new();
    for rep in 1..=reps {
        for &server in &servers {
            // The load client's 2025 calls need sessions, which engines do not keep.
            for &era in eras.iter().filter(|&&era| server == Server::Native || era == Era::Modern) {
                for &count in &sessions {
                    for auth in [false, true] {
                        let options = HttpLoadOptions {
                            era,
                            sessions: count,
                            calls_per_session: (calls / count).max(20),
                            warmup_per_session: (warmup / count).max(2),
                            show_stderr,
                            bearer: auth.then(|| token.clone()),
                            ..HttpLoadOptions::default()
                        };
                        let command = match server {
                            Server::Native => serve(auth),
                            Server::Wrapped => engine(auth),
                        };
                        let result = run_http_load(&command, &options)
                            .with_context(|| format!("{}, {era:?}, {count} sessions, auth {auth}", server.name()))?;
                        eprintln!(
                            "rep {rep}/{reps} {server:?} {era:?} {count:>3} sessions auth={auth:<5}: {:>7.0} calls/s  cpu {:>5.1} µs/call",
                            result.calls_per_sec, result.cpu_us_per_call
                        );
                        let key = (server, era, count, auth);
                        match results.iter_mut().find(|(k, _)| *k == key) {
                            Some((_, runs)) => runs.push(result),
                            None => results.push((key, vec![result])),
                        }
                    }
                }
            }
        }
    }

    let verify = signature_check(&token, &decoding, alg)?;
    let summary = summarize(&results, &servers, &eras, &sessions, (alg, verify), calls, warmup, reps);
    std::fs::create_dir_all(&out_dir)?;
    std::fs::write(out_dir.join("summary.md"), &summary)?;
    let raw: Vec<_> = results
        .iter()
        .map(|((server, era, sessions, auth), runs)| {
            json!({ "server": server, "era": era, "sessions": sessions, "auth": auth, "runs": runs })
        })
        .collect();
    std::fs::write(out_dir.join("results.json"), serde_json::to_vec_pretty(&raw)?)?;
    let _ = std::fs::remove_dir_all(&work);
    print!("{summary}");
    eprintln!("wrote {}/{{summary.md,results.json}}", out_dir.display());
    Ok(())
}

/// A fresh key for `alg` (`ES256`, `RS256` or `EdDSA`): how tokens are
/// signed, how they are verified, and the JWKS that publishes it.
fn signing_key(alg: Algorithm) -> anyhow::Result<(EncodingKey, DecodingKey, JwkSet)> {
    let encoding = match alg {
        Algorithm::ES256 => {
            use p256::pkcs8::{EncodePrivateKey, LineEnding};
            let secret = p256::SecretKey::random(&mut rand_core::OsRng);
            EncodingKey::from_ec_pem(secret.to_pkcs8_pem(LineEnding::LF)?.as_bytes())?
        }
        Algorithm::RS256 => {
            use rsa::pkcs1::{EncodeRsaPrivateKey, LineEnding};
            let private = rsa::RsaPrivateKey::new(&mut rand_core::OsRng, 2048)?;
            EncodingKey::from_rsa_pem(private.to_pkcs1_pem(LineEnding::LF)?.as_bytes())?
        }
        Algorithm::EdDSA => {
            use ed25519_dalek::pkcs8::{EncodePrivateKey, KeypairBytes, spki::der::pem::LineEnding};
            let secret = ed25519_dalek::SigningKey::generate(&mut rand_core::OsRng);
            // PKCS#8 v1 (no public key inside), which jsonwebtoken reads.
            let pair = KeypairBytes { secret_key: secret.to_bytes(), public_key: None };
            EncodingKey::from_ed_pem(pair.to_pkcs8_pem(LineEnding::LF)?.as_bytes())?
        }
        other => anyhow::bail!("--alg {other:?}: ES256, RS256 or EdDSA"),
    };
    let mut jwk = Jwk::from_encoding_key(&encoding, alg)?;
    jwk.common.key_id = Some("bench".into());
    let decoding = DecodingKey::from_jwk(&jwk)?;
    Ok((encoding, decoding, JwkSet { keys: vec![jwk] }))
}

/// Median µs of one full check of `token` (header, signature, claims), as
/// the server runs it for a token it has not seen.
fn signature_check(token: &str, key: &DecodingKey, alg: Algorithm) -> anyhow::Result<f64> {
    let mut validation = Validation::new(alg);
    validation.set_issuer(&[ISSUER]);
    validation.validate_aud = false;
    validation.validate_nbf = true;
    let mut samples = Vec::new();
    for _ in 0..7 {
        let started = Instant::now();
        for _ in 0..500 {
            jsonwebtoken::decode::<serde_json::Value>(token, key, &validation)?;
        }
        samples.push(started.elapsed().as_secs_f64() * 1e6 / 500.0);
    }
    Ok(median(&samples))
}

#[allow(clippy::too_many_arguments)]
fn summarize(
    results: &Runs,
    servers: &[Server],
    eras: &[Era],
    sessions: &[usize],
    (alg, verify_us): (Algorithm, f64),
    calls: usize,
    warmup: usize,
    reps: usize,
) -> String {
    let runs = |key: (Server, Era, usize, bool)| {
        results.iter().find(|(k, _)| *k == key).map(|(_, r)| r.as_slice()).unwrap_or(&[])
    };
    let cpu = |r: &[HttpLoadResult]| r.iter().map(|r| r.cpu_us_per_call).collect::<Vec<_>>();
    let rate = |r: &[HttpLoadResult]| r.iter().map(|r| r.calls_per_sec).collect::<Vec<_>>();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Echo tool over Streamable HTTP on 127.0.0.1, the same binary without and with `--auth-issuer` \
         ({alg:?} tokens, keys from a JWKS file, one token per session reused for every call); median of {reps} \
         interleaved runs of {calls} calls (+{warmup} warm-up) per point. Server CPU is µs per call; the \
         difference is per call, of medians (in brackets: the smallest and largest per-run difference).\n"
    );
    if servers.contains(&Server::Wrapped) {
        let _ = writeln!(
            out,
            "`wrapped, wasmtime serve`: the same router behind the adapter (`mcp-wit wrap`) on `wasmtime serve \
             -Scli`, without and with the `MCP_WIT_AUTH_*` settings (the JWKS inline), 2026-07-28 requests \
             only (engines keep no sessions). Each request is an instance of its own, so every call checks its \
             token in full there.\n"
        );
    }
    let _ = writeln!(
        out,
        "| server | era | sessions | CPU without | CPU with | difference | calls/s without | calls/s with |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|---:|");
    for (&server, &era, &count) in servers
        .iter()
        .flat_map(|server| eras.iter().flat_map(move |era| sessions.iter().map(move |count| (server, era, count))))
    {
        {
            let (plain, auth) = (runs((server, era, count, false)), runs((server, era, count, true)));
            if plain.is_empty() || auth.is_empty() {
                continue;
            }
            let differences: Vec<f64> =
                plain.iter().zip(auth).map(|(p, a)| a.cpu_us_per_call - p.cpu_us_per_call).collect();
            let (low, high) = min_max(&differences);
            let label = match era {
                Era::Legacy => "2025-11-25 sessions",
                Era::Modern => "2026-07-28",
                Era::ModernTasks => "2026-07-28, declaring tasks",
            };
            let _ = writeln!(
                out,
                "| {} | {label} | {count} | {:.1} | {:.1} | {:+.1} ({low:+.1} to {high:+.1}) | {:.0} | {:.0} |",
                server.name(),
                median(&cpu(plain)),
                median(&cpu(auth)),
                median(&cpu(auth)) - median(&cpu(plain)),
                median(&rate(plain)),
                median(&rate(auth)),
            );
        }
    }
    let _ = writeln!(
        out,
        "\nA token not seen before is checked in full once (header, {alg:?} signature, claims): {verify_us:.1} µs \
         in process, median of 7 × 500."
    );
    out
}

#[cfg(test)]
mod tests {
    use mcp_wit_bench::cli::parse;

    use super::*;

    #[test]
    fn the_documented_runs() {
        let cli: Cli = parse("auth").unwrap();
        assert_eq!((cli.sessions, cli.calls, cli.warmup, cli.reps), (vec![1, 8, 64], 10_000, 1_000, 5));
        assert_eq!((cli.eras, cli.alg, cli.engine), (vec![Era::Legacy, Era::Modern], Algorithm::ES256, false));
        assert_eq!(cli.out, results::dated_dir("auth"));
        for (alg, expected) in [("ES256", Algorithm::ES256), ("RS256", Algorithm::RS256), ("EdDSA", Algorithm::EdDSA)] {
            let cli: Cli =
                parse(&format!("auth --engine --alg {alg} --sessions 1,8 --eras modern --reps 3 --calls 3000"))
                    .unwrap();
            assert_eq!((cli.alg, cli.engine, cli.sessions, cli.eras), (expected, true, vec![1, 8], vec![Era::Modern]));
            assert_eq!((cli.reps, cli.calls), (3, 3000));
        }
        let cli: Cli = parse("auth --warmup 10 --mcp-wit bin/mcp-wit --wasmtime bin/wasmtime --show-stderr").unwrap();
        assert_eq!(
            (cli.warmup, cli.mcp_wit, cli.wasmtime),
            (10, Some("bin/mcp-wit".into()), Some("bin/wasmtime".into()))
        );
        for line in ["auth extra", "auth -- server", "auth --alg HS999", "auth --no-build", "auth --eras legacy,future"]
        {
            assert!(parse::<Cli>(line).is_err(), "{line}");
        }
    }
}
