//! `serve --record` and `mcp-wit log`: the command line's side of `.mcp`
//! recordings (`mcp-wit-record`).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

use mcp_wit::transport::{MessageTap, Tap};
use mcp_wit_record::{Direction, RecordTap, Recorder, RecorderOptions, Transport};

/// A recording being made.
pub struct Recording {
    recorder: Recorder,
    path: PathBuf,
}

/// The transport's tap into a [`Recorder`].
struct RecordingTap(RecordTap);

impl MessageTap for RecordingTap {
    fn received(&self, session: &str, message: &[u8]) {
        self.0.record(session, Direction::In, message);
    }

    fn sent(&self, session: &str, message: &[u8]) {
        self.0.record(session, Direction::Out, message);
    }
}

impl Recording {
    /// Starts recording to `path`: `transport` in its header; `secrets`
    /// and the arguments and results of `redact` never written.
    pub fn start(path: &Path, transport: Transport, secrets: Vec<String>, redact: Vec<String>) -> anyhow::Result<Self> {
        let options = RecorderOptions { secrets, redact_tools: redact, ..RecorderOptions::default() };
        let recorder = Recorder::start(path, &transport, options)
            .with_context(|| format!("cannot record to {} (--record)", path.display()))?;
        tracing::info!(file = %path.display(), "recording every message in and out");
        Ok(Recording { recorder, path: path.to_owned() })
    }

    /// The tap transports record through.
    /// Counts its drops in the metrics, when they are kept.
    pub fn count_drops(&self) {
        if let Some(metrics) = mcp_wit::telemetry::Metrics::global() {
            let tap = self.recorder.tap();
            metrics.counter(
                "mcp_wit_recording_dropped",
                "Messages left out of the recording because its writer fell behind",
                Box::new(move || tap.dropped() as i64),
            );
        }
    }

    pub fn tap(&self) -> Tap {
        Tap::new(RecordingTap(self.recorder.tap()))
    }

    /// Writes what is queued and says what the recording holds. Every tap
    /// must have been dropped.
    pub fn finish(self) -> anyhow::Result<()> {
        let summary = self.recorder.finish().with_context(|| format!("cannot finish {}", self.path.display()))?;
        if summary.dropped > 0 {
            tracing::warn!(
                file = %self.path.display(),
                written = summary.written,
                dropped = summary.dropped,
                "the recording is missing messages: its writer fell behind the server"
            );
        } else {
            tracing::info!(file = %self.path.display(), written = summary.written, "recording finished");
        }
        Ok(())
    }
}

#[derive(clap::Args)]
pub struct LogArgs {
    /// The recording (`serve --record FILE.mcp`).
    file: PathBuf,
}

/// `mcp-wit log`: the recording as JSON lines, one message per line with
/// its session, direction and time (microseconds since the Unix epoch).
pub fn log(args: LogArgs) -> anyhow::Result<()> {
    let bytes = std::fs::read(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?;
    let recording =
        mcp_wit_record::read(&bytes).with_context(|| format!("{} is not a readable recording", args.file.display()))?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for record in &recording.records {
        let line = serde_json::json!({
            "session": record.session,
            "direction": record.direction,
            "at": record.at_micros,
            "message": record.message,
        });
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    if let Some(offset) = recording.truncated_at {
        eprintln!(
            "mcp-wit log: {}: the last record, at byte {offset}, is incomplete (the server stopped while writing it) and was left out",
            args.file.display()
        );
    }
    Ok(())
}
