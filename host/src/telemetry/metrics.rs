//! The server's metrics, in the Prometheus text format and OpenMetrics.
//!
//! Named after OpenTelemetry's MCP conventions where they define something
//! (`mcp.server.operation.duration` is `mcp_server_operation_duration_seconds`
//! here, its attributes labels with `_` for `.`, as OpenTelemetry's own
//! Prometheus exporter names them), and `mcp_wit_*` for the runtime's own.
//! Labels come from the routers (tool and prompt names they list, their
//! components' labels) and from fixed sets, never from what a client sends,
//! so their number stays bounded.
//!
//! One set per process, installed by [`Metrics::install`]: the runtime, the
//! transports and the observer record into it from wherever they are,
//! through [`Metrics::global`], and record nothing while none is installed.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};

use mcp_wit_protocol::observe::ErrorType;

use crate::sync::lock;

pub use super::refusal::Refusal;

/// The buckets OpenTelemetry's MCP conventions give its duration histograms,
/// in seconds.
pub const DURATION_BUCKETS: [f64; 14] =
    [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0];

/// Finer buckets for instantiation, which takes micro- to milliseconds.
const INSTANTIATION_BUCKETS: [f64; 12] =
    [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0];

/// A metric's labels: names fixed here, values from the routers or fixed sets.
pub type Labels = Vec<(&'static str, String)>;

type Histograms = Family<Labels, Histogram, fn() -> Histogram>;

/// The format a scrape asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Prometheus text, version 0.0.4.
    PrometheusText,
    /// OpenMetrics text 1.0.
    OpenMetrics,
}

impl Format {
    /// The format an `Accept` header asks for: OpenMetrics when it names
    /// it, else Prometheus text.
    pub fn from_accept(accept: Option<&str>) -> Format {
        match accept {
            Some(accept) if accept.contains("application/openmetrics-text") => Format::OpenMetrics,
            _ => Format::PrometheusText,
        }
    }

    /// Its `Content-Type`.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::PrometheusText => "text/plain; version=0.0.4; charset=utf-8",
            Format::OpenMetrics => "application/openmetrics-text; version=1.0.0; charset=utf-8",
        }
    }
}

/// What one component's instances count while they live: kept by the
/// runtime, read at each scrape.
#[derive(Debug)]
pub struct ComponentStats {
    label: String,
    live: AtomicI64,
    high_water: AtomicUsize,
}

impl ComponentStats {
    /// The stats of the component labelled `label`, tracked by the installed
    /// metrics (if any) for as long as the component lives.
    pub fn tracked(label: &str) -> Arc<ComponentStats> {
        let stats = Arc::new(ComponentStats {
            label: label.to_owned(),
            live: AtomicI64::new(0),
            high_water: AtomicUsize::new(0),
        });
        if let Some(metrics) = Metrics::global() {
            lock(&metrics.sources.components).push(Arc::downgrade(&stats));
        }
        stats
    }

    /// An instance was made.
    pub fn instance_made(&self) {
        self.live.fetch_add(1, Ordering::Relaxed);
    }

    /// An instance was dropped.
    pub fn instance_dropped(&self) {
        self.live.fetch_sub(1, Ordering::Relaxed);
    }

    /// An instance now holds `bytes` of memory.
    pub fn memory_held(&self, bytes: usize) {
        self.high_water.fetch_max(bytes, Ordering::Relaxed);
    }
}

/// A value read at each scrape.
pub type Reading = Box<dyn Fn() -> i64 + Send + Sync>;

/// A family of gauges read at each scrape: each series' label value and
/// reading (one label, named where the family is added).
pub type FamilyReading = Box<dyn Fn() -> Vec<(&'static str, i64)> + Send + Sync>;

/// Bounds of the task-duration histogram, in seconds: tasks run from
/// seconds to hours.
const TASK_BUCKETS: [f64; 12] = [0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0, 1800.0, 3600.0, 14400.0];

/// A metric read at each scrape: its name, help, unit, type and reading.
struct ReadAtScrape {
    name: &'static str,
    help: &'static str,
    unit: Option<Unit>,
    kind: MetricType,
    read: Reading,
}

/// What is read rather than recorded: the components' instances and
/// memory, and the gauges the transports and the CLI add.
#[derive(Default)]
struct Sources {
    components: Mutex<Vec<Weak<ComponentStats>>>,
    gauges: Mutex<Vec<ReadAtScrape>>,
    families: Mutex<Vec<FamilyAtScrape>>,
}

/// A labelled gauge family read at each scrape.
struct FamilyAtScrape {
    name: &'static str,
    help: &'static str,
    label: &'static str,
    read: FamilyReading,
}

impl std::fmt::Debug for Sources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sources").finish_non_exhaustive()
    }
}

