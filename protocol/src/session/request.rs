//! Running one request: its cancellation, the way back to its client (a
//! 2026-07-28 round's state checked), dispatch, and what its client link
//! held back or asked for.

use std::sync::LazyLock;

use memchr::memmem::Finder;
use serde_json::value::RawValue;

use super::era::{Client, Era, Request, RequestParams};
use super::exchange::Exchange;
use super::output::Outbox;
use super::state::SessionState;
use crate::client::{ClientLink, LinkSettings};
use crate::jsonrpc::{RpcError, code};
use crate::method::Method;
use crate::observe::{CLIENT_TEXT_BYTES, clipped};
use crate::rounds::Round;
use crate::router::RouterComponent;
use crate::version::ProtocolVersion;

impl<C: RouterComponent> Exchange<C> {
    /// Runs one request, of a 2025 session when `state` is given; on
    /// success its answer is in the output. A request cancelled before it
    /// started fails marked cancelled.
    pub(super) async fn run<O: Outbox + ?Sized>(
        &mut self,
        request: Request<'_>,
        state: Option<&mut SessionState>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let Request { id, method, params, era } = request;
        self.request.set_cancelled(false);
        let (canceller, cancel) = (self.server.canceller(), &self.request.context().cancel);
        if method == Method::Initialize {
            canceller.start_uncancellable(id.get(), cancel);
        } else if !canceller.start(id.get(), cancel) {
            tracing::debug!(id = %clipped(id.get(), CLIENT_TEXT_BYTES), "dropping a request cancelled before it started");
            self.request.set_cancelled(true);
            return Err(RpcError::new(code::INTERNAL_ERROR, "the request was cancelled"));
        }
        if self.server.talks_back() {
            match self.link(method, params, era, state.as_deref()) {
                Ok(link) => self.request.set_link(link),
                Err(error) => {
                    self.server.canceller().finish();
                    return Err(error);
                }
            }
        } else if matches!(era, Era::Modern { .. })
            && matches!(method, Method::CallTool | Method::GetPrompt | Method::ReadResource)
            && names_a_round(params.raw)
        {
            // Routers that never ask have no rounds to resume, but what a
            // client sends as one is checked all the same (-32602).
            let caller = self.request.caller().map(|caller| &**caller);
            if let Err(error) = Round::read(&self.server.options().state_key, method, params.raw, caller) {
                self.server.canceller().finish();
                return Err(error);
            }
        }
        let result = self.dispatch(request, state, out).await;
        self.server.canceller().finish();
        if let Some(link) = self.request.take_link() {
            // Sent without a peer: they go out before the answer.
            for message in link.take_held() {
                out.send(&message);
            }
            // A question without an answer ended the guest's call: the round
            // ends with it, not with the failure.
            let options = self.server.options();
            if let Some(required) = link.input_required(&options.state_key, options.state_ttl)? {
                if let Some(refusal) = options.state_key_sharing.refusal() {
                    tracing::warn!("{}", refusal.message);
                    return Err(refusal);
                }
                self.request.watch_mut().note_input_required();
                return self.reply_input_required(id, required);
            }
            if let Some(error) = link.capability_required() {
                return Err(error);
            }
        }
        result
    }

