//! JSON Schemas of WIT types, as Wassette writes them (its
//! `component2json` crate, `type_to_json_schema`,
//! microsoft/wassette@29890fd `crates/component2json/src/lib.rs`), key
//! for key: the same component lists the same input schemas under both
//! hosts, and a client moved from one to the other sees no change.
//!
//! Their conventions, kept as they are: every number is `"number"` (the
//! arguments are still checked to be integers in range when converted);
//! every parameter and field is required, an `option` one included (its
//! absence is written `null`); a variant is `{"tag", "val"}`; a result
//! `{"ok"}` or `{"err"}`; flags an object of booleans.

use wasmtime::component::Type;

use super::json::Json;

/// The schema of a value of type `ty`.
pub(crate) fn of(ty: &Type) -> Json {
    let typed = |name: &str| Json::object([("type", Json::text(name))]);
    match ty {
        Type::Bool => typed("boolean"),
        Type::S8
        | Type::S16
        | Type::S32
        | Type::S64
        | Type::U8
        | Type::U16
        | Type::U32
        | Type::U64
        | Type::Float32
        | Type::Float64 => typed("number"),
        Type::Char => {
            Json::object([("type", Json::text("string")), ("description", Json::text("1 unicode codepoint"))])
        }
        Type::String => typed("string"),
        Type::List(list) => array_of(of(&list.ty())),
        Type::FixedLengthList(list) => {
            // Not in Wassette's wasmtime: a list of `len` items, as a tuple's bounds are written.
            let len = Json::count(list.len() as usize);
            Json::object([
                ("type", Json::text("array")),
                ("items", of(&list.ty())),
                ("minItems", len.clone()),
                ("maxItems", len),
            ])
        }
        Type::Map(map) => array_of(object_of([("key", of(&map.key())), ("value", of(&map.value()))])),
        Type::Record(record) => object_of(record.fields().map(|field| (field.name.to_string(), of(&field.ty)))),
        Type::Tuple(tuple) => {
            let items: Vec<Json> = tuple.types().map(|ty| of(&ty)).collect();
            let len = Json::count(items.len());
            Json::object([
                ("type", Json::text("array")),
                ("prefixItems", Json::Array(items)),
                ("minItems", len.clone()),
                ("maxItems", len),
            ])
        }
        Type::Variant(variant) => {
            let cases = variant.cases().map(|case| {
                let tag = ("tag".to_string(), Json::object([("const", Json::text(case.name))]));
                match case.ty {
                    Some(payload) => object_of([tag, ("val".to_string(), of(&payload))]),
                    None => object_of([tag]),
                }
            });
            Json::object([("oneOf", Json::Array(cases.collect()))])
        }
        Type::Enum(names) => Json::object([("type", Json::text("string")), ("enum", Json::texts(names.names()))]),
        Type::Option(option) => Json::object([("anyOf", Json::Array(vec![typed("null"), of(&option.ty())]))]),
        Type::Result(result) => {
            let side = |ty: Option<Type>| ty.map_or_else(|| typed("null"), |ty| of(&ty));
            Json::object([(
                "oneOf",
                Json::Array(vec![object_of([("ok", side(result.ok()))]), object_of([("err", side(result.err()))])]),
            )])
        }
        Type::Flags(flags) => Json::object([
            ("type", Json::text("object")),
            ("properties", Json::object(flags.names().map(|name| (name, typed("boolean"))))),
        ]),
        // Wassette adds the engine's debug text of the resource type, which
        // no client can use and no two engine versions write alike.
        Type::Own(_) => Json::object([("type", Json::text("string")), ("description", Json::text("own'd resource"))]),
        Type::Borrow(_) => {
            Json::object([("type", Json::text("string")), ("description", Json::text("borrow'd resource"))])
        }
        Type::Future(_) => {
            Json::object([("type", Json::text("object")), ("description", Json::text("Future type (async operation)"))])
        }
        Type::Stream(_) => {
            Json::object([("type", Json::text("array")), ("description", Json::text("Stream type (async iteration)"))])
        }
        Type::ErrorContext => {
            Json::object([("type", Json::text("object")), ("description", Json::text("Error context type"))])
        }
    }
}

/// `{"type": "array", "items": items}`.
fn array_of(items: Json) -> Json {
    Json::object([("type", Json::text("array")), ("items", items)])
}

/// An object schema with `properties`, all required.
pub(crate) fn object_of<K: Into<String>>(properties: impl IntoIterator<Item = (K, Json)>) -> Json {
    let properties: Vec<(String, Json)> = properties.into_iter().map(|(k, v)| (k.into(), v)).collect();
    let required = Json::texts(properties.iter().map(|(name, _)| name.clone()));
    Json::object([("type", Json::text("object")), ("properties", Json::Object(properties)), ("required", required)])
}

/// A function's input schema: its parameters, by name, all required.
pub(crate) fn input<'a>(params: impl Iterator<Item = (&'a str, Type)>) -> Json {
    object_of(params.map(|(name, ty)| (name.to_string(), of(&ty))))
}

/// A function's output schema: its result under `result`; none for a
/// function without one.
pub(crate) fn output(result: Option<&Type>) -> Option<Json> {
    result.map(|ty| object_of([("result", of(ty))]))
}