impl Collector for Sources {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        // Several versions of one component (a reload) are one series.
        let mut by_label: Vec<(String, i64, usize)> = Vec::new();
        lock(&self.components).retain(|weak| {
            let Some(stats) = weak.upgrade() else { return false };
            let live = stats.live.load(Ordering::Relaxed);
            let high = stats.high_water.load(Ordering::Relaxed);
            match by_label.iter_mut().find(|(label, ..)| *label == stats.label) {
                Some(entry) => {
                    entry.1 += live;
                    entry.2 = entry.2.max(high);
                }
                None => by_label.push((stats.label.clone(), live, high)),
            }
            true
        });
        let mut live = encoder.encode_descriptor(
            "mcp_wit_instances",
            "Guest instances alive, per component",
            None,
            MetricType::Gauge,
        )?;
        for (label, count, _) in &by_label {
            let labels: Labels = vec![("component", label.clone())];
            ConstGauge::new(*count).encode(live.encode_family(&labels)?)?;
        }
        let mut high = encoder.encode_descriptor(
            "mcp_wit_instance_memory_high_water",
            "The most memory one instance of the component has held",
            Some(&Unit::Bytes),
            MetricType::Gauge,
        )?;
        for (label, _, bytes) in &by_label {
            let labels: Labels = vec![("component", label.clone())];
            ConstGauge::new(*bytes as i64).encode(high.encode_family(&labels)?)?;
        }
        for ReadAtScrape { name, help, unit, kind, read } in lock(&self.gauges).iter() {
            let value = read();
            let metric = encoder.encode_descriptor(name, help, unit.as_ref(), *kind)?;
            match kind {
                MetricType::Counter => {
                    prometheus_client::metrics::counter::ConstCounter::new(value.max(0) as u64).encode(metric)?
                }
                _ => ConstGauge::new(value).encode(metric)?,
            }
        }
        for FamilyAtScrape { name, help, label, read } in lock(&self.families).iter() {
            let mut family = encoder.encode_descriptor(name, help, None, MetricType::Gauge)?;
            for (value, reading) in read() {
                let labels: Labels = vec![(*label, value.to_owned())];
                ConstGauge::new(reading).encode(family.encode_family(&labels)?)?;
            }
        }
        Ok(())
    }
}

/// The registry's handle on [`Sources`], which the recorders share.
#[derive(Debug)]
struct SharedSources(Arc<Sources>);

impl Collector for SharedSources {
    fn encode(&self, encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        self.0.encode(encoder)
    }
}

/// What labels a request's duration: the fields of
/// [`Metrics::operation_by_key`]'s label set, borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OperationKey<'a> {
    /// `mcp.method.name` (`_OTHER` for a method not served).
    pub method: &'static str,
    /// `gen_ai.tool.name` or `gen_ai.prompt.name`, with which of the two.
    pub target: Option<(TargetLabel, &'a str)>,
    /// `error.type`.
    pub error: Option<ErrorType>,
    /// `mcp.protocol.version`.
    pub version: Option<&'static str>,
    /// `network.transport`.
    pub transport: &'static str,
}

/// Which name labels a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetLabel {
    /// `gen_ai.tool.name`.
    Tool,
    /// `gen_ai.prompt.name`.
    Prompt,
}

impl OperationKey<'_> {
    fn labels(&self) -> Labels {
        let mut labels: Labels = Vec::with_capacity(5);
        labels.push(("mcp_method_name", self.method.to_owned()));
        match self.target {
            Some((TargetLabel::Tool, name)) => labels.push(("gen_ai_tool_name", name.to_owned())),
            Some((TargetLabel::Prompt, name)) => labels.push(("gen_ai_prompt_name", name.to_owned())),
            None => {}
        }
        if let Some(error) = self.error {
            labels.push(("error_type", error.to_string()));
        }
        if let Some(version) = self.version {
            labels.push(("mcp_protocol_version", version.to_owned()));
        }
        labels.push(("network_transport", self.transport.to_owned()));
        labels
    }
}

