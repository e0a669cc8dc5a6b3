//! `#[router]` natively: what the contract's functions answer for a router
//! written with the attributes.

// The router has a resource template, which only the extension lists.
#![cfg(feature = "extension")]

use std::cell::Cell;

use mcp_wit_sdk::prelude::*;
use mcp_wit_sdk::types::{Annotations, PromptArgument, Role};
use mcp_wit_sdk::{Router, serde_json};
use serde_json::{Value, json};

#[derive(Default)]
struct Weather {
    calls: Cell<u32>,
}

#[derive(Deserialize, JsonSchema)]
struct ForecastArgs {
    /// The city.
    city: String,
    days: Option<u8>,
}

#[derive(Serialize, JsonSchema)]
struct Forecast {
    summary: String,
}

#[derive(Deserialize, JsonSchema)]
struct CityName {
    name: String,
}

#[derive(Deserialize, JsonSchema)]
struct PlanArgs {
    /// Where to.
    destination: String,
    /// When.
    month: Option<String>,
}

#[router(name = "weather", instructions = "Forecasts.", tools_list_changed, resources_subscribe = false)]
impl Weather {
    /// Forecast for a city.
    ///
    /// Second paragraph.
    #[tool(read_only, destructive = false)]
    fn forecast(&self, args: ForecastArgs) -> Result<Json<Forecast>, ToolError> {
        self.calls.set(self.calls.get() + 1);
        Ok(Json(Forecast { summary: format!("{} days in {}", args.days.unwrap_or(1), args.city) }))
    }

    #[tool(name = "how-many")]
    fn how_many(&self, cx: &Context) -> String {
        cx.progress(1.0, None, None);
        self.calls.get().to_string()
    }

    /// Fails with a parse error.
    #[tool]
    fn parse(&self) -> Result<String, ToolError> {
        Ok("x".parse::<i32>()?.to_string())
    }

    #[tool(unlisted)]
    fn hidden(&self) -> &'static str {
        "hidden"
    }

    #[tool(input_schema = r#"{"type":"object"}"#, meta = mcp_wit_sdk::types::ToolMeta {
        output_hint: Some("hint".into()), config: None, secrets: None, config_meta: None, extra: None,
    })]
    fn raw(&self, args: Value) -> CallToolResult {
        CallToolResult { is_error: Some(true), ..CallToolResult::success(vec![Content::text(args.to_string())]) }
    }

    /// The stations.
    #[resource(uri = "weather://stations", annotations = Annotations::for_audience([Role::User]))]
    fn stations(&self) -> &'static str {
        "Oslo"
    }

    #[resource(uri = "weather://logo", mime_type = "image/png")]
    fn logo(&self) -> Vec<u8> {
        vec![0, 1, 2, 3]
    }

    #[resource(uri = "weather://secret", unlisted)]
    fn secret(&self, uri: &str) -> Result<String, ResourceError> {
        Err(ResourceError::execution_error(format!("{uri} is offline")))
    }

    /// One city.
    #[resource_template(uri_template = "weather://city/{name}", mime_type = "text/plain")]
    fn city(&self, uri: &str, city: CityName) -> String {
        format!("{uri}: {}", city.name)
    }

    /// Plans a trip.
    #[prompt]
    fn plan(&self, args: PlanArgs) -> Vec<PromptMessage> {
        vec![PromptMessage::user(format!("Go to {} in {}", args.destination, args.month.unwrap_or_default()))]
    }

    #[prompt(name = "fixed", arguments = vec![PromptArgument { name: "x".into(), description: None, required: Some(true) }])]
    fn fixed(&self) -> String {
        "fixed".into()
    }
}

fn call(name: &str, arguments: Value) -> Result<CallToolResult, ToolError> {
    Weather::with_instance(|w| w.call_tool(name, &arguments.to_string()))
}

fn schema(json: &str) -> Value {
    serde_json::from_str(json).unwrap()
}

#[test]
fn the_router_describes_itself() {
    assert_eq!(Weather::name(), "weather");
    assert_eq!(Weather::instructions(), "Forecasts.");
    let caps = Weather::capabilities();
    assert_eq!(caps.tools.unwrap().list_changed, Some(true));
    let resources = caps.resources.unwrap();
    assert_eq!((resources.subscribe, resources.list_changed), (Some(false), None));
    assert!(caps.prompts.is_some());
    assert!(caps.completions.is_none(), "no #[complete]");
}

#[test]
fn tools_are_listed_with_schemas_from_their_types() {
    let tools = Weather::list_tools();
    let names: Vec<_> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["forecast", "how-many", "parse", "raw"]);
    let forecast = &tools[0];
    assert_eq!(forecast.description, "Forecast for a city.\n\nSecond paragraph.");
    let input = schema(&forecast.input_schema.json);
    assert_eq!(input["type"], "object");
    assert_eq!(input["properties"]["city"]["description"], "The city.");
    assert_eq!(input["required"], json!(["city"]));
    let output = schema(&forecast.output_schema.as_ref().unwrap().json);
    assert_eq!(output["properties"]["summary"]["type"], "string");
    let hints = forecast.annotations.as_ref().unwrap();
    assert_eq!((hints.read_only, hints.destructive, hints.streaming), (Some(true), Some(false), None));

    assert_eq!(schema(&tools[1].input_schema.json), json!({ "type": "object", "properties": {} }));
    assert_eq!(tools[1].description, "");
    assert!(tools[1].output_schema.is_none() && tools[1].annotations.is_none());
    assert_eq!(tools[3].input_schema.json, r#"{"type":"object"}"#);
    assert_eq!(tools[3].meta.as_ref().unwrap().output_hint.as_deref(), Some("hint"));
}

