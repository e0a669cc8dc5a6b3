//! Serving what was loaded: the recording, the metrics listener, then the
//! transport (HTTP, or stdio with or without `--watch`) until it ends.

use std::time::Duration;

use anyhow::Context;

use mcp_wit::transport::{http, stdio};
use mcp_wit::{Deployment, HttpOptions, Session, StdioOptions};

use super::args::ServeArgs;
use super::load::{Loaded, Resolve, SizedEngine, load};
use super::open_files;
use super::reload::Reload;
use crate::record::Recording;
use crate::registry::RegistryArgs;
use crate::settings::{MetricsSetting, ServeSettings};

/// `mcp-wit serve`: over HTTP or stdio, as the flags and the file say.
pub fn serve(args: ServeArgs) -> anyhow::Result<()> {
    open_files::raise_to_hard_limit();
    let resolve: Resolve = RegistryArgs::resolve_checked;
    let mut loaded = load(&args, resolve)?;
    let http_options = loaded.http_options.take();
    if let MetricsSetting::At(addr) = loaded.settings.telemetry.metrics_for(http_options.as_ref().map(|o| o.addr)) {
        serve_metrics(addr, http_options.as_ref())?;
    }
    match http_options {
        Some(options) => over_http(args, loaded, options, resolve),
        None => over_stdio(args, loaded, resolve),
    }
}

/// What `mcp-wit-serve` serves over stdio alone, its components resolved
/// with `resolve`: loaded, nothing read yet. What it does not serve (HTTP,
/// a metrics listener) was handed to `mcp-wit serve` before this.
pub fn load_for_stdio(args: &ServeArgs, resolve: Resolve) -> anyhow::Result<Loaded> {
    open_files::raise_to_hard_limit();
    let loaded = load(args, resolve)?;
    anyhow::ensure!(
        loaded.http_options.is_none() && !matches!(loaded.settings.telemetry.metrics_for(None), MetricsSetting::At(_)),
        "mcp-wit-serve serves over stdio alone: serve over HTTP, or with a metrics listener, with `mcp-wit serve`"
    );
    Ok(loaded)
}

/// The metrics listener at `addr`, with the MCP listener's header timeout
/// and allowed names where there is one (`http`).
fn serve_metrics(addr: std::net::SocketAddr, http: Option<&HttpOptions>) -> anyhow::Result<()> {
    let mut options = http::MetricsListenerOptions::new(addr);
    if let Some(http) = http {
        options.header_timeout = http.header_timeout;
        options.allow_hosts = http.allow_hosts.clone();
        options.allow_origins = http.allow_origins.clone();
    }
    http::serve_metrics(options)?;
    Ok(())
}

fn over_http(args: ServeArgs, loaded: Loaded, options: HttpOptions, resolve: Resolve) -> anyhow::Result<()> {
    let Loaded { routers, engine, sources, session_options, settings, secrets, .. } = loaded;
    let transport = mcp_wit_record::Transport::Http {
        url: format!("http://{}/mcp", options.addr),
        headers: Vec::new(),
        reconnect_ms: http::SSE_RETRY_MS,
    };
    report_engine(&engine);
    let recording = start_recording(&settings, transport, &secrets)?;
    let tap = recording.as_ref().map(Recording::tap);
    let reload = Reload::new(args, engine, sources, secrets, settings.watch == Some(true), resolve);
    let served = http::serve_http_with(routers, session_options, options.tap(tap), |reloader| {
        tokio::spawn(reload.run(Box::new(move |routers| reloader.replace(routers))));
    })
    .context("HTTP transport failed");
    finish(recording, served)
}