/// An [`OperationKey`] kept.
struct OwnedKey {
    method: &'static str,
    target: Option<(TargetLabel, Box<str>)>,
    error: Option<ErrorType>,
    version: Option<&'static str>,
    transport: &'static str,
}

impl OwnedKey {
    fn is(&self, key: &OperationKey<'_>) -> bool {
        self.method == key.method
            && self.error == key.error
            && self.version == key.version
            && self.transport == key.transport
            && match (&self.target, key.target) {
                (Some((kind, name)), Some((other, given))) => *kind == other && **name == *given,
                (None, None) => true,
                _ => false,
            }
    }
}

impl From<&OperationKey<'_>> for OwnedKey {
    fn from(key: &OperationKey<'_>) -> Self {
        OwnedKey {
            method: key.method,
            target: key.target.map(|(kind, name)| (kind, name.into())),
            error: key.error,
            version: key.version,
            transport: key.transport,
        }
    }
}

/// How many histograms each thread keeps at hand.
const RECENT_KEPT: usize = 16;

thread_local! {
    /// This thread's recent histograms: the family's address, the key, the handle.
    static RECENT: std::cell::RefCell<Vec<(usize, OwnedKey, Histogram)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The process's metrics.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    operation: Histograms,
    session: Histograms,
    instantiation: Histograms,
    tasks: Histograms,
    faults: Family<Labels, Counter>,
    refused: Family<Labels, Counter>,
    reloads: Family<Labels, Counter>,
    sources: Arc<Sources>,
}

static GLOBAL: OnceLock<Arc<Metrics>> = OnceLock::new();

impl Metrics {
    /// Installs the process's metrics (once; later calls return the same).
    /// Components loaded before are not tracked: install first.
    pub fn install() -> Arc<Metrics> {
        GLOBAL.get_or_init(|| Arc::new(Metrics::new())).clone()
    }

