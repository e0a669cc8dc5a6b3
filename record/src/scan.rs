//! Reading a JSON-RPC message's top-level fields in one pass, without a
//! parser's machinery: what the recorder does for every message it writes.
//!
//! [`scan`] validates the whole text as JSON (UTF-8, string escapes and
//! control characters, number grammar, nesting) as it goes, and answers only
//! for the plain shape every MCP peer sends: an object whose keys, `jsonrpc`
//! and `method` carry no escapes, each known key once. Anything else gets
//! `None`, and the caller reads the message with serde_json instead, so the
//! two agree on what is JSON and what each field holds (the tests compare
//! them). Hand-written because it is the recorder's largest cost: serde_json
//! reading the same fields (borrowed, no tree) took about half of the
//! writer's time per message (see BENCHMARKS.md, "What recording costs").

use std::borrow::Cow;

/// How deep values may nest before the scan leaves the message to serde_json
/// (whose own limit is 128).
const MAX_DEPTH: u32 = 100;
const _: () = assert!(MAX_DEPTH <= u128::BITS, "one bit per open container");

/// A message's top-level fields, borrowed from its text; each JSON value as
/// its text.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Top<'a> {
    pub jsonrpc: Option<Cow<'a, str>>,
    /// `null` is kept (it is not "no id").
    pub id: Option<&'a str>,
    pub method: Option<Cow<'a, str>>,
    /// `null` reads as absent, as serde_json's `Option` has it.
    pub params: Option<&'a str>,
    /// As `params`.
    pub result: Option<&'a str>,
    /// As `params`.
    pub error: Option<&'a str>,
}

/// The top-level fields of `message`, if it is valid JSON of the plain shape
/// (see the module's documentation).
pub(crate) fn scan(message: &[u8]) -> Option<Top<'_>> {
    let text = std::str::from_utf8(message).ok()?;
    let bytes = text.as_bytes();
    let mut top = Top::default();
    let mut at = whitespace(bytes, 0);
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    at = whitespace(bytes, at + 1);
    if bytes.get(at) == Some(&b'}') {
        at += 1;
    } else {
        loop {
            let (key, after_key) = plain_string(text, at)?;
            at = whitespace(bytes, after_key);
            if bytes.get(at) != Some(&b':') {
                return None;
            }
            let start = whitespace(bytes, at + 1);
            let end = value(bytes, start)?;
            let raw = &text[start..end];
            match key {
                "jsonrpc" => once(&mut top.jsonrpc, plain_text(raw)?)?,
                "id" => once(&mut top.id, raw)?,
                "method" => once(&mut top.method, plain_text(raw)?)?,
                "params" => once_unless_null(&mut top.params, raw)?,
                "result" => once_unless_null(&mut top.result, raw)?,
                "error" => once_unless_null(&mut top.error, raw)?,
                _ => {}
            }
            at = whitespace(bytes, end);
            match bytes.get(at) {
                Some(b',') => at = whitespace(bytes, at + 1),
                Some(b'}') => {
                    at += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    (whitespace(bytes, at) == bytes.len()).then_some(top)
}

/// Sets a field seen for the first time (serde_json refuses a known field twice).
fn once<'a, T: From<&'a str>>(field: &mut Option<T>, raw: &'a str) -> Option<()> {
    if field.is_some() {
        return None;
    }
    *field = Some(T::from(raw));
    Some(())
}

/// As [`once`], but `null` leaves the field absent.
fn once_unless_null<'a>(field: &mut Option<&'a str>, raw: &'a str) -> Option<()> {
    if field.is_some() {
        return None;
    }
    *field = (raw != "null").then_some(raw);
    Some(())
}

/// The contents of the JSON string `raw`, if it has no escapes.
fn plain_text(raw: &str) -> Option<&str> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains('\\')).then_some(inner)
}

