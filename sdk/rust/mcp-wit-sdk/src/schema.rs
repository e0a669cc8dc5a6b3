//! JSON Schemas from Rust types (schemars, draft 2020-12), shaped the way
//! MCP wants them: what a tool takes, what it returns, a prompt's arguments
//! and the form an elicitation shows.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

use crate::types::PromptArgument;

/// The schema of `T` as a JSON object.
fn object_for<T: JsonSchema>(settings: SchemaSettings) -> Map<String, Value> {
    match settings.into_generator().into_root_schema_for::<T>().to_value() {
        Value::Object(object) => object,
        // `true`/`false` schemas (e.g. for `serde_json::Value`): anything goes.
        _ => Map::new(),
    }
}

/// The type's name and doc comment, at the root, say nothing to the model
/// that the tool's own name and description do not (as rmcp does).
fn strip_root_noise(object: &mut Map<String, Value>) {
    object.remove("title");
    object.remove("description");
}

fn is_object_schema(object: &Map<String, Value>) -> bool {
    object.get("type").and_then(Value::as_str) == Some("object")
}

/// A tool's `inputSchema` for arguments of type `T`, as JSON text. MCP wants
/// an object schema: `T` should be a struct (the host leaves a tool whose
/// input schema is not one out of `tools/list`, with a warning).
pub fn input_schema<T: JsonSchema>() -> String {
    let mut object = object_for::<T>(SchemaSettings::draft2020_12().for_deserialize());
    strip_root_noise(&mut object);
    if object.is_empty() {
        object.insert("type".into(), "object".into());
    }
    Value::Object(object).to_string()
}

/// The `inputSchema` of a tool without arguments.
pub const EMPTY_INPUT_SCHEMA: &str = r#"{"type":"object","properties":{}}"#;

/// A tool's `outputSchema` for results of type `T` (what `T` serialises
/// to), as JSON text; `None` unless `T` serialises to a JSON object, the
/// only shape `structuredContent` may take.
pub fn output_schema<T: JsonSchema>() -> Option<String> {
    let mut object = object_for::<T>(SchemaSettings::draft2020_12().for_serialize());
    strip_root_noise(&mut object);
    is_object_schema(&object).then(|| Value::Object(object).to_string())
}

/// A prompt's arguments from the fields of `T`: name, doc comment, and
/// whether it must be given. (Prompt arguments are strings in MCP: give `T`
/// `String` or `Option<String>` fields.)
pub fn prompt_arguments<T: JsonSchema>() -> Vec<PromptArgument> {
    let object = object_for::<T>(inlined());
    let required: Vec<&str> =
        object.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let Some(properties) = object.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(name, property)| PromptArgument {
            name: name.clone(),
            description: property.get("description").and_then(Value::as_str).map(Into::into),
            required: Some(required.contains(&name.as_str())),
        })
        .collect()
}

/// The `requestedSchema` of an elicitation for answers of type `T`: MCP
/// allows only a flat object of primitive properties (string, number,
/// integer, boolean, string enums), each of one type.
pub fn elicitation_schema<T: JsonSchema>() -> Value {
    let mut object = object_for::<T>(inlined());
    let mut properties = match object.remove("properties") {
        Some(Value::Object(properties)) => properties,
        _ => Map::new(),
    };
    for property in properties.values_mut() {
        if let Value::Object(property) = property {
            flatten_primitive(property);
        }
    }
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(properties));
    if let Some(required) = object.remove("required") {
        schema.insert("required".into(), required);
    }
    Value::Object(schema)
}

fn inlined() -> SchemaSettings {
    let mut settings = SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    settings
}

