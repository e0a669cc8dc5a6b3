//! Guest-supplied JSON, checked and made safe to embed in one output line.

use std::borrow::Cow;

use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// Guest-supplied JSON, checked and made safe to embed in one output line.
pub enum GuestJson<'a> {
    /// Valid as given.
    Borrowed(&'a RawValue),
    /// Had line breaks between tokens; re-emitted without them.
    Owned(Box<RawValue>),
}

/// Deepest nesting of arrays and objects taken from a guest: serde_json's
/// own limit for what it parses. Clients parse what is passed on, and a
/// deeper value has crashed one (a schema 100,000 levels deep).
pub const MAX_DEPTH: usize = 128;

impl<'a> GuestJson<'a> {
    /// Validates `text` as one JSON value, nested at most [`MAX_DEPTH`]
    /// deep.
    pub fn parse(text: &'a str) -> Result<Self, serde_json::Error> {
        if nesting_exceeds(text, MAX_DEPTH) {
            return Err(serde::de::Error::custom(format_args!(
                "nested more than {MAX_DEPTH} levels deep (arrays and objects)"
            )));
        }
        let raw: &RawValue = serde_json::from_str(text)?;
        if raw.get().bytes().any(|b| b == b'\n' || b == b'\r') {
            // Line breaks can only be whitespace in valid JSON; dropping them
            // keeps stdio framing (one message per line) intact.
            let compact = minify(raw.get());
            return Ok(GuestJson::Owned(RawValue::from_string(compact)?));
        }
        Ok(GuestJson::Borrowed(raw))
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        match self {
            GuestJson::Borrowed(raw) => raw.get(),
            GuestJson::Owned(raw) => raw.get(),
        }
    }

    /// Whether the value is an object whose `type` is `"object"`, as MCP
    /// requires of tool input and output schemas.
    pub fn is_object_schema(&self) -> bool {
        #[derive(Deserialize)]
        struct Head<'b> {
            #[serde(rename = "type", borrow)]
            ty: Option<Cow<'b, str>>,
        }
        self.get().starts_with('{')
            && serde_json::from_str::<Head<'_>>(self.get()).is_ok_and(|h| h.ty.as_deref() == Some("object"))
    }
}

impl Serialize for GuestJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            GuestJson::Borrowed(raw) => raw.serialize(s),
            GuestJson::Owned(raw) => raw.serialize(s),
        }
    }
}

/// Whether arrays and objects in `json` nest deeper than `max` (strings
/// skipped; `json` need not be valid).
fn nesting_exceeds(json: &str, max: usize) -> bool {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for &b in json.as_bytes() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// Removes whitespace outside strings from already-valid JSON.
pub(super) fn minify(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if !c.is_ascii_whitespace() {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

/// `json` as a JSON object to pass on, if it is one (else left out, with a
/// warning: MCP's `_meta` and `structuredContent` are objects).
pub(super) fn object(json: &str) -> Option<GuestJson<'_>> {
    match GuestJson::parse(json) {
        Ok(value) if value.get().starts_with('{') => Some(value),
        Ok(_) => not_an_object(None),
        Err(e) => not_an_object(Some(e)),
    }
}

/// `json` as a JSON object read into a value, if it is one (else left out,
/// with a warning): sent as read, so that a key given twice goes out once.
pub(super) fn object_value(json: &str) -> Option<serde_json::Value> {
    match serde_json::from_str(json) {
        Ok(value @ serde_json::Value::Object(_)) => Some(value),
        Ok(_) => not_an_object(None),
        Err(e) => not_an_object(Some(e)),
    }
}

/// Warns that a guest's `_meta` or `structuredContent` is left out: not
/// JSON (`error`), or not an object.
fn not_an_object<T>(error: Option<serde_json::Error>) -> Option<T> {
    match error {
        None => tracing::warn!("a guest's `_meta` or `structuredContent` is not a JSON object: left out"),
        Some(e) => tracing::warn!("a guest's `_meta` or `structuredContent` is not JSON ({e}): left out"),
    }
    None
}
