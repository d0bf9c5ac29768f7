//! `[keys]` in config.toml: the action names it uses ([`ACTION_NAMES`]), the keys it
//! spells ([`parse_key`]), and [`Keymap::with_overrides`], which applies them.

use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::defaults::ctrl;
use super::map::Keymap;
use super::{Action, Binding, Context, Key};

use Action as A;
use Context as C;

/// Action names as `[keys]` in config.toml spells them.
pub const ACTION_NAMES: &[(&str, Action)] = &[
    ("back", A::Back),
    ("help", A::Help),
    ("settings", A::Settings),
    ("up", A::Up),
    ("down", A::Down),
    ("page-up", A::PageUp),
    ("page-down", A::PageDown),
    ("top", A::Top),
    ("bottom", A::Bottom),
    ("open", A::Open),
    ("search", A::Search),
    ("cycle-level", A::CycleLevel),
    ("cycle-importance", A::CycleImportance),
    ("toggle-sort", A::ToggleSort),
    ("reveal", A::Reveal),
    ("reveal-all", A::RevealAll),
    ("prev-level", A::PrevLevel),
    ("next-level", A::NextLevel),
    ("prev-value", A::PrevValue),
    ("next-value", A::NextValue),
    ("open-demo", A::OpenDemo),
    ("run-code", A::RunCode),
    ("command", A::Command),
    ("play-pause", A::PlayPause),
    ("step", A::Step),
    ("faster", A::Faster),
    ("slower", A::Slower),
    ("delete-pod", A::DeletePod),
    ("scale-up", A::ScaleUp),
    ("scale-down", A::ScaleDown),
    ("next-controller", A::NextController),
    ("toggle-pause", A::TogglePause),
    ("toggle-crash", A::ToggleCrash),
    ("toggle-trigger", A::ToggleTrigger),
    ("drop-event", A::DropEvent),
    ("forge-status", A::ForgeStatus),
    ("wide-output", A::WideOutput),
    ("next-challenge", A::NextChallenge),
    ("prev-challenge", A::PrevChallenge),
    ("hint", A::Hint),
    ("reset", A::Reset),
    ("export-script", A::ExportScript),
    ("edit", A::Edit),
    ("grade-again", A::Grade(1)),
    ("grade-hard", A::Grade(2)),
    ("grade-good", A::Grade(3)),
    ("grade-easy", A::Grade(4)),
    ("undo", A::Undo),
    ("bury", A::Bury),
    ("review-due", A::ReviewDue),
    ("review-topic", A::ReviewTopic),
    ("stats", A::Stats),
    ("stats-view", A::StatsView),
    ("cram", A::Cram),
    ("cram-reschedule", A::CramReschedule),
    ("jump-1", A::Jump(1)),
    ("jump-2", A::Jump(2)),
    ("jump-3", A::Jump(3)),
    ("jump-4", A::Jump(4)),
    ("jump-5", A::Jump(5)),
    ("jump-6", A::Jump(6)),
    ("jump-7", A::Jump(7)),
    ("jump-8", A::Jump(8)),
    ("jump-9", A::Jump(9)),
    ("mock", A::Mock),
    ("quiz", A::Quiz),
    ("advance", A::Advance),
    ("pause-timer", A::PauseTimer),
    ("notes", A::Notes),
    ("end-now", A::EndNow),
    ("toggle", A::Toggle),
    ("judge-answered", A::Judge(1)),
    ("judge-partly", A::Judge(2)),
    ("judge-missed", A::Judge(3)),
    ("choose-1", A::Choose(1)),
    ("choose-2", A::Choose(2)),
    ("choose-3", A::Choose(3)),
    ("choose-4", A::Choose(4)),
    ("write-report", A::WriteReport),
    ("type-answer", A::TypeAnswer),
    ("take-suggested", A::TakeSuggested),
];

