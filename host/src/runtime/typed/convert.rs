//! A typed component's values to and from JSON, in the forms its schemas
//! (see `schema`) describe: arguments are converted against the function's
//! types, never trusted, and a value that does not fit says where.

use serde_json::Value;
use wasmtime::component::{Type, Val};

use super::json::Json;

/// Why an argument cannot be converted, and where it is (`count.limit`,
/// `items[2]`).
#[derive(Debug, PartialEq)]
pub(crate) struct Misfit {
    pub(crate) path: String,
    pub(crate) message: String,
}

impl std::fmt::Display for Misfit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "argument `{}`: {}", self.path, self.message)
    }
}

/// The function's arguments from `arguments`, a JSON object naming each of
/// `params` (other keys are ignored, as Wassette ignores them).
pub(crate) fn arguments(arguments: &Value, params: &[(String, Type)]) -> Result<Vec<Val>, Misfit> {
    let Value::Object(given) = arguments else {
        return Err(Misfit {
            path: String::new(),
            message: format!("the arguments are {}, not an object", kind(arguments)),
        });
    };
    params
        .iter()
        .map(|(name, ty)| match given.get(name) {
            Some(value) => to_val(value, ty, &mut name.clone()),
            None => Err(Misfit { path: name.to_string(), message: "missing (every parameter is required)".into() }),
        })
        .collect()
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `value` as a `ty`; `path` says where it sits, for the error.
fn to_val(value: &Value, ty: &Type, path: &mut String) -> Result<Val, Misfit> {
    let misfit = |path: &String, message: String| Misfit { path: path.clone(), message };
    let expected = |path: &String, what: &str| misfit(path, format!("expected {what}, found {}", kind(value)));
    macro_rules! integer {
        ($variant:ident, $as:ident, $name:literal) => {{
            let n = value.as_number().ok_or_else(|| expected(path, "an integer"))?;
            let n = n.$as().ok_or_else(|| misfit(path, format!("{n} is not a whole number of type {}", $name)))?;
            Val::$variant(n.try_into().map_err(|_| misfit(path, format!("{n} is out of range for {}", $name)))?)
        }};
    }
    Ok(match ty {
        Type::Bool => Val::Bool(value.as_bool().ok_or_else(|| expected(path, "a boolean"))?),
        Type::S8 => integer!(S8, as_i64, "s8"),
        Type::S16 => integer!(S16, as_i64, "s16"),
        Type::S32 => integer!(S32, as_i64, "s32"),
        Type::S64 => integer!(S64, as_i64, "s64"),
        Type::U8 => integer!(U8, as_u64, "u8"),
        Type::U16 => integer!(U16, as_u64, "u16"),
        Type::U32 => integer!(U32, as_u64, "u32"),
        Type::U64 => integer!(U64, as_u64, "u64"),
        Type::Float32 => Val::Float32(value.as_f64().ok_or_else(|| expected(path, "a number"))? as f32),
        Type::Float64 => Val::Float64(value.as_f64().ok_or_else(|| expected(path, "a number"))?),
        Type::Char => {
            let text = value.as_str().ok_or_else(|| expected(path, "a string of one character"))?;
            let mut chars = text.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Val::Char(c),
                _ => {
                    return Err(misfit(
                        path,
                        format!("expected one character, found {} of them", text.chars().count()),
                    ));
                }
            }
        }
        Type::String => Val::String(value.as_str().ok_or_else(|| expected(path, "a string"))?.to_string()),
        Type::List(list) => Val::List(items(value, &list.ty(), None, path)?),
        Type::FixedLengthList(list) => Val::FixedLengthList(items(value, &list.ty(), Some(list.len() as usize), path)?),
        Type::Map(map) => {
            let entries = value.as_array().ok_or_else(|| expected(path, "an array of {\"key\", \"value\"} objects"))?;
            let mut pairs = Vec::with_capacity(entries.len());
            for (i, entry) in entries.iter().enumerate() {
                let at = path.len();
                path.push_str(&format!("[{i}]"));
                let Some(entry) = entry.as_object() else {
                    return Err(misfit(
                        path,
                        format!("expected a {{\"key\", \"value\"}} object, found {}", kind(entry)),
                    ));
                };
                let mut side = |name: &str, ty: Type| -> Result<Val, Misfit> {
                    let at = path.len();
                    path.push_str(&format!(".{name}"));
                    let found = entry.get(name).ok_or_else(|| misfit(path, "missing".into()));
                    let val = found.and_then(|v| to_val(v, &ty, path));
                    path.truncate(at);
                    val
                };
                pairs.push((side("key", map.key())?, side("value", map.value())?));
                path.truncate(at);
            }
            Val::Map(pairs)
        }
        Type::Record(record) => {
            let given = value.as_object().ok_or_else(|| expected(path, "an object"))?;
            let mut fields = Vec::new();
            for field in record.fields() {
                let at = path.len();
                path.push_str(&format!(".{}", field.name));
                let found =
                    given.get(field.name).ok_or_else(|| misfit(path, "missing (every field is required)".into()));
                fields.push((field.name.to_string(), found.and_then(|v| to_val(v, &field.ty, path))?));
                path.truncate(at);
            }
            Val::Record(fields)
        }
        Type::Tuple(tuple) => {
            let types: Vec<Type> = tuple.types().collect();
            let given = value.as_array().ok_or_else(|| expected(path, "an array"))?;
            if given.len() != types.len() {
                return Err(misfit(path, format!("expected {} items, found {}", types.len(), given.len())));
            }
            let mut items = Vec::with_capacity(types.len());
            for (i, (value, ty)) in given.iter().zip(&types).enumerate() {
                let at = path.len();
                path.push_str(&format!("[{i}]"));
                items.push(to_val(value, ty, path)?);
                path.truncate(at);
            }
            Val::Tuple(items)
        }
        Type::Variant(variant) => {
            let given = value.as_object().ok_or_else(|| expected(path, "an object {\"tag\", \"val\"}"))?;
            let tag =
                given.get("tag").and_then(Value::as_str).ok_or_else(|| misfit(path, "no \"tag\" string".into()))?;
            let case = variant.cases().find(|case| case.name == tag).ok_or_else(|| {
                let cases: Vec<&str> = variant.cases().map(|case| case.name).collect();
                misfit(path, format!("unknown tag `{tag}` (one of: {})", cases.join(", ")))
            })?;
            let payload = match case.ty {
                None => None,
                Some(ty) => {
                    let at = path.len();
                    path.push_str(".val");
                    let found = given.get("val").ok_or_else(|| misfit(path, format!("missing (case `{tag}` has one)")));
                    let val = found.and_then(|v| to_val(v, &ty, path))?;
                    path.truncate(at);
                    Some(Box::new(val))
                }
            };
            Val::Variant(tag.to_string(), payload)
        }
        Type::Enum(names) => {
            let name = value.as_str().ok_or_else(|| expected(path, "a string"))?;
            if !names.names().any(|n| n == name) {
                let all: Vec<&str> = names.names().collect();
                return Err(misfit(path, format!("`{name}` is not one of: {}", all.join(", "))));
            }
            Val::Enum(name.to_string())
        }
        Type::Option(option) => match value {
            Value::Null => Val::Option(None),
            value => Val::Option(Some(Box::new(to_val(value, &option.ty(), path)?))),
        },
        Type::Result(result) => {
            let given = value.as_object().ok_or_else(|| expected(path, "an object {\"ok\"} or {\"err\"}"))?;
            let (side, ty, found) = match (given.get("ok"), given.get("err")) {
                (Some(found), _) => ("ok", result.ok(), found),
                (None, Some(found)) => ("err", result.err(), found),
                (None, None) => return Err(misfit(path, "expected an object {\"ok\"} or {\"err\"}".into())),
            };
            // No payload: `null` (Wassette converts it as a boolean, which no call takes).
            let payload = match ty {
                None if found.is_null() => None,
                None => return Err(misfit(path, format!("`{side}` has no value here: write null"))),
                Some(ty) => {
                    let at = path.len();
                    path.push_str(&format!(".{side}"));
                    let val = to_val(found, &ty, path)?;
                    path.truncate(at);
                    Some(Box::new(val))
                }
            };
            Val::Result(if side == "ok" { Ok(payload) } else { Err(payload) })
        }
        Type::Flags(flags) => {
            // The schema's form, an object of booleans; also Wassette's
            // converter's, an array of the names set.
            let set: Vec<String> = match value {
                Value::Object(given) => {
                    if let Some(unknown) = given.keys().find(|key| !flags.names().any(|name| name == *key)) {
                        return Err(misfit(path, format!("`{unknown}` is not one of the flags")));
                    }
                    let mut set = Vec::new();
                    for name in flags.names() {
                        match given.get(name) {
                            None | Some(Value::Bool(false)) => {}
                            Some(Value::Bool(true)) => set.push(name.to_string()),
                            Some(other) => {
                                return Err(misfit(path, format!("flag `{name}` is {}, not a boolean", kind(other))));
                            }
                        }
                    }
                    set
                }
                Value::Array(names) => {
                    let mut set = Vec::new();
                    for name in names {
                        let name = name.as_str().ok_or_else(|| misfit(path, "a flag's name is not a string".into()))?;
                        if !flags.names().any(|n| n == name) {
                            return Err(misfit(path, format!("`{name}` is not one of the flags")));
                        }
                        set.push(name.to_string());
                    }
                    set
                }
                _ => return Err(expected(path, "an object of booleans")),
            };
            Val::Flags(set)
        }
        Type::Own(_) | Type::Borrow(_) => return Err(misfit(path, "a resource cannot be given as JSON".into())),
        Type::Future(_) | Type::Stream(_) | Type::ErrorContext => {
            return Err(misfit(path, "a future, stream or error context cannot be given as JSON".into()));
        }
    })
}

