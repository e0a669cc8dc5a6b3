//! Write an MCP server in Rust as a WebAssembly component for
//! [mcp-wit](https://github.com/): tools, resources and prompts are plain
//! methods; `#[router]` writes the `wasix:mcp/router@25.3.26` contract (and
//! mcp-wit's extension) around them.
//!
//! ```no_run
//! use std::cell::Cell;
//!
//! use mcp_wit_sdk::prelude::*;
//!
//! #[derive(Default)]
//! struct Weather {
//!     // State lives as long as the host keeps the instance. The router is
//!     // shared (`&self`): keep what changes in a `Cell` or `RefCell`.
//!     forecasts: Cell<u32>,
//! }
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct ForecastArgs {
//!     /// The city.
//!     city: String,
//!     /// How many days ahead (1 by default).
//!     days: Option<u8>,
//! }
//!
//! #[derive(Serialize, JsonSchema)]
//! struct Forecast {
//!     summary: String,
//! }
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct Name {
//!     /// What should I call you?
//!     name: String,
//! }
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct TripArgs {
//!     /// Where to.
//!     destination: String,
//! }
//!
//! #[router(name = "weather", instructions = "Forecasts for cities.")]
//! impl Weather {
//!     /// Forecast for a city.
//!     #[tool(read_only)]
//!     fn forecast(&self, args: ForecastArgs) -> Result<Json<Forecast>, ToolError> {
//!         if args.city.is_empty() {
//!             return Err(ToolError::invalid_parameters("`city` is empty"));
//!         }
//!         self.forecasts.set(self.forecasts.get() + 1);
//!         let days = args.days.unwrap_or(1);
//!         Ok(Json(Forecast { summary: format!("{days} sunny day(s) in {}", args.city) }))
//!     }
//!
//!     /// Greets whoever asks, by name if they say it.
//!     #[tool]
//!     fn greet(&self, cx: &Context) -> Result<String, ToolError> {
//!         cx.log(LogLevel::Info, "asking for a name");
//!         cx.progress(0.0, Some(1.0), Some("asking"));
//!         let name = match cx.elicit::<Name>("Who are you?") {
//!             Ok(Elicitation::Accept(answer)) => answer.name,
//!             Ok(_) | Err(ClientError::Unsupported(_)) => "stranger".into(),
//!             Err(other) => return Err(other.into()),
//!         };
//!         Ok(format!("Hello, {name}!"))
//!     }
//!
//!     /// The weather stations.
//!     #[resource(uri = "weather://stations", mime_type = "application/json")]
//!     fn stations(&self) -> String {
//!         r#"["Oslo", "Lima"]"#.into()
//!     }
//!
//!     /// Today's report for one city.
//!     #[resource_template(uri_template = "weather://city/{name}")]
//!     fn city(&self, uri: &str) -> Result<String, ResourceError> {
//!         Ok(format!("{uri}: sunny"))
//!     }
//!
//!     /// Plans a trip around the weather.
//!     #[prompt]
//!     fn plan(&self, args: TripArgs) -> Vec<PromptMessage> {
//!         vec![PromptMessage::user(format!("Plan a trip to {} around the forecast.", args.destination))]
//!     }
//! }
//! ```
//!
//! `#[router]` also exports the type as the component's router (pass
//! `export = false` to leave that to [`export!`]); build with
//! `cargo build --release --target wasm32-wasip2` and serve the `.wasm` with
//! `mcp-wit serve`.
//!
//! # Handlers
//!
//! A handler's parameters, in any order: its arguments (one type that is
//! `Deserialize + JsonSchema`; it gives the input schema or the prompt's
//! arguments, doc comments included), `&Context` to reach the client, and
//! for resources `uri: &str`. What it may return is listed by
//! [`IntoToolResult`], [`IntoReadResult`] and [`IntoPromptResult`]:
//! `Json<T>` gives a tool's `outputSchema` and structured content.
//!
//! | attribute | options |
//! | --- | --- |
//! | `#[router]` | `name` (the crate's by default), `instructions`, `tools_list_changed`, `prompts_list_changed`, `resources_list_changed`, `resources_subscribe` (each `= false` to say no explicitly), `export = false` |
//! | `#[tool]` | `name` (the method's by default), `description` (the doc comment by default), `read_only`, `destructive`, `streaming`, `experimental` (each `= false` too), `input_schema = EXPR`, `output_schema = EXPR`, `meta = EXPR` (a [`ToolMeta`](types::ToolMeta)), `unlisted` (callable, not listed) |
//! | `#[resource]` | `uri`, `name`, `description`, `mime_type`, `annotations = EXPR`, `unlisted` (readable, not listed) |
//! | `#[resource_template]` | `uri_template` (`{var}`, `{+var}`), `name`, `title`, `description`, `mime_type`, `annotations = EXPR`; a parameter of a `Deserialize` type gets the URI's variables |
//! | `#[prompt]` | `name`, `description`, `arguments = EXPR` (a `Vec<PromptArgument>`) |
//! | `#[complete]` | takes a [`CompletionRequest`](types::CompletionRequest), returns `Result<CompletionResponse, CompletionError>` |
//! | `#[roots_changed]` | called when the client's roots change |
//!
//! The `EXPR` options and a returned [`CallToolResult`](types::CallToolResult)
//! reach every field of the contract; below them, [`Router`] can be
//! implemented by hand.
//!
//! # Errors and panics
//!
//! Return errors: [`ToolError`], [`ResourceError`] and [`PromptError`] have
//! a constructor per case of the contract, and `?` on any
//! `std::error::Error` gives the "it ran and failed" case with its message.
//! Arguments that do not decode are `invalid-parameters` with serde's
//! message, before the body runs. A panic is a trap: the host fails the
//! request, and it may throw the instance (and its state) away.
//!
//! # State
//!
//! The router is made with `Default` on the first call and kept (one
//! instance, one thread: the component model does not re-enter it). How
//! long it lives is the host's choice: share nothing you cannot lose.
//!
//! # Features
//!
//! `extension` (on by default) exports `mcp-wit:extension/extension`:
//! resource templates, prompts with arguments, subscriptions and roots
//! changes. Without it the component exports the contract only (prompts
//! then get no arguments).
//!
//! `preserve_order` (on by default) keeps schemas' properties, and so
//! prompt arguments, in the order of the struct's fields rather than sorted
//! by name. It turns on serde_json's `preserve_order` for the whole
//! component: every JSON object it builds or parses keeps its order.

extern crate self as mcp_wit_sdk;

mod base64;
pub mod bindings;
mod context;
mod error;
mod outcome;
mod presentation;
mod routing;
pub mod schema;
pub mod types;

pub use context::{
    ClientError, Context, Elicitation, Identity, ListKind, LogLevel, Question, QuestionKind, Root, RpcError,
};
pub use error::{CompletionError, PromptError, ResourceError, ToolError};
pub use mcp_wit_sdk_macros::{complete, prompt, resource, resource_template, roots_changed, router, tool};
pub use outcome::{IntoPromptResult, IntoReadResult, IntoToolResult, Json};
pub use presentation::{APP_MIME_TYPE, APPS_EXTENSION, Decoration, Subject};
pub use routing::{Component, Router, match_uri_template};
pub use {schemars, serde, serde_json};

/// What a router needs, in one `use`.
pub mod prelude {
    pub use crate::types::{CallToolResult, Content, PromptMessage, ResourceContents};
    pub use crate::{
        ClientError, Context, Decoration, Elicitation, Json, ListKind, LogLevel, PromptError, ResourceError, Subject,
        ToolError, complete, prompt, resource, resource_template, roots_changed, router, tool,
    };
    pub use schemars::JsonSchema;
    pub use serde::{Deserialize, Serialize};
}

/// Exports `$router` (a type implementing [`Router`]) as the component's
/// router; `#[router]` does it unless told `export = false`. Once per
/// component.
#[macro_export]
macro_rules! export {
    ($router:ty) => {
        const _: () = {
            type McpWitComponent = $crate::Component<$router>;
    $crate::bindings::__export_world!(McpWitComponent with_types_in $crate::bindings);
        };
    };
}

/// What `#[router]`'s expansion uses; not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use std::sync::OnceLock;

    pub use serde_json::{Map, Value};
    pub use wit_bindgen;

    pub use crate::routing::{decode_arguments, decode_prompt_arguments};
    pub use crate::schema::{EMPTY_INPUT_SCHEMA, input_schema, prompt_arguments};

    /// Whether the component exports the extension (resource templates and
    /// roots changes need it).
    pub const EXTENSION: bool = cfg!(feature = "extension");

    /// Checks that a tool without arguments was given JSON.
    pub fn check_json(json: &str) -> Result<(), crate::ToolError> {
        crate::routing::decode_arguments::<serde::de::IgnoredAny>(json).map(drop)
    }

    /// A resource template's variables, decoded into `V`; a URI whose
    /// variables do not fit is not one of the template's.
    pub fn decode_template_variables<V: serde::de::DeserializeOwned>(
        uri: &str,
        variables: Map<String, Value>,
    ) -> Result<V, crate::ResourceError> {
        serde_json::from_value(Value::Object(variables)).map_err(|_| crate::ResourceError::NotFound(uri.into()))
    }
}