/// Reads a key as config.toml writes it: `x`, `G`, `ctrl-d`, `enter`, `esc`, `space`,
/// `tab`, `backspace`, arrows (`up`), `pgup`, `pgdn`, `home`, `end`. No F-keys.
pub fn parse_key(s: &str) -> Option<Key> {
    let (mods, base) =
        if let Some(rest) = s.strip_prefix("ctrl-").or_else(|| s.strip_prefix("Ctrl-")) {
            (KeyModifiers::CONTROL, rest)
        } else if let Some(rest) = s.strip_prefix("alt-").or_else(|| s.strip_prefix("Alt-")) {
            (KeyModifiers::ALT, rest)
        } else {
            (KeyModifiers::NONE, s)
        };
    let mut chars = base.chars();
    let code = match (chars.next(), chars.next()) {
        (Some(c), None) => KeyCode::Char(c),
        _ => match base.to_ascii_lowercase().as_str() {
            "enter" | "return" => KeyCode::Enter,
            "esc" | "escape" => KeyCode::Esc,
            "space" => KeyCode::Char(' '),
            "tab" => KeyCode::Tab,
            "backspace" => KeyCode::Backspace,
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "pgup" | "pageup" => KeyCode::PageUp,
            "pgdn" | "pagedown" => KeyCode::PageDown,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            _ => return None,
        },
    };
    Some(Key { code, mods })
}

/// Keys one action may be given in config.toml.
pub const MAX_KEYS_PER_ACTION: usize = 16;

/// Problems in `[keys]`, the first [`crate::tui::config::MAX_PROBLEMS`] written out and
/// the rest only counted, so a table of 100,000 bad entries costs no more than a short one.
#[derive(Default)]
struct Problems {
    shown: Vec<String>,
    more: usize,
}

impl Problems {
    fn push(&mut self, message: impl FnOnce() -> String) {
        if self.shown.len() < crate::tui::config::MAX_PROBLEMS {
            self.shown.push(message());
        } else {
            self.more += 1;
        }
    }

    fn finish(mut self, file: &str) -> Vec<String> {
        if self.more > 0 {
            self.shown
                .push(format!("{file}: and {} more problems in [keys]", self.more));
        }
        self.shown
    }
}

/// A key override from config.toml: an action's new keys, and the line it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Override {
    pub action: String,
    pub keys: Vec<String>,
    pub line: usize,
}

impl Keymap {
    /// Applies overrides: an action's keys are replaced in every context that binds it,
    /// and a key taken over leaves the action it had there. Ctrl-C always quits. Problems
    /// come back as messages naming `file` and the line.
    pub fn with_overrides(overrides: &[Override], file: &str) -> (Keymap, Vec<String>) {
        let mut km = Keymap::default();
        let mut problems = Problems::default();
        for o in overrides {
            let Some(action) = ACTION_NAMES
                .iter()
                .find(|(n, _)| *n == o.action)
                .map(|(_, a)| *a)
            else {
                problems.push(|| {
                    format!(
                        "{file}:{}: [keys] has no action `{}`; the actions are {}",
                        o.line,
                        o.action,
                        ACTION_NAMES
                            .iter()
                            .map(|(n, _)| *n)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                });
                continue;
            };
            if o.keys.len() > MAX_KEYS_PER_ACTION {
                problems.push(|| {
                    format!(
                        "{file}:{}: [keys] {} lists {} keys; an action takes at most {MAX_KEYS_PER_ACTION}",
                        o.line,
                        o.action,
                        o.keys.len()
                    )
                });
                continue;
            }
            let mut keys = Vec::new();
            for k in &o.keys {
                match parse_key(k) {
                    Some(key) if key == ctrl('c') => problems.push(|| {
                        format!(
                            "{file}:{}: Ctrl-C always quits and cannot be rebound",
                            o.line
                        )
                    }),
                    Some(key) => keys.push(key),
                    None => problems.push(|| {
                        format!(
                            "{file}:{}: `{k}` is not a key (examples: x, G, ctrl-d, enter, esc, space, up, pgdn)",
                            o.line
                        )
                    }),
                }
            }
            if keys.is_empty() {
                continue;
            }
            // One binding per context the action has, to copy its description from. Where
            // the learner types (search, command line, editor) keys stay as they are, so a
            // letter bound elsewhere can still be typed.
            let typing = |c: Context| matches!(c, C::Search | C::Command | C::Editor | C::Notes);
            let mut template: Vec<Binding> = Vec::new();
            for b in km
                .bindings
                .iter()
                .filter(|b| b.action == action && !typing(b.ctx))
            {
                if !template.iter().any(|t| t.ctx == b.ctx) {
                    template.push(*b);
                }
            }
            km.bindings.retain(|b| {
                typing(b.ctx)
                    || b.action != action
                        && !template
                            .iter()
                            .any(|t| t.ctx == b.ctx && keys.contains(&b.key) && b.action != A::Quit)
            });
            for t in template.iter().rev() {
                for key in keys.iter().rev() {
                    km.bindings.insert(0, Binding { key: *key, ..*t });
                }
            }
        }
        (km, problems.finish(file))
    }
}

#[cfg(test)]
mod tests {
    use ratatui::crossterm::event::KeyEvent;