/// One type per property (`Option<T>` gives `["T", "null"]`), and `format`
/// only where MCP's string schema allows one.
fn flatten_primitive(property: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = property.get("type") {
        let single = types.iter().find(|t| t.as_str() != Some("null")).cloned();
        match single {
            Some(single) => property.insert("type".into(), single),
            None => property.remove("type"),
        };
    }
    // `Option<Enum>` comes as `anyOf: [{enum}, {null}]`.
    if let Some(Value::Array(any_of)) = property.remove("anyOf")
        && let Some(Value::Object(inner)) = any_of.into_iter().find(|s| s.get("type") != Some(&"null".into()))
    {
        for (key, value) in inner {
            property.entry(key).or_insert(value);
        }
    }
    if let Some(Value::Array(values)) = property.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    let is_string = property.get("type").and_then(Value::as_str) == Some("string");
    let format_allowed =
        matches!(property.get("format").and_then(Value::as_str), Some("email" | "uri" | "date" | "date-time"));
    if !(is_string && format_allowed) {
        property.remove("format");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(JsonSchema, serde::Deserialize, serde::Serialize)]
    #[allow(dead_code, reason = "only the schema is used")]
    /// A type whose doc must not reach the schema's root.
    struct Forecast {
        /// The city.
        city: String,
        days: Option<u8>,
    }

    #[derive(JsonSchema, serde::Deserialize)]
    #[allow(dead_code, reason = "only the schema is used")]
    #[serde(rename_all = "lowercase")]
    enum Unit {
        Celsius,
        Fahrenheit,
    }

    #[derive(JsonSchema, serde::Deserialize)]
    #[allow(dead_code, reason = "only the schema is used")]
    struct Preferences {
        /// Your name.
        name: String,
        unit: Option<Unit>,
        age: Option<u8>,
        email: Option<String>,
    }

    #[test]
    fn input_schemas_are_object_schemas_without_root_noise() {
        let schema: Value = serde_json::from_str(&input_schema::<Forecast>()).unwrap();
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], json!(["city"]));
        assert_eq!(schema["properties"]["city"], json!({ "type": "string", "description": "The city." }));
        assert!(schema.get("title").is_none() && schema.get("description").is_none(), "{schema}");
        // The fields keep their order (sorted by name, they would too).
        let keys: Vec<_> = schema["properties"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["city", "days"]);
    }

    #[derive(JsonSchema)]
    #[allow(dead_code, reason = "only the schema is used")]
    struct Backwards {
        zeta: String,
        alpha: String,
    }

    #[test]
    #[cfg(feature = "preserve_order")]
    fn properties_keep_the_order_of_the_fields() {
        let names: Vec<_> = prompt_arguments::<Backwards>().into_iter().map(|a| a.name).collect();
        assert_eq!(names, ["zeta", "alpha"]);
    }

    #[test]
    fn output_schemas_describe_what_serialises_and_only_objects() {
        let schema: Value = serde_json::from_str(&output_schema::<Forecast>().unwrap()).unwrap();
        // Serialised, an `Option` field is always there (as `null` at worst).
        assert_eq!(schema["required"], json!(["city", "days"]));
        assert_eq!(output_schema::<String>(), None);
        assert_eq!(output_schema::<Vec<u8>>(), None);
    }

    #[test]
    fn prompt_arguments_come_from_the_fields() {
        let arguments = prompt_arguments::<Forecast>();
        assert_eq!(arguments.len(), 2);
        assert_eq!(
            (arguments[0].name.as_str(), arguments[0].description.as_deref(), arguments[0].required),
            ("city", Some("The city."), Some(true))
        );
        assert_eq!((arguments[1].name.as_str(), arguments[1].required), ("days", Some(false)));
    }

    #[test]
    fn elicitation_schemas_are_flat_and_primitive() {
        let schema = elicitation_schema::<Preferences>();
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {
                    "name": { "type": "string", "description": "Your name." },
                    "unit": { "type": "string", "enum": ["celsius", "fahrenheit"] },
                    "age": { "type": "integer", "minimum": 0, "maximum": 255 },
                    "email": { "type": "string" },
                },
                "required": ["name"],
            })
        );
    }
}
