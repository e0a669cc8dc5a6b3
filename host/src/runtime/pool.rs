//! Which instance serves a session's call: the instance policy.
//!
//! Each session gets a [`PooledRouter`] per component (the protocol core's
//! [`Router`]); it picks the instance by the component's [`InstanceMode`],
//! makes instances on first need, and replaces one after a fault, after a
//! call abandoned mid-way, or when it was made for the other way of calling.
//!
//! A session is one connection (stdio, an embedder's) or one HTTP request
//! (2026-07-28, stateless); what outlives it is kept here, per component:
//! the instances of [`InstanceMode::PerCaller`] (one per principal) and,
//! with [`InstanceReuse`](super::InstanceReuse), instances handed back for the next session of
//! the same principal.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use mcp_wit_protocol::auth::Caller;
use mcp_wit_protocol::{CallContext, CallMode, GuestResult, Router, contract};

use super::budget::IdleInstances;
use super::instance::RouterInstance;
use super::kept::{Kept, SharedInstance, Warm};
use super::loaded_router::LoadedRouter;
use super::sharing::{DEFAULT_CALLER_IDLE, InstanceMode, WARM_IDLE};
use crate::sync::lock;

impl LoadedRouter {
    /// Lets the memory budget release what the component keeps, once.
    fn watch_kept(&self) {
        let budget = &self.inner.budget;
        if budget.is_limited() && !self.inner.kept.watched.swap(true, Ordering::Relaxed) {
            let kept: Weak<Kept> = Arc::downgrade(&self.inner.kept);
            budget.watch(kept);
        }
    }

    /// The instance `caller`'s calls share, made room for if new.
    fn caller_instance(&self, caller: &Caller) -> Arc<SharedInstance> {
        self.watch_kept();
        let key = caller.principal_key();
        let idle = self.inner.instance_idle_timeout.unwrap_or(DEFAULT_CALLER_IDLE);
        let max = self.inner.max_callers.max(1);
        let mut callers = lock(&self.inner.kept.callers);
        let now = Instant::now();
        // Only instances no call holds (the map's own reference is the only
        // one) are released; a sweep a second at most keeps lookups cheap.
        let unheld_idle = |instance: &Arc<SharedInstance>| {
            Arc::strong_count(instance) == 1 && now.saturating_duration_since(*lock(&instance.last_used)) >= idle
        };
        if callers.swept.is_none_or(|at| now.saturating_duration_since(at) >= Duration::from_secs(1)) {
            callers.swept = Some(now);
            callers.map.retain(|_, instance| !unheld_idle(instance));
        }
        if let Some(instance) = callers.map.get(&key) {
            return instance.clone();
        }
        if callers.map.len() >= max {
            // The least recently used principal loses its instance; a call
            // running on it finishes on its own reference.
            let oldest = callers.map.iter().min_by_key(|(_, i)| *lock(&i.last_used)).map(|(k, _)| k.clone());
            if let Some(oldest) = oldest {
                tracing::debug!(component = %self.label(), "a principal's instance makes room for another's");
                callers.map.remove(&oldest);
            }
        }
        callers.map.entry(key).or_default().clone()
    }

    /// A handed-back instance for `principal`'s calls made `calls`, with the
    /// uses it served, if one waits.
    fn take_warm(&self, principal: Option<&str>, calls: CallMode) -> Option<(RouterInstance, u32)> {
        let mut warm = lock(&self.inner.kept.warm);
        self.drop_stale(&mut warm);
        let at = warm.iter().rposition(|w| w.principal.as_deref() == principal && w.instance.calls() == calls)?;
        warm.remove(at).map(|w| (w.instance, w.uses))
    }

    /// Hands `instance`, which served `uses` sessions or calls without a
    /// fault, back for reuse, if it may serve more.
    fn give_back(&self, principal: Option<String>, instance: RouterInstance, uses: u32) {
        let reuse = self.inner.reuse;
        if uses >= reuse.max_uses || reuse.max_kept == 0 {
            return;
        }
        self.watch_kept();
        let mut warm = lock(&self.inner.kept.warm);
        self.drop_stale(&mut warm);
        while warm.len() >= reuse.max_kept {
            warm.pop_front();
        }
        warm.push_back(Warm { principal, instance, uses, since: Instant::now() });
    }

    fn drop_stale(&self, warm: &mut VecDeque<Warm>) {
        let now = Instant::now();
        while warm.front().is_some_and(|w| self.is_stale(w, now)) {
            warm.pop_front();
        }
    }

    /// A kept instance idle past the instance idle timeout, which is not
    /// handed out again.
    fn is_stale(&self, kept: &Warm, now: Instant) -> bool {
        now.saturating_duration_since(kept.since) >= self.inner.instance_idle_timeout.unwrap_or(WARM_IDLE)
    }