    use super::super::KEYMAP;
    use super::*;

    fn ev(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    #[test]
    fn every_action_on_a_screen_can_be_rebound_in_config() {
        // The command line and the editor take typed text; their keys are not rebindable.
        let missing: Vec<String> = KEYMAP
            .iter()
            .filter(|b| {
                !b.ctx.is_text_box() && !matches!(b.ctx, Context::Editor | Context::TextBox)
            })
            .filter(|b| b.action != Action::Quit)
            .filter(|b| !ACTION_NAMES.iter().any(|(_, a)| *a == b.action))
            .map(|b| format!("{:?} ({})", b.action, b.desc))
            .collect();
        assert!(missing.is_empty(), "no name for [keys]: {missing:?}");
    }

    #[test]
    fn overrides_replace_keys_everywhere_the_action_is_bound() {
        let (km, problems) = Keymap::with_overrides(
            &[Override {
                action: "reveal".into(),
                keys: vec!["v".into(), "enter".into()],
                line: 3,
            }],
            "config.toml",
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(km.lookup(Context::Card, &ev('v')), Some(Action::Reveal));
        assert_eq!(km.lookup(Context::Card, &ev(' ')), None);
        let rows = km.help_rows(Context::Card);
        assert!(rows.contains(&("v Enter".to_string(), "reveal the next section")));
    }

    #[test]
    fn a_taken_key_leaves_its_old_action_and_problems_name_the_line() {
        let (km, problems) = Keymap::with_overrides(
            &[
                Override {
                    action: "delete-pod".into(),
                    keys: vec!["d".into()],
                    line: 2,
                },
                Override {
                    action: "explode".into(),
                    keys: vec!["e".into()],
                    line: 5,
                },
                Override {
                    action: "help".into(),
                    keys: vec!["F1".into(), "ctrl-c".into()],
                    line: 7,
                },
            ],
            "/home/u/.config/kubedrill/config.toml",
        );
        assert_eq!(km.lookup(Context::Demo, &ev('d')), Some(Action::DeletePod));
        assert_eq!(km.lookup(Context::Demo, &ev('x')), None);
        // Keys elsewhere are untouched.
        assert_eq!(km.lookup(Context::Card, &ev('d')), Some(Action::OpenDemo));
        let (km, _) = Keymap::with_overrides(
            &[Override {
                action: "down".into(),
                keys: vec!["n".into()],
                line: 1,
            }],
            "config.toml",
        );
        assert_eq!(km.lookup(Context::List, &ev('n')), Some(Action::Down));
        // While typing a search, n is a letter and Down still moves.
        assert_eq!(km.lookup(Context::Search, &ev('n')), None);
        assert_eq!(
            km.lookup(
                Context::Search,
                &KeyEvent::new(KeyCode::Down, KeyModifiers::NONE)
            ),
            Some(Action::Down)
        );
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].starts_with(
            "/home/u/.config/kubedrill/config.toml:5: [keys] has no action `explode`"
        ));
        assert!(problems[1].contains(":7: `F1` is not a key"));
        assert!(problems[2].contains(":7: Ctrl-C always quits"));
        assert_eq!(
            km.lookup(
                Context::Card,
                &KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)
            ),
            Some(Action::Quit)
        );
        // `help` kept its `?` since none of its new keys were valid.
        assert_eq!(km.lookup(Context::Home, &ev('?')), Some(Action::Help));
    }
}
