//! Modern (2026-07-28) requests: admission, `server/discover`,
//! `subscriptions/listen`, and the stamp every modern result carries.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::exchange::Exchange;
use super::stamp::{Stamp, server_info};
use super::{Client, Era, Outbox, Outcome, Phase, Request, RequestParams, Session, SessionState};
use crate::client::ClientCapabilities;
use crate::envelope::{self, CacheScope, Envelope, SERVER_INFO_KEY, SUBSCRIPTION_ID_KEY};
use crate::jsonrpc::{self, RpcError, code};
use crate::listeners::{Interest, Listening};
use crate::mapping;
use crate::method::Method;
use crate::params;
use crate::router::{CallMode, Router, RouterComponent};
use crate::routers::{RouterAbout, ServerDescription, merge_about};
use crate::version::ProtocolVersion;

impl<C: RouterComponent> Exchange<C> {
    /// Ends a 2026-07-28 round with `required` (an `InputRequiredResult`).
    pub(super) fn reply_input_required(&mut self, id: &RawValue, mut required: Value) -> Result<(), RpcError> {
        let stamp = self.stamp.take();
        if let Some(stamp) = &stamp {
            required["_meta"] = stamp.meta();
        }
        let replied = self.reply(id, &required);
        self.stamp = stamp;
        replied
    }
}

/// A modern request [`Session::admit`] let in: what it asks for, at which
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
}

/// An open `subscriptions/listen` stream.
pub(super) struct Subscription {
    /// The id of the listen request: the subscription's id.
    pub(super) id: Box<RawValue>,
    /// Its registration with the server's listeners, if the transport gave
    /// the session any: it hears of changes until this drops.
    pub(super) _listening: Option<Listening>,
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

/// -32022 for `initialize` on a connection that speaks 2026-07-28.
pub(super) fn initialize_on_modern_connection(params: Option<&RawValue>) -> RpcError {
    #[derive(Deserialize)]
    struct Requested {
        #[serde(rename = "protocolVersion", default)]
        protocol_version: String,
    }
    let requested = params
        .and_then(|p| serde_json::from_str::<Requested>(p.get()).ok())
        .map(|r| r.protocol_version)
        .unwrap_or_default();
    let mut error = envelope::unsupported_version(&requested);
    error.message = format!(
        "Unsupported protocol version: this connection already speaks {} per request; `initialize` needs a connection of its own",
        envelope::supported_versions().join(", ")
    );
    error
}

impl<C: RouterComponent> Session<C> {
    /// Checks that a modern request can be served, in the order the spec
    /// ranks its errors after the envelope itself: the revision (-32022),
    /// then the method (-32601: unknown, removed in 2026-07-28, or of a kind
    /// the routers do not offer). Transports that answer those errors at
    /// their edge (HTTP 400 and 404) call it, then
    /// [`Session::handle_admitted_async`]; [`Session::handle`] does both.
    pub async fn admit(&mut self, method: &str, envelope: &Envelope) -> Result<Admitted, RpcError> {
        self.ex.admit(method, Method::parse(method), envelope).await
    }

    /// Answers request `id`, which [`Session::admit`] let in, with async
    /// guest calls (see [`Session::handle_async`]), writing what it produces
    /// to `out` as [`Session::handle_async`] would; returns what became of it.
    pub async fn handle_admitted_async(
        &mut self,
        id: &RawValue,
        admitted: Admitted,
        params: Option<&RawValue>,
        out: &mut (dyn Outbox + Send),
    ) -> Outcome {
        self.ex.cx.calls = CallMode::Async;
        self.ex.deferred = false;
        let admitted_method = admitted.method;
        let method = admitted_method.as_str();
        let watching = self.ex.watch_start(method, id, params);
        let answering = self.serve_admitted(id, admitted, RequestParams::raw(params), out);
        let answered = super::exchange::within(watching.as_ref(), answering).await;
        let outcome = self.ex.deliver(id, answered, out);
        if let Some(watching) = watching {
            self.ex.watch_finish(watching, method, Some(admitted_method), id, params, outcome);
        }
        self.ex.recycle_buffer();
        outcome
    }

    /// A request with a modern envelope, on a connection that is not a 2025
    /// session.
    pub(super) async fn modern_request<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        name: &str,
        method: Option<Method>,
        params: RequestParams<'_>,
        envelope: &Envelope,
        out: &mut O,
    ) -> Result<(), RpcError> {
        if let Phase::Ready(ready) = &self.state.phase {
            return Err(RpcError::invalid_request(format!(
                "this connection was initialized at {}; requests with a 2026-07-28 envelope need a connection of their own",
                ready.version
            )));
        }
        if matches!(self.state.phase, Phase::Modern) {
            // A reload reaches a modern connection as it does a 2025
            // session: once it holds no instance of its own.
            self.follow_deployment(out).await;
        }
        let admitted = self.ex.admit(name, method, envelope).await?;
        self.serve_admitted(id, admitted, params, out).await
    }