/// The items of a list, each a `ty`; exactly `len` of them when given.
fn items(value: &Value, ty: &Type, len: Option<usize>, path: &mut String) -> Result<Vec<Val>, Misfit> {
    let given = value
        .as_array()
        .ok_or_else(|| Misfit { path: path.clone(), message: format!("expected an array, found {}", kind(value)) })?;
    if let Some(len) = len.filter(|len| *len != given.len()) {
        return Err(Misfit { path: path.clone(), message: format!("expected {len} items, found {}", given.len()) });
    }
    let mut vals = Vec::with_capacity(given.len());
    for (i, item) in given.iter().enumerate() {
        let at = path.len();
        path.push_str(&format!("[{i}]"));
        vals.push(to_val(item, ty, path)?);
        path.truncate(at);
    }
    Ok(vals)
}

/// `val` as JSON, in the form its type's schema describes.
pub(crate) fn to_json(val: &Val, ty: &Type) -> Json {
    let number = |f: f64| serde_json::Number::from_f64(f).map_or_else(|| Json::String(f.to_string()), Json::Number);
    match val {
        Val::Bool(b) => Json::Bool(*b),
        Val::S8(n) => Json::Number((*n).into()),
        Val::U8(n) => Json::Number((*n).into()),
        Val::S16(n) => Json::Number((*n).into()),
        Val::U16(n) => Json::Number((*n).into()),
        Val::S32(n) => Json::Number((*n).into()),
        Val::U32(n) => Json::Number((*n).into()),
        Val::S64(n) => Json::Number((*n).into()),
        Val::U64(n) => Json::Number((*n).into()),
        // A NaN or an infinity is no JSON number: its text, as Wassette writes it.
        Val::Float32(f) => number(f64::from(*f)),
        Val::Float64(f) => number(*f),
        Val::Char(c) => Json::String(c.to_string()),
        Val::String(s) => Json::String(s.clone()),
        Val::List(items) | Val::FixedLengthList(items) => {
            let item_ty = match ty {
                Type::List(list) => Some(list.ty()),
                Type::FixedLengthList(list) => Some(list.ty()),
                _ => None,
            };
            Json::Array(items.iter().map(|item| to_json_of(item, item_ty.as_ref())).collect())
        }
        Val::Tuple(items) => {
            let types: Vec<Type> = match ty {
                Type::Tuple(tuple) => tuple.types().collect(),
                _ => Vec::new(),
            };
            Json::Array(items.iter().enumerate().map(|(i, item)| to_json_of(item, types.get(i))).collect())
        }
        Val::Map(entries) => {
            let (key_ty, value_ty) = match ty {
                Type::Map(map) => (Some(map.key()), Some(map.value())),
                _ => (None, None),
            };
            Json::Array(
                entries
                    .iter()
                    .map(|(k, v)| {
                        Json::object([
                            ("key", to_json_of(k, key_ty.as_ref())),
                            ("value", to_json_of(v, value_ty.as_ref())),
                        ])
                    })
                    .collect(),
            )
        }
        Val::Record(fields) => {
            let types: Vec<(String, Type)> = match ty {
                Type::Record(record) => record.fields().map(|f| (f.name.to_string(), f.ty)).collect(),
                _ => Vec::new(),
            };
            let field_ty = |name: &str| types.iter().find(|(n, _)| n == name).map(|(_, ty)| ty);
            Json::object(fields.iter().map(|(name, v)| (name.clone(), to_json_of(v, field_ty(name)))))
        }
        Val::Variant(tag, payload) => {
            let case_ty = match ty {
                Type::Variant(variant) => variant.cases().find(|case| case.name == tag).and_then(|case| case.ty),
                _ => None,
            };
            let mut entries = vec![("tag".to_string(), Json::String(tag.clone()))];
            if let Some(payload) = payload {
                entries.push(("val".to_string(), to_json_of(payload, case_ty.as_ref())));
            }
            Json::Object(entries)
        }
        Val::Enum(name) => Json::String(name.clone()),
        Val::Option(None) => Json::Null,
        Val::Option(Some(inner)) => {
            let inner_ty = match ty {
                Type::Option(option) => Some(option.ty()),
                _ => None,
            };
            to_json_of(inner, inner_ty.as_ref())
        }
        Val::Result(result) => {
            let (side, payload, side_ty) = match (result, ty) {
                (Ok(payload), Type::Result(r)) => ("ok", payload, r.ok()),
                (Err(payload), Type::Result(r)) => ("err", payload, r.err()),
                (Ok(payload), _) => ("ok", payload, None),
                (Err(payload), _) => ("err", payload, None),
            };
            let value = payload.as_deref().map_or(Json::Null, |v| to_json_of(v, side_ty.as_ref()));
            Json::object([(side, value)])
        }
        // The schema's form (an object of booleans, every flag named), not
        // Wassette's array of names, which its own schema refuses.
        Val::Flags(set) => match ty {
            Type::Flags(flags) => {
                Json::object(flags.names().map(|name| (name, Json::Bool(set.iter().any(|s| s == name)))))
            }
            _ => Json::object(set.iter().map(|name| (name.clone(), Json::Bool(true)))),
        },
        Val::Resource(_) => Json::text("resource"),
        Val::Future(_) => Json::text("future value"),
        Val::Stream(_) => Json::text("stream value"),
        Val::ErrorContext(_) => Json::text("error context"),
    }
}

