//! Several router components served as one MCP server.
//!
//! Each component is mounted under a prefix: its tool and prompt names are
//! sent as `PREFIX_NAME` and its resource URIs as `PREFIX+URI`, and incoming
//! names and URIs are routed by that prefix and stripped of it. A single
//! component is mounted without a prefix and nothing is renamed; so is,
//! beside others, one whose tools are fixed at load (a typed component, as
//! Wassette serves them), its names routed as they are.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::contract;
use crate::envelope::CacheHint;
use crate::executor::block_on;
use crate::method::Method;
use crate::router::{CallContext, CallMode, GuestFault, Router, RouterComponent};
#[cfg(feature = "validate")]
use crate::validation::ToolSchemas;

use crate::prefixes::{NAME_SEPARATOR, URI_SEPARATOR, prefixed};

/// One component and the prefix it is served under.
#[derive(Clone)]
pub struct Mount<C> {
    /// The prefix (empty when the component is served alone, or bare).
    pub prefix: String,
    /// The component.
    pub component: C,
}

/// The components one server serves; cheap to clone (one per session).
pub struct Routers<C> {
    mounts: Arc<[Mount<C>]>,
    /// Each mount's prefix, when several are mounted (see [`Routers::prefixes`]).
    prefixes: Option<Arc<[String]>>,
    /// The tool names of the mounts served bare beside others, and whose
    /// each is.
    bare: Arc<HashMap<String, usize>>,
    /// What sessions learnt of the routers, for the sessions after them.
    learnt: Arc<Mutex<Learnt>>,
}

/// One fact per mount, where learnt: shared, so that every request's
/// exchange takes the lists without copying them; a write copies them
/// first if another holds them (`Arc::make_mut`), once per fact learnt.
pub(crate) type PerMount<T> = Arc<Vec<Option<Arc<T>>>>;

/// Nothing learnt yet of `mounts` mounts.
fn per_mount<T>(mounts: usize) -> PerMount<T> {
    Arc::new(vec![None; mounts])
}

/// Facts about the routers that do not change from one instance to the
/// next: a modern request, served on a fresh instance, reads them here
/// instead of asking its guest again.
#[derive(Default)]
struct Learnt {
    about: Option<Arc<ServerDescription>>,
    /// Per mount: what its tools declare.
    tools: PerMount<ToolFacts>,
    /// Per mount: the names of the prompts it lists.
    prompts: PerMount<PromptNames>,
    /// What a fresh instance of each mount lists.
    listing: Option<Arc<Listing>>,
}

/// What the routers offer on a fresh instance, per mount: compared between
/// two versions of a server, it says which lists a session moving from one
/// to the other must hear have changed.
#[derive(Debug, Default, PartialEq)]
pub struct Listing {
    prefixes: Vec<String>,
    tools: Vec<Vec<contract::Tool>>,
    prompts: Vec<Vec<contract::Prompt>>,
    resources: Vec<Vec<contract::McpResource>>,
}

impl Listing {
    /// Which lists (tools, prompts, resources) differ between `self` and
    /// `other`, as a client would see them: other prefixes rename them all.
    pub fn differences(&self, other: &Listing) -> [bool; 3] {
        let renamed = self.prefixes != other.prefixes;
        [
            renamed || self.tools != other.tools,
            renamed || self.prompts != other.prompts,
            renamed || self.resources != other.resources,
        ]
    }
}

/// What a mount's tools declare that the host acts on, learnt from its tool
/// list: one entry a listed tool, so that a call looks its tool up once.
#[derive(Debug, Default)]
pub struct ToolFacts {
    tools: HashMap<String, ToolFact>,
}

/// What one listed tool declares that the host acts on.
#[derive(Debug, Clone)]
pub struct ToolFact {
    /// It declares an output schema.
    pub structured: bool,
    /// The arguments its input schema marks with `x-mcp-header`, with the
    /// header name (`Mcp-Param-{name}`).
    pub header_arguments: Vec<(String, String)>,
    /// Its schemas, compiled to check its calls by (`None` when they check
    /// nothing).
    #[cfg(feature = "validate")]
    pub schemas: Option<Arc<ToolSchemas>>,
}

impl ToolFacts {
    /// The facts of a tool list.
    pub fn of(tools: &[contract::Tool]) -> Self {
        let mut facts = ToolFacts::default();
        for tool in tools {
            let fact = ToolFact {
                structured: tool.output_schema.is_some(),
                header_arguments: header_arguments(&tool.input_schema.json),
                // A schema that is not valid JSON Schema leaves its tool
                // unchecked (loading refuses it unless told to serve it so).
                #[cfg(feature = "validate")]
                schemas: ToolSchemas::of(tool).ok().filter(ToolSchemas::checks_anything).map(Arc::new),
            };
            facts.tools.insert(tool.name.clone(), fact);
        }
        facts
    }

