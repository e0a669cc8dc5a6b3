//! Modern (2026-07-28) requests: admission, `server/discover`,
//! `subscriptions/listen`, and the stamp every modern result carries.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::era::{Client, Era, Request, RequestParams};
use super::exchange::Exchange;
use super::output::Outbox;
use super::stamp::Stamp;
use super::state::SessionState;
use crate::client::ClientCapabilities;
use crate::envelope::{self, CacheScope, Envelope, SUBSCRIPTION_ID_KEY};
use crate::jsonrpc::{RpcError, code};
use crate::listeners::Interest;
use crate::mapping;
use crate::method::Method;
use crate::params;
use crate::router::{Router, RouterComponent};
use crate::routers::{RouterAbout, ServerDescription, merge_about};
use crate::version::ProtocolVersion;

impl<C: RouterComponent> Exchange<C> {
    /// Ends a 2026-07-28 round with `required` (an `InputRequiredResult`).
    pub(super) fn reply_input_required(&mut self, id: &RawValue, mut required: Value) -> Result<(), RpcError> {
        // Written unstamped: the stamp's `_meta` is merged by hand.
        let stamp = self.request.take_stamp();
        if let Some(stamp) = &stamp {
            required["_meta"] = stamp.meta();
        }
        let replied = self.reply(id, &required);
        self.request.set_stamp(stamp);
        replied
    }
}

/// A modern request [`Session::admit`](crate::Session::admit) let in: what it asks for, at which
/// revision, of routers that say this of themselves.
pub struct Admitted {
    method: Method,
    version: ProtocolVersion,
    about: Arc<ServerDescription>,
    client: Client,
}

impl Admitted {
    /// The method it calls.
    pub fn method(&self) -> Method {
        self.method
    }

    /// Whether its client declared extension `id` in this request.
    pub fn client_declares(&self, id: &str) -> bool {
        self.client.capabilities.extension(id).is_some()
    }
}

/// What a client may ask a listen stream to carry.
#[derive(Deserialize, Serialize, Default)]
#[serde(rename_all = "camelCase")]
struct NotificationFilter {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tools_list_changed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    prompts_list_changed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    resources_list_changed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    resource_subscriptions: Option<Vec<String>>,
}

impl NotificationFilter {
    /// The part of `self` the server can deliver: list changes for the
    /// kinds whose `listChanged` it advertises, resource updates when it
    /// advertises `resources.subscribe`.
    fn honoured(&self, advertised: &Value) -> NotificationFilter {
        let offers = |kind: &str, flag: &str| advertised[kind][flag].as_bool().unwrap_or(false);
        let keep = |asked: Option<bool>, offered: bool| asked.filter(|&on| on && offered);
        NotificationFilter {
            tools_list_changed: keep(self.tools_list_changed, offers("tools", "listChanged")),
            prompts_list_changed: keep(self.prompts_list_changed, offers("prompts", "listChanged")),
            resources_list_changed: keep(self.resources_list_changed, offers("resources", "listChanged")),
            resource_subscriptions: self
                .resource_subscriptions
                .clone()
                .filter(|uris| !uris.is_empty() && offers("resources", "subscribe")),
        }
    }
}

impl NotificationFilter {
    /// What a listener with this filter hears of.
    fn interest(&self) -> Interest {
        let on = |flag: Option<bool>| flag.unwrap_or(false);
        Interest {
            lists: [on(self.tools_list_changed), on(self.prompts_list_changed), on(self.resources_list_changed)],
            resources: self.resource_subscriptions.iter().flatten().cloned().collect(),
        }
    }
}

#[derive(Deserialize)]
struct ListenParams {
    notifications: NotificationFilter,
}

impl<C: RouterComponent> Exchange<C> {
    /// [`Session::admit`](crate::Session::admit), for a method already parsed.
    pub(super) async fn admit(
        &mut self,
        name: &str,
        method: Option<Method>,
        envelope: &Envelope,
    ) -> Result<Admitted, RpcError> {
        let version = envelope.version()?;
        let not_found = |why: &str| RpcError::new(code::METHOD_NOT_FOUND, format!("Method not found: {name}{why}"));
        let method = match method {
            None => return Err(not_found("")),
            Some(m) if m.is_legacy_only() => return Err(not_found(" (removed in 2026-07-28)")),
            Some(m) => m,
        };
        let about = self.about().await?;
        let caps = &about.capabilities;
        let offered = match method {
            Method::ListTools | Method::CallTool => caps.tools.is_some(),
            Method::ListResources | Method::ReadResource | Method::ListResourceTemplates => caps.resources.is_some(),
            Method::ListPrompts | Method::GetPrompt => caps.prompts.is_some(),
            Method::Complete => caps.completions.as_ref().is_some_and(|c| c.enabled),
            _ => true,
        };
        if !offered {
            return Err(not_found(" (the server does not offer this capability; see server/discover)"));
        }
        let client = Client {
            capabilities: ClientCapabilities::read(&envelope.client_capabilities),
            log_level: envelope.log_level,
        };
        Ok(Admitted { method, version, about, client })
    }