/// Serves `loaded` over stdio until the client closes it.
pub fn over_stdio(args: ServeArgs, loaded: Loaded, resolve: Resolve) -> anyhow::Result<()> {
    let Loaded { routers, engine, sources, session_options, max_message_size, settings, secrets, .. } = loaded;
    if settings.telemetry.metrics_for(None) == MetricsSetting::On {
        tracing::warn!(
            "metrics are kept but not served: a stdio server serves them on a listener of their own \
             (--metrics HOST:PORT)"
        );
    }
    let transport = mcp_wit_record::Transport::Stdio { buffer_size: stdio::READ_BUFFER_SIZE as u32 };
    report_engine(&engine);
    let recording = start_recording(&settings, transport, &secrets)?;
    let tap = recording.as_ref().map(Recording::tap);
    let served = match settings.watch == Some(true) {
        true => {
            // The client's one session follows the files: each rebuild
            // replaces its routers (and their state) at once, and the client
            // hears which lists changed.
            let deployment = Deployment::new(routers);
            let (session_options, tasks) = stdio_tasks(&settings, &deployment.routers(), session_options)?;
            let mut session = Session::following(&deployment, session_options);
            let reload = Reload::new(args, engine, sources, secrets, true, resolve);
            std::thread::Builder::new().name("mcp-wit-watch".into()).spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build();
                match runtime {
                    Ok(runtime) => runtime.block_on(reload.run(Box::new(move |routers| {
                        let generation = deployment.replace(routers);
                        tracing::info!(generation, "the connection moves to the reloaded routers");
                    }))),
                    Err(e) => tracing::error!("cannot watch the served files: {e}"),
                }
            })?;
            let options = StdioOptions { max_message_size, tap, reload_poll: Some(WATCH_POLL), tasks };
            stdio::serve_stdio(&mut session, &options).context("stdio transport failed")
        }
        false => {
            let (session_options, tasks) = stdio_tasks(&settings, &routers, session_options)?;
            let mut session = Session::new(routers, session_options);
            let options = StdioOptions { max_message_size, tap, reload_poll: None, tasks };
            stdio::serve_stdio(&mut session, &options).context("stdio transport failed")
        }
    };
    // The client closed the connection: what compiles in the background
    // goes into the cache, for the next start.
    #[cfg(feature = "compiler")]
    mcp_wit::runtime::finish_optimising();
    finish(recording, served)
}

/// The engine's memory and pool, reported to the metrics when they are kept.
fn report_engine(engine: &SizedEngine) {
    if let Some(metrics) = mcp_wit::telemetry::Metrics::global() {
        engine.budget.report_to(metrics);
        mcp_wit::runtime::engine::report_pool_to(&engine.engine, metrics);
    }
}

/// The recording `--record` asks for, if any, of a server on `transport`
/// (its drops counted when metrics are kept).
fn start_recording(
    settings: &ServeSettings,
    transport: mcp_wit_record::Transport,
    secrets: &[String],
) -> anyhow::Result<Option<Recording>> {
    let recording = match &settings.record {
        Some(path) => Some(Recording::start(path, transport, secrets.to_vec(), settings.record_redact.clone())?),
        None => None,
    };
    if let Some(recording) = &recording {
        recording.count_drops();
    }
    Ok(recording)
}

/// What the transport's end (`served`) leaves: the recording finished first.
fn finish(recording: Option<Recording>, served: anyhow::Result<()>) -> anyhow::Result<()> {
    if let Some(recording) = recording {
        recording.finish()?;
    }
    served
}

/// How often an idle stdio connection under `--watch` looks for a reload.
const WATCH_POLL: Duration = Duration::from_millis(250);

/// The tasks of a stdio connection, as `[tasks]` and the flags say, and the
/// session's options advertising them (`None`: no tasks). A call that may
/// become one runs on routers of its own, made from `routers`.
fn stdio_tasks(
    settings: &ServeSettings,
    routers: &mcp_wit::Routers,
    mut session_options: mcp_wit::SessionOptions,
) -> anyhow::Result<(mcp_wit::SessionOptions, Option<std::sync::Arc<mcp_wit::transport::StdioTasks>>)> {
    let Some(options) = settings.tasks.options().map_err(anyhow::Error::msg)? else {
        return Ok((session_options, None));
    };
    session_options.serve_tasks = true;
    let tasks = mcp_wit::transport::StdioTasks::new(options, routers.clone(), session_options.clone())
        .context("the tasks of the stdio connection")?;
    Ok((session_options, Some(std::sync::Arc::new(tasks))))
}
