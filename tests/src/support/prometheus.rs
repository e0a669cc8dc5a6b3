//! A real Prometheus for tests: Debian's `prometheus` (2.42) on a loopback
//! port, scraping the given targets every second, with its storage in a
//! temporary directory; queried through its HTTP API.
//!
//! Prometheus hands a static target to its scrapers only after its
//! discovery manager's first update, some five seconds after it is ready:
//! wait with [`Prometheus::targets_up`] before expecting any sample.

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::process::start_until_ready;

/// Debian's binary.
const BINARY: &str = "/usr/bin/prometheus";

/// How long Prometheus may take to be ready, and its targets to be up.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// How often the `wait_*` helpers ask again.
const POLL: Duration = Duration::from_millis(250);

/// A running Prometheus, scraping job `mcp-wit`; killed when dropped (also
/// when a test panics).
pub struct Prometheus {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    url: String,
    /// How many targets the job scrapes.
    targets: usize,
    stderr: Arc<Mutex<String>>,
    http: reqwest::Client,
    _dir: tempfile::TempDir,
}

/// Why a start did not come up.
enum Failed {
    /// The port was taken between picking and binding it.
    PortTaken(String),
    /// Anything else (with what Prometheus said).
    Other(String),
}

impl Prometheus {
    /// Starts Prometheus scraping `targets` at `/metrics` every second
    /// (job `mcp-wit`), and waits until it is ready to answer queries.
    ///
    /// # Panics
    ///
    /// If `/usr/bin/prometheus` is missing (`apt-get install prometheus`),
    /// or it does not start: with its stderr.
    pub async fn start(targets: &[SocketAddr]) -> Prometheus {
        assert!(
            Path::new(BINARY).is_file(),
            "{BINARY} is missing: the telemetry tests need a real Prometheus (`apt-get install prometheus`)"
        );
        let dir = tempfile::tempdir().expect("a directory for Prometheus");
        let config = dir.path().join("prometheus.yml");
        std::fs::write(&config, config_text(targets)).expect("the Prometheus config");
        let http = reqwest::Client::builder().no_proxy().build().expect("an HTTP client");
        // A free port is only free when picked: another process may bind it
        // before Prometheus does. One more try on a new port covers that.
        let mut first = None;
        for attempt in 0..2 {
            match launch(&config, &dir.path().join(format!("data-{attempt}")), &http).await {
                Ok((child, url, stderr)) => {
                    return Prometheus { child, url, targets: targets.len(), stderr, http, _dir: dir };
                }
                Err(Failed::PortTaken(stderr)) if attempt == 0 => first = Some(stderr),
                Err(Failed::PortTaken(stderr) | Failed::Other(stderr)) => {
                    panic!(
                        "Prometheus did not start:\n{stderr}{}",
                        first.map(|f| format!("\n(an earlier try:)\n{f}")).unwrap_or_default()
                    )
                }
            }
        }
        unreachable!("the second try returns or panics")
    }

