//! Who hears of routers' changes: every client of the server that listens,
//! whichever session or connection the change came from.
//!
//! A router says that its tools, prompts or resources changed, or that a
//! resource was updated, while it serves one client's request; the clients
//! that should hear of it are others too. Each transport registers a
//! [`Sink`] per listener: a 2025 session (its GET stream, its stdio
//! connection) or a 2026-07-28 `subscriptions/listen` stream. The hub
//! writes each change once per form and offers it to every listener whose
//! interest it matches, never waiting on one.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock, Weak};

use serde::Serialize;
use serde_json::value::RawValue;

use crate::envelope::SUBSCRIPTION_ID_KEY;
use crate::jsonrpc;

/// Which of a router's lists changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    /// `notifications/tools/list_changed`.
    Tools,
    /// `notifications/prompts/list_changed`.
    Prompts,
    /// `notifications/resources/list_changed`.
    Resources,
}

impl ListKind {
    /// The notification's method.
    pub fn method(self) -> &'static str {
        match self {
            ListKind::Tools => "notifications/tools/list_changed",
            ListKind::Prompts => "notifications/prompts/list_changed",
            ListKind::Resources => "notifications/resources/list_changed",
        }
    }
}

/// A change a router reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Change<'a> {
    /// Its list of tools, prompts or resources changed.
    List(ListKind),
    /// The resource at this (client-facing) URI changed.
    ResourceUpdated(&'a str),
}

/// Where a listener's notifications go. Offers must not block: a client that
/// does not read loses notifications, it does not hold up the router.
pub trait Sink: Send + Sync {
    /// Sends `message` (one JSON-RPC notification) if there is room now.
    fn offer(&self, message: &[u8]);
}

/// What a listener wants to hear of.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Interest {
    /// List changes, by kind: tools, prompts, resources.
    pub lists: [bool; 3],
    /// Resources whose updates it wants (client-facing URIs); an update of
    /// a sub-resource (`uri/…`) matches too.
    pub resources: BTreeSet<String>,
}

impl Interest {
    /// Every list change, no resource (yet).
    pub fn every_list() -> Self {
        Interest { lists: [true; 3], resources: BTreeSet::new() }
    }

    fn wants(&self, change: Change<'_>) -> bool {
        match change {
            Change::List(kind) => self.lists[kind as usize],
            Change::ResourceUpdated(uri) => self.resources.iter().any(|watched| covers(watched, uri)),
        }
    }
}

/// Whether an update of `uri` concerns a subscription to `watched`: the same
/// resource, or one under it.
fn covers(watched: &str, uri: &str) -> bool {
    match uri.strip_prefix(watched) {
        Some("") => true,
        Some(rest) => watched.ends_with('/') || rest.starts_with('/'),
        None => false,
    }
}

/// How a listener's notifications are written.
enum Form {
    /// 2025: plain notifications.
    Legacy,
    /// 2026-07-28: each tagged with the id of its `subscriptions/listen`.
    Modern { subscription: Box<RawValue> },
}

struct Listener {
    form: Form,
    interest: Mutex<Interest>,
    sink: Arc<dyn Sink>,
}

impl Listener {
    fn interest(&self) -> MutexGuard<'_, Interest> {
        self.interest.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The server's listeners. Shared by every session of a transport (or of
/// several: stdio and HTTP in one process may share one).
#[derive(Default)]
pub struct Listeners {
    next: AtomicU64,
    listeners: RwLock<HashMap<u64, Arc<Listener>>>,
}

impl Listeners {
    /// An empty hub.
    pub fn new() -> Arc<Self> {
        Arc::default()
    }

    /// Registers a 2025 listener: plain notifications, to `sink`, for what
    /// `interest` names. It listens until the returned [`Listening`] drops.
    pub fn listen(self: &Arc<Self>, interest: Interest, sink: Arc<dyn Sink>) -> Listening {
        self.register(Form::Legacy, interest, sink)
    }

    /// Registers a 2026-07-28 `subscriptions/listen` stream: notifications
    /// tagged with `subscription` (the listen request's id).
    pub(crate) fn listen_modern(
        self: &Arc<Self>,
        subscription: &RawValue,
        interest: Interest,
        sink: Arc<dyn Sink>,
    ) -> Listening {
        self.register(Form::Modern { subscription: subscription.to_owned() }, interest, sink)
    }

