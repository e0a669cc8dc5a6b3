//! A request's log line: as a `tracing` event, or written straight onto
//! stderr in the text format that event would have been given.
//!
//! `tracing_subscriber::fmt` formats an event generically: a visitor per
//! field, `Debug` through `dyn` formatters, a calendar date worked out from
//! the clock for every line. For the one line every request logs, that was
//! a fifth of a stdio call's CPU (1 µs of 5, BENCHMARKS.md). A binary whose
//! subscriber is that text format at INFO (`mcp-wit serve` by default) has
//! the line written here instead, byte for byte what the subscriber writes
//! (a test holds the two together), at a fraction of the cost.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::time::SystemTime;

use super::text::may_hold_controls;

/// The `tracing` target of the per-request log lines.
pub const REQUEST_LOG_TARGET: &str = "mcp_wit::request";

/// What follows a line's timestamp, up to its message.
const LEVEL_AND_TARGET: &str = "  INFO mcp_wit::request: ";

/// A request's line: the message's parts and the fields after it, in the
/// order they are logged; a field that is `None` is left out.
pub(super) struct RequestLine<'a> {
    /// The method, and the tool, prompt or resource it names: the message
    /// is `{method} {target}: {outcome_text} in {duration_ms:.2}ms`.
    pub method: &'a str,
    pub target: Option<&'a str>,
    pub outcome_text: &'a str,
    pub component: Option<&'a str>,
    pub session: Option<&'a str>,
    /// The JSON-RPC id, as the guest's output logged while serving it has it.
    pub request_id: Option<&'a str>,
    pub caller: Option<&'a str>,
    pub version: Option<&'a str>,
    /// To the microsecond: a clock's last digits are noise, not news.
    /// Logged in milliseconds (`duration_ms`).
    pub duration_micros: u64,
    pub outcome: &'static str,
    pub error_code: Option<i32>,
    pub arguments: Option<&'a str>,
    pub answer: Option<&'a str>,
}

impl RequestLine<'_> {
    /// The line as a `tracing` event, for whatever subscriber is installed.
    pub(super) fn emit(&self) {
        let RequestLine { outcome_text, .. } = self;
        let duration_ms = self.duration_micros as f64 / 1000.0;
        let what = What(self);
        tracing::info!(
            target: REQUEST_LOG_TARGET,
            method = self.method,
            component = self.component,
            session = self.session,
            request_id = self.request_id,
            caller = self.caller,
            version = self.version,
            duration_ms,
            outcome = self.outcome,
            error_code = self.error_code,
            arguments = self.arguments,
            answer = self.answer,
            "{what}: {outcome_text} in {duration_ms:.2}ms"
        );
    }

    /// The line, ended by its newline, as `tracing_subscriber::fmt`'s
    /// default format under [`EscapedText`](super::EscapedText) writes
    /// [`emit`](Self::emit)'s event at `at`, outside any span.
    pub(super) fn write_text(&self, at: SystemTime, line: &mut String) {
        thread_local! {
            /// The parts of the last line written on this thread that the
            /// next one is likely to repeat (a client calls one tool again
            /// and again): rewritten only when they differ.
            static PARTS: std::cell::RefCell<Parts> = std::cell::RefCell::default();
        }
        write_timestamp(at, line);
        PARTS.with_borrow_mut(|parts| {
            if !parts.written_from(self) {
                parts.rewrite(self);
            }
            line.push_str(&parts.message);
            push_millis_rounded(line, self.duration_micros);
            line.push_str(&parts.fields);
            if let Some(id) = self.request_id {
                push_debug(line, id);
            }
            line.push_str(&parts.after_id);
            push_millis_shortest(line, self.duration_micros);
            line.push_str(&parts.end);
        });
        // Errors writing into a `String` cannot happen.
        for (name, value) in [("arguments", self.arguments), ("answer", self.answer)] {
            if let Some(value) = value {
                let _ = write!(line, " {name}={value:?}");
            }
        }
        line.push('\n');
    }
}

/// A request line's parts but for its timestamp, its two durations, its
/// request id and the arguments and answer `--log-arguments` adds (which
/// change with every request), and what they were written from: the
/// client's text in them is clipped (`CLIENT_TEXT_BYTES`), so what a thread
/// keeps stays small.
#[derive(Default)]
struct Parts {
    from: PartsOf,
    /// From the level to the message's ` in `: `  INFO mcp_wit::request:
    /// tools/call echo: ok in `.
    message: String,
    /// From `ms` to the request id's `=` (or the fields before it).
    fields: String,
    /// From after the request id to `duration_ms=`.
    after_id: String,
    /// From ` outcome=` to the error code, if any.
    end: String,
}

