//! What one check may spend on its `pattern`s: each distinct string is
//! matched once, and none after the check's deadline.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Instant;

use jsonschema::json::{Json, Node as _};
use serde_json::{Map, Value};

use super::reason::bounded;

thread_local! {
    /// The check running on this thread, when it has a deadline or keeps
    /// its patterns' answers (a check runs on one thread, start to end).
    pub(super) static RUNNING: RefCell<Option<Running>> = const { RefCell::new(None) };
}

/// One check's state, for its patterns: its deadline, whether it passed,
/// and each pattern's answer for each string it was asked about.
pub(super) struct Running {
    deadline: Option<Instant>,
    over_budget: bool,
    /// What the regex engine first gave up on, described: the check fails
    /// whatever the schema makes of it (under `not`, a refusal would read
    /// as a pass).
    gave_up: Option<String>,
    /// How many times a pattern was run (not answered from `answers`).
    pub(super) runs: usize,
    /// Per pattern (by address), per string: its answer.
    answers: HashMap<usize, HashMap<Box<str>, Answer>>,
}

/// Ends the check it started when dropped, on every path out.
pub(super) struct RunningGuard;

impl Running {
    pub(super) fn start(deadline: Option<Instant>) -> RunningGuard {
        RUNNING.with(|running| {
            *running.borrow_mut() =
                Some(Running { deadline, over_budget: false, gave_up: None, runs: 0, answers: HashMap::new() })
        });
        RunningGuard
    }
}

impl RunningGuard {
    pub(super) fn over_budget(&self) -> bool {
        RUNNING.with(|running| running.borrow().as_ref().is_some_and(|r| r.over_budget))
    }

    pub(super) fn gave_up(&self) -> Option<String> {
        RUNNING.with(|running| running.borrow_mut().as_mut().and_then(|r| r.gave_up.take()))
    }
}

impl Drop for RunningGuard {
    fn drop(&mut self) {
        RUNNING.with(|running| running.borrow_mut().take());
    }
}

/// A pattern's answer about one string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    Matches,
    NoMatch,
    /// The regex engine gave up (its backtrack limit): the whole check
    /// fails, as the value can be shown neither to match nor not to.
    Undecided,
    /// Not run: the check's deadline had passed.
    OverBudget,
}

/// The `pattern` keyword, run as jsonschema runs it (ECMA-262 dialect,
/// backtrack limit) but through the running check: once per distinct
/// string, and not after its deadline; for values of representation `F`.
pub(super) struct BudgetedPattern<F: Json> {
    pattern: String,
    /// A validator of `{"pattern": ...}` alone: jsonschema's own matching.
    alone: jsonschema::Validator<F>,
}

impl<F: Json> BudgetedPattern<F> {
    pub(super) fn compile<'a>(
        _parent: &'a Map<String, Value>,
        value: &'a Value,
        _location: jsonschema::paths::Location,
    ) -> Result<Box<dyn for<'i> jsonschema::Keyword<'i, F>>, jsonschema::ValidationError<'a>> {
        let alone = jsonschema::options_for::<F>()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&serde_json::json!({ "pattern": value }))?;
        let pattern = value.as_str().unwrap_or_default().to_owned();
        Ok(Box::new(BudgetedPattern { pattern, alone }))
    }

    /// The answer about `text`: kept from an earlier run in this check,
    /// or found now if the deadline allows.
    fn answer(&self, instance: F::Node<'_>, text: &str) -> Answer {
        let key = std::ptr::from_ref(self) as usize;
        let known = RUNNING.with(|running| {
            let mut running = running.borrow_mut();
            let running = running.as_mut()?;
            if let Some(answer) = running.answers.get(&key).and_then(|answers| answers.get(text)) {
                return Some(*answer);
            }
            if running.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                running.over_budget = true;
                return Some(Answer::OverBudget);
            }
            running.runs += 1;
            None
        });
        if let Some(answer) = known {
            return answer;
        }
        let answer = match self.alone.validate(instance.clone()) {
            Ok(()) => Answer::Matches,
            Err(error) if matches!(error.kind(), jsonschema::error::ValidationErrorKind::Pattern { .. }) => {
                Answer::NoMatch
            }
            Err(_) => Answer::Undecided,
        };
        RUNNING.with(|running| {
            if let Some(running) = running.borrow_mut().as_mut() {
                if answer == Answer::Undecided && running.gave_up.is_none() {
                    running.gave_up = Some(bounded(|w| {
                        write!(
                            w,
                            "{} could not be matched against {:?} (the regex engine gave up: the pattern \
                             backtracks too much on it)",
                            instance.to_value(),
                            self.pattern
                        )
                    }));
                }
                running.answers.entry(key).or_default().insert(text.into(), answer);
            }
        });
        answer
    }
}

impl<'i, F: Json> jsonschema::Keyword<'i, F> for BudgetedPattern<F> {
    fn validate(&self, instance: F::Node<'i>) -> Result<(), jsonschema::ValidationError<'i>> {
        let Some(text) = instance.as_string() else { return Ok(()) };
        let quoted = || bounded(|w| write!(w, "{}", instance.to_value()));
        let pattern = &self.pattern;
        match self.answer(instance.clone(), &text) {
            Answer::Matches => Ok(()),
            Answer::NoMatch => {
                Err(jsonschema::ValidationError::custom(format!("{} does not match {pattern:?}", quoted())))
            }
            // The check fails on these whatever this error becomes.
            Answer::Undecided => Err(jsonschema::ValidationError::custom(format!(
                "{} could not be matched against {pattern:?}",
                quoted()
            ))),
            Answer::OverBudget => Err(jsonschema::ValidationError::custom(format!(
                "not checked against {pattern:?}: the check ran out of time"
            ))),
        }
    }

    fn is_valid(&self, instance: F::Node<'i>) -> bool {
        instance.as_string().is_none_or(|text| self.answer(instance.clone(), &text) == Answer::Matches)
    }
}