    /// Keeps `instance` for the next instance a session asks for, if it asks
    /// for one called the same way: one of this component's, made with its
    /// present settings and label, that served no client (the start-up
    /// check's, say), so that the first session does not make another. The
    /// memory budget may release it as it releases an instance kept for
    /// reuse; one found idle past the instance idle timeout is dropped.
    /// Only sessions with an instance of their own, or one per request,
    /// take one ([`InstanceMode::PerSession`], [`InstanceMode::PerRequest`]):
    /// in the other modes `instance` is dropped at once.
    pub fn keep_spare(&self, instance: RouterInstance) {
        if !matches!(self.inner.instance_mode, InstanceMode::PerSession | InstanceMode::PerRequest) {
            return;
        }
        self.watch_kept();
        let kept = &self.inner.kept;
        *lock(&kept.spare) = Some(Warm { principal: None, instance, uses: 0, since: Instant::now() });
        kept.has_spare.store(true, Ordering::Relaxed);
    }

    /// The spare, if one waits, is fresh enough and was made for calls made
    /// `calls`; one that is not is dropped.
    fn take_spare(&self, calls: CallMode) -> Option<RouterInstance> {
        let kept = &self.inner.kept;
        if !kept.has_spare.swap(false, Ordering::Relaxed) {
            return None;
        }
        let spare = lock(&kept.spare).take()?;
        (spare.instance.calls() == calls && !self.is_stale(&spare, Instant::now())).then_some(spare.instance)
    }

    /// A spare, handed-back or fresh instance for `cx`, with the uses it
    /// served and the principal it may be handed back for. The principal is
    /// worked out only when instances are reused: otherwise nothing is
    /// handed back.
    async fn instance_for(&self, cx: &CallContext) -> GuestResult<(RouterInstance, u32, Option<String>)> {
        let reused = self.inner.reuse.max_uses > 1;
        let principal = cx.caller.as_deref().filter(|_| reused).map(Caller::principal_key);
        if let Some(spare) = self.take_spare(cx.calls) {
            return Ok((spare, 0, principal));
        }
        if reused && let Some((instance, uses)) = self.take_warm(principal.as_deref(), cx.calls) {
            return Ok((instance, uses, principal));
        }
        Ok((self.instantiate_for(cx.calls).await?, 0, principal))
    }
}

/// One session's way to a component's instances.
pub struct PooledRouter {
    component: LoadedRouter,
    /// The session's own instance ([`InstanceMode::PerSession`], and
    /// [`InstanceMode::PerCaller`] without a caller), out of it while a call
    /// runs: between calls, the memory budget may release it.
    own: Arc<OwnSlot>,
    /// `own` is watched by the memory budget.
    watched: bool,
    /// The principal instance the session's last call ran on
    /// ([`InstanceMode::PerCaller`]), and whose it is.
    caller: Option<(Arc<Caller>, Arc<SharedInstance>)>,
    /// A call is in progress. Still set when the next call starts, it means
    /// the future of that call was dropped mid-way, which leaves the instance
    /// in the middle of its work.
    in_call: bool,
}

/// Where a session keeps its own instance between calls.
#[derive(Default)]
struct OwnSlot {
    held: Mutex<Option<Own>>,
}

impl OwnSlot {
    fn take(&self) -> Option<Own> {
        lock(&self.held).take()
    }
}

/// A session's instance between its calls may be released under memory
/// pressure: its next call makes a fresh one.
impl IdleInstances for OwnSlot {
    fn oldest_idle(&self) -> Option<Instant> {
        self.held.try_lock().ok()?.as_ref().map(|own| own.idle_since)
    }

    fn release_oldest_idle(&self) -> bool {
        let released = self.held.try_lock().ok().and_then(|mut held| held.take());
        released.is_some()
    }
}

/// The session's own instance, and what deciding on its reuse needs.
struct Own {
    instance: RouterInstance,
    /// The principal it was made (or handed back) for.
    principal: Option<String>,
    /// Sessions it served before this one.
    uses: u32,
    /// When its last call ended.
    idle_since: Instant,
}

impl PooledRouter {
    /// A session's router for `component`; makes no instance yet.
    pub fn new(component: LoadedRouter) -> Self {
        PooledRouter { component, own: Arc::default(), watched: false, caller: None, in_call: false }
    }

