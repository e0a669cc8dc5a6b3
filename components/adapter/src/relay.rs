//! The request's client, relayed to the router (`mcp-wit:adapter/client-relay`):
//! before each call that may reach the client, the request's link goes to
//! the client cell, which answers the router's questions from it; after the
//! call, what the router sent and asked comes back into the request's link,
//! which ends the request with it as the native host would (notifications
//! before the answer, an `input_required` round, or -32021).

use mcp_wit_protocol::client::LinkReport;
use mcp_wit_protocol::contract::ServerCapabilities;
use mcp_wit_protocol::{CacheHint, CallContext};

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

thread_local! {
    /// Whether the router said its lists or resources may change (learnt
    /// with its capabilities, which the core asks before the cache hint).
    static MAY_CHANGE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// How long clients may reuse the router's lists and reads: the default,
/// unless it said they may change. No client of an engine hears of a
/// change, so such results get no freshness time (`ttlMs` 0) rather than a
/// public minute of a list that may be stale.
pub fn cache_hint() -> CacheHint {
    match MAY_CHANGE.get() {
        true => CacheHint { ttl_ms: 0, ..CacheHint::default() },
        false => CacheHint::default(),
    }
}

/// What the router declares, less what no client of an engine would get:
/// list changes and resource updates (nothing lives between an engine's
/// requests to hold a `subscriptions/listen` stream or a subscription), so
/// that clients do not wait for them.
pub fn carried(mut capabilities: ServerCapabilities) -> ServerCapabilities {
    let declared = |flag: &mut Option<bool>| flag.take() == Some(true);
    let mut may_change = false;
    if let Some(tools) = &mut capabilities.tools {
        may_change |= declared(&mut tools.list_changed);
    }
    if let Some(prompts) = &mut capabilities.prompts {
        may_change |= declared(&mut prompts.list_changed);
    }
    if let Some(resources) = &mut capabilities.resources {
        may_change |= declared(&mut resources.list_changed);
        may_change |= declared(&mut resources.subscribe);
    }
    MAY_CHANGE.set(may_change);
    capabilities
}
