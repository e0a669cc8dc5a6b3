//! Serving what was loaded: the recording, the metrics listener, then the
//! transport (HTTP, or stdio with or without `--watch`) until it ends.

use std::time::Duration;

use anyhow::Context;

use mcp_wit::transport::{http, stdio};
use mcp_wit::{Deployment, Session, StdioOptions};

use super::args::ServeArgs;
use super::load::{Loaded, load};
use super::open_files;
use super::reload::Reload;
use crate::record::Recording;
use crate::settings::MetricsSetting;

pub fn serve(args: ServeArgs) -> anyhow::Result<()> {
    open_files::raise_to_hard_limit();
    let Loaded { routers, engine, sources, session_options, http_options, max_message_size, settings, secrets } =
        load(&args)?;
    let recording = match &settings.record {
        Some(path) => {
            let transport = match &http_options {
                Some(options) => mcp_wit_record::Transport::Http {
                    url: format!("http://{}/mcp", options.addr),
                    headers: Vec::new(),
                    reconnect_ms: http::SSE_RETRY_MS,
                },
                None => mcp_wit_record::Transport::Stdio { buffer_size: stdio::READ_BUFFER_SIZE as u32 },
            };
            Some(Recording::start(path, transport, secrets.clone(), settings.record_redact.clone())?)
        }
        None => None,
    };
    match settings.telemetry.metrics_for(http_options.as_ref().map(|o| o.addr)) {
        MetricsSetting::At(addr) => {
            // The MCP listener's header timeout and allowed names, where
            // there is one.
            let mut options = http::MetricsListenerOptions::new(addr);
            if let Some(http) = &http_options {
                options.header_timeout = http.header_timeout;
                options.allow_hosts = http.allow_hosts.clone();
                options.allow_origins = http.allow_origins.clone();
            }
            http::serve_metrics(options)?;
        }
        MetricsSetting::On if http_options.is_none() => tracing::warn!(
            "metrics are kept but not served: a stdio server serves them on a listener of their own \
             (--metrics HOST:PORT)"
        ),
        MetricsSetting::On | MetricsSetting::Off => {}
    }
    if let Some(metrics) = mcp_wit::telemetry::Metrics::global() {
        engine.budget.report_to(metrics);
        mcp_wit::runtime::engine::report_pool_to(&engine.engine, metrics);
    }
    if let Some(recording) = &recording {
        recording.count_drops();
    }
    let tap = recording.as_ref().map(Recording::tap);
    let watch = settings.watch == Some(true);
    let http = http_options.is_some();
    let served = match http_options {
        Some(options) => {
            let reload = Reload::new(args.clone(), engine, sources, secrets, watch);
            http::serve_http_with(routers, session_options, options.tap(tap), |reloader| {
                tokio::spawn(reload.run(Box::new(move |routers| reloader.replace(routers))));
            })
            .context("HTTP transport failed")
        }
        None if watch => {
            // The client's one session follows the files: each rebuild
            // replaces its routers (and their state) at once, and the client
            // hears which lists changed.
            let deployment = Deployment::new(routers);
            let (session_options, tasks) = stdio_tasks(&settings, &deployment.routers(), session_options)?;
            let mut session = Session::following(&deployment, session_options);
            let reload = Reload::new(args.clone(), engine, sources, secrets, watch);
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
        None => {
            let (session_options, tasks) = stdio_tasks(&settings, &routers, session_options)?;
            let mut session = Session::new(routers, session_options);
            let options = StdioOptions { max_message_size, tap, reload_poll: None, tasks };
            stdio::serve_stdio(&mut session, &options).context("stdio transport failed")
        }
    };
    if let Some(recording) = recording {
        recording.finish()?;
    }
    // The client closed the connection: what compiles in the background
    // goes into the cache, for the next start.
    if !http {
        mcp_wit::runtime::finish_optimising();
    }
    served
}

/// How often an idle stdio connection under `--watch` looks for a reload.
const WATCH_POLL: Duration = Duration::from_millis(250);

/// The tasks of a stdio connection, as `[tasks]` and the flags say, and the
/// session's options advertising them (`None`: no tasks). A call that may
/// become one runs on routers of its own, made from `routers`.
fn stdio_tasks(
    settings: &crate::settings::ServeSettings,
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
