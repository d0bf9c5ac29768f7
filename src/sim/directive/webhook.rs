//! The `webhook` directive: declare an admission webhook with its server, or set what a
//! server answers (see `session/webhooks.rs` and `crate::sim::webhooks`).

use crate::sim::webhooks::Mode;

/// What a `webhook add` declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookSpec {
    pub name: String,
    pub mutating: bool,
    /// Plural resource names the rules cover (pods by default), for CREATE and UPDATE.
    pub resources: Vec<String>,
    pub ignore: bool,
    pub timeout: Option<u64>,
    /// Namespaces the namespaceSelector leaves out.
    pub skip_namespaces: Vec<String>,
    /// An objectSelector that leaves out the server's own pods (`app` not NAME).
    pub skip_self: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebhookCmd {
    /// The configurations, their servers, and the request log.
    Show,
    Add(WebhookSpec),
    /// What the program behind Service NAME does from now on.
    Set(String, crate::sim::webhooks::Mode),
}

/// `webhook ...`: show, add, or set what a server answers.
pub(super) fn parse(args: &[String]) -> Result<WebhookCmd, String> {
    const USAGE: &str = "error: usage: `webhook` to show them; `webhook add validating|mutating NAME [on RESOURCE,...] [fail|ignore] [timeout N] [skip-namespace NS] [skip-self]`; `webhook NAME allow|down|up|deny MESSAGE|slow SECONDS|label KEY=VALUE`";
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let cmd = match words.as_slice() {
        [] => WebhookCmd::Show,
        ["add", how @ ("validating" | "mutating"), name, opts @ ..] => {
            if !crate::sim::validation::dns1123_label_ok(name) {
                return Err(format!(
                    "error: `{name}` names a Deployment, a Service and a configuration: lower-case letters, digits and `-`"
                ));
            }
            let mut spec = WebhookSpec {
                name: name.to_string(),
                mutating: *how == "mutating",
                resources: vec!["pods".into()],
                ignore: false,
                timeout: None,
                skip_namespaces: Vec::new(),
                skip_self: false,
            };
            let mut rest = opts.iter();
            while let Some(w) = rest.next() {
                match *w {
                    "fail" => spec.ignore = false,
                    "ignore" => spec.ignore = true,
                    "skip-self" => spec.skip_self = true,
                    "on" => {
                        let list = rest.next().ok_or(USAGE)?;
                        spec.resources = list.split(',').map(str::to_string).collect();
                    }
                    "timeout" => {
                        let t = rest
                            .next()
                            .and_then(|t| t.trim_end_matches('s').parse::<u64>().ok())
                            .ok_or(USAGE)?;
                        spec.timeout = Some(t);
                    }
                    "skip-namespace" => {
                        spec.skip_namespaces
                            .push(rest.next().ok_or(USAGE)?.to_string());
                    }
                    _ => return Err(USAGE.into()),
                }
            }
            WebhookCmd::Add(spec)
        }
        [name, "allow"] => WebhookCmd::Set(name.to_string(), Mode::Allow),
        [name, "down"] => WebhookCmd::Set(name.to_string(), Mode::Down),
        [name, "up"] => WebhookCmd::Set(name.to_string(), Mode::Allow),
        [name, "deny", message @ ..] if !message.is_empty() => {
            WebhookCmd::Set(name.to_string(), Mode::Deny(message.join(" ")))
        }
        [name, "slow", secs] => {
            let s = secs
                .trim_end_matches('s')
                .parse::<u64>()
                .ok()
                .filter(|s| (1..=60).contains(s))
                .ok_or("error: a slow webhook answers after 1 to 60 seconds")?;
            WebhookCmd::Set(name.to_string(), Mode::Slow(s))
        }
        [name, "label", pair] => {
            let (k, v) = pair.split_once('=').ok_or(USAGE)?;
            if !crate::sim::validation::qualified_name(k).is_empty()
                || !crate::sim::validation::valid_label_value(v)
            {
                return Err(format!("error: `{pair}` is not a valid label"));
            }
            WebhookCmd::Set(name.to_string(), Mode::Label(k.into(), v.into()))
        }
        _ => return Err(USAGE.into()),
    };
    Ok(cmd)
}
