//! Log lines in text format that nobody else can write: a client's names
//! and methods, a guest's output and anything else quoted in a line have
//! their control characters escaped, so that a `\n` cannot start a forged
//! line of its own, nor a `\r` or an ANSI escape sequence rewrite earlier
//! lines on a terminal. (JSON lines escape them as JSON does.)

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;

use tracing::{Event, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

/// `text` with every control character (`\n`, `\r`, `\t`, ESC, the C1
/// controls) written as its Rust escape (`\n`, `\r`, `\u{1b}`).
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !may_hold_controls(text) || !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if c.is_control() {
            escaped.extend(c.escape_default());
        } else {
            escaped.push(c);
        }
    }
    Cow::Owned(escaped)
}

/// Whether `text` may hold a control character. Controls are ASCII below
/// 0x20 and 0x7f, or U+0080..=U+009F (0xc2 0x80..=0x9f in UTF-8): a byte
/// scan leaves the usual line as is (a fold, not `any`, so that it is
/// vectorised).
pub(super) fn may_hold_controls(text: &str) -> bool {
    text.bytes().fold(false, |seen, b| seen | (b < 0x20) | (b == 0x7f) | (b == 0xc2))
}

/// A text event format (`F`, e.g. `tracing_subscriber::fmt::format()`)
/// whose lines are escaped with [`escape_controls`]: one event, one line.
#[derive(Debug, Clone, Default)]
pub struct EscapedText<F>(pub F);

thread_local! {
    /// A line being formatted, before it is escaped (kept: one allocation
    /// per thread, not per line).
    static LINE: RefCell<String> = const { RefCell::new(String::new()) };
}

impl<S, N, F> FormatEvent<S, N> for EscapedText<F>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
    F: FormatEvent<S, N>,
{
    fn format_event(&self, ctx: &FmtContext<'_, S, N>, mut writer: Writer<'_>, event: &Event<'_>) -> fmt::Result {
        let mut escape = |line: &mut String| {
            line.clear();
            self.0.format_event(ctx, Writer::new(line), event)?;
            // The format ends the line with its newline: kept, the rest escaped.
            let (body, end) = match line.strip_suffix('\n') {
                Some(body) => (body, "\n"),
                None => (line.as_str(), ""),
            };
            writer.write_str(&escape_controls(body))?;
            writer.write_str(end)
        };
        // An event logged while one is formatted gets a buffer of its own.
        LINE.with(|line| match line.try_borrow_mut() {
            Ok(mut line) => escape(&mut line),
            Err(_) => escape(&mut String::new()),
        })
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_other_text_left_alone() {
        assert!(matches!(escape_controls("tools/call echo: ok in 0.10ms"), Cow::Borrowed(_)));
        assert!(matches!(escape_controls("é ü © — ✓"), Cow::Borrowed(_)));
        assert_eq!(escape_controls("a\nINFO forged\r\x1b[2Kz\t\u{9b}"), "a\\nINFO forged\\r\\u{1b}[2Kz\\t\\u{9b}");
        assert_eq!(escape_controls("\x7f"), "\\u{7f}");
    }

    /// What the binary's text format (escaped, no ANSI colours) writes of
    /// the events `log` emits.
    pub(in crate::telemetry) fn written_as_text(log: impl FnOnce()) -> String {
        use std::sync::{Arc, Mutex};
        use tracing_subscriber::layer::SubscriberExt;

        #[derive(Clone, Default)]
        struct Lines(Arc<Mutex<Vec<u8>>>);
        impl std::io::Write for Lines {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let lines = Lines::default();
        let sink = lines.clone();
        let layer = tracing_subscriber::fmt::layer()
            .with_writer(move || sink.clone())
            .with_ansi(false)
            .event_format(EscapedText(tracing_subscriber::fmt::format()));
        tracing::subscriber::with_default(tracing_subscriber::registry().with(layer), log);
        String::from_utf8(lines.0.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn an_event_is_one_line_whatever_its_text() {
        let written = written_as_text(|| {
            let name = "x\n2026-11-28T00:00:00Z ERROR forged\r\x1b[1A";
            tracing::info!(client = %name, "tools/call {name}: ok");
        });
        assert_eq!(written.lines().count(), 1, "{written}");
        assert!(written.ends_with('\n') && !written.contains('\r') && !written.contains('\x1b'), "{written:?}");
        // (The message's ESC is tracing-subscriber's to escape, as `\x1b`.)
        assert!(written.contains("tools/call x\\n2026-11-28T00:00:00Z ERROR forged\\r\\x1b[1A: ok"), "{written}");
        assert!(written.contains(r"client=x\n2026-11-28T00:00:00Z ERROR forged\r\u{1b}[1A"), "{written}");
    }
}
