//! A request's [`ClientLink`] carried to a router in another component of
//! the same composition (`mcp-wit wrap`: the adapter serves the request, the
//! router imports the client from a third component, `client-cell`, since
//! the two cannot call each other both ways).
//!
//! The adapter hands the cell a [`RelayedLink`] before it calls the router;
//! the cell answers the router's calls with a link made from it (the same
//! checks, the same round answers, the same keys); the adapter takes back
//! its [`LinkReport`] after the call and [`ClientLink::absorb`]s it, so the
//! request ends as it would natively: notifications before the answer, an
//! `input_required` round sealed with the adapter's key, or -32021.
//!
//! One difference cannot be helped: natively, a question that ends a round
//! stops the guest's call there; across components nothing can stop the
//! router's call but a trap, which would end the adapter's too. The router
//! hears `unavailable` instead, its further questions too and its
//! notifications are dropped, and whatever it returns is discarded.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::capabilities::{ClientCapabilities, Question, QuestionIds};
use super::link::{ClientLink, LinkSettings, Missing};
use crate::params::LogLevel;
use crate::rounds::Round;
use crate::version::ProtocolVersion;

/// What a router in another component needs of a request's link to be
/// answered as the request would answer it. Serialised as JSON between the
/// components (both are built from this crate, at one version).
#[derive(Serialize, Deserialize)]
pub struct RelayedLink {
    version: String,
    capabilities: ClientCapabilities,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    progress_token: Option<Box<RawValue>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    log_level: Option<LogLevel>,
    modern: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    round: Option<Round>,
    /// Questions asked before the router was called (another mount's).
    asked: u32,
}

/// What a relayed link saw while the router ran: what the request's answer
/// must carry.
#[derive(Serialize, Deserialize, Default)]
pub struct LinkReport {
    /// Notifications, in the order sent.
    #[serde(default)]
    held: Vec<Box<RawValue>>,
    /// The questions that end the round, without an answer yet.
    #[serde(default)]
    missing: Vec<MissingQuestion>,
    /// The keys of the questions answered from the round's answers.
    #[serde(default)]
    answered: Vec<String>,
    /// The capability a question needed that the client did not declare.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    required: Option<serde_json::Value>,
    /// Questions asked in all.
    #[serde(default)]
    asked: u32,
}

#[derive(Serialize, Deserialize)]
struct MissingQuestion {
    key: String,
    method: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    params: Option<Box<RawValue>>,
}

impl ClientLink {
    /// This link, for a router in another component (see the module).
    pub fn relay(&self) -> RelayedLink {
        let settings = self.settings();
        RelayedLink {
            version: settings.version.as_str().to_owned(),
            capabilities: settings.capabilities.clone(),
            progress_token: settings.progress_token.clone(),
            log_level: settings.log_level,
            modern: settings.modern,
            round: settings.round.clone(),
            asked: self.asked(),
        }
    }

    /// The link a router in another component is answered with: no peer
    /// (what it sends is held for [`ClientLink::report`]), no listeners.
    pub fn relayed(link: RelayedLink) -> Result<ClientLink, String> {
        let version = ProtocolVersion::parse(&link.version)
            .ok_or_else(|| format!("a relayed link names the unknown revision {:?}", link.version))?;
        let relayed = ClientLink::new(LinkSettings {
            peer: None,
            version,
            capabilities: link.capabilities,
            progress_token: link.progress_token,
            log_level: link.log_level,
            modern: link.modern,
            ids: QuestionIds::default(),
            round: link.round,
            listeners: None,
            uri_prefixes: None,
            task: None,
        });
        relayed.count_asked(link.asked);
        Ok(relayed)
    }

    /// What this link holds for the request's answer, taken.
    pub fn report(&self) -> LinkReport {
        let held = self
            .take_held()
            .into_iter()
            .filter_map(|message| String::from_utf8(message).ok().and_then(|text| RawValue::from_string(text).ok()))
            .collect();
        let missing = self
            .take_missing()
            .into_iter()
            .map(|m| MissingQuestion { key: m.key, method: m.question.method().to_owned(), params: m.params })
            .collect();
        LinkReport {
            held,
            missing,
            answered: self.take_answered(),
            required: self.take_required(),
            asked: self.asked(),
        }
    }

    /// Takes in what a relayed link saw, as if the router had used this link.
    pub fn absorb(&self, report: LinkReport) {
        for message in report.held {
            self.send(message.get().as_bytes().to_vec());
        }
        let missing = report.missing.into_iter().filter_map(|m| {
            let question = Question::from_method(&m.method)?;
            Some(Missing { key: m.key, question, params: m.params })
        });
        self.add_missing(missing);
        self.add_answered(report.answered);
        if let Some(required) = report.required {
            self.set_required(required);
        }
        self.count_asked(report.asked);
    }
}

