//! JSON whose objects keep their keys in the order they were built: a
//! typed component's schemas go out key for key as Wassette writes them
//! (its `serde_json` keeps insertion order), and its results keep the
//! order of their record's fields. The host's own `serde_json` sorts keys,
//! and turning its `preserve_order` on would change every other answer.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// One JSON value, objects in insertion order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// An object of `entries`, in their order.
    pub(crate) fn object<K: Into<String>>(entries: impl IntoIterator<Item = (K, Json)>) -> Json {
        Json::Object(entries.into_iter().map(|(key, value)| (key.into(), value)).collect())
    }

    /// A string.
    pub(crate) fn text(text: impl Into<String>) -> Json {
        Json::String(text.into())
    }

    /// An array of strings.
    pub(crate) fn texts<S: Into<String>>(texts: impl IntoIterator<Item = S>) -> Json {
        Json::Array(texts.into_iter().map(Json::text).collect())
    }

    /// A whole number.
    pub(crate) fn count(n: usize) -> Json {
        Json::Number((n as u64).into())
    }

    /// Compact JSON text.
    pub(crate) fn to_text(&self) -> String {
        serde_json::to_string(self).expect("a JSON value always serializes")
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_keep_the_order_they_were_built_in() {
        let schema = Json::object([
            ("type", Json::text("object")),
            ("properties", Json::object([("msg", Json::object([("type", Json::text("string"))]))])),
            ("required", Json::texts(["msg"])),
        ]);
        assert_eq!(schema.to_text(), r#"{"type":"object","properties":{"msg":{"type":"string"}},"required":["msg"]}"#);
    }
}
