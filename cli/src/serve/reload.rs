//! Reloading what `serve` serves, on SIGHUP and (with `--watch`) when a
//! served file changes: loaded again, checked, then handed over.

use std::path::PathBuf;
use std::time::Duration;

use super::args::ServeArgs;
use super::load::{Resolve, SizedEngine, load_on};

/// Reloads what is served, on SIGHUP and (with `--watch`) when its files
/// change: everything is loaded again on the same engine, compiled and
/// checked (instantiated, its tools, prompts and resources listed, its names
/// checked for collisions) before it replaces what runs; a version that fails any of
/// that is logged and the running one keeps serving. Settings of the
/// transport and the engine (address, limits on sessions, the pool) stay
/// as they started: they need a restart.
pub(super) struct Reload {
    args: ServeArgs,
    engine: SizedEngine,
    sources: Vec<PathBuf>,
    /// The sources' modification times when they were loaded: taken here,
    /// not when the watching task first runs, so a change made before that
    /// task is scheduled is still a change.
    seen: Vec<Option<std::time::SystemTime>>,
    /// What the recording and the logged arguments (if any) keep out: a
    /// reload may not add to it.
    secrets: Vec<String>,
    /// `--watch` (or `watch` in the file, as it was at the start).
    watch: bool,
    /// How the components were resolved at the start.
    resolve: Resolve,
    /// Modification times seen changed at the last look, not yet reloaded:
    /// a file still being written (a build that writes in place) is
    /// reloaded once it has stopped changing for one look.
    changing: Option<Vec<Option<std::time::SystemTime>>>,
}

/// How often `--watch` looks at the served files: a `stat` of each.
const WATCH_EVERY: Duration = Duration::from_millis(250);

impl Reload {
    pub(super) fn new(
        args: ServeArgs,
        engine: SizedEngine,
        sources: Vec<PathBuf>,
        secrets: Vec<String>,
        watch: bool,
        resolve: Resolve,
    ) -> Reload {
        let seen = modified(&sources);
        Reload { args, engine, sources, seen, secrets, watch, resolve, changing: None }
    }

    /// Reloads on SIGHUP and, with `--watch`, when a served file changes;
    /// each version that loads and lists is handed to `replace`.
    pub(super) async fn run(mut self, replace: Box<dyn Fn(mcp_wit::Routers) + Send>) {
        #[cfg(unix)]
        let mut hangup = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()) {
            Ok(signal) => Some(signal),
            Err(e) => {
                tracing::warn!("cannot listen for SIGHUP: {e}");
                None
            }
        };
        let mut ticker = tokio::time::interval(WATCH_EVERY);
        loop {
            #[cfg(unix)]
            let signalled = async {
                match &mut hangup {
                    Some(signal) => signal.recv().await,
                    None => std::future::pending().await,
                }
            };
            #[cfg(not(unix))]
            let signalled = std::future::pending::<Option<()>>();
            tokio::select! {
                _ = signalled => tracing::info!("SIGHUP received: reloading"),
                _ = ticker.tick(), if self.watch => {
                    let now = modified(&self.sources);
                    if now == self.seen {
                        self.changing = None;
                        continue;
                    }
                    // Changed since the last look too: still being written.
                    if self.changing.as_ref() != Some(&now) {
                        self.changing = Some(now);
                        continue;
                    }
                    self.changing = None;
                    self.seen = now;
                    tracing::info!("a served file changed: reloading");
                }
            }
            let (args, engine, resolve) = (self.args.clone(), self.engine.clone(), self.resolve);
            let checked = move || {
                let loaded = load_on(&args, Some(engine), resolve)?;
                // Everything the new version lists, asked now: a version that
                // cannot list is refused, and sessions that move to it compare
                // their lists with this.
                mcp_wit::block_on(loaded.routers.listing(mcp_wit::CallMode::Blocking))?;
                anyhow::Ok(loaded)
            };
            match tokio::task::spawn_blocking(checked).await {
                Ok(Ok(loaded)) if loaded.secrets.iter().any(|secret| !self.secrets.contains(secret)) => {
                    reloaded(false);
                    tracing::error!(
                        "the reload failed; the running version keeps serving: it brings secrets the recording \
                         or the logged arguments (--log-arguments) started without, which they would not mask \
                         (restart to serve it)"
                    );
                }
                Ok(Ok(loaded)) => {
                    reloaded(true);
                    self.sources = loaded.sources;
                    self.seen = modified(&self.sources);
                    replace(loaded.routers);
                }
                Ok(Err(e)) => {
                    reloaded(false);
                    tracing::error!("the reload failed; the running version keeps serving: {e:#}")
                }
                Err(e) => tracing::error!("the reload failed; the running version keeps serving: {e}"),
            }
        }
    }
}

/// When each file was last modified (`None`: it cannot be read).
/// Counts a reload's outcome, when metrics are kept.
fn reloaded(loaded: bool) {
    if let Some(metrics) = mcp_wit::telemetry::Metrics::global() {
        metrics.reloaded(loaded);
    }
}

fn modified(paths: &[PathBuf]) -> Vec<Option<std::time::SystemTime>> {
    paths.iter().map(|path| std::fs::metadata(path).and_then(|m| m.modified()).ok()).collect()
}