    /// Runs `call` on the instance the component's mode picks, making it if
    /// needed. A fault drops the instance (a trap leaves it unusable).
    async fn with_instance<T>(
        &mut self,
        cx: &CallContext,
        call: impl AsyncFnOnce(&mut RouterInstance) -> GuestResult<T>,
    ) -> GuestResult<T> {
        if std::mem::take(&mut self.in_call) {
            tracing::debug!(component = %self.component.label(), "a guest call was abandoned mid-way; its instance is replaced");
            self.retire();
        }
        match (self.component.instance_mode(), cx.caller.as_deref()) {
            (InstanceMode::PerSession, _) | (InstanceMode::PerCaller, None) => self.on_own(cx, call).await,
            (InstanceMode::PerRequest, _) => {
                let (mut instance, uses, principal) = self.component.instance_for(cx).await?;
                instance.begin_request(cx);
                let result = call(&mut instance).await;
                if result.is_ok() {
                    instance.end_request();
                    self.component.give_back(principal, instance, uses + 1);
                }
                result
            }
            (InstanceMode::PerCaller, Some(caller)) => {
                let shared = match &self.caller {
                    Some((known, shared)) if known.same_principal(caller) => shared.clone(),
                    _ => {
                        let shared = self.component.caller_instance(caller);
                        self.caller = Some((Arc::new(caller.clone()), shared.clone()));
                        shared
                    }
                };
                // Boxed, as below: inline, the modes that share an instance
                // would swell every call's future by theirs.
                Box::pin(self.on_shared(&shared, cx, call)).await
            }
            (InstanceMode::Shared, _) => {
                self.component.watch_kept();
                let shared = self.component.inner.kept.shared.clone();
                Box::pin(self.on_shared(&shared, cx, call)).await
            }
        }
    }

    /// Runs `call` on the session's own instance.
    async fn on_own<T>(
        &mut self,
        cx: &CallContext,
        call: impl AsyncFnOnce(&mut RouterInstance) -> GuestResult<T>,
    ) -> GuestResult<T> {
        let mut own = match self.own.take() {
            Some(own) if own.instance.calls() == cx.calls => own,
            other => {
                if let Some(own) = other {
                    // Made for the other way of calling: fit for another session.
                    self.component.give_back(own.principal, own.instance, own.uses + 1);
                }
                let (instance, uses, principal) = self.component.instance_for(cx).await?;
                self.watch_own();
                Own { instance, principal, uses, idle_since: Instant::now() }
            }
        };
        // Dropped with this future if it is: an abandoned instance is never
        // used again.
        let result = marked_call(&mut self.in_call, &mut own.instance, cx, call).await;
        if result.is_ok() {
            own.idle_since = Instant::now();
            *lock(&self.own.held) = Some(own);
        }
        result
    }

    /// Lets the memory budget release the session's instance between calls.
    fn watch_own(&mut self) {
        let budget = &self.component.inner.budget;
        if !self.watched && budget.is_limited() {
            self.watched = true;
            let own: Weak<OwnSlot> = Arc::downgrade(&self.own);
            budget.watch(own);
        }
    }

    /// Runs `call` on an instance calls take turns on.
    async fn on_shared<T>(
        &mut self,
        shared: &SharedInstance,
        cx: &CallContext,
        call: impl AsyncFnOnce(&mut RouterInstance) -> GuestResult<T>,
    ) -> GuestResult<T> {
        let mut slot = shared.slot.lock().await;
        *lock(&shared.last_used) = Instant::now();
        if shared.retire.swap(false, Ordering::Relaxed) || slot.as_ref().is_none_or(|i| i.calls() != cx.calls) {
            *slot = None;
            *slot = Some(self.component.instantiate_for(cx.calls).await?);
        }
        let result = marked_call(&mut self.in_call, slot.as_mut().expect("instantiated above"), cx, call).await;
        if result.is_err() {
            *slot = None;
        }
        result
    }
}

/// Runs `call` on `instance` for the request of `cx`, `in_call` set while it
/// runs: still set afterwards, it tells that the call's future was dropped.
async fn marked_call<T>(
    in_call: &mut bool,
    instance: &mut RouterInstance,
    cx: &CallContext,
    call: impl AsyncFnOnce(&mut RouterInstance) -> GuestResult<T>,
) -> GuestResult<T> {
    instance.begin_request(cx);
    *in_call = true;
    let result = call(instance).await;
    *in_call = false;
    instance.end_request();
    result
}

impl PooledRouter {
    /// Gives the session's own instance back to where instances are kept:
    /// a session that ends between calls leaves a sound instance.
    fn give_back_own(&mut self) {
        if let Some(own) = self.own.take()
            && !self.in_call
        {
            self.component.give_back(own.principal, own.instance, own.uses + 1);
        }
    }
}

impl Drop for PooledRouter {
    fn drop(&mut self) {
        self.give_back_own();
    }
}

impl Router for PooledRouter {
    async fn name(&mut self, cx: &CallContext) -> GuestResult<String> {
        self.with_instance(cx, async |i| i.name_async().await).await
    }