    /// Calls the handler of `method`. Those that need a 2025 session's
    /// state (`initialize`, subscriptions, the log level) or a connection
    /// that outlives the request (`subscriptions/listen`) are served with
    /// `state`, and refused without one.
    pub(super) async fn dispatch<O: Outbox + ?Sized>(
        &mut self,
        request: Request<'_>,
        state: Option<&mut SessionState>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let Request { id, method, params: read, era } = request;
        let params = read.raw;
        // A legacy request needs an initialized session (but for `ping` and
        // `initialize`); a modern one carries its own revision.
        let ready = match (era, state.as_deref().and_then(SessionState::ready_version)) {
            (Era::Modern { version, .. }, _) => Ok(version),
            (Era::Legacy, Some(version)) => Ok(version),
            (Era::Legacy, None) => {
                Err(RpcError::invalid_request(format!("`{method}` before `initialize`; initialize first")))
            }
        };
        if self.observed() {
            self.request.watch_mut().note_version(ready.as_ref().ok().copied());
        }
        let stateful = || {
            RpcError::new(
                code::METHOD_NOT_FOUND,
                format!("Method not found: {method} (it needs a connection that outlives the request)"),
            )
        };
        match method {
            Method::Ping => self.reply(id, &crate::mapping::Empty {}),
            // Boxed: once a session, and inline the largest of these futures,
            // which every request's would be as large as.
            Method::Initialize => Box::pin(self.initialize(id, params, state.ok_or_else(stateful)?)).await,
            // Boxed: its future (every mount's list, then the page) is twice a
            // call's, which every request's would be as large as.
            Method::ListTools => Box::pin(self.list_tools(id, params, ready?)).await,
            Method::CallTool => self.call_tool(id, read, ready?, out).await,
            Method::ListResources => self.list_resources(id, params, ready?).await,
            Method::ReadResource => self.read_resource(id, params, ready?).await,
            Method::ListResourceTemplates => self.list_resource_templates(id, params, ready?).await,
            Method::Subscribe | Method::Unsubscribe => {
                ready?;
                self.subscription(id, params, method, state.ok_or_else(stateful)?).await
            }
            Method::ListPrompts => self.list_prompts(id, params, ready?).await,
            Method::GetPrompt => self.get_prompt(id, params, ready?).await,
            Method::Complete => {
                ready?;
                self.complete(id, params).await
            }
            Method::SetLogLevel => {
                ready?;
                self.set_log_level(id, params, state.ok_or_else(stateful)?)
            }
            Method::Discover => self.discover(id, era.about(method)?),
            Method::Listen => self.listen(id, params, era.about(method)?, state.ok_or_else(stateful)?, out),
        }
    }

    /// The way back to the client for a request of `method` with `params`,
    /// served in `era`; -32602 for a 2026-07-28 retry whose `requestState`
    /// or `inputResponses` do not check out.
    fn link(
        &self,
        method: Method,
        params: RequestParams<'_>,
        era: Era<'_>,
        state: Option<&SessionState>,
    ) -> Result<ClientLink, RpcError> {
        #[derive(serde::Deserialize)]
        struct Meta<'a> {
            #[serde(borrow, rename = "_meta", default)]
            meta: Option<crate::params::RequestMeta<'a>>,
        }
        let read_token = || {
            params
                .raw
                .and_then(|p| serde_json::from_str::<Meta<'_>>(p.get()).ok())
                .and_then(|m| m.meta)
                .and_then(|m| m.progress_token)
        };
        let token = match params.call_tool {
            Some(call) => call.meta.and_then(|m| m.progress_token),
            None => read_token(),
        }
        .filter(|t| t.get().starts_with('"') || t.get().parse::<i64>().is_ok());
        // A modern request has no session: it asks nothing, and logs only at
        // the level it names.
        let (version, client, modern) = match (era, state.and_then(SessionState::client)) {
            (Era::Modern { version, client, .. }, _) => (version, client.clone(), true),
            (Era::Legacy, Some((version, client))) => (version, client, false),
            (Era::Legacy, None) => (ProtocolVersion::LATEST_LEGACY, Client::default(), false),
        };
        // Only these may end in `input_required`.
        let rounds = modern && matches!(method, Method::CallTool | Method::GetPrompt | Method::ReadResource);
        let round = match rounds {
            true => {
                let caller = self.request.caller().map(|caller| &**caller);
                Some(Round::read(&self.server.options().state_key, method, params.raw, caller)?)
            }
            false => None,
        };
        Ok(ClientLink::new(LinkSettings {
            peer: self.server.peer().cloned(),
            version,
            capabilities: client.capabilities,
            progress_token: token.map(ToOwned::to_owned),
            log_level: client.log_level,
            modern,
            ids: self.server.question_ids().clone(),
            round,
            listeners: self.server.listeners().cloned(),
            uri_prefixes: self.server.uri_prefixes().cloned(),
            task: self.request.context().task.clone(),
        }))
    }
}

/// Whether `params` carry what resumes a 2026-07-28 round (only then is it
/// read for a router that never asks).
fn names_a_round(params: Option<&RawValue>) -> bool {
    // Searchers built once: building one costs more than searching a small
    // request (`memmem::find` builds one per call).
    static STATE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"requestState\""));
    static RESPONSES: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"inputResponses\""));
    params.is_some_and(|p| {
        let text = p.get().as_bytes();
        STATE.find(text).is_some() || RESPONSES.find(text).is_some()
    })
}