/// The fields [`Parts`] are written from.
#[derive(Default)]
struct PartsOf {
    method: String,
    target: Option<String>,
    outcome_text: String,
    component: Option<String>,
    session: Option<String>,
    has_request_id: bool,
    caller: Option<String>,
    version: Option<String>,
    outcome: String,
    error_code: Option<i32>,
}

impl Parts {
    fn written_from(&self, line: &RequestLine<'_>) -> bool {
        let from = &self.from;
        from.method == line.method
            && from.target.as_deref() == line.target
            && from.outcome_text == line.outcome_text
            && from.component.as_deref() == line.component
            && from.session.as_deref() == line.session
            && from.has_request_id == line.request_id.is_some()
            && from.caller.as_deref() == line.caller
            && from.version.as_deref() == line.version
            && from.outcome == line.outcome
            && from.error_code == line.error_code
    }

    fn rewrite(&mut self, line: &RequestLine<'_>) {
        let owned = |text: Option<&str>| text.map(str::to_owned);
        self.from = PartsOf {
            method: line.method.to_owned(),
            target: owned(line.target),
            outcome_text: line.outcome_text.to_owned(),
            component: owned(line.component),
            session: owned(line.session),
            has_request_id: line.request_id.is_some(),
            caller: owned(line.caller),
            version: owned(line.version),
            outcome: line.outcome.to_owned(),
            error_code: line.error_code,
        };
        let message = &mut self.message;
        message.clear();
        message.push_str(LEVEL_AND_TARGET);
        // The message: the subscriber escapes its ANSI controls, then
        // `EscapedText` the rest; the fields are `Debug`, which escapes them all.
        message.push_str(&escape_message(line.method));
        if let Some(target) = line.target {
            message.push(' ');
            message.push_str(&escape_message(target));
        }
        message.push_str(": ");
        message.push_str(&escape_message(line.outcome_text));
        message.push_str(" in ");
        let fields = &mut self.fields;
        fields.clear();
        fields.push_str("ms method=");
        push_debug(fields, line.method);
        let field = |part: &mut String, name: &str, value: Option<&str>| {
            if let Some(value) = value {
                part.push(' ');
                part.push_str(name);
                part.push('=');
                push_debug(part, value);
            }
        };
        field(fields, "component", line.component);
        field(fields, "session", line.session);
        if line.request_id.is_some() {
            fields.push_str(" request_id=");
        }
        let after_id = &mut self.after_id;
        after_id.clear();
        field(after_id, "caller", line.caller);
        if let Some(version) = line.version {
            after_id.push_str(" version=");
            push_quoted(after_id, version);
        }
        after_id.push_str(" duration_ms=");
        let end = &mut self.end;
        end.clear();
        end.push_str(" outcome=");
        push_quoted(end, line.outcome);
        if let Some(code) = line.error_code {
            let _ = write!(end, " error_code={code}");
        }
    }
}

/// What a line's message says was asked: `{method}` or `{method} {target}`.
struct What<'a>(&'a RequestLine<'a>);

impl std::fmt::Display for What<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.target {
            Some(target) => write!(f, "{} {target}", self.0.method),
            None => f.write_str(self.0.method),
        }
    }
}

/// `text` as `{text:?}` writes it, without the formatting machinery when
/// nothing in it is escaped (printable ASCII but `"` and `\`: the usual
/// method, version, id or name).
fn push_debug(line: &mut String, text: &str) {
    if text.bytes().all(|b| matches!(b, b' '..=b'~') && b != b'"' && b != b'\\') {
        line.push('"');
        line.push_str(text);
        line.push('"');
    } else {
        let _ = write!(line, "{text:?}");
    }
}

/// `text` as `{text:?}` writes it, for the host's own words (a revision,
/// an outcome), which hold nothing it escapes.
fn push_quoted(line: &mut String, text: &str) {
    debug_assert!(text.bytes().all(|b| matches!(b, b' '..=b'~') && b != b'"' && b != b'\\'), "{text:?}");
    line.push('"');
    line.push_str(text);
    line.push('"');
}

/// Durations from here on are written by [`push_millis_rounded`] and
/// [`push_millis_shortest`] from their integer; longer ones (11 days) by the
/// formatter.
const MILLIS_BY_HAND: u64 = 1_000_000_000_000;

/// `micros` in milliseconds as `{:.2}` writes `micros as f64 / 1000.0`:
/// the formatter rounds the binary value, so a value that ends in exactly
/// half a hundredth rounds the way its binary value lies from the half,
/// and a half the binary value holds exactly rounds to even.
fn push_millis_rounded(line: &mut String, micros: u64) {
    if micros >= MILLIS_BY_HAND {
        let _ = write!(line, "{:.2}", micros as f64 / 1000.0);
        return;
    }
    let (mut hundredths, rest) = (micros / 10, micros % 10);
    let up = match rest.cmp(&5) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => {
            // Where the binary value lies from the exact half: one rounding
            // (a fused multiply-add) keeps the difference's sign.
            let off = (micros as f64 / 1000.0).mul_add(1000.0, -(micros as f64));
            off > 0.0 || (off == 0.0 && hundredths % 2 == 1)
        }
    };
    hundredths += u64::from(up);
    line.push_str(itoa::Buffer::new().format(hundredths / 100));
    let cents = (hundredths % 100) as u8;
    line.push('.');
    line.push(char::from(b'0' + cents / 10));
    line.push(char::from(b'0' + cents % 10));
}

