//! The `operator` directive: install the WebApp operator, switch its classic bugs on and
//! off, or read what it did (see `crate::sim::operator` and `session/operator.rs`).

use crate::sim::operator::Bug;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OperatorCmd {
    /// Its state, bugs, request rate, DNS records and log.
    Show,
    /// Its Deployment is created; it runs once a pod of it is available.
    Install,
    Bug(Bug),
    /// One bug off, or all of them.
    Fix(Option<Bug>),
    /// A build whose client asks for WebApps at this version.
    Use(String),
}

pub(super) fn parse(args: &[String]) -> Result<OperatorCmd, String> {
    let bugs: Vec<&str> = Bug::ALL.iter().map(|b| b.name()).collect();
    let usage = format!(
        "error: usage: `operator` to show it; `operator install`; `operator bug {}`; `operator fix BUG|all`; `operator use VERSION`",
        bugs.join("|")
    );
    let bug = |w: &str| {
        Bug::parse(w).ok_or_else(|| {
            format!(
                "error: no operator bug `{w}`: the bugs are {}",
                bugs.join(", ")
            )
        })
    };
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        [] => Ok(OperatorCmd::Show),
        ["install"] => Ok(OperatorCmd::Install),
        ["bug", b] => bug(b).map(OperatorCmd::Bug),
        ["fix", "all"] => Ok(OperatorCmd::Fix(None)),
        ["fix", b] => bug(b).map(|b| OperatorCmd::Fix(Some(b))),
        ["use", v] if crate::sim::validation::dns1035_label(v).is_empty() => {
            Ok(OperatorCmd::Use(v.to_string()))
        }
        _ => Err(usage),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn bugs_by_name_and_usage_otherwise() {
        assert_eq!(
            parse(&words("bug hot-loop")),
            Ok(OperatorCmd::Bug(Bug::HotLoop))
        );
        assert_eq!(parse(&words("fix all")), Ok(OperatorCmd::Fix(None)));
        assert_eq!(parse(&words("")), Ok(OperatorCmd::Show));
        assert!(
            parse(&words("bug typo"))
                .unwrap_err()
                .contains("hot-loop, status-update, no-finalizer")
        );
        assert!(
            parse(&words("start"))
                .unwrap_err()
                .starts_with("error: usage")
        );
    }
}