    /// Serves an admitted request on the session's instances, which serve
    /// its next request too: a session is one connection (stdio, an
    /// embedder's), never several clients.
    async fn serve_admitted<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        admitted: Admitted,
        params: RequestParams<'_>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        if admitted.method != Method::Discover {
            // A probe leaves a legacy client free to `initialize`; anything
            // else makes this a modern connection.
            self.state.phase = Phase::Modern;
        }
        self.ex.serve_admitted(id, admitted, params, Some(&mut self.state), out).await
    }

    /// How many `subscriptions/listen` requests are open.
    pub fn open_subscriptions(&self) -> usize {
        self.state.subscriptions.len()
    }

    /// Ends every open `subscriptions/listen` request gracefully: each gets
    /// its final result (`resultType: "complete"`, tagged with its
    /// subscription id). For server shutdown and the end of a connection.
    pub fn end_subscriptions(&mut self, out: &mut dyn Outbox) {
        let about = self.ex.routers.learnt_about();
        for subscription in std::mem::take(&mut self.state.subscriptions) {
            let mut meta = Map::new();
            meta.insert(SUBSCRIPTION_ID_KEY.into(), json!(&*subscription.id));
            if let Some(about) = &about {
                meta.insert(SERVER_INFO_KEY.into(), server_info(about));
            }
            let result = json!({ "resultType": "complete", "_meta": meta });
            match jsonrpc::write_result(&mut self.ex.buf, &subscription.id, &result) {
                Ok(()) => out.send(&self.ex.buf),
                Err(e) => tracing::warn!("cannot serialise the end of a subscription: {e}"),
            }
        }
    }
}

impl<C: RouterComponent> Exchange<C> {
    /// [`Session::admit`], for a method already parsed.
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
        if self.cx.caller.is_some() {
            // What an authenticated caller is answered may depend on who asks.
            cache.scope = CacheScope::Private;
        }
        if about.may_change(method) {
            cache.ttl_ms = 0;
        }
        self.stamp = Some(Stamp { cache: method.is_cacheable().then_some(cache), about: about.clone() });
        let era = Era::Modern { version, about: &about, client: &client };
        let answered = self.run(Request { id, method, params, era }, state, out).await;
        self.stamp = None;
        answered
    }

    /// The routers' name, instructions and capabilities: asked once, then
    /// read from what the routers learnt.
    pub(super) async fn about(&mut self) -> Result<Arc<ServerDescription>, RpcError> {
        if let Some(about) = self.routers.learnt_about() {
            return Ok(about);
        }
        let about = self.ask_about().await?;
        Ok(self.routers.learn_about(about))
    }

    /// Asks every router for its name, instructions and capabilities, and
    /// merges them when there are several.
    pub(super) async fn ask_about(&mut self) -> Result<RouterAbout, RpcError> {
        let mut about = Vec::with_capacity(self.open.len());
        for mount in 0..self.open.len() {
            about.push(
                self.guest(mount, async |r, cx| {
                    Ok(RouterAbout {
                        name: r.name(cx).await?,
                        title: r.title(cx).await?,
                        instructions: r.instructions(cx).await?,
                        capabilities: r.capabilities(cx).await?,
                    })
                })
                .await?,
            );
        }
        Ok(if self.routers.is_single() { about.pop().expect("one mount") } else { merge_about(&self.routers, about) })
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
            capabilities: mapping::modern_capabilities(&about.capabilities, about.talks_back),
            instructions: &about.instructions,
        };
        self.reply(id, &result)
    }

    /// `subscriptions/listen`: acknowledges at once with the part of the
    /// filter the server can honour; the request stays open (answered by
    /// [`Session::end_subscriptions`]) until the client cancels it or the
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
        let advertised = serde_json::to_value(mapping::modern_capabilities(&about.capabilities, about.talks_back))
            .map_err(|e| RpcError::internal(format!("cannot serialise the capabilities: {e}")))?;
        let honoured = p.notifications.honoured(&advertised);
        let ack = json!({ "notifications": honoured, "_meta": { SUBSCRIPTION_ID_KEY: id } });
        self.notify("notifications/subscriptions/acknowledged", &ack, out);
        let listening = match (&self.listeners, &state.sink) {
            (Some(listeners), Some(sink)) => Some(listeners.listen_modern(id, honoured.interest(), sink.clone())),
            _ => None,
        };
        state.subscriptions.push(Subscription { id: id.to_owned(), _listening: listening });
        self.deferred = true;
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