/// The string starting at `at` (its opening quote), if it has no escapes,
/// and where it ends.
fn plain_string(text: &str, at: usize) -> Option<(&str, usize)> {
    if text.as_bytes().get(at) != Some(&b'"') {
        return None;
    }
    let end = string(text.as_bytes(), at)?;
    // Quotes are ASCII: the inside ends on character boundaries.
    let inner = text.get(at + 1..end - 1)?;
    (!inner.contains('\\')).then_some((inner, end))
}

fn whitespace(bytes: &[u8], mut at: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(at) {
        at += 1;
    }
    at
}

/// Where the JSON value starting at `at` ends, if it is valid. Iterative:
/// the open containers are bits of `objects` (1: an object), innermost last.
fn value(bytes: &[u8], mut at: usize) -> Option<usize> {
    let mut objects: u128 = 0;
    let mut depth = 0;
    loop {
        // A value starts at `at`.
        at = match *bytes.get(at)? {
            b'"' => string(bytes, at)?,
            open @ (b'{' | b'[') => {
                if depth == MAX_DEPTH {
                    return None;
                }
                let object = open == b'{';
                let inside = whitespace(bytes, at + 1);
                if bytes.get(inside) == Some(&(open + 2)) {
                    // `{}` or `[]`: `}` and `]` are two after their openers.
                    inside + 1
                } else {
                    objects = objects << 1 | u128::from(object);
                    depth += 1;
                    at = if object { key(bytes, inside)? } else { inside };
                    continue;
                }
            }
            b't' => literal(bytes, at, b"true")?,
            b'f' => literal(bytes, at, b"false")?,
            b'n' => literal(bytes, at, b"null")?,
            b'-' | b'0'..=b'9' => number(bytes, at)?,
            _ => return None,
        };
        // A value ended at `at`: what follows closes containers, or starts
        // the next value.
        loop {
            if depth == 0 {
                return Some(at);
            }
            at = whitespace(bytes, at);
            let object = objects & 1 == 1;
            match bytes.get(at) {
                Some(b',') => {
                    let next = whitespace(bytes, at + 1);
                    at = if object { key(bytes, next)? } else { next };
                    break;
                }
                Some(b'}') if object => {}
                Some(b']') if !object => {}
                _ => return None,
            }
            at += 1;
            objects >>= 1;
            depth -= 1;
        }
    }
}

/// A key and its colon at `at`; where its value starts.
fn key(bytes: &[u8], at: usize) -> Option<usize> {
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let at = whitespace(bytes, string(bytes, at)?);
    (bytes.get(at) == Some(&b':')).then(|| whitespace(bytes, at + 1))
}

/// A string starting at its opening quote: no control characters, only
/// JSON's escapes, `\u` surrogates in pairs.
fn string(bytes: &[u8], at: usize) -> Option<usize> {
    let mut at = at + 1;
    loop {
        at += bytes.get(at..)?.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        match bytes[at] {
            b'"' => return Some(at + 1),
            b'\\' => at = escape(bytes, at + 1)?,
            _ => return None,
        }
    }
}

/// The escape after a backslash at `at`; where it ends.
fn escape(bytes: &[u8], at: usize) -> Option<usize> {
    match *bytes.get(at)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(at + 1),
        b'u' => {
            let unit = hex4(bytes, at + 1)?;
            match unit {
                0xD800..=0xDBFF => {
                    // A high surrogate stands only before a low one.
                    if bytes.get(at + 5..at + 7) != Some(b"\\u") {
                        return None;
                    }
                    matches!(hex4(bytes, at + 7)?, 0xDC00..=0xDFFF).then_some(at + 11)
                }
                0xDC00..=0xDFFF => None,
                _ => Some(at + 5),
            }
        }
        _ => None,
    }
}

fn hex4(bytes: &[u8], at: usize) -> Option<u16> {
    let digits = std::str::from_utf8(bytes.get(at..at + 4)?).ok()?;
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(digits, 16).ok()
}

fn literal(bytes: &[u8], at: usize, word: &[u8]) -> Option<usize> {
    (bytes.get(at..at + word.len())? == word).then_some(at + word.len())
}