fn to_json_of(val: &Val, ty: Option<&Type>) -> Json {
    match ty {
        Some(ty) => to_json(val, ty),
        // Only flags need their type; without it, the names set.
        None => to_json(val, &Type::Bool),
    }
}

/// A value shown as text: a string as itself, anything else as its JSON.
pub(crate) fn display(value: &Json) -> String {
    match value {
        Json::String(text) => text.clone(),
        other => other.to_text(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_whole_and_in_range() {
        let path = &mut "n".to_string();
        assert_eq!(to_val(&serde_json::json!(7), &Type::U8, path), Ok(Val::U8(7)));
        assert!(to_val(&serde_json::json!(256), &Type::U8, path).unwrap_err().message.contains("out of range"));
        assert!(to_val(&serde_json::json!(1.5), &Type::S32, path).unwrap_err().message.contains("whole number"));
        assert!(to_val(&serde_json::json!(-1), &Type::U64, path).is_err());
        assert!(to_val(&serde_json::json!("7"), &Type::S64, path).unwrap_err().message.contains("found a string"));
    }

    #[test]
    fn chars_are_one_character() {
        let path = &mut "c".to_string();
        assert_eq!(to_val(&serde_json::json!("é"), &Type::Char, path), Ok(Val::Char('é')));
        assert!(to_val(&serde_json::json!("ab"), &Type::Char, path).is_err());
        assert!(to_val(&serde_json::json!(""), &Type::Char, path).is_err());
    }

    #[test]
    fn a_missing_parameter_is_named() {
        let params = [("path".to_string(), Type::String)];
        let misfit = arguments(&serde_json::json!({}), &params).unwrap_err();
        assert_eq!(misfit.to_string(), "argument `path`: missing (every parameter is required)");
        let misfit = arguments(&serde_json::json!([]), &params).unwrap_err();
        assert!(misfit.message.contains("not an object"));
    }
}