    /// What tool `name` declares; `None` when the list does not have it (a
    /// call naming it is never reported by that name: it is the client's
    /// own).
    pub fn tool(&self, name: &str) -> Option<&ToolFact> {
        self.tools.get(name)
    }
}

/// The names of the prompts a mount lists: a `prompts/get` naming another is
/// never reported by that name.
pub type PromptNames = HashSet<String>;

/// The properties of an input schema that carry `x-mcp-header`, with the
/// header name each gives.
fn header_arguments(schema: &str) -> Vec<(String, String)> {
    // Cheap refusal for the usual schema without any.
    if !schema.contains("x-mcp-header") {
        return Vec::new();
    }
    let Ok(serde_json::Value::Object(schema)) = serde_json::from_str::<serde_json::Value>(schema) else {
        return Vec::new();
    };
    let Some(serde_json::Value::Object(properties)) = schema.get("properties") else { return Vec::new() };
    properties
        .iter()
        .filter_map(|(name, property)| Some((name.clone(), property.get("x-mcp-header")?.as_str()?.to_string())))
        .collect()
}

/// The routers as one server: name, instructions, capabilities (merged when
/// several are mounted) and the cache hint of their results.
#[derive(Debug, Clone)]
pub struct ServerDescription {
    /// The server's name.
    pub name: String,
    /// Its human-readable name, if its router gives one (a 25.6.18 router's
    /// `title()`; none for several routers).
    pub title: Option<String>,
    /// Its icons, a checked JSON array of MCP `Icon`s as compact text, if
    /// its router gives them (a component that serves MCP itself; none for
    /// several routers).
    pub icons: Option<String>,
    /// Instructions for the model; empty when none.
    pub instructions: String,
    /// What the routers offer.
    pub capabilities: contract::ServerCapabilities,
    /// How long and by whom their lists and reads may be cached.
    pub cache: CacheHint,
    /// Whether any of them reaches its clients (imports the client
    /// interface): only such routers can signal a change.
    pub talks_back: bool,
}

impl ServerDescription {
    /// Whether the result of `method` may change while a client holds it:
    /// a list the routers say may change (`listChanged`), or a read of
    /// resources clients may subscribe to (`subscribe`). Such results get
    /// no freshness time to be reused for (`ttlMs` 0): a 2026-07-28 client
    /// hears of a change only on a `subscriptions/listen` stream it may not
    /// hold, and a cache shared between clients hears of none.
    pub fn may_change(&self, method: Method) -> bool {
        let caps = &self.capabilities;
        let declared = |flag: Option<bool>| flag == Some(true);
        match method {
            Method::ListTools => caps.tools.as_ref().is_some_and(|t| declared(t.list_changed)),
            Method::ListPrompts => caps.prompts.as_ref().is_some_and(|p| declared(p.list_changed)),
            Method::ListResources | Method::ListResourceTemplates => {
                caps.resources.as_ref().is_some_and(|r| declared(r.list_changed))
            }
            Method::ReadResource => caps.resources.as_ref().is_some_and(|r| declared(r.subscribe)),
            _ => false,
        }
    }
}

impl<C> Clone for Routers<C> {
    fn clone(&self) -> Self {
        Routers {
            mounts: self.mounts.clone(),
            prefixes: self.prefixes.clone(),
            bare: self.bare.clone(),
            learnt: self.learnt.clone(),
        }
    }
}

impl<C: RouterComponent> From<C> for Routers<C> {
    fn from(component: C) -> Self {
        Routers::mounted(Arc::new([Mount { prefix: String::new(), component }]), HashMap::new())
    }
}

/// Why a set of routers cannot be served together.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MountError {
    /// No component at all.
    #[error("no component to serve")]
    Empty,
    /// A prefix that cannot be routed (none, for a component whose tools
    /// are not fixed at load).
    #[error(
        "`{component}`: the prefix {prefix:?} must be letters, digits and `-` only, and only a component whose tools \
         are fixed at load (a typed component) may be served without one beside others"
    )]
    BadPrefix {
        /// The component's label.
        component: String,
        /// The prefix.
        prefix: String,
    },
    /// Two components would answer to the same name.
    #[error("{kind} `{name}` is offered by both `{first}` and `{second}`; give one of them another prefix")]
    Collision {
        /// `tool`, `prompt`, `resource` or `prefix`.
        kind: &'static str,
        /// The name as the client would see it.
        name: String,
        /// The component mounted first.
        first: String,
        /// The other one.
        second: String,
    },
}