#[test]
fn calls_decode_arguments_first() {
    let result = call("forecast", json!({ "city": "Oslo", "days": 2 })).unwrap();
    assert_eq!(result, CallToolResult::success(vec![Content::text(r#"{"summary":"2 days in Oslo"}"#)]));
    let error = call("forecast", json!({ "days": 2 })).unwrap_err();
    assert!(matches!(&error, ToolError::InvalidParameters(m) if m.contains("missing field `city`")), "{error}");
    let error = call("forecast", json!({ "city": "Oslo", "days": 300 })).unwrap_err();
    assert!(matches!(&error, ToolError::InvalidParameters(m) if m.contains("300")), "{error}");
    let error = Weather::with_instance(|w| w.call_tool("how-many", "{not json")).unwrap_err();
    assert!(matches!(error, ToolError::InvalidParameters(_)));
    assert_eq!(call("nope", json!({})), Err(ToolError::not_found("nope")));
    assert_eq!(call("parse", json!({})), Err(ToolError::execution_error("invalid digit found in string")));
    assert_eq!(call("raw", json!({ "a": 1 })).unwrap().is_error, Some(true));
    assert_eq!(text(&call("hidden", json!({})).unwrap()), "hidden", "unlisted, still callable");
}

#[test]
fn state_lives_in_the_one_instance() {
    let before: u32 = text(&call("how-many", json!({})).unwrap()).parse().unwrap();
    call("forecast", json!({ "city": "Lima" })).unwrap();
    let after: u32 = text(&call("how-many", json!({})).unwrap()).parse().unwrap();
    assert!(after > before);
}

fn text(result: &CallToolResult) -> &str {
    match &result.content[0] {
        Content::Text(t) => &t.text,
        _ => panic!("not text"),
    }
}

#[test]
fn resources_are_listed_and_read_by_uri_or_template() {
    let resources = Weather::list_resources();
    let uris: Vec<_> = resources.iter().map(|r| (r.uri.as_str(), r.mime_type.as_str())).collect();
    assert_eq!(uris, [("weather://stations", "text/plain"), ("weather://logo", "image/png")]);
    assert_eq!(resources[0].name, "stations");
    assert_eq!(resources[0].description.as_deref(), Some("The stations."));
    assert!(resources[0].annotations.is_some());

    let read = |uri: &str| Weather::with_instance(|w| w.read_resource(uri));
    assert_eq!(
        read("weather://stations").unwrap().contents,
        [ResourceContents::text("weather://stations", Some("text/plain"), "Oslo")]
    );
    assert_eq!(
        read("weather://logo").unwrap().contents,
        [ResourceContents::blob("weather://logo", Some("image/png"), &[0, 1, 2, 3])]
    );
    assert_eq!(read("weather://secret"), Err(ResourceError::execution_error("weather://secret is offline")));
    assert_eq!(
        read("weather://city/Lima").unwrap().contents,
        [ResourceContents::text("weather://city/Lima", Some("text/plain"), "weather://city/Lima: Lima")]
    );
    assert_eq!(read("weather://else"), Err(ResourceError::not_found("weather://else")));

    let templates = Weather::list_resource_templates();
    assert_eq!(templates.len(), 1);
    assert_eq!(templates[0].uri_template, "weather://city/{name}");
    assert_eq!(templates[0].description.as_deref(), Some("One city."));
}

#[test]
fn prompts_take_their_arguments_from_a_struct() {
    let prompts = Weather::list_prompts();
    let arguments = prompts[0].arguments.as_ref().unwrap();
    let listed: Vec<_> = arguments.iter().map(|a| (a.name.as_str(), a.description.as_deref(), a.required)).collect();
    assert_eq!(listed, [("destination", Some("Where to."), Some(true)), ("month", Some("When."), Some(false))]);
    assert_eq!(prompts[1].arguments.as_ref().unwrap()[0].name, "x");

    let get = |name: &str, arguments: Value| {
        Weather::with_instance(|w| w.get_prompt(name, arguments.as_object().cloned().unwrap()))
    };
    let plan = get("plan", json!({ "destination": "Lima", "month": "May" })).unwrap();
    assert_eq!(plan.description.as_deref(), Some("Plans a trip."));
    assert_eq!(plan.messages, [PromptMessage::user("Go to Lima in May")]);
    let error = get("plan", json!({})).unwrap_err();
    assert!(matches!(&error, PromptError::InvalidParameters(m) if m.contains("destination")), "{error}");
    assert_eq!(get("fixed", json!({})).unwrap().messages, [PromptMessage::user("fixed")]);
    assert_eq!(get("nope", json!({})), Err(PromptError::not_found("nope")));
}
