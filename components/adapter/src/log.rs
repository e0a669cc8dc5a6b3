//! The protocol core's warnings on stderr: what `mcp-wit serve` logs (a
//! tool left out of `tools/list` and why, a structured result that breaks
//! its schema, a round refused, a request from a foreign Origin) is what an
//! operator needs on an engine too, which keeps a component's stderr as its
//! log.

/// Installs the log for this instance, once: warnings and errors, without
/// colours or timestamps (the engine's log has its own).
pub fn install() {
    // A second call (stdio and HTTP in one instance) keeps the first.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing::Level::WARN)
        .with_ansi(false)
        .without_time()
        .try_init();
}
