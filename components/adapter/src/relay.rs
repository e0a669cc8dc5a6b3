//! The request's client, relayed to the router (`mcp-wit:adapter/client-relay`):
//! before each call that may reach the client, the request's link goes to
//! the client cell, which answers the router's questions from it; after the
//! call, what the router sent and asked comes back into the request's link,
//! which ends the request with it as the native host would (notifications
//! before the answer, an `input_required` round, or -32021).

use mcp_wit_protocol::CallContext;
use mcp_wit_protocol::client::LinkReport;
use mcp_wit_protocol::contract::ServerCapabilities;

use crate::mcp_wit::adapter::client_relay;

thread_local! {
    /// Asked once: the composition does not change under an instance.
    static CONNECTED: bool = client_relay::connected();
}

/// Whether the router reaches its client (it imports it).
pub fn connected() -> bool {
    CONNECTED.with(|connected| *connected)
}

/// `call` (a call of the router's) with the request's client relayed to it.
pub fn relayed<T>(cx: &CallContext, call: impl FnOnce() -> T) -> T {
    let Some(link) = cx.client.as_ref().filter(|_| connected()) else { return call() };
    client_relay::begin(&serde_json::to_string(&link.relay()).expect("a link serialises"));
    let answer = call();
    match serde_json::from_str::<LinkReport>(&client_relay::finish()) {
        Ok(report) => link.absorb(report),
        // Built with the cell from one source: not expected.
        Err(e) => eprintln!("adapter: cannot read what the router sent its client: {e}"),
    }
    answer
}

/// What the router declares, less what no client of an engine would get:
/// list changes and resource updates (nothing lives between an engine's
/// requests to hold a `subscriptions/listen` stream or a subscription), so
/// that clients do not wait for them.
pub fn carried(mut capabilities: ServerCapabilities) -> ServerCapabilities {
    if let Some(tools) = &mut capabilities.tools {
        tools.list_changed = None;
    }
    if let Some(prompts) = &mut capabilities.prompts {
        prompts.list_changed = None;
    }
    if let Some(resources) = &mut capabilities.resources {
        resources.list_changed = None;
        resources.subscribe = None;
    }
    capabilities
}