    /// The installed metrics, if any.
    pub fn global() -> Option<&'static Arc<Metrics>> {
        GLOBAL.get()
    }

    fn new() -> Metrics {
        let histograms: fn() -> Histogram = || Histogram::new(DURATION_BUCKETS);
        let instantiations: fn() -> Histogram = || Histogram::new(INSTANTIATION_BUCKETS);
        let tasks: fn() -> Histogram = || Histogram::new(TASK_BUCKETS);
        let mut metrics = Metrics {
            registry: Registry::default(),
            operation: Family::new_with_constructor(histograms),
            session: Family::new_with_constructor(histograms),
            instantiation: Family::new_with_constructor(instantiations),
            tasks: Family::new_with_constructor(tasks),
            faults: Family::default(),
            refused: Family::default(),
            reloads: Family::default(),
            sources: Arc::new(Sources::default()),
        };
        let registry = &mut metrics.registry;
        registry.register_with_unit(
            "mcp_server_operation_duration",
            "MCP requests served, by method, tool or prompt, outcome, revision and transport",
            Unit::Seconds,
            metrics.operation.clone(),
        );
        registry.register_with_unit(
            "mcp_server_session_duration",
            "2025 sessions, from initialize to their end",
            Unit::Seconds,
            metrics.session.clone(),
        );
        registry.register_with_unit(
            "mcp_wit_instantiation_duration",
            "Time to make a guest instance, per component",
            Unit::Seconds,
            metrics.instantiation.clone(),
        );
        registry.register_with_unit(
            "mcp_wit_task_duration",
            "Tasks (2026-07-28 tasks extension), from creation to their end, by how they ended",
            Unit::Seconds,
            metrics.tasks.clone(),
        );
        registry.register(
            "mcp_wit_guest_faults",
            "Guest calls that did not return, by component and kind (trap, deadline, memory, output_cap, instantiate)",
            metrics.faults.clone(),
        );
        registry.register(
            "mcp_wit_requests_refused",
            "Requests and connections turned away before any guest ran, by reason",
            metrics.refused.clone(),
        );
        registry.register("mcp_wit_reloads", "Reloads, by outcome (success, failure)", metrics.reloads.clone());
        registry.register_collector(Box::new(SharedSources(metrics.sources.clone())));
        metrics
    }

    /// Everything, in `format`.
    pub fn encode(&self, format: Format) -> String {
        let mut text = String::with_capacity(8 << 10);
        let encoded = match format {
            Format::OpenMetrics => prometheus_client::encoding::text::encode(&mut text, &self.registry),
            Format::PrometheusText => prometheus_client::encoding::prometheus_text::encode(&mut text, &self.registry),
        };
        if let Err(e) = encoded {
            // Writing to a String cannot fail; a metric that could not be
            // encoded says so rather than cutting the scrape short silently.
            let _ = writeln!(text, "# mcp-wit: encoding failed: {e}");
        }
        text
    }

    /// An MCP request served (`mcp.server.operation.duration`), under the
    /// labels `key` names, without building them: each thread keeps the histograms it recorded into last, so a
    /// request costs a comparison of a few fields and the observation, not
    /// a label set's allocations and hashing (measured: the labelled lookup
    /// was several percent of a small call's CPU).
    pub fn operation_by_key(&self, key: &OperationKey<'_>, duration: Duration) {
        let seconds = duration.as_secs_f64();
        let family = std::ptr::from_ref(&self.operation) as usize;
        RECENT.with_borrow_mut(|recent| {
            if let Some(position) = recent.iter().position(|(f, k, _)| *f == family && k.is(key)) {
                recent[position].2.observe(seconds);
                // Most recent first: a session's few keys stay at the front.
                recent[..=position].rotate_right(1);
                return;
            }
            let histogram = self.operation.get_or_create_owned(&key.labels());
            histogram.observe(seconds);
            if recent.len() == RECENT_KEPT {
                recent.pop();
            }
            recent.insert(0, (family, OwnedKey::from(key), histogram));
        });
    }

    /// A 2025 session ended (`mcp.server.session.duration`).
    pub fn session(&self, labels: &Labels, lasted: Duration) {
        self.session.get_or_create(labels).observe(lasted.as_secs_f64());
    }

    /// An instance of `component` was made in `took`.
    pub fn instantiated(&self, component: &str, took: Duration) {
        let labels: Labels = vec![("component", component.to_owned())];
        self.instantiation.get_or_create(&labels).observe(took.as_secs_f64());
    }

    /// A task ended `status` (completed, failed, cancelled) after `lasted`.
    pub fn task_ended(&self, status: &'static str, lasted: Duration) {
        self.tasks.get_or_create(&vec![("status", status.to_owned())]).observe(lasted.as_secs_f64());
    }

    /// A gauge family read at each scrape, one series per value of `label`;
    /// it replaces one of the same name.
    pub fn gauge_family(&self, name: &'static str, help: &'static str, label: &'static str, read: FamilyReading) {
        let mut families = lock(&self.sources.families);
        families.retain(|kept| kept.name != name);
        families.push(FamilyAtScrape { name, help, label, read });
    }

    /// A guest call of `component` failed with `kind`.
    pub fn fault(&self, component: &str, kind: &'static str) {
        let labels: Labels = vec![("component", component.to_owned()), ("kind", kind.to_owned())];
        self.faults.get_or_create(&labels).inc();
    }

    /// A request or connection was turned away.
    pub fn refused(&self, why: Refusal) {
        self.refused.get_or_create(&vec![("reason", why.as_str().to_owned())]).inc();
    }

    /// A reload ended, loaded or not.
    pub fn reloaded(&self, loaded: bool) {
        let outcome = if loaded { "success" } else { "failure" };
        self.reloads.get_or_create(&vec![("outcome", outcome.to_owned())]).inc();
    }

    /// A gauge read at each scrape (`name` without its unit suffix); it
    /// replaces one of the same name (a server started again in the process).
    pub fn gauge(&self, name: &'static str, help: &'static str, unit: Option<Unit>, read: Reading) {
        self.read_at_scrape(ReadAtScrape { name, help, unit, kind: MetricType::Gauge, read });
    }

    /// A counter read at each scrape (`name` without `_total`), as
    /// [`Metrics::gauge`].
    pub fn counter(&self, name: &'static str, help: &'static str, read: Reading) {
        self.read_at_scrape(ReadAtScrape { name, help, unit: None, kind: MetricType::Counter, read });
    }

    fn read_at_scrape(&self, source: ReadAtScrape) {
        let mut gauges = lock(&self.sources.gauges);
        gauges.retain(|kept| kept.name != source.name);
        gauges.push(source);
    }
}