    /// `http://127.0.0.1:PORT`, its web UI and API.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// What Prometheus wrote to stderr so far (warnings and errors).
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// The `data.result` of the instant query `promql` at now: for a vector,
    /// an array of `{"metric": {labels}, "value": [time, "number"]}` (see
    /// [`value`]).
    ///
    /// # Panics
    ///
    /// If the query fails (bad PromQL, Prometheus gone): with the answer.
    pub async fn query(&self, promql: &str) -> Value {
        let mut url = reqwest::Url::parse(&format!("{}/api/v1/query", self.url)).unwrap();
        url.query_pairs_mut().append_pair("query", promql);
        let body = self.get(url.as_str()).await;
        let answer: Value =
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("query {promql:?}: not JSON ({e}): {body}"));
        assert_eq!(answer["status"], "success", "query {promql:?} failed: {body}");
        answer["data"]["result"].clone()
    }

    /// Queries `promql` every 250 ms until `predicate` holds for its result,
    /// and returns that result.
    ///
    /// # Panics
    ///
    /// If it still does not hold after `deadline` (a guard against hanging,
    /// not a measure of speed): with the last result.
    pub async fn wait_for(&self, promql: &str, predicate: impl Fn(&Value) -> bool, deadline: Duration) -> Value {
        let started = Instant::now();
        loop {
            let result = self.query(promql).await;
            if predicate(&result) {
                return result;
            }
            assert!(
                started.elapsed() < deadline,
                "{promql:?} did not come to hold in {deadline:?}; last result: {result}\nPrometheus stderr:\n{}",
                self.stderr()
            );
            tokio::time::sleep(POLL).await;
        }
    }

    /// Waits until Prometheus scrapes every target and the last scrape of
    /// each succeeded; returns the `activeTargets` of `/api/v1/targets`.
    ///
    /// # Panics
    ///
    /// If that takes longer than 30 s: with the targets' last state (its
    /// `lastError` says why a scrape failed).
    pub async fn targets_up(&self) -> Value {
        let started = Instant::now();
        loop {
            let body = self.get(&format!("{}/api/v1/targets?state=active", self.url)).await;
            let answer: Value =
                serde_json::from_str(&body).unwrap_or_else(|e| panic!("targets: not JSON ({e}): {body}"));
            let active = answer["data"]["activeTargets"].clone();
            let up = active.as_array().is_some_and(|targets| {
                targets.len() == self.targets && targets.iter().all(|target| target["health"] == "up")
            });
            if up {
                return active;
            }
            assert!(
                started.elapsed() < START_TIMEOUT,
                "the {} target(s) were not all up in {START_TIMEOUT:?}: {active}\nPrometheus stderr:\n{}",
                self.targets,
                self.stderr()
            );
            tokio::time::sleep(POLL).await;
        }
    }

    async fn get(&self, url: &str) -> String {
        let response = self.http.get(url).send().await.unwrap_or_else(|e| panic!("GET {url}: {e}"));
        response.text().await.unwrap_or_else(|e| panic!("GET {url}: reading the body: {e}"))
    }
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The number a sample of an instant vector holds (`value[1]`, a string in
/// the API's JSON), or a scalar result's.
///
/// # Panics
///
/// If `sample` is neither.
pub fn value(sample: &Value) -> f64 {
    let number = if sample.is_array() { &sample[1] } else { &sample["value"][1] };
    number.as_str().and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("not a sample: {sample}"))
}

/// The value of a result that is one sample (or a scalar); `None` for an
/// empty vector.
///
/// # Panics
///
/// If it holds more than one sample.
pub fn only_value(result: &Value) -> Option<f64> {
    match result.as_array().map(Vec::as_slice) {
        Some([]) => None,
        // A scalar: `[time, "number"]`.
        Some([time, _]) if time.is_number() => Some(value(result)),
        Some([sample]) => Some(value(sample)),
        _ => panic!("expected one sample: {result}"),
    }
}

/// The scrape configuration: one job, `mcp-wit`, scraping `targets` every
/// second (a scrape may not take longer than its interval).
fn config_text(targets: &[SocketAddr]) -> String {
    let targets: Vec<String> = targets.iter().map(|t| format!("'{t}'")).collect();
    format!(
        "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n\
         scrape_configs:\n  - job_name: mcp-wit\n    metrics_path: /metrics\n    static_configs:\n      \
         - targets: [{}]\n",
        targets.join(", ")
    )
}

/// Starts Prometheus on a free port and waits for `/-/ready`.
async fn launch(
    config: &Path,
    data: &Path,
    http: &reqwest::Client,
) -> Result<(Child, String, Arc<Mutex<String>>), Failed> {
    let port = super::engines::free_port();
    let mut command = Command::new(BINARY);
    command
        .arg(format!("--config.file={}", config.display()))
        .arg(format!("--storage.tsdb.path={}", data.display()))
        .arg(format!("--web.listen-address=127.0.0.1:{port}"))
        .arg("--log.level=warn");
    let url = format!("http://127.0.0.1:{port}");
    let ready = || async {
        http.get(format!("{url}/-/ready")).send().await.is_ok_and(|r| r.status() == reqwest::StatusCode::OK)
    };
    match start_until_ready(command, BINARY, START_TIMEOUT, ready).await {
        Ok((child, stderr)) => Ok((child, url, stderr)),
        Err(said) if said.contains("address already in use") => Err(Failed::PortTaken(said)),
        Err(said) => Err(Failed::Other(said)),
    }
}