    /// Serves an admitted request, its result stamped; with `state` when a
    /// session holds the exchange.
    pub(super) async fn serve_admitted<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        admitted: Admitted,
        params: RequestParams<'_>,
        state: Option<&mut SessionState>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let Admitted { method, version, about, client } = admitted;
        let mut cache = about.cache;
        if self.request.caller().is_some() {
            // What an authenticated caller is answered may depend on who asks.
            cache.scope = CacheScope::Private;
        }
        if about.may_change(method) {
            cache.ttl_ms = 0;
        }
        self.request.set_stamp(Some(Stamp { cache: method.is_cacheable().then_some(cache), about: about.clone() }));
        let era = Era::Modern { version, about: &about, client: &client };
        let answered = self.run(Request { id, method, params, era }, state, out).await;
        self.request.set_stamp(None);
        answered
    }

    /// The routers' name, instructions and capabilities: asked once, then
    /// read from what the routers learnt.
    pub(super) async fn about(&mut self) -> Result<Arc<ServerDescription>, RpcError> {
        if let Some(about) = self.server.routers().learnt_about() {
            return Ok(about);
        }
        // Boxed: asked once a deployment (see `tool_facts`).
        let about = Box::pin(self.ask_about()).await?;
        Ok(self.server.routers().learn_about(about))
    }

    /// Asks every router for its name, instructions and capabilities, and
    /// merges them when there are several.
    pub(super) async fn ask_about(&mut self) -> Result<RouterAbout, RpcError> {
        let mut about = Vec::with_capacity(self.server.mounts());
        for mount in 0..self.server.mounts() {
            about.push(
                self.guest(mount, async |r, cx| {
                    Ok(RouterAbout {
                        name: r.name(cx).await?,
                        title: r.title(cx).await?,
                        icons: r.icons(cx).await?,
                        instructions: r.instructions(cx).await?,
                        capabilities: r.capabilities(cx).await?,
                    })
                })
                .await?,
            );
        }
        let routers = self.server.routers();
        Ok(if routers.is_single() { about.pop().expect("one mount") } else { merge_about(routers, about) })
    }

    /// `server/discover`.
    pub(super) fn discover(&mut self, id: &RawValue, about: &ServerDescription) -> Result<(), RpcError> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct DiscoverResult<'a> {
            supported_versions: Vec<&'static str>,
            capabilities: mapping::Capabilities,
            #[serde(skip_serializing_if = "str::is_empty")]
            instructions: &'a str,
        }
        let result = DiscoverResult {
            supported_versions: envelope::supported_versions(),
            capabilities: mapping::modern_capabilities(
                &about.capabilities,
                about.talks_back,
                self.server.options().serve_tasks,
            ),
            instructions: &about.instructions,
        };
        self.reply(id, &result)
    }

    /// `subscriptions/listen`: acknowledges at once with the part of the
    /// filter the server can honour; the request stays open (answered by
    /// [`Session::end_subscriptions`](crate::Session::end_subscriptions)) until the client cancels it or the
    /// server shuts down.
    pub(super) fn listen<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        params: Option<&RawValue>,
        about: &ServerDescription,
        state: &mut SessionState,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let p: ListenParams = params::decode_owned(params)?;
        let advertised =
            serde_json::to_value(mapping::modern_capabilities(&about.capabilities, about.talks_back, false))
                .map_err(|e| RpcError::internal(format!("cannot serialise the capabilities: {e}")))?;
        let honoured = p.notifications.honoured(&advertised);
        let ack = json!({ "notifications": honoured, "_meta": { SUBSCRIPTION_ID_KEY: id } });
        self.output.notify("notifications/subscriptions/acknowledged", &ack, out);
        let listening = match (self.server.listeners(), state.sink()) {
            (Some(listeners), Some(sink)) => Some(listeners.listen_modern(id, honoured.interest(), sink.clone())),
            _ => None,
        };
        state.open_subscription(id, listening);
        self.request.set_deferred(true);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn honours_only_what_is_advertised() {
        let asked: NotificationFilter = serde_json::from_value(json!({
            "toolsListChanged": true, "promptsListChanged": true, "resourceSubscriptions": ["a://b"]
        }))
        .unwrap();
        let none = asked.honoured(&json!({ "tools": {}, "prompts": {} }));
        assert_eq!(serde_json::to_value(&none).unwrap(), json!({}));
        let some = asked.honoured(&json!({ "tools": { "listChanged": true }, "resources": { "subscribe": true } }));
        assert_eq!(
            serde_json::to_value(&some).unwrap(),
            json!({ "toolsListChanged": true, "resourceSubscriptions": ["a://b"] })
        );
    }
}
