//! What requests are served by, kept from one request to the next: the
//! routers and a way to each, the options, what each mount's lists declare,
//! and the ways to the client and to every listener.

use std::sync::Arc;

use super::options::SessionOptions;
use crate::cancel::Canceller;
use crate::client::{Peer, QuestionIds};
use crate::contract;
use crate::listeners::Listeners;
use crate::observe::Origin;
use crate::router::{Router, RouterComponent};
use crate::routers::{PerMount, PromptNames, Routers, ToolFacts};

pub(super) struct Server<C: RouterComponent> {
    routers: Routers<C>,
    /// The way to each mounted router, in mount order.
    open: Vec<C::Router>,
    options: SessionOptions,
    /// Per mount: what its tools declare (filled on first need).
    tool_facts: PerMount<ToolFacts>,
    /// Per mount: the names of its prompts (filled on first need).
    prompt_names: PerMount<PromptNames>,
    canceller: Canceller,
    /// Whether any router reaches its client: only then does a request get a
    /// [`ClientLink`](crate::ClientLink).
    talks_back: bool,
    /// The transport's way to the client outside of answers.
    peer: Option<Arc<dyn Peer>>,
    /// Ids of the requests sent to the client.
    question_ids: QuestionIds,
    /// Every client of the server that hears of routers' changes.
    listeners: Option<Arc<Listeners>>,
    /// Each mount's prefix, when several are mounted.
    uri_prefixes: Option<Arc<[String]>>,
    /// Where its requests come from, for the observer.
    origin: Origin,
}

impl<C: RouterComponent> Server<C> {
    pub(super) fn new(routers: Routers<C>, options: SessionOptions) -> Self {
        let (tool_facts, prompt_names) = routers.learnt_lists();
        Server {
            open: routers.open(),
            tool_facts,
            prompt_names,
            talks_back: routers.talks_back(),
            routers,
            options,
            canceller: Canceller::default(),
            peer: None,
            question_ids: QuestionIds::default(),
            listeners: None,
            uri_prefixes: None,
            origin: Origin::default(),
        }
    }

    pub(super) fn routers(&self) -> &Routers<C> {
        &self.routers
    }

    pub(super) fn options(&self) -> &SessionOptions {
        &self.options
    }

    /// How many routers are mounted.
    pub(super) fn mounts(&self) -> usize {
        self.open.len()
    }

    /// The way to mount `mount`'s router.
    pub(super) fn router_mut(&mut self, mount: usize) -> &mut C::Router {
        &mut self.open[mount]
    }

    /// The label of mount `mount`'s component.
    pub(super) fn label(&self, mount: usize) -> &str {
        self.routers.mounts()[mount].component.label()
    }

    /// Whether mount `mount`'s router offers the extension.
    pub(super) fn extends(&self, mount: usize) -> bool {
        self.routers.mounts()[mount].component.extends()
    }

    /// Replaces every instance at its router's next call.
    pub(super) fn retire_all(&mut self) {
        self.open.iter_mut().for_each(Router::retire);
    }

    /// Lets every router go of what it holds, as dropping them would (see
    /// [`Router::hand_back`]): whether all did, and the routers may serve
    /// another request.
    pub(super) fn hand_back_all(&mut self) -> bool {
        // Every router is asked, whatever the others answer.
        let mut all = true;
        for router in &mut self.open {
            all &= router.hand_back();
        }
        all
    }

    /// Whether any router holds an instance of its own.
    pub(super) fn holds_instance(&self) -> bool {
        self.open.iter().any(Router::holds_instance)
    }

    /// Drops the instances of routers that let them go once idle and have
    /// been idle that long (see [`Router::release_if_idle`]); how many.
    pub(super) fn release_idle_instances(&mut self) -> usize {
        let now = std::time::Instant::now();
        self.open.iter_mut().filter_map(|router| router.release_if_idle(now).then_some(())).count()
    }

    /// Serves from now on with `routers` (a reloaded version), learning
    /// their lists afresh.
    pub(super) fn replace_routers(&mut self, routers: Routers<C>) {
        self.open = routers.open();
        (self.tool_facts, self.prompt_names) = routers.learnt_lists();
        if self.listeners.is_some() {
            self.uri_prefixes = routers.prefixes();
        }
        self.routers = routers;
    }

    /// What mount `mount`'s tools declare, once learnt.
    pub(super) fn tool_facts(&self, mount: usize) -> Option<&ToolFacts> {
        self.tool_facts[mount].as_deref()
    }

    /// Keeps what `tools` declare, for this session and the ones after it.
    pub(super) fn learn_tools(&mut self, mount: usize, tools: &[contract::Tool]) {
        let facts = Arc::new(ToolFacts::of(tools));
        self.routers.learn_tools(mount, facts.clone());
        Arc::make_mut(&mut self.tool_facts)[mount] = Some(facts);
    }

    /// The names of mount `mount`'s prompts, once learnt.
    pub(super) fn prompt_names(&self, mount: usize) -> Option<&PromptNames> {
        self.prompt_names[mount].as_deref()
    }

    /// Keeps the names of `prompts`, for this session and the ones after it.
    pub(super) fn learn_prompts(&mut self, mount: usize, prompts: &[contract::Prompt]) {
        let names: Arc<PromptNames> = Arc::new(prompts.iter().map(|prompt| prompt.name.clone()).collect());
        self.routers.learn_prompts(mount, names.clone());
        Arc::make_mut(&mut self.prompt_names)[mount] = Some(names);
    }

    pub(super) fn canceller(&self) -> &Canceller {
        &self.canceller
    }

    pub(super) fn talks_back(&self) -> bool {
        self.talks_back
    }

    pub(super) fn peer(&self) -> Option<&Arc<dyn Peer>> {
        self.peer.as_ref()
    }

    pub(super) fn set_peer(&mut self, peer: Option<Arc<dyn Peer>>) {
        self.peer = peer;
    }

    pub(super) fn question_ids(&self) -> &QuestionIds {
        &self.question_ids
    }

    pub(super) fn listeners(&self) -> Option<&Arc<Listeners>> {
        self.listeners.as_ref()
    }

    /// Tells routers' changes to every client registered with `listeners`.
    pub(super) fn set_listeners(&mut self, listeners: Arc<Listeners>) {
        self.uri_prefixes = self.routers.prefixes();
        self.listeners = Some(listeners);
    }

    pub(super) fn uri_prefixes(&self) -> Option<&Arc<[String]>> {
        self.uri_prefixes.as_ref()
    }

    pub(super) fn origin(&self) -> &Origin {
        &self.origin
    }

    pub(super) fn set_origin(&mut self, origin: Origin) {
        self.origin = origin;
    }
}