    fn register(self: &Arc<Self>, form: Form, interest: Interest, sink: Arc<dyn Sink>) -> Listening {
        let key = self.next.fetch_add(1, Ordering::Relaxed);
        let listener = Arc::new(Listener { form, interest: Mutex::new(interest), sink });
        self.write().insert(key, listener.clone());
        Listening { hub: Arc::downgrade(self), key, listener }
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<u64, Arc<Listener>>> {
        self.listeners.write().unwrap_or_else(|e| e.into_inner())
    }

    /// How many listen.
    pub fn len(&self) -> usize {
        self.listeners.read().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether none listens.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Tells every listener that wants it of `change`.
    pub(crate) fn announce(&self, change: Change<'_>) {
        // Offered outside the table's lock, so a sink may take locks of its own.
        let hearing: Vec<Arc<Listener>> = {
            let listeners = self.listeners.read().unwrap_or_else(|e| e.into_inner());
            listeners.values().filter(|l| l.interest().wants(change)).cloned().collect()
        };
        let mut plain = Vec::new();
        let mut tagged = Vec::new();
        for listener in hearing {
            let message = match &listener.form {
                Form::Legacy => {
                    if plain.is_empty() {
                        write(&mut plain, change, None);
                    }
                    &plain
                }
                Form::Modern { subscription } => {
                    write(&mut tagged, change, Some(subscription));
                    &tagged
                }
            };
            if !message.is_empty() {
                listener.sink.offer(message);
            }
        }
    }
}

/// Writes the notification of `change`, tagged with `subscription` if any;
/// leaves `buf` empty if it cannot be serialised.
pub(crate) fn write(buf: &mut Vec<u8>, change: Change<'_>, subscription: Option<&RawValue>) {
    #[derive(Serialize)]
    struct Params<'a> {
        #[serde(skip_serializing_if = "Option::is_none")]
        uri: Option<&'a str>,
        #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
        meta: Option<BTreeMap<&'static str, &'a RawValue>>,
    }
    let (method, uri) = match change {
        Change::List(kind) => (kind.method(), None),
        Change::ResourceUpdated(uri) => ("notifications/resources/updated", Some(uri)),
    };
    let meta = subscription.map(|id| BTreeMap::from([(SUBSCRIPTION_ID_KEY, id)]));
    let params = Params { uri, meta };
    buf.clear();
    if let Err(e) = jsonrpc::write_notification(buf, method, &params) {
        tracing::warn!("cannot serialise a {method} notification: {e}");
        buf.clear();
    }
}

/// A registered listener; it stops listening when dropped.
pub struct Listening {
    hub: Weak<Listeners>,
    key: u64,
    listener: Arc<Listener>,
}

impl Listening {
    /// Adds `uri` to the resources it hears of.
    pub fn subscribe(&self, uri: &str) {
        self.listener.interest().resources.insert(uri.to_owned());
    }

    /// Removes `uri` from the resources it hears of.
    pub fn unsubscribe(&self, uri: &str) {
        self.listener.interest().resources.remove(uri);
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        if let Some(hub) = self.hub.upgrade() {
            hub.write().remove(&self.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Collect(Mutex<Vec<String>>);

    impl Sink for Collect {
        fn offer(&self, message: &[u8]) {
            self.0.lock().unwrap().push(String::from_utf8(message.to_vec()).unwrap());
        }
    }

    impl Collect {
        fn take(&self) -> Vec<String> {
            std::mem::take(&mut self.0.lock().unwrap())
        }
    }

    #[test]
    fn each_listener_hears_what_it_asked_for_in_its_form() {
        let hub = Listeners::new();
        let (legacy, modern) = (Arc::new(Collect::default()), Arc::new(Collect::default()));
        let session = hub.listen(Interest::every_list(), legacy.clone());
        let id = RawValue::from_string("\"l-1\"".into()).unwrap();
        let tools_only = Interest { lists: [true, false, false], resources: ["file:///a".into()].into() };
        let _stream = hub.listen_modern(&id, tools_only, modern.clone());

        hub.announce(Change::List(ListKind::Prompts));
        assert_eq!(legacy.take(), [r#"{"jsonrpc":"2.0","method":"notifications/prompts/list_changed","params":{}}"#]);
        assert!(modern.take().is_empty());

        hub.announce(Change::List(ListKind::Tools));
        assert_eq!(legacy.take().len(), 1);
        assert_eq!(
            modern.take(),
            [
                r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"l-1"}}}"#
            ]
        );

        // Updates reach only subscribers of the resource (or of a parent).
        hub.announce(Change::ResourceUpdated("file:///a/b"));
        assert!(legacy.take().is_empty());
        assert_eq!(modern.take().len(), 1);
        session.subscribe("file:///a/b");
        hub.announce(Change::ResourceUpdated("file:///a/b"));
        assert_eq!(
            legacy.take(),
            [r#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a/b"}}"#]
        );
        session.unsubscribe("file:///a/b");
        hub.announce(Change::ResourceUpdated("file:///a/b"));
        assert!(legacy.take().is_empty());
        assert_eq!(modern.take().len(), 2);
        hub.announce(Change::ResourceUpdated("file:///ab"));
        assert!(modern.take().is_empty(), "file:///ab is not under file:///a");

        drop(session);
        assert_eq!(hub.len(), 1);
        hub.announce(Change::List(ListKind::Prompts));
        assert!(legacy.take().is_empty());
    }

    #[test]
    fn a_sub_resource_is_covered_by_its_parent_only() {
        assert!(covers("file:///a", "file:///a"));
        assert!(covers("file:///a", "file:///a/b"));
        assert!(covers("file:///a/", "file:///a/b"));
        assert!(!covers("file:///a", "file:///ab"));
        assert!(!covers("file:///a/b", "file:///a"));
    }
}
