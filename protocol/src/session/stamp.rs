//! The stamp every 2026-07-28 result carries: `resultType`, the server's
//! name in `_meta`, and for cacheable methods `ttlMs` and `cacheScope`.

use std::sync::Arc;

use memchr::memmem;
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::envelope::{CacheHint, SERVER_INFO_KEY};
use crate::routers::ServerDescription;

/// What a modern result is stamped with: `resultType`, the server's name in
/// `_meta`, and for cacheable methods `ttlMs` and `cacheScope`.
pub(super) struct Stamp {
    pub(super) about: Arc<ServerDescription>,
    pub(super) cache: Option<CacheHint>,
}

impl Stamp {
    /// Adds the stamp to the result object whose closing brace is at
    /// `buf[close]`, in place, when the result has no `_meta` or
    /// `resultType` of its own: the common case, written without building
    /// the result again as a `Value`. `false`: it has (or `buf` may name
    /// them elsewhere, e.g. in the request id), and [`Stamp::apply`] merges.
    pub(super) fn splice(&self, buf: &mut Vec<u8>, close: usize) -> bool {
        static META: std::sync::LazyLock<memmem::Finder<'static>> =
            std::sync::LazyLock::new(|| memmem::Finder::new(b"\"_meta\""));
        static RESULT_TYPE: std::sync::LazyLock<memmem::Finder<'static>> =
            std::sync::LazyLock::new(|| memmem::Finder::new(b"\"resultType\""));
        if buf.get(close) != Some(&b'}') || META.find(buf).is_some() || RESULT_TYPE.find(buf).is_some() {
            return false;
        }
        // What follows the result's last member (its brace, and the
        // response's) is moved after the stamp.
        let mut tail = [0u8; 2];
        let Some(kept) = tail.get_mut(..buf.len() - close) else { return false };
        kept.copy_from_slice(&buf[close..]);
        let tail = &tail[..buf.len() - close];
        buf.truncate(close);
        let stamp = buf;
        if close > 0 && stamp[close - 1] != b'{' {
            stamp.push(b',');
        }
        stamp.extend_from_slice(br#""resultType":"complete""#);
        if let Some(cache) = self.cache {
            stamp.extend_from_slice(br#","ttlMs":"#);
            let _ = serde_json::to_writer(&mut *stamp, &cache.ttl_ms);
            stamp.extend_from_slice(br#","cacheScope":""#);
            stamp.extend_from_slice(cache.scope.as_str().as_bytes());
            stamp.push(b'"');
        }
        stamp.extend_from_slice(br#","_meta":{""#);
        stamp.extend_from_slice(SERVER_INFO_KEY.as_bytes());
        stamp.extend_from_slice(br#"":{"name":"#);
        // A `String` always serialises.
        let _ = serde_json::to_writer(&mut *stamp, &self.about.name);
        if let Some(title) = &self.about.title {
            stamp.extend_from_slice(br#","title":"#);
            let _ = serde_json::to_writer(&mut *stamp, title);
        }
        if let Some(icons) = &self.about.icons {
            // Checked and made compact JSON when learnt.
            stamp.extend_from_slice(br#","icons":"#);
            stamp.extend_from_slice(icons.as_bytes());
        }
        stamp.extend_from_slice(br#","version":""#);
        stamp.extend_from_slice(env!("CARGO_PKG_VERSION").as_bytes());
        stamp.extend_from_slice(br#""}}"#);
        stamp.extend_from_slice(tail);
        true
    }

    /// `result` as a JSON object with the stamp added. A guest's own `_meta`
    /// keeps its keys: the server's name joins them.
    pub(super) fn apply<T: Serialize>(&self, result: &T) -> Result<Value, serde_json::Error> {
        let mut value = serde_json::to_value(result)?;
        let Value::Object(object) = &mut value else { return Ok(value) };
        object.entry("resultType").or_insert_with(|| Value::from("complete"));
        if let Some(cache) = self.cache {
            object.insert("ttlMs".into(), Value::from(cache.ttl_ms));
            object.insert("cacheScope".into(), Value::from(cache.scope.as_str()));
        }
        let meta = object.entry("_meta").or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(meta) = meta {
            meta.insert(SERVER_INFO_KEY.into(), server_info(&self.about));
        }
        Ok(value)
    }

    /// The `_meta` of a result that carries no more of the stamp (an
    /// `input_required` result: no `resultType: complete`, no cache hints).
    pub(super) fn meta(&self) -> Value {
        json!({ SERVER_INFO_KEY: server_info(&self.about) })
    }
}

/// The server's `Implementation`: its routers' name and this host's version.
pub(super) fn server_info(about: &ServerDescription) -> Value {
    let mut info = json!({ "name": about.name, "version": env!("CARGO_PKG_VERSION") });
    if let Some(title) = &about.title {
        info["title"] = Value::from(title.as_str());
    }
    if let Some(icons) = about.icons.as_deref().and_then(|icons| serde_json::from_str::<Value>(icons).ok()) {
        info["icons"] = icons;
    }
    info
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jsonrpc;
    use serde_json::value::RawValue;

    /// The stamp spliced into the bytes reads as the stamp merged as a
    /// `Value`; a result with `_meta` of its own is left to the merge.
    #[test]
    fn a_spliced_stamp_is_the_merged_one() {
        let about = Arc::new(ServerDescription {
            name: "a \"quoted\" name".into(),
            title: Some("a title".into()),
            icons: Some(r#"[{"src":"https://example.com/i.png"}]"#.into()),
            instructions: String::new(),
            capabilities: Default::default(),
            cache: CacheHint::default(),
            talks_back: false,
        });
        for cache in [None, Some(CacheHint::default())] {
            let stamp = Stamp { about: about.clone(), cache };
            for result in [json!({ "content": [{ "type": "text", "text": "}" }] }), json!({})] {
                let mut buf = Vec::new();
                jsonrpc::write_result(&mut buf, &RawValue::from_string("7".into()).unwrap(), &result).unwrap();
                let close = buf.len() - 2;
                assert!(stamp.splice(&mut buf, close), "{result}");
                let spliced: Value = serde_json::from_slice(&buf).unwrap();
                assert_eq!(spliced["result"], stamp.apply(&result).unwrap(), "{result}");
                assert_eq!(spliced["id"], 7);
            }
            let own_meta = json!({ "_meta": { "k": 1 } });
            let mut buf = serde_json::to_vec(&own_meta).unwrap();
            let close = buf.len() - 1;
            assert!(!stamp.splice(&mut buf, close), "merged instead");
        }
    }
}