/// `micros` in milliseconds as `{:?}` writes `micros as f64 / 1000.0`: the
/// shortest decimal that reads back as that value, which below
/// [`MILLIS_BY_HAND`] (where its neighbours lie less than a microsecond
/// away) is the milliseconds written out, trailing zeros cut, `.0` when whole.
fn push_millis_shortest(line: &mut String, micros: u64) {
    if micros >= MILLIS_BY_HAND {
        let _ = write!(line, "{:?}", micros as f64 / 1000.0);
        return;
    }
    line.push_str(itoa::Buffer::new().format(micros / 1000));
    line.push('.');
    let fraction = (micros % 1000) as u16;
    let digits = [fraction / 100, fraction / 10 % 10, fraction % 10].map(|digit| b'0' + digit as u8);
    match std::str::from_utf8(&digits).unwrap_or_default().trim_end_matches('0') {
        "" => line.push('0'),
        text => line.push_str(text),
    }
}

/// `at` as `humantime::format_rfc3339_micros` writes it: the date and time
/// to the second worked out once a second per thread, the microseconds
/// written each time.
fn write_timestamp(at: SystemTime, line: &mut String) {
    thread_local! {
        /// The second last written, and its text up to the `.`.
        static SECOND: std::cell::RefCell<(u64, String)> = const { std::cell::RefCell::new((u64::MAX, String::new())) };
    }
    let since = at.duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
    let (second, micros) = (since.as_secs(), since.subsec_micros());
    SECOND.with_borrow_mut(|(cached, text)| {
        if *cached != second {
            text.clear();
            let whole = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(second);
            // `2025-11-29T15:30:46Z`: all but its `Z`.
            let _ = write!(text, "{}", humantime::format_rfc3339_seconds(whole));
            text.pop();
            *cached = second;
        }
        line.push_str(text);
    });
    let mut digits = *b".000000Z";
    let mut rest = micros;
    for digit in digits[1..7].iter_mut().rev() {
        *digit = b'0' + (rest % 10) as u8;
        rest /= 10;
    }
    line.push_str(std::str::from_utf8(&digits).unwrap_or_default());
}

