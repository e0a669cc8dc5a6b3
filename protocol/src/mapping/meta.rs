//! Guests' `_meta`: the keys reserved to MCP and mcp-wit left out of what
//! they send, and the contract's meta entries as JSON objects.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::contract;

use super::json::{GuestJson, object};

/// The `_meta` key prefix for contract fields MCP has no place for.
pub const META_PREFIX: &str = "dev.mcp-wit/";

/// `_meta` key prefixes a guest may not use, left out of what it sends with
/// a warning: MCP's own (a server's `serverInfo`, a subscription's id) and
/// mcp-wit's, which only the host writes.
pub const RESERVED_META_PREFIXES: [&str; 2] = ["io.modelcontextprotocol/", META_PREFIX];

/// Whether a guest may not use `key` in a `_meta`.
pub fn is_reserved_meta_key(key: &str) -> bool {
    RESERVED_META_PREFIXES.iter().any(|prefix| key.starts_with(prefix))
}

/// Whether a guest's `_meta` text may hold a reserved key: one of the
/// prefixes, or an escape that could spell one.
fn may_hold_reserved_key(json: &str) -> bool {
    json.contains('\\') || RESERVED_META_PREFIXES.iter().any(|prefix| json.contains(prefix))
}

/// `keys` without the reserved ones; those left out are told of once (how
/// many, and the first), not once each.
pub(super) fn without_reserved<'k, T>(
    entries: impl Iterator<Item = (&'k str, T)>,
) -> impl Iterator<Item = (&'k str, T)> {
    let mut dropped = Dropped::default();
    entries.filter(move |(key, _)| !dropped.drops(key))
}

/// Counts the reserved keys left out of one `_meta`, and warns of them
/// when it ends.
#[derive(Default)]
struct Dropped {
    count: usize,
    first: Option<String>,
}

impl Dropped {
    /// Whether `key` is left out (counted if it is).
    fn drops(&mut self, key: &str) -> bool {
        if !is_reserved_meta_key(key) {
            return false;
        }
        self.count += 1;
        self.first.get_or_insert_with(|| crate::observe::clipped(key, crate::observe::CLIENT_TEXT_BYTES).into_owned());
        true
    }
}

impl Drop for Dropped {
    fn drop(&mut self) {
        if let Some(first) = &self.first {
            tracing::warn!(
                "left out {} `_meta` key(s) of a guest under a prefix reserved to MCP and mcp-wit ({}), the first \
                 {first:?}",
                self.count,
                RESERVED_META_PREFIXES.join(", ")
            );
        }
    }
}

/// Removes the reserved keys from a guest's `_meta` object, with a warning.
pub fn drop_reserved_meta(object: &mut serde_json::Map<String, serde_json::Value>) {
    let mut dropped = Dropped::default();
    object.retain(|key, _| !dropped.drops(key));
}

/// A guest's `_meta` object, as given when it holds no reserved key (read
/// only to be sure when its text may), else read and sent without them.
pub enum GuestMeta<'a> {
    /// As given.
    AsGiven(GuestJson<'a>),
    /// Read, reserved keys dropped.
    Filtered(serde_json::Map<String, serde_json::Value>),
}

impl Serialize for GuestMeta<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            GuestMeta::AsGiven(json) => json.serialize(s),
            GuestMeta::Filtered(object) => object.serialize(s),
        }
    }
}

/// A guest's `_meta` (JSON text) as sent: `None` when it is not a JSON
/// object (with a warning).
pub(crate) fn guest_meta(json: &str) -> Option<GuestMeta<'_>> {
    let given = object(json)?;
    if !may_hold_reserved_key(given.get()) {
        return Some(GuestMeta::AsGiven(given));
    }
    let mut object: serde_json::Map<String, serde_json::Value> = serde_json::from_str(given.get()).ok()?;
    drop_reserved_meta(&mut object);
    Some(GuestMeta::Filtered(object))
}

/// A WIT `f32` as the shortest decimal that reads back as the same `f32`
/// (0.1f32 is sent as 0.1, not 0.10000000149011612); `None` if not finite.
pub fn widen(x: f32) -> Option<f64> {
    x.is_finite().then(|| x.to_string().parse().unwrap_or(f64::from(x)))
}

/// `list<meta-entry>` → a JSON object; a repeated key keeps its last value.
pub struct MetaMap<'a>(pub &'a [contract::MetaEntry]);

impl Serialize for MetaMap<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let entries = self.0;
        let mut map = s.serialize_map(None)?;
        let last = entries
            .iter()
            .enumerate()
            .filter(|(i, entry)| !entries[i + 1..].iter().any(|later| later.key == entry.key))
            .map(|(_, entry)| (entry.key.as_str(), &entry.value));
        for (key, value) in without_reserved(last) {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

pub(super) fn meta_map(entries: &Option<Vec<contract::MetaEntry>>) -> Option<MetaMap<'_>> {
    entries.as_deref().filter(|e| !e.is_empty()).map(MetaMap)
}
