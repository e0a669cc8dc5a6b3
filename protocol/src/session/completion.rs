//! `completion/complete`: the reference routed to its router, the result
//! or the router's reason mapped to MCP.

use std::borrow::Cow;

use serde_json::value::RawValue;

use super::exchange::Exchange;
use crate::contract;
use crate::jsonrpc::{RpcError, code};
use crate::mapping;
use crate::params;
use crate::router::{Router, RouterComponent};

impl<C: RouterComponent> Exchange<C> {
    pub(super) async fn complete(&mut self, id: &RawValue, params: Option<&RawValue>) -> Result<(), RpcError> {
        let p: params::CompleteParams<'_> = params::decode(params)?;
        // Type-check the parts the guest relies on before handing them over raw.
        let reference = serde_json::from_str::<params::CompletionReference>(p.reference.get())
            .map_err(|e| RpcError::invalid_params(format!("`ref`: {e}")))?;
        serde_json::from_str::<params::CompletionArgument>(p.argument.get())
            .map_err(|e| RpcError::invalid_params(format!("`argument`: {e}")))?;
        if p.context.is_some_and(|c| !c.get().starts_with('{')) {
            return Err(RpcError::invalid_params("`context` must be an object"));
        }
        let (mount, reference) = match &reference {
            _ if self.server.routers().is_single() => (0, Cow::Borrowed(p.reference.get())),
            params::CompletionReference::Prompt { name } => {
                let (mount, name) = self
                    .server
                    .routers()
                    .route_name(name)
                    .ok_or_else(|| RpcError::new(code::INVALID_PARAMS, format!("Unknown prompt: {name}")))?;
                (mount, Cow::Owned(serde_json::json!({ "type": "ref/prompt", "name": name }).to_string()))
            }
            params::CompletionReference::Resource { uri } => {
                let (mount, uri) = self
                    .server
                    .routers()
                    .route_uri(uri)
                    .ok_or_else(|| RpcError::new(code::INVALID_PARAMS, format!("Unknown resource: {uri}")))?;
                (mount, Cow::Owned(serde_json::json!({ "type": "ref/resource", "uri": uri }).to_string()))
            }
        };
        let mut input = format!(r#"{{"ref":{},"argument":{}"#, reference, p.argument.get());
        if let Some(context) = p.context {
            input.push_str(r#","context":"#);
            input.push_str(context.get());
        }
        input.push('}');
        let request = contract::CompletionRequest {
            input: contract::Value { json: input },
            streaming: None,
            meta: p.meta.map(meta_entries).transpose()?,
        };
        match self.guest(mount, async |r, cx| r.complete(cx, &request).await).await? {
            Ok(response) if response.is_error == Some(true) => {
                let text: Vec<&str> = mapping::text_items(&response.content).collect();
                Err(RpcError::internal(format!("completion failed: {}", text.join(" "))))
            }
            Ok(response) => self.reply(id, &mapping::complete_result(&response)),
            // An empty guest message would make an empty error message: say what kind it was.
            Err(contract::CompletionError::NotFound(message)) => {
                Err(RpcError::new(code::INVALID_PARAMS, or_else(message, "no completions for this reference")))
            }
            Err(contract::CompletionError::InvalidParameters(message)) => {
                Err(RpcError::new(code::INVALID_PARAMS, or_else(message, "invalid completion request")))
            }
            Err(contract::CompletionError::SchemaError(message)) => {
                Err(RpcError::new(code::INVALID_PARAMS, or_else(message, "completion schema error")))
            }
            Err(contract::CompletionError::ExecutionError(message)) => {
                Err(RpcError::internal(or_else(message, "completion failed")))
            }
        }
    }
}

/// `_meta` of a request → the contract's meta entries (non-string values as JSON text).
fn meta_entries(meta: &RawValue) -> Result<Vec<contract::MetaEntry>, RpcError> {
    let map: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(meta.get()).map_err(|e| RpcError::invalid_params(format!("`_meta`: {e}")))?;
    Ok(map
        .into_iter()
        .map(|(key, value)| {
            let value = match value {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            contract::MetaEntry { key, value }
        })
        .collect())
}

/// `message`, or `fallback` when the guest gave none.
fn or_else(message: String, fallback: &str) -> String {
    if message.trim().is_empty() { fallback.to_string() } else { message }
}
