//! Logging, for the binary only (the library just emits `tracing` events):
//! lines on stderr, text or JSON, and traces for a collector when asked.

use mcp_wit::telemetry::RequestLines;
use tracing_subscriber::Layer;
use tracing_subscriber::layer::Layered;

/// The log lines' layer, over the registry.
type Lines = Box<dyn Layer<tracing_subscriber::Registry> + Send + Sync>;

/// A layer over the log lines' (traces exported by OTLP: `crate::telemetry`).
/// Given, not made here: the serving executable links no exporter.
pub type Traces = Box<dyn Layer<Layered<Lines, tracing_subscriber::Registry>> + Send + Sync>;

/// `--log-format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LogFormat {
    Text,
    Json,
}

/// Logs on stderr (text or JSON lines) and, when given, `traces`.
pub fn init(verbose: u8, format: LogFormat, quiet: bool, traces: Option<Traces>) {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;

    use tracing_subscriber::filter::{LevelFilter, Targets};

    let default = match (verbose, quiet) {
        (0, true) => LevelFilter::WARN,
        (0, false) => LevelFilter::INFO,
        (1, _) => LevelFilter::DEBUG,
        _ => LevelFilter::TRACE,
    };
    // `RUST_LOG` when set; else the library, its protocol core and this
    // binary (`mcp_wit` is a prefix of them all) at `default`, the rest at
    // warn. That one is a `Targets`, not an `EnvFilter`: parsing directives
    // builds regexes, a tenth of a cached start's CPU. sigstore warns of
    // every signature format it looks for and does not find (`.sig` layers
    // of an unsigned component); the verdict is this binary's to say:
    // errors only (`RUST_LOG=sigstore=warn` shows the rest).
    let (env, targets) = match tracing_subscriber::EnvFilter::try_from_default_env() {
        Ok(env) => (Some(env), None),
        Err(_) => (
            None,
            Some(
                Targets::new()
                    .with_target("mcp_wit", default)
                    .with_target("sigstore", LevelFilter::ERROR)
                    .with_default(LevelFilter::WARN),
            ),
        ),
    };
    let rust_log = env.is_some();
    // `--secret` values masked in every line, whatever quotes them (see
    // `serve`, which gives them as it loads them).
    let writer = || mcp_wit::redact::MaskedWriter(mcp_wit::stderr::writer());
    let logs = tracing_subscriber::fmt::layer().with_writer(writer).with_ansi(false);
    let logs: Lines = match format {
        // Escaped: a client's name or a guest's text cannot forge a line.
        LogFormat::Text => {
            let format = mcp_wit::telemetry::EscapedText(tracing_subscriber::fmt::format());
            logs.event_format(format).with_filter(env).with_filter(targets).boxed()
        }
        LogFormat::Json => {
            mcp_wit::stderr::set_json_lines(true);
            logs.json().flatten_event(true).with_filter(env).with_filter(targets).boxed()
        }
    };
    // Request lines are written straight in the text format when nothing
    // but that format would see them: no `RUST_LOG` (whose directives could
    // enable spans, whose context the line would then carry), no `-v`, no
    // tracer; and when it would write them (`mcp_wit` at INFO, not `-q`),
    // so that no line asks the subscriber.
    let direct =
        format == LogFormat::Text && !rust_log && verbose == 0 && traces.is_none() && default >= LevelFilter::INFO;
    REQUEST_LINES.set(if direct { RequestLines::Text } else { RequestLines::Events }).expect("logging is set up once");
    tracing_subscriber::registry().with(logs).with(traces).init();
}

static REQUEST_LINES: std::sync::OnceLock<RequestLines> = std::sync::OnceLock::new();

/// How the installed subscriber wants request lines written (events
/// before [`init`]).
pub fn request_lines() -> RequestLines {
    REQUEST_LINES.get().copied().unwrap_or_default()
}