/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, within what an
/// `f64` holds: a number that could overflow one (more than 200 digits before
/// the point, or a three-digit exponent) is left to serde_json, which reads
/// such a message as text (`serde_json::Value` has no room for it).
fn number(bytes: &[u8], mut at: usize) -> Option<usize> {
    let digits = |bytes: &[u8], at: usize| {
        let end = at + bytes[at.min(bytes.len())..].iter().take_while(|b| b.is_ascii_digit()).count();
        (end > at).then_some(end)
    };
    if bytes.get(at) == Some(&b'-') {
        at += 1;
    }
    let integer = at;
    at = match bytes.get(at)? {
        b'0' => at + 1,
        b'1'..=b'9' => digits(bytes, at)?,
        _ => return None,
    };
    if at - integer > 200 {
        return None;
    }
    if bytes.get(at) == Some(&b'.') {
        at = digits(bytes, at + 1)?;
    }
    if let Some(b'e' | b'E') = bytes.get(at) {
        at += 1;
        if let Some(b'+' | b'-') = bytes.get(at) {
            at += 1;
        }
        let exponent = at;
        at = digits(bytes, at)?;
        if at - exponent > 2 {
            return None;
        }
    }
    // serde_json reads `01` or `1x` as an error: the number must end here.
    match bytes.get(at) {
        Some(b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'.' | b'_') => None,
        _ => Some(at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What serde_json makes of the same text (the encoder's other path).
    fn by_serde(message: &[u8]) -> Option<Top<'_>> {
        crate::codec::serde_top(message)
    }

    #[test]
    fn agrees_with_serde_json_wherever_it_answers() {
        let messages: &[&str] = &[
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}"#,
            r#" { "jsonrpc" : "2.0" , "method" : "notifications/initialized" } "#,
            r#"{"jsonrpc":"2.0","id":"a\"b","result":{"content":[{"type":"text","text":"\u00e9\ud83d\ude00 \n"}]}}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
            r#"{"jsonrpc":"2.0","id":-1.5e+3,"result":[1,2.0,-0,true,false,null,{},[]]}"#,
            r#"{"jsonrpc":"2.0","id":1,"params":null,"method":"ping","extra":{"x":[{"y":"z"}]}}"#,
            r#"{}"#,
            r#"{"id":18446744073709551616,"result":1e30}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":1e400}"#,
            r#"{"jsonrpc":"2.0","method":"m\u0065","id":1}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"a":1,}}"#,
            r#"{"jsonrpc":"2.0","id":01,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":"\ud800"}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":"tab	inside"}"#,
            r#"{"jsonrpc":2,"id":1,"result":{}}"#,
            r#"{"jsonrpc":null,"id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}} trailing"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}"#,
            r#"["2.0",1,"ping"]"#,
            r#"not json {"#,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"\u{e9}\"}",
            r#"{"jsonrpc":"2.0","id":1,"result":tru}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":-}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":1.}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":"\x"}"#,
        ];
        let mut answered = 0;
        for message in messages {
            if let Some(top) = scan(message.as_bytes()) {
                answered += 1;
                assert_eq!(Some(top), by_serde(message.as_bytes()), "{message}");
            }
        }
        assert_eq!(answered, 9, "the plain messages are read by the scan");
        assert!(scan(b"{\"result\":\"\xff\"}").is_none(), "not UTF-8");
        let deep = format!("{{\"result\":{}{}}}", "[".repeat(200), "]".repeat(200));
        assert!(scan(deep.as_bytes()).is_none(), "deeper than the scan goes");
    }

    #[test]
    fn every_prefix_of_a_message_is_refused_or_agrees() {
        let message = br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"e","arguments":{"t":[1,-2.5e3,"\u00e9"]}}}"#;
        for end in 0..message.len() {
            assert_eq!(scan(&message[..end]), None, "prefix of {end} bytes");
        }
        assert_eq!(scan(message), by_serde(message));
    }
}
