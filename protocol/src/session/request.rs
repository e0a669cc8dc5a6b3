//! Running one request: its cancellation, the way back to its client (a
//! 2026-07-28 round's state checked), dispatch, and what its client link
//! held back or asked for.

use std::sync::LazyLock;

use memchr::memmem::Finder;
use serde_json::value::RawValue;

use super::exchange::Exchange;
use super::{Client, Era, Outbox, Phase, Request, RequestParams, SessionState};
use crate::client::{ClientLink, LinkSettings};
use crate::jsonrpc::{RpcError, code};
use crate::method::Method;
use crate::observe::{CLIENT_TEXT_BYTES, clipped};
use crate::rounds::Round;
use crate::router::RouterComponent;
use crate::version::ProtocolVersion;

impl<C: RouterComponent> Exchange<C> {
    /// Runs one request, of a 2025 session when `state` is given; on
    /// success its answer is in `self.buf`. A request cancelled before it
    /// started fails with `self.cancelled` set.
    pub(super) async fn run<O: Outbox + ?Sized>(
        &mut self,
        request: Request<'_>,
        state: Option<&mut SessionState>,
        out: &mut O,
    ) -> Result<(), RpcError> {
        let Request { id, method, params, era } = request;
        self.cancelled = false;
        if method == Method::Initialize {
            self.canceller.start_uncancellable(id.get(), &self.cx.cancel);
        } else if !self.canceller.start(id.get(), &self.cx.cancel) {
            tracing::debug!(id = %clipped(id.get(), CLIENT_TEXT_BYTES), "dropping a request cancelled before it started");
            self.cancelled = true;
            return Err(RpcError::new(code::INTERNAL_ERROR, "the request was cancelled"));
        }
        if self.talks_back {
            match self.link(method, params, era, state.as_deref()) {
                Ok(link) => self.cx.client = Some(link),
                Err(error) => {
                    self.canceller.finish();
                    return Err(error);
                }
            }
        } else if matches!(era, Era::Modern { .. })
            && matches!(method, Method::CallTool | Method::GetPrompt | Method::ReadResource)
            && names_a_round(params.raw)
        {
            // Routers that never ask have no rounds to resume, but what a
            // client sends as one is checked all the same (-32602).
            if let Err(error) = Round::read(&self.options.state_key, method, params.raw, self.cx.caller.as_deref()) {
                self.canceller.finish();
                return Err(error);
            }
        }
        let result = self.dispatch(request, state, out).await;
        self.canceller.finish();
        if let Some(link) = self.cx.client.take() {
            // Sent without a peer: they go out before the answer.
            for message in link.take_held() {
                out.send(&message);
            }
            // A question without an answer ended the guest's call: the round
            // ends with it, not with the failure.
            if let Some(required) = link.input_required(&self.options.state_key, self.options.state_ttl)? {
                if let Some(refusal) = self.options.state_key_sharing.refusal() {
                    tracing::warn!("{}", refusal.message);
                    return Err(refusal);
                }
                self.watch.input_required = true;
                return self.reply_input_required(id, required);
            }
            if let Some(error) = link.capability_required() {
                return Err(error);
            }
        }
        result
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
        let (version, client, modern) = match (era, state) {
            (Era::Modern { version, client, .. }, _) => (version, *client, true),
            (Era::Legacy, Some(SessionState { phase: Phase::Ready(ready), client, log_level, .. })) => {
                (ready.version, Client { capabilities: *client, log_level: *log_level }, false)
            }
            (Era::Legacy, _) => (ProtocolVersion::LATEST_LEGACY, Client::default(), false),
        };
        // Only these may end in `input_required`.
        let rounds = modern && matches!(method, Method::CallTool | Method::GetPrompt | Method::ReadResource);
        let round = match rounds {
            true => Some(Round::read(&self.options.state_key, method, params.raw, self.cx.caller.as_deref())?),
            false => None,
        };
        Ok(ClientLink::new(LinkSettings {
            peer: self.peer.clone(),
            version,
            capabilities: client.capabilities,
            progress_token: token.map(ToOwned::to_owned),
            log_level: client.log_level,
            modern,
            ids: self.question_ids.clone(),
            round,
            listeners: self.listeners.clone(),
            uri_prefixes: self.uri_prefixes.clone(),
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
