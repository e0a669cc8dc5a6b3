//! What an operator sees: metrics, traces, and what request logs hold.

use std::net::SocketAddr;

use serde::Deserialize;

use super::parse_addr;

/// What an operator sees of `serve` (`[telemetry]` in `mcp-wit.toml`).
#[derive(clap::Args, Debug, Default, Clone, Deserialize)]
#[serde(default, rename_all = "kebab-case", deny_unknown_fields)]
pub struct TelemetrySettings {
    /// Prometheus metrics: `on` (at `/metrics` on the HTTP listener, behind
    /// its `Host` checks and `--auth-issuer` token), `off`, or `HOST:PORT` (a
    /// listener of their own, also for stdio servers: no token, the HTTP
    /// listener's `--header-timeout` and `--allow-host`, at most 64
    /// connections) [default: on for an HTTP listener on a loopback
    /// address, else off].
    #[arg(long, value_name = "on|off|HOST:PORT", value_parser = parse_metrics)]
    #[serde(deserialize_with = "metrics")]
    pub metrics: Option<MetricsSetting>,
    /// Log one line per request at INFO: method, tool, component, session
    /// or caller, duration, outcome [default: true].
    #[arg(long, value_name = "true|false", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub log_requests: Option<bool>,
    /// Log each request's arguments and answer beside its line (at most 4 KiB
    /// of each; `--secret` values masked). Off by default: they may be
    /// personal data.
    #[arg(long, value_name = "true|false", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub log_arguments: Option<bool>,
    /// Export traces by OTLP (HTTP/protobuf) to this collector, e.g.
    /// `http://127.0.0.1:4318`; the standard `OTEL_EXPORTER_OTLP_*`,
    /// `OTEL_SERVICE_NAME` and `OTEL_TRACES_SAMPLER` variables apply
    /// [default: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else
    /// `OTEL_EXPORTER_OTLP_ENDPOINT`; none: no traces].
    #[arg(long, value_name = "URL")]
    // Traces are set up with the logs: the file's is read before the rest
    // (`ConfigFile::logging`).
    pub otlp_endpoint: Option<String>,
}

/// Where metrics are served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetricsSetting {
    /// At `/metrics` on the HTTP listener.
    On,
    /// Not kept.
    Off,
    /// On a listener of their own.
    At(SocketAddr),
}

impl TelemetrySettings {
    /// These settings where given, `lower`'s elsewhere.
    pub fn over(self, lower: TelemetrySettings) -> TelemetrySettings {
        TelemetrySettings {
            metrics: self.metrics.or(lower.metrics),
            log_requests: self.log_requests.or(lower.log_requests),
            log_arguments: self.log_arguments.or(lower.log_arguments),
            otlp_endpoint: self.otlp_endpoint.or(lower.otlp_endpoint),
        }
    }

    /// Where metrics go for a server listening on `http` (`None`: stdio).
    pub fn metrics_for(&self, http: Option<SocketAddr>) -> MetricsSetting {
        match (self.metrics, http) {
            (Some(setting), _) => setting,
            (None, Some(addr)) if addr.ip().is_loopback() => MetricsSetting::On,
            (None, _) => MetricsSetting::Off,
        }
    }
}

fn parse_metrics(text: &str) -> Result<MetricsSetting, String> {
    match text {
        "on" | "true" => Ok(MetricsSetting::On),
        "off" | "false" => Ok(MetricsSetting::Off),
        addr => parse_addr(addr).map(MetricsSetting::At).map_err(|e| format!("expected on, off or HOST:PORT: {e}")),
    }
}

fn metrics<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<MetricsSetting>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Given {
        Switch(bool),
        Text(String),
    }
    Ok(Some(match Given::deserialize(deserializer)? {
        Given::Switch(true) => MetricsSetting::On,
        Given::Switch(false) => MetricsSetting::Off,
        Given::Text(text) => parse_metrics(&text).map_err(serde::de::Error::custom)?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_are_a_switch_or_an_address() {
        assert_eq!(parse_metrics("on"), Ok(MetricsSetting::On));
        assert_eq!(parse_metrics("off"), Ok(MetricsSetting::Off));
        assert_eq!(parse_metrics("9464"), Ok(MetricsSetting::At("127.0.0.1:9464".parse().unwrap())));
        assert!(parse_metrics("nowhere:port").is_err());
        let loopback = Some("127.0.0.1:8080".parse().unwrap());
        let public = Some("0.0.0.0:8080".parse().unwrap());
        let unset = TelemetrySettings::default();
        assert_eq!(unset.metrics_for(loopback), MetricsSetting::On);
        assert_eq!(unset.metrics_for(public), MetricsSetting::Off);
        assert_eq!(unset.metrics_for(None), MetricsSetting::Off);
        let file: TelemetrySettings = toml::from_str("metrics = \"127.0.0.1:9464\"\nlog-arguments = true").unwrap();
        assert_eq!(file.metrics, Some(MetricsSetting::At("127.0.0.1:9464".parse().unwrap())));
        assert_eq!(file.log_arguments, Some(true));
        let file: TelemetrySettings = toml::from_str("metrics = false").unwrap();
        assert_eq!(file.metrics, Some(MetricsSetting::Off));
    }
}