impl RelayedLink {
    /// The answers the request brought, by key: what the relayed router is
    /// answered from.
    pub fn answers(&self) -> BTreeMap<&str, &RawValue> {
        self.round.as_ref().map(Round::answers).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::{AskError, WaitBound};
    use crate::executor::block_on;
    use crate::method::Method;
    use crate::rounds::StateKey;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.into()).unwrap()
    }

    fn link(params: &str) -> ClientLink {
        link_with(Round::read(&StateKey::random(), Method::CallTool, Some(&raw(params)), None).unwrap())
    }

    /// The link of a retry bringing `answers` to the question `q1`, which a
    /// round sealed with `key` asked.
    fn link_answering(key: &StateKey, answers: &str) -> ClientLink {
        let first = Round::read(key, Method::CallTool, Some(&raw(r#"{"name":"t"}"#)), None).unwrap();
        let state = first.seal(key, std::time::Duration::from_secs(60), [], ["q1"]).unwrap();
        let retry = format!(r#"{{"name":"t","requestState":"{state}","inputResponses":{answers}}}"#);
        link_with(Round::read(key, Method::CallTool, Some(&raw(&retry)), None).unwrap())
    }

    fn link_with(round: Round) -> ClientLink {
        ClientLink::new(LinkSettings {
            peer: None,
            version: ProtocolVersion::V2026_07_28,
            capabilities: ClientCapabilities { elicitation_form: true, ..ClientCapabilities::default() },
            progress_token: Some(raw("\"t\"")),
            log_level: Some(LogLevel::Info),
            modern: true,
            ids: QuestionIds::default(),
            round: Some(round),
            listeners: None,
            uri_prefixes: None,
            task: None,
        })
    }

    fn across(link: &ClientLink) -> ClientLink {
        let text = serde_json::to_string(&link.relay()).unwrap();
        ClientLink::relayed(serde_json::from_str(&text).unwrap()).unwrap()
    }

    fn back(relayed: &ClientLink, link: &ClientLink) {
        let text = serde_json::to_string(&relayed.report()).unwrap();
        link.absorb(serde_json::from_str(&text).unwrap());
    }

    const ELICIT: &str = r#"{"message":"name?","requestedSchema":{"type":"object","properties":{}}}"#;

    #[test]
    fn a_question_without_an_answer_ends_the_round_of_the_link_it_came_from() {
        let link = link(r#"{"name":"t","arguments":{}}"#);
        let relayed = across(&link);
        relayed.progress(1.0, None, None);
        let asked = block_on(relayed.ask(Question::Elicit, Some(ELICIT), WaitBound::answered_at_hand()));
        assert!(matches!(asked, Err(AskError::InputRequired)));
        assert!(relayed.round_ended());
        back(&relayed, &link);
        let held = link.take_held();
        assert_eq!(held.len(), 1);
        assert!(String::from_utf8_lossy(&held[0]).contains("notifications/progress"));
        let required = link.input_required(&StateKey::random(), std::time::Duration::from_secs(60)).unwrap().unwrap();
        assert_eq!(required["inputRequests"]["q1"]["method"], "elicitation/create");
        assert_eq!(required["inputRequests"]["q1"]["params"]["message"], "name?");
    }

    #[test]
    fn an_answer_the_request_brought_reaches_the_relayed_router_checked() {
        let key = StateKey::random();
        let link = link_answering(&key, r#"{"q1":{"action":"accept","content":{}}}"#);
        let relayed = across(&link);
        assert_eq!(relayed.relay().answers().len(), 1);
        let answer = block_on(relayed.ask(Question::Elicit, Some(ELICIT), WaitBound::answered_at_hand())).unwrap();
        assert_eq!(answer.get(), r#"{"action":"accept","content":{}}"#);
        // The second question is q2 on both sides, and has no answer.
        assert!(block_on(relayed.ask(Question::Elicit, Some(ELICIT), WaitBound::answered_at_hand())).is_err());
        back(&relayed, &link);
        let required = link.input_required(&key, std::time::Duration::from_secs(60)).unwrap().unwrap();
        assert!(required["inputRequests"].get("q2").is_some());
        assert!(required["inputRequests"].get("q1").is_none());
        // The answer the relayed router used travels on in the next state.
        let state = required["requestState"].as_str().unwrap();
        let retry = format!(r#"{{"name":"t","requestState":"{state}"}}"#);
        let next = Round::read(&key, Method::CallTool, Some(&raw(&retry)), None).unwrap();
        assert_eq!(next.answer("q1").map(RawValue::get), Some(r#"{"action":"accept","content":{}}"#));
    }

    #[test]
    fn a_capability_the_client_lacks_fails_the_request_it_came_from() {
        let link = link(r#"{"name":"t"}"#);
        let relayed = across(&link);
        let asked = block_on(relayed.ask(
            Question::CreateMessage,
            Some(r#"{"messages":[],"maxTokens":5}"#),
            WaitBound::answered_at_hand(),
        ));
        assert!(matches!(asked, Err(AskError::CapabilityRequired)));
        back(&relayed, &link);
        let error = link.capability_required().unwrap();
        assert_eq!(error.code, crate::jsonrpc::code::MISSING_REQUIRED_CLIENT_CAPABILITY);
    }
}
