//! When a tool call becomes a task: each tool's [`TaskPolicy`], set by
//! `--task-policy` and `mcp-wit.toml`, and what it decides for a call
//! ([`TaskPolicies::decide`]).

use std::time::Duration;

/// When a call of a tool becomes a task, for a client that declared the
/// extension (one that did not always gets a plain answer, or -32021 for
/// [`TaskPolicy::Required`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskPolicy {
    /// Never, even when the router asks (`client.run-as-task`).
    Never,
    /// Only when the router asks.
    OnRequest,
    /// When the call is still running after this long, or the router asks.
    After(Duration),
    /// At once.
    Always,
    /// At once; a client that did not declare the extension gets -32021.
    Required,
}

/// The policy of tools no `--task-policy` names.
pub const DEFAULT_TASK_POLICY: TaskPolicy = TaskPolicy::After(Duration::from_secs(5));

impl std::str::FromStr for TaskPolicy {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Ok(match text {
            "never" => TaskPolicy::Never,
            "on-request" => TaskPolicy::OnRequest,
            "always" => TaskPolicy::Always,
            "required" => TaskPolicy::Required,
            _ => match text.strip_prefix("after:") {
                Some(after) => TaskPolicy::After(
                    humantime::parse_duration(after).map_err(|e| format!("`{text}`: {e} (e.g. `after:5s`)"))?,
                ),
                None => {
                    return Err(format!(
                        "`{text}` is not a task policy: never, on-request, always, required or after:DURATION (e.g. \
                         after:5s)"
                    ));
                }
            },
        })
    }
}

impl std::fmt::Display for TaskPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TaskPolicy::Never => f.write_str("never"),
            TaskPolicy::OnRequest => f.write_str("on-request"),
            TaskPolicy::After(after) => write!(f, "after:{}", humantime::format_duration(*after)),
            TaskPolicy::Always => f.write_str("always"),
            TaskPolicy::Required => f.write_str("required"),
        }
    }
}

/// What becomes of one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TaskDecision {
    /// A plain call, answered when it ends.
    Plain,
    /// Refused with -32021: the tool runs only as a task, and the client
    /// did not declare the extension.
    Refuse,
    /// A call that may become a task: at once (`Duration::ZERO`), after
    /// this long, or only if its router asks (`Duration::MAX`).
    MayBecomeTask {
        /// When the host makes it one, unless the router asks first.
        after: Duration,
        /// Whether the tool runs only as a task (a client at its limit of
        /// unfinished tasks is refused rather than answered plainly).
        required: bool,
    },
}

/// The policy of each tool: `TOOL=POLICY` rules (a `*` at the end of TOOL
/// matches any rest, so `notes_*` covers a mount's tools), the first that
/// matches winning, else the default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskPolicies {
    rules: Vec<(String, TaskPolicy)>,
    default: TaskPolicy,
}

impl Default for TaskPolicies {
    fn default() -> Self {
        TaskPolicies { rules: Vec::new(), default: DEFAULT_TASK_POLICY }
    }
}

impl TaskPolicies {
    /// From `--task-policy` values: `POLICY` (every tool no rule names) or
    /// `TOOL=POLICY`.
    pub fn parse<S: AsRef<str>>(values: &[S]) -> Result<TaskPolicies, String> {
        let mut policies = TaskPolicies::default();
        for value in values {
            let value = value.as_ref();
            match value.split_once('=') {
                Some((tool, policy)) if !tool.is_empty() => policies.rules.push((tool.to_string(), policy.parse()?)),
                Some(_) => return Err(format!("`{value}`: name the tool before `=` (TOOL=POLICY)")),
                None => policies.default = value.parse()?,
            }
        }
        Ok(policies)
    }

    /// Whether some tool may have `policy`.
    pub fn mentions(&self, policy: TaskPolicy) -> bool {
        self.default == policy || self.rules.iter().any(|(_, p)| *p == policy)
    }

    /// The policy of `tool`.
    pub fn policy(&self, tool: &str) -> TaskPolicy {
        let matches = |pattern: &str| match pattern.strip_suffix('*') {
            Some(prefix) => tool.starts_with(prefix),
            None => tool == pattern,
        };
        self.rules.iter().find(|(pattern, _)| matches(pattern)).map_or(self.default, |(_, policy)| *policy)
    }

    /// What becomes of a call of `tool` from a client that declared the
    /// extension (`declared`) or not.
    pub(crate) fn decide(&self, tool: &str, declared: bool) -> TaskDecision {
        let may = |after| TaskDecision::MayBecomeTask { after, required: false };
        match (self.policy(tool), declared) {
            (TaskPolicy::Required, false) => TaskDecision::Refuse,
            (_, false) | (TaskPolicy::Never, true) => TaskDecision::Plain,
            (TaskPolicy::Required, true) => TaskDecision::MayBecomeTask { after: Duration::ZERO, required: true },
            (TaskPolicy::Always, true) => may(Duration::ZERO),
            (TaskPolicy::After(after), true) => may(after),
            (TaskPolicy::OnRequest, true) => may(Duration::MAX),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_match_in_order_and_by_prefix() {
        let policies =
            TaskPolicies::parse(&["on-request", "slow=always", "job_*=required", "job_quick=never"]).unwrap();
        assert_eq!(policies.policy("slow"), TaskPolicy::Always);
        assert_eq!(policies.policy("job_quick"), TaskPolicy::Required, "the first rule that matches wins");
        assert_eq!(policies.policy("other"), TaskPolicy::OnRequest);
        assert_eq!(TaskPolicies::default().policy("any"), DEFAULT_TASK_POLICY);
    }

    #[test]
    fn a_policy_decides_by_what_the_client_declared() {
        let policies = TaskPolicies::parse(&["never", "r=required", "a=always", "later=after:2s"]).unwrap();
        assert_eq!(policies.decide("r", false), TaskDecision::Refuse);
        assert_eq!(policies.decide("a", false), TaskDecision::Plain);
        assert_eq!(policies.decide("x", true), TaskDecision::Plain);
        assert_eq!(policies.decide("r", true), TaskDecision::MayBecomeTask { after: Duration::ZERO, required: true });
        let later = TaskDecision::MayBecomeTask { after: Duration::from_secs(2), required: false };
        assert_eq!(policies.decide("later", true), later);
    }

    #[test]
    fn bad_policies_say_what_is_expected() {
        assert!(TaskPolicies::parse(&["sometimes"]).unwrap_err().contains("never, on-request"));
        assert!(TaskPolicies::parse(&["=always"]).unwrap_err().contains("name the tool"));
        assert!(TaskPolicies::parse(&["t=after:soon"]).unwrap_err().contains("after:5s"));
        assert_eq!(TaskPolicy::After(Duration::from_secs(5)).to_string(), "after:5s");
    }
}
