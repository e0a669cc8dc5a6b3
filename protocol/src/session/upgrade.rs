//! A session (2025, or a modern connection) moving to a reloaded version of
//! its routers.

use super::client_session::Session;
use super::output::Outbox;
use crate::listeners::ListKind;
use crate::listeners::{self, Change};
use crate::router::RouterComponent;

impl<C: RouterComponent> Session<C> {
    /// Moves the session to the newest routers of the deployment it follows,
    /// if they were replaced and it holds no instance of its own: the lists
    /// that differ between the two versions are announced to its client
    /// (through its sink, else to `out`, before the answer).
    pub(super) async fn follow_deployment<O: Outbox + ?Sized>(&mut self, out: &mut O) {
        // The generation first: on nearly every request nothing was
        // reloaded, and the routers need not be asked about their instances.
        if !self.deployment_changed() || self.ex.server.holds_instance() {
            return;
        }
        self.move_to_newest(out).await;
    }

    /// Whether the deployment the session follows serves routers it has
    /// not moved to yet.
    pub fn deployment_changed(&self) -> bool {
        self.following.as_ref().is_some_and(|(deployment, generation)| deployment.generation() != *generation)
    }

    /// Moves the session to the newest routers of the deployment it follows
    /// now, dropping the instances it holds (their guest state is lost),
    /// and tells its client of each list that differs: what a development
    /// loop wants when a rebuilt router replaces the one a connected client
    /// uses. Blocking: guest calls (to compare the lists) run on this thread.
    pub fn move_to_newest_now<O: Outbox + ?Sized>(&mut self, out: &mut O) {
        crate::block_on(self.move_to_newest(out));
    }

    async fn move_to_newest<O: Outbox + ?Sized>(&mut self, out: &mut O) {
        let Some((deployment, generation)) = &self.following else { return };
        if deployment.generation() == *generation {
            return;
        }
        let (generation, routers) = deployment.current();
        self.following.as_mut().expect("followed above").1 = generation;
        if routers.same_as(self.ex.server.routers()) {
            return;
        }
        let talks_back = routers.talks_back();
        if talks_back != self.ex.server.talks_back() {
            // Its transport set the session up for routers that do (or do
            // not) reach their client.
            tracing::info!(
                "a session keeps the routers it started with: the reloaded ones {} their client",
                if talks_back { "reach" } else { "no longer reach" }
            );
            return;
        }
        let calls = self.ex.request.calls();
        let differences = match (self.ex.server.routers().listing(calls).await, routers.listing(calls).await) {
            (Ok(before), Ok(after)) => before.differences(&after),
            (Err(e), _) | (_, Err(e)) => {
                tracing::debug!("cannot compare the versions' lists ({e}): every list is announced as changed");
                [true; 3]
            }
        };
        self.ex.server.replace_routers(routers);
        tracing::info!(generation, "a session moves to the reloaded routers");
        let mut message = Vec::new();
        for (kind, differs) in [ListKind::Tools, ListKind::Prompts, ListKind::Resources].into_iter().zip(differences) {
            if !differs {
                continue;
            }
            listeners::write(&mut message, Change::List(kind), None);
            match self.state.sink() {
                Some(sink) => sink.offer(&message),
                None => out.send(&message),
            }
        }
    }
}