    async fn title(&mut self, cx: &CallContext) -> GuestResult<Option<String>> {
        self.with_instance(cx, async |i| i.title_async().await).await
    }

    async fn icons(&mut self, cx: &CallContext) -> GuestResult<Option<String>> {
        self.with_instance(cx, async |i| i.icons_async().await).await
    }

    async fn instructions(&mut self, cx: &CallContext) -> GuestResult<String> {
        self.with_instance(cx, async |i| i.instructions_async().await).await
    }

    async fn capabilities(&mut self, cx: &CallContext) -> GuestResult<contract::ServerCapabilities> {
        self.with_instance(cx, async |i| i.capabilities_async().await).await
    }

    async fn list_tools(&mut self, cx: &CallContext) -> GuestResult<Vec<contract::Tool>> {
        self.with_instance(cx, async |i| i.list_tools_async().await).await
    }

    async fn call_tool(
        &mut self,
        cx: &CallContext,
        name: &str,
        arguments: &str,
    ) -> GuestResult<Result<contract::CallToolResult, contract::ToolError>> {
        self.with_instance(cx, async |i| i.call_tool_async(name, arguments).await).await
    }

    async fn list_resources(&mut self, cx: &CallContext) -> GuestResult<Vec<contract::McpResource>> {
        self.with_instance(cx, async |i| i.list_resources_async().await).await
    }

    async fn read_resource(
        &mut self,
        cx: &CallContext,
        uri: &str,
    ) -> GuestResult<Result<contract::ReadResourceResult, contract::ResourceError>> {
        self.with_instance(cx, async |i| i.read_resource_async(uri).await).await
    }

    async fn list_prompts(&mut self, cx: &CallContext) -> GuestResult<Vec<contract::Prompt>> {
        self.with_instance(cx, async |i| i.list_prompts_async().await).await
    }

    async fn get_prompt(
        &mut self,
        cx: &CallContext,
        name: &str,
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        self.with_instance(cx, async |i| i.get_prompt_async(name).await).await
    }

    async fn complete(
        &mut self,
        cx: &CallContext,
        request: &contract::CompletionRequest,
    ) -> GuestResult<Result<contract::CompletionResponse, contract::CompletionError>> {
        self.with_instance(cx, async |i| i.complete_async(request).await).await
    }

    async fn list_resource_templates(&mut self, cx: &CallContext) -> GuestResult<Vec<contract::ResourceTemplate>> {
        self.with_instance(cx, async |i| i.list_resource_templates_async().await).await
    }

    async fn get_prompt_with_arguments(
        &mut self,
        cx: &CallContext,
        name: &str,
        arguments: &[(String, String)],
    ) -> GuestResult<Result<contract::GetPromptResult, contract::PromptError>> {
        self.with_instance(cx, async |i| i.get_prompt_with_arguments_async(name, arguments).await).await
    }

    async fn subscription(
        &mut self,
        cx: &CallContext,
        uri: &str,
        subscribe: bool,
    ) -> GuestResult<Result<(), contract::ResourceError>> {
        self.with_instance(cx, async |i| i.subscription_async(uri, subscribe).await).await
    }

    async fn roots_list_changed(&mut self, cx: &CallContext) -> GuestResult<()> {
        self.with_instance(cx, async |i| i.roots_list_changed_async().await).await
    }

    fn retire(&mut self) {
        // Retired instances are dropped, never handed back.
        self.own.take();
        match self.component.instance_mode() {
            InstanceMode::PerSession | InstanceMode::PerRequest => {}
            // Replaced by the next call that holds its lock.
            InstanceMode::PerCaller => {
                if let Some((_, shared)) = &self.caller {
                    shared.retire.store(true, Ordering::Relaxed);
                }
            }
            InstanceMode::Shared => self.component.inner.kept.shared.retire.store(true, Ordering::Relaxed),
        }
    }

    fn holds_instance(&self) -> bool {
        // An instance abandoned mid-call is replaced at the next call anyway.
        !self.in_call && lock(&self.own.held).is_some()
    }

    fn hand_back(&mut self) -> bool {
        // An instance abandoned mid-call is never used again: only a drop
        // may forget it.
        if self.in_call {
            return false;
        }
        self.give_back_own();
        // The principal's instance stays with its principal, not with this
        // way to it.
        self.caller = None;
        true
    }

    fn release_if_idle(&mut self, now: Instant) -> bool {
        let Some(timeout) = self.component.instance_idle_timeout() else { return false };
        let mut held = lock(&self.own.held);
        let idle = held.as_ref().is_some_and(|own| now.saturating_duration_since(own.idle_since) >= timeout);
        if self.in_call || !idle {
            return false;
        }
        drop(held.take());
        true
    }
}