impl<C: RouterComponent> Routers<C> {
    /// Mounts `components` under their prefixes. With one component the
    /// prefix is ignored: it is served as is. Beside others, a component
    /// whose tools are fixed ([`RouterComponent::fixed_tool_names`]) may
    /// have an empty prefix: its tools keep their names, which no other
    /// bare component may share.
    pub fn new(components: Vec<(String, C)>) -> Result<Self, MountError> {
        if components.is_empty() {
            return Err(MountError::Empty);
        }
        if components.len() == 1 {
            let (_, component) = components.into_iter().next().expect("one component");
            return Ok(component.into());
        }
        let mut seen: HashMap<&str, &str> = HashMap::new();
        let mut bare: HashMap<String, usize> = HashMap::new();
        for (index, (prefix, component)) in components.iter().enumerate() {
            let bad = || MountError::BadPrefix { component: component.label().into(), prefix: prefix.clone() };
            if prefix.is_empty() {
                for name in component.fixed_tool_names().ok_or_else(bad)?.iter() {
                    if let Some(first) = bare.insert(name.clone(), index) {
                        return Err(MountError::Collision {
                            kind: "tool",
                            name: name.clone(),
                            first: components[first].1.label().into(),
                            second: component.label().into(),
                        });
                    }
                }
                continue;
            }
            if !prefix.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                return Err(bad());
            }
            if let Some(first) = seen.insert(prefix, component.label()) {
                return Err(MountError::Collision {
                    kind: "prefix",
                    name: prefix.clone(),
                    first: first.into(),
                    second: component.label().into(),
                });
            }
        }
        let mounts = components.into_iter().map(|(prefix, component)| Mount { prefix, component }).collect();
        Ok(Routers::mounted(mounts, bare))
    }

    fn mounted(mounts: Arc<[Mount<C>]>, bare: HashMap<String, usize>) -> Self {
        let learnt =
            Learnt { about: None, tools: per_mount(mounts.len()), prompts: per_mount(mounts.len()), listing: None };
        let prefixes = (mounts.len() > 1).then(|| mounts.iter().map(|m| m.prefix.clone()).collect());
        Routers { mounts, prefixes, bare: Arc::new(bare), learnt: Arc::new(Mutex::new(learnt)) }
    }

    fn learnt(&self) -> MutexGuard<'_, Learnt> {
        self.learnt.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// What the routers said of themselves when last asked, if ever.
    pub(crate) fn learnt_about(&self) -> Option<Arc<ServerDescription>> {
        self.learnt().about.clone()
    }

    /// Keeps what the routers said of themselves (`name`, `instructions`,
    /// `capabilities`, merged), with the components' cache hints.
    pub(crate) fn learn_about(&self, about: RouterAbout) -> Arc<ServerDescription> {
        let cache = self.mounts.iter().map(|m| m.component.cache_hint()).reduce(CacheHint::merge).unwrap_or_default();
        let RouterAbout { name, title, icons, instructions, capabilities } = about;
        // Kept as compact JSON: the stamp of a 2026-07-28 result writes it as it is.
        let icons = icons.and_then(|icons| match crate::mapping::check_icons(&icons) {
            Ok(()) => serde_json::from_str::<serde_json::Value>(&icons).ok().map(|icons| icons.to_string()),
            Err(why) => {
                tracing::warn!(server = %name, "leaving the server's icons out: {why}");
                None
            }
        });
        let talks_back = self.talks_back();
        let about = Arc::new(ServerDescription { name, title, icons, instructions, capabilities, cache, talks_back });
        self.learnt().about = Some(about.clone());
        about
    }

    /// What each mount's tools declare and the names of its prompts, where
    /// learnt (one lock: a new exchange takes both).
    pub(crate) fn learnt_lists(&self) -> (PerMount<ToolFacts>, PerMount<PromptNames>) {
        let learnt = self.learnt();
        (learnt.tools.clone(), learnt.prompts.clone())
    }

    /// Keeps the names of mount `mount`'s prompts.
    pub(crate) fn learn_prompts(&self, mount: usize, names: Arc<PromptNames>) {
        Arc::make_mut(&mut self.learnt().prompts)[mount] = Some(names);
    }

    /// A session's way to each mounted router, in mount order; no instance
    /// is made yet.
    pub(crate) fn open(&self) -> Vec<C::Router> {
        self.mounts.iter().map(|mount| mount.component.open()).collect()
    }

    /// Whether any of them reaches its client (see
    /// [`RouterComponent::talks_back`]).
    pub fn talks_back(&self) -> bool {
        self.mounts.iter().any(|mount| mount.component.talks_back())
    }

    /// Keeps what mount `mount`'s tools declare.
    pub(crate) fn learn_tools(&self, mount: usize, facts: Arc<ToolFacts>) {
        Arc::make_mut(&mut self.learnt().tools)[mount] = Some(facts);
    }

    /// The mounted components, in order.
    pub fn mounts(&self) -> &[Mount<C>] {
        &self.mounts
    }

    /// Whether one component is served alone (nothing is renamed).
    pub fn is_single(&self) -> bool {
        self.mounts.len() == 1
    }

    /// The name a client sees for `name` of mount `index`.
    pub fn outward_name<'a>(&self, index: usize, name: &'a str) -> Cow<'a, str> {
        self.outward(index, name, NAME_SEPARATOR)
    }

    /// The URI a client sees for `uri` of mount `index`.
    pub fn outward_uri<'a>(&self, index: usize, uri: &'a str) -> Cow<'a, str> {
        self.outward(index, uri, URI_SEPARATOR)
    }

    fn outward<'a>(&self, index: usize, text: &'a str, separator: char) -> Cow<'a, str> {
        if self.is_single() {
            Cow::Borrowed(text)
        } else {
            Cow::Owned(prefixed(&self.mounts[index].prefix, text, separator))
        }
    }

    /// Each mount's prefix, when several are mounted (names and URIs are
    /// prefixed only then).
    pub fn prefixes(&self) -> Option<Arc<[String]>> {
        self.prefixes.clone()
    }

    /// The mount a client's tool or prompt name belongs to, and the name
    /// without its prefix.
    pub fn route_name<'a>(&self, name: &'a str) -> Option<(usize, &'a str)> {
        self.route(name, NAME_SEPARATOR)
    }

    /// The mount a client's resource URI belongs to, and the URI without its
    /// prefix.
    pub fn route_uri<'a>(&self, uri: &'a str) -> Option<(usize, &'a str)> {
        self.route(uri, URI_SEPARATOR)
    }

    fn route<'a>(&self, text: &'a str, separator: char) -> Option<(usize, &'a str)> {
        if self.is_single() {
            return Some((0, text));
        }
        // A bare mount's own name first: no prefixed name equals one (see
        // `check_collisions`).
        if separator == NAME_SEPARATOR
            && let Some(&mount) = self.bare.get(text)
        {
            return Some((mount, text));
        }
        // Longest prefix first, so `a-b` wins over `a` for `a-b_tool`.
        self.mounts
            .iter()
            .enumerate()
            .filter(|(_, m)| !m.prefix.is_empty())
            .filter_map(|(i, m)| Some((i, text.strip_prefix(m.prefix.as_str())?.strip_prefix(separator)?)))
            .max_by_key(|(i, _)| self.mounts[*i].prefix.len())
    }

    /// Whether `self` and `other` serve the same components (one is a clone
    /// of the other).
    pub fn same_as(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.mounts, &other.mounts)
    }

    /// What a fresh instance of each component lists (calls made as `calls`
    /// says, on instances of their own); asked once per set of routers.
    pub async fn listing(&self, calls: CallMode) -> Result<Arc<Listing>, CollisionCheckError> {
        if let Some(listing) = self.learnt().listing.clone() {
            return Ok(listing);
        }
        let cx = CallContext { calls, ..CallContext::default() };
        let mut listing = Listing::default();
        for mount in self.mounts.iter() {
            let mut router = mount.component.open();
            let fault = |fault| CollisionCheckError::Guest { component: mount.component.label().into(), fault };
            listing.prefixes.push(mount.prefix.clone());
            listing.tools.push(router.list_tools(&cx).await.map_err(fault)?);
            listing.prompts.push(router.list_prompts(&cx).await.map_err(fault)?);
            listing.resources.push(router.list_resources(&cx).await.map_err(fault)?);
        }
        let listing = Arc::new(listing);
        self.learnt().listing = Some(listing.clone());
        Ok(listing)
    }

    /// Lists every component's tools, prompts and resources (blocking
    /// calls, on instances of their own) and fails on any name two
    /// components would share, naming both.
    pub fn check_collisions(&self) -> Result<(), CollisionCheckError> {
        if self.is_single() {
            return Ok(());
        }
        let listing = block_on(self.listing(CallMode::Blocking))?;
        let outward = |lists: Vec<Vec<&str>>, separator| -> Vec<Vec<String>> {
            let each = |(i, list): (usize, Vec<&str>)| {
                list.into_iter().map(|n| self.outward(i, n, separator).into_owned()).collect()
            };
            lists.into_iter().enumerate().map(each).collect()
        };
        let tools = listing.tools.iter().map(|l| l.iter().map(|t| t.name.as_str()).collect()).collect();
        let prompts = listing.prompts.iter().map(|l| l.iter().map(|p| p.name.as_str()).collect()).collect();
        let resources = listing.resources.iter().map(|l| l.iter().map(|r| r.uri.as_str()).collect()).collect();
        for (kind, per_mount) in [
            ("tool", outward(tools, NAME_SEPARATOR)),
            ("prompt", outward(prompts, NAME_SEPARATOR)),
            ("resource", outward(resources, URI_SEPARATOR)),
        ] {
            let mut seen: HashMap<String, usize> = HashMap::new();
            for (i, names) in per_mount.into_iter().enumerate() {
                for name in names {
                    if let Some(first) = seen.insert(name.clone(), i) {
                        return Err(CollisionCheckError::Mount(MountError::Collision {
                            kind,
                            name,
                            first: self.mounts[first].component.label().into(),
                            second: self.mounts[i].component.label().into(),
                        }));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Why [`Routers::check_collisions`] failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CollisionCheckError {
    /// Two components offer the same name.
    #[error(transparent)]
    Mount(#[from] MountError),
    /// A component could not be asked what it offers.
    #[error("cannot list what `{component}` offers: {fault}")]
    Guest {
        /// The component's label.
        component: String,
        /// What stopped the call.
        fault: GuestFault,
    },
}

/// Name, instructions and capabilities of several routers as one server:
/// names joined with `+`, each router's instructions under its prefix, and
/// the union of the capabilities.
pub(crate) fn merge_about<C: RouterComponent>(routers: &Routers<C>, about: Vec<RouterAbout>) -> RouterAbout {
    let mut names = Vec::new();
    let mut instructions = Vec::new();
    let mut caps = contract::ServerCapabilities::default();
    for (router, mount) in about.into_iter().zip(routers.mounts()) {
        // What the client calls it: its prefix (two mounts of one router share
        // its name, not their prefix).
        names.push(if mount.prefix.is_empty() { router.name } else { mount.prefix.clone() });
        let text = router.instructions;
        if !text.trim().is_empty() {
            let tag = if mount.prefix.is_empty() { mount.component.label() } else { mount.prefix.as_str() };
            instructions.push(format!("[{tag}] {}", text.trim()));
        }
        caps = merge_capabilities(caps, router.capabilities);
    }
    RouterAbout {
        name: names.join("+"),
        title: None,
        icons: None,
        instructions: instructions.join("\n\n"),
        capabilities: caps,
    }
}

/// What one router says of itself (or several, merged).
pub(crate) struct RouterAbout {
    pub(crate) name: String,
    pub(crate) title: Option<String>,
    /// Its icons (JSON text), unchecked.
    pub(crate) icons: Option<String>,
    pub(crate) instructions: String,
    pub(crate) capabilities: contract::ServerCapabilities,
}

/// What two routers served together offer: each kind either offers, each
/// flag either sets.
pub(crate) fn merge_capabilities(
    mut caps: contract::ServerCapabilities,
    c: contract::ServerCapabilities,
) -> contract::ServerCapabilities {
    let or = |a: Option<bool>, b: Option<bool>| match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(false) || b.unwrap_or(false)),
    };
    if let Some(p) = c.prompts {
        let prev = caps.prompts.take().and_then(|p| p.list_changed);
        caps.prompts = Some(contract::PromptsCapability { list_changed: or(prev, p.list_changed) });
    }
    if let Some(t) = c.tools {
        let prev = caps.tools.take().and_then(|t| t.list_changed);
        caps.tools = Some(contract::ToolsCapability { list_changed: or(prev, t.list_changed) });
    }
    if let Some(r) = c.resources {
        let prev = caps.resources.take();
        caps.resources = Some(contract::ResourcesCapability {
            subscribe: or(prev.as_ref().and_then(|p| p.subscribe), r.subscribe),
            list_changed: or(prev.as_ref().and_then(|p| p.list_changed), r.list_changed),
        });
    }
    if c.completions.is_some_and(|c| c.enabled) {
        caps.completions = Some(contract::CompletionsCapability { enabled: true });
    }
    caps
}