/// Records a refusal, when metrics are installed.
pub fn refused(why: Refusal) {
    if let Some(metrics) = Metrics::global() {
        metrics.refused(why);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_formats_name_series_after_the_conventions() {
        let metrics = Metrics::new();
        let key = OperationKey {
            method: "tools/call",
            target: Some((TargetLabel::Tool, "echo")),
            error: None,
            version: None,
            transport: "pipe",
        };
        metrics.operation_by_key(&key, Duration::from_millis(3));
        metrics.fault("hostile", "trap");
        metrics.refused(Refusal::Overload);
        let text = metrics.encode(Format::PrometheusText);
        assert!(text.contains("# TYPE mcp_server_operation_duration_seconds histogram"), "{text}");
        assert!(
            text.contains(
                r#"mcp_server_operation_duration_seconds_bucket{mcp_method_name="tools/call",gen_ai_tool_name="echo",network_transport="pipe",le="0.01"} 1"#
            ),
            "{text}"
        );
        assert!(text.contains(r#"mcp_wit_guest_faults_total{component="hostile",kind="trap"} 1"#), "{text}");
        assert!(text.contains(r#"mcp_wit_requests_refused_total{reason="overload"} 1"#), "{text}");
        let open = metrics.encode(Format::OpenMetrics);
        assert!(open.ends_with("# EOF\n"), "{open}");
        assert!(open.contains("# UNIT mcp_server_operation_duration_seconds seconds"), "{open}");
    }

    #[test]
    fn a_key_records_into_the_series_its_labels_name() {
        let metrics = Metrics::new();
        let key = |tool: &'static str, error| OperationKey {
            method: "tools/call",
            target: Some((TargetLabel::Tool, tool)),
            error,
            version: Some("2025-11-25"),
            transport: "pipe",
        };
        for _ in 0..3 {
            metrics.operation_by_key(&key("echo", None), Duration::from_millis(1));
        }
        metrics.operation_by_key(&key("echo", Some(ErrorType::ToolError)), Duration::from_millis(1));
        metrics.operation_by_key(&key("other", None), Duration::from_millis(1));
        let text = metrics.encode(Format::PrometheusText);
        let count = |labels: &str| format!("mcp_server_operation_duration_seconds_count{{{labels}}}");
        let echo = r#"mcp_method_name="tools/call",gen_ai_tool_name="echo","#;
        assert!(
            text.contains(&format!(
                "{} 3",
                count(&format!(r#"{echo}mcp_protocol_version="2025-11-25",network_transport="pipe""#))
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "{} 1",
                count(&format!(
                    r#"{echo}error_type="tool_error",mcp_protocol_version="2025-11-25",network_transport="pipe""#
                ))
            )),
            "{text}"
        );
        assert!(text.contains(r#"gen_ai_tool_name="other""#), "{text}");
        // Another set of metrics on this thread keeps its own series.
        let other = Metrics::new();
        other.operation_by_key(&key("echo", None), Duration::from_millis(1));
        let text = other.encode(Format::PrometheusText);
        assert!(
            text.contains(&format!(
                "{} 1",
                count(&format!(r#"{echo}mcp_protocol_version="2025-11-25",network_transport="pipe""#))
            )),
            "{text}"
        );
    }

    #[test]
    fn component_stats_sum_over_versions_and_end_with_them() {
        let metrics = Metrics::new();
        let first = Arc::new(ComponentStats { label: "echo".into(), live: AtomicI64::new(2), high_water: 0.into() });
        let second =
            Arc::new(ComponentStats { label: "echo".into(), live: AtomicI64::new(1), high_water: 4096.into() });
        lock(&metrics.sources.components).extend([Arc::downgrade(&first), Arc::downgrade(&second)]);
        let text = metrics.encode(Format::PrometheusText);
        assert!(text.contains(r#"mcp_wit_instances{component="echo"} 3"#), "{text}");
        assert!(text.contains(r#"mcp_wit_instance_memory_high_water_bytes{component="echo"} 4096"#), "{text}");
        drop((first, second));
        let text = metrics.encode(Format::PrometheusText);
        assert!(!text.contains(r#"component="echo""#), "{text}");
    }
}
