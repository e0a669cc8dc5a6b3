//! One 2026-07-28 request answered on its own, as stateless HTTP serves
//! each: the routers' instances for this request, and no session.

use std::sync::Arc;

use serde_json::value::RawValue;

use super::era::RequestParams;
use super::exchange::Exchange;
use super::in_flight::InFlight;
use super::modern::Admitted;
use super::options::SessionOptions;
use super::output::Outbox;
use super::watch::await_watched;
use crate::auth::SharedCaller;
use crate::cancel::Canceller;
use crate::client::Peer;
use crate::envelope::Envelope;
use crate::jsonrpc::RpcError;
use crate::listeners::Listeners;
use crate::method::Method;
use crate::observe::{Origin, Outcome};
use crate::params::ReadCall;
use crate::router::{CallMode, RouterComponent};
use crate::routers::Routers;
use crate::tasks::TaskOffer;

/// A 2026-07-28 request served without a [`Session`](super::Session): it
/// is admitted ([`StatelessRequest::admit`]), then answered
/// ([`StatelessRequest::answer`]), each step reading what the routers
/// learnt of themselves instead of asking a guest again. Methods that need
/// a connection outliving the request (`subscriptions/listen`) are refused
/// with -32601: serve those on a session.
pub struct StatelessRequest<C: RouterComponent> {
    ex: Exchange<C>,
    /// A `tools/call`'s params as the transport read them already.
    read_call: Option<ReadCall>,
}

impl<C: RouterComponent> StatelessRequest<C> {
    /// A request served by `routers`, made by `caller` (`None`: not
    /// authenticated). Guests are instantiated on first use.
    pub fn new(routers: Routers<C>, options: SessionOptions, caller: Option<SharedCaller>) -> Self {
        let mut ex = Exchange::new(routers, options);
        ex.request.set_caller(caller);
        ex.request.set_calls(CallMode::Async);
        StatelessRequest { ex, read_call: None }
    }

    /// Whether any of its routers reaches its client: only then does it
    /// need a way to the client ([`Self::set_peer`], [`Self::set_listeners`]).
    pub fn talks_back(&self) -> bool {
        self.ex.server.talks_back()
    }

    /// The transport's way to the client while the request runs.
    pub fn set_peer(&mut self, peer: Option<Arc<dyn Peer>>) {
        self.ex.server.set_peer(peer);
    }

    /// Every client of the server that hears of what its routers change.
    pub fn set_listeners(&mut self, listeners: Arc<Listeners>) {
        self.ex.server.set_listeners(listeners);
    }

    /// How its guest calls wait: async (the default), or blocking the
    /// thread that drives [`Self::answer`] (an engine without async support).
    pub fn set_calls(&mut self, calls: CallMode) {
        self.ex.request.set_calls(calls);
    }

    /// Lets the request become a task while it runs (see [`TaskOffer`]):
    /// its router may take `offer`, and so may whoever serves it.
    pub fn offer_task(&mut self, offer: TaskOffer) {
        self.ex.request.set_task_offer(Some(offer));
    }

    /// A handle that cancels the request from another thread or task.
    pub fn canceller(&self) -> Canceller {
        self.ex.server.canceller().clone()
    }

    /// Checks that the request can be served, as
    /// [`Session::admit`](super::Session::admit) does: the revision
    /// (-32022), then the method (-32601).
    pub async fn admit(&mut self, method: &str, envelope: &Envelope) -> Result<Admitted, RpcError> {
        self.ex.admit(method, Method::parse(method), envelope).await
    }

    /// The arguments of tool `name` that its input schema marks with
    /// `x-mcp-header` (see
    /// [`Session::header_arguments`](super::Session::header_arguments)).
    pub async fn header_arguments(&mut self, name: &str) -> Result<Vec<(String, String)>, RpcError> {
        self.ex.header_arguments(name).await
    }

    /// The params of the `tools/call` this is, as the transport read them
    /// already (an HTTP front door's `RequestSubject::read_call`):
    /// [`Self::answer`] takes them as read instead of reading `params` again.
    /// Ignored for any other method.
    pub fn set_read_call(&mut self, call: ReadCall) {
        self.read_call = Some(call);
    }

    /// Answers request `id`, which [`Self::admit`] let in, with async guest
    /// calls, writing its notifications and then its response to `out`;
    /// returns what became of it. Once answered, the request is dropped, or
    /// readied for another ([`Self::recycle`]).
    pub async fn answer(
        &mut self,
        id: &RawValue,
        admitted: Admitted,
        params: Option<&RawValue>,
        out: &mut (dyn Outbox + Send),
    ) -> Outcome {
        let admitted_method = admitted.method();
        let method = admitted_method.as_str();
        let watching = self.ex.watch_start(method, id, params);
        let read_call = self.read_call.take().filter(|_| admitted_method == Method::CallTool);
        let read_call = read_call.as_ref().map(ReadCall::params);
        let request_params = RequestParams { raw: params, call_tool: read_call.as_ref() };
        let answered =
            await_watched!(watching.as_ref(), self.ex.serve_admitted(id, admitted, request_params, None, out));
        let outcome = self.ex.deliver(id, answered, out);
        if let Some(watching) = watching {
            self.ex.watch_finish(watching, method, Some(admitted_method), id, params, outcome);
        }
        outcome
    }

    /// Readies the request, answered, to serve another request, as a new
    /// one would (its routers and what they learnt kept): the routers let go
    /// of their instances as a drop would, and what the request carried is
    /// gone. Whether it may: not while a handle to its cancellation is held
    /// elsewhere, while it has a way to its client, or when a router cannot
    /// hand back what it holds (then it is dropped, as before).
    pub fn recycle(&mut self) -> bool {
        if self.ex.server.canceller().is_shared() || self.ex.server.peer().is_some() || !self.ex.server.hand_back_all()
        {
            return false;
        }
        let calls = self.ex.request.calls();
        self.ex.request = InFlight::default();
        self.ex.request.set_calls(calls);
        self.ex.output.recycle();
        self.read_call = None;
        true
    }

    /// Who makes the request (`None`: not authenticated): for a recycled
    /// request, its next caller.
    pub fn set_caller(&mut self, caller: Option<SharedCaller>) {
        self.ex.request.set_caller(caller);
    }

    /// The trace context the transport carried with the next request (the
    /// HTTP `traceparent` header): its span's parent when `_meta` names none.
    pub fn set_transport_context(&mut self, context: Option<crate::observe::TraceContext>) {
        self.ex.request.set_transport_context(context);
    }

    /// Where the request comes from, as its observer hears (see
    /// [`SessionOptions::observer`]).
    pub fn set_origin(&mut self, origin: Origin) {
        self.ex.server.set_origin(origin);
    }
}