/// `text` as it appears in the message of a line: the controls a terminal
/// acts on as `tracing_subscriber::fmt` writes them in a message (`\x1b`,
/// `\x07`, `\x08`, `\x0c`, `\x7f`), then every other control as
/// [`EscapedText`](super::EscapedText) writes it (`\n`, `\u{9b}`), in one pass.
fn escape_message(text: &str) -> Cow<'_, str> {
    if !may_hold_controls(text) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\x1b' | '\x07' | '\x08' | '\x0c' | '\x7f' => {
                let _ = write!(escaped, "\\x{:02x}", c as u32);
            }
            c if c.is_control() => escaped.extend(c.escape_default()),
            c => escaped.push(c),
        }
    }
    Cow::Owned(escaped)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the binary's subscriber (text, escaped) writes for `line`'s
    /// event, and what [`RequestLine::write_text`] writes, each without its
    /// timestamp.
    fn both_ways(line: &RequestLine<'_>) -> (String, String) {
        let by_tracing = super::super::text::tests::written_as_text(|| line.emit());
        let mut by_hand = String::new();
        line.write_text(SystemTime::now(), &mut by_hand);
        let untimed = |line: &str| line.split_once(' ').map(|(_, rest)| rest.to_owned()).unwrap_or_default();
        (untimed(&by_tracing), untimed(&by_hand))
    }

    /// The line of a `tools/call` answered.
    fn usual() -> RequestLine<'static> {
        RequestLine {
            method: "tools/call",
            target: Some("echo"),
            outcome_text: "ok",
            component: Some("echo"),
            session: None,
            request_id: Some("7"),
            caller: None,
            version: Some("2025-06-18"),
            duration_micros: 483,
            outcome: "ok",
            error_code: None,
            arguments: None,
            answer: None,
        }
    }

    #[test]
    fn the_line_written_by_hand_is_the_one_the_subscriber_writes() {
        let usual = usual();
        let (by_tracing, by_hand) = both_ways(&usual);
        assert_eq!(by_hand, by_tracing);
        assert_eq!(
            by_hand,
            " INFO mcp_wit::request: tools/call echo: ok in 0.48ms method=\"tools/call\" component=\"echo\" \
             request_id=\"7\" version=\"2025-06-18\" duration_ms=0.483 outcome=\"ok\"\n"
        );
        // Every field, and a client's text with every kind of control in it.
        let hostile = "x\n2026-11-28T00:00:00Z ERROR forged\r\x1b[1A\t\u{9b}\x07\x7f\x08\x0c\x01 \"quoted\" \\ é";
        let outcome = format!("error -32602 (Unknown tool: {hostile})");
        let every = RequestLine {
            method: "tools/call",
            target: Some(hostile),
            outcome_text: &outcome,
            component: Some("notes"),
            session: Some("3f0c"),
            request_id: Some(hostile),
            caller: Some(hostile),
            version: Some("2026-07-28"),
            duration_micros: 1000,
            outcome: "error",
            error_code: Some(-32602),
            arguments: Some(r#"{"text":"a\"b"}"#),
            answer: Some(hostile),
        };
        let (by_tracing, by_hand) = both_ways(&every);
        assert_eq!(by_hand, by_tracing);
        assert_eq!(by_hand.lines().count(), 1, "{by_hand}");
        assert!(!by_hand.contains(['\r', '\x1b', '\u{9b}', '\x07']), "{by_hand:?}");
    }

    /// The parts kept from one line to the next are rewritten whenever a
    /// field they hold changes: lines that alternate are each the
    /// subscriber's.
    #[test]
    fn lines_in_turn_are_each_the_subscribers() {
        let base = usual();
        let lines = [
            RequestLine { request_id: Some("8"), duration_micros: 1_250_000, ..base },
            RequestLine { target: Some("other"), ..base },
            RequestLine { target: None, method: "ping", request_id: None, ..base },
            RequestLine { component: Some("b"), session: Some("s1"), caller: Some("ada"), ..base },
            RequestLine { outcome_text: "error -32602 (x)", outcome: "error", error_code: Some(-32602), ..base },
            RequestLine { version: None, arguments: Some(r#"{"a":"\n"}"#), answer: Some("{}"), ..base },
            RequestLine { arguments: Some(r#"{"a":2}"#), ..base },
        ];
        for _ in 0..2 {
            for line in lines.iter().chain([&base, &base]) {
                let (by_tracing, by_hand) = both_ways(line);
                assert_eq!(by_hand, by_tracing);
            }
        }
    }

    #[test]
    fn fields_and_timestamps_written_by_hand_are_the_formatters() {
        for text in ["tools/call", "", "a b~", "say \"hi\"", "back\\slash", "tab\there", "é", "\u{9b}", "\x7f"] {
            let mut line = String::new();
            push_debug(&mut line, text);
            assert_eq!(line, format!("{text:?}"));
        }
        // Within a second, across one, back again: the cached second is
        // never stale.
        for micros in [1_764_430_246_316_175u64, 1_764_430_246_999_999, 1_764_430_247_000_000, 0, 1_764_430_246_000_007]
        {
            let at = SystemTime::UNIX_EPOCH + std::time::Duration::from_micros(micros);
            let mut line = String::new();
            write_timestamp(at, &mut line);
            assert_eq!(line, humantime::format_rfc3339_micros(at).to_string());
        }
    }

    #[test]
    fn durations_written_by_hand_are_the_formatters() {
        // Every duration up to 0.3 s, then a sample up to hours, the
        // largest written by hand and the first left to the formatter.
        let sampled = (0..200_000u64).map(|k| k * 39_989 + 5);
        let edges = [MILLIS_BY_HAND - 5, MILLIS_BY_HAND - 1, MILLIS_BY_HAND, MILLIS_BY_HAND + 5, u64::MAX];
        for micros in (0..=300_000u64).chain(sampled).chain(edges) {
            let ms = micros as f64 / 1000.0;
            let (mut rounded, mut shortest) = (String::new(), String::new());
            push_millis_rounded(&mut rounded, micros);
            push_millis_shortest(&mut shortest, micros);
            assert_eq!(rounded, format!("{ms:.2}"), "{micros} µs");
            assert_eq!(shortest, format!("{ms:?}"), "{micros} µs");
        }
    }

    #[test]
    fn the_timestamp_is_the_subscribers() {
        let at = SystemTime::UNIX_EPOCH + std::time::Duration::from_micros(1_764_430_246_316_175);
        let mut line = String::new();
        RequestLine {
            method: "ping",
            target: None,
            outcome_text: "ok",
            component: None,
            session: None,
            request_id: None,
            caller: None,
            version: None,
            duration_micros: 0,
            outcome: "ok",
            error_code: None,
            arguments: None,
            answer: None,
        }
        .write_text(at, &mut line);
        assert!(line.starts_with("2025-11-29T15:30:46.316175Z  INFO mcp_wit::request: ping: ok in 0.00ms"), "{line}");
    }
}
