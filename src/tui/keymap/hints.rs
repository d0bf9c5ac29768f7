//! What the keys are shown as: the status line's hints per context and the `?` help
//! rows, both read from the bindings in use so overrides show in each.

use ratatui::crossterm::event::KeyCode;

use super::defaults::KEYMAP;
use super::map::Keymap;
use super::{Action, Binding, Context, Key};

use Action as A;
use Context as C;

/// The Interview hint for the key that starts an answer and finishes it; the app says
/// which of the two it does at the moment in its place.
pub const START_FINISH: &str = "start/finish";

/// Help rows for a context under the default keymap.
pub fn help_rows(ctx: Context) -> Vec<(String, &'static str)> {
    help_rows_in(KEYMAP, ctx)
}

/// Help rows: keys with the same description joined, in table order.
fn help_rows_in(bindings: &[Binding], ctx: Context) -> Vec<(String, &'static str)> {
    let mut rows: Vec<(Vec<Key>, &'static str)> = Vec::new();
    for bd in bindings.iter().filter(|bd| bd.ctx == ctx) {
        match rows.iter_mut().find(|(_, d)| *d == bd.desc) {
            Some((keys, _)) => keys.push(bd.key),
            None => rows.push((vec![bd.key], bd.desc)),
        }
    }
    rows.into_iter()
        .map(|(keys, desc)| (keys_label(&keys), desc))
        .collect()
}

fn keys_label(keys: &[Key]) -> String {
    let digits: Vec<char> = keys
        .iter()
        .filter_map(|k| match k.code {
            KeyCode::Char(c) if c.is_ascii_digit() && k.mods.is_empty() => Some(c),
            _ => None,
        })
        .collect();
    if digits.len() == keys.len() && digits.len() > 2 {
        return format!("{}-{}", digits[0], digits[digits.len() - 1]);
    }
    keys.iter().map(Key::label).collect::<Vec<_>>().join(" ")
}

impl Keymap {
    pub fn help_rows(&self, ctx: Context) -> Vec<(String, &'static str)> {
        help_rows_in(&self.bindings, ctx)
    }

    /// The first key of each action in `ctx` (or globally), joined as the help joins
    /// them: "Space", "[ ]", "1-9". Empty when none of them has a key.
    pub fn keys_for(&self, ctx: Context, actions: &[Action]) -> String {
        let first = |a: &Action, c: Context| {
            self.bindings
                .iter()
                .find(|bd| bd.ctx == c && bd.action == *a)
                .map(|bd| bd.key)
        };
        let keys: Vec<Key> = actions
            .iter()
            .filter_map(|a| first(a, ctx).or_else(|| first(a, Context::Global)))
            .collect();
        keys_label(&keys)
    }

    /// The status line's hints for `ctx`, with the keys this keymap binds, so config.toml's
    /// overrides show there as they do in `?`. Hints whose actions lost every key are left
    /// out.
    pub fn hints(&self, ctx: Context) -> String {
        let Some((_, fixed, items)) = HINTS.iter().find(|(c, _, _)| *c == ctx) else {
            return String::new();
        };
        if !fixed.is_empty() {
            return (*fixed).to_string();
        }
        items
            .iter()
            .filter_map(|(actions, what)| {
                let keys = self.keys_for(ctx, actions);
                (!keys.is_empty()).then(|| format!("{keys} {what}"))
            })
            .collect::<Vec<_>>()
            .join(" · ")
    }
}

type Hint = (&'static [Action], &'static str);

const JUMPS: &[Action] = &[
    A::Jump(1),
    A::Jump(2),
    A::Jump(3),
    A::Jump(4),
    A::Jump(5),
    A::Jump(6),
    A::Jump(7),
    A::Jump(8),
    A::Jump(9),
];

/// Per context: a fixed text (where keys are typed text and cannot be rebound) or hints
/// built from the keymap.
const HINTS: &[(Context, &str, &[Hint])] = &[
    (
        C::Home,
        "",
        &[
            (&[A::Open], "open"),
            (&[A::ReviewDue], "review"),
            (&[A::Stats], "stats"),
            (&[A::Mock], "mock"),
            (&[A::Quiz], "quiz"),
            (&[A::Help], "help"),
            (&[A::Back], "quit"),
        ],
    ),
    (
        C::List,
        "",
        &[
            (&[A::Open], "open"),
            (&[A::Search], "search"),
            (&[A::CycleLevel], "level"),
            (&[A::CycleImportance], "importance"),
            (&[A::ToggleSort], "sort"),
            (&[A::Help], "help"),
            (&[A::Back], "back"),
        ],
    ),
    (C::Search, "type to search · Enter keep · Esc clear", &[]),
    (
        C::Card,
        "",
        &[
            (&[A::Reveal], "reveal"),
            (JUMPS, "jump"),
            (&[A::PrevLevel, A::NextLevel], "level"),
            (&[A::OpenDemo], "demo"),
            (&[A::RunCode], "run code"),
            (&[A::Help], "help"),
            (&[A::Back], "back"),
        ],
    ),
    (
        C::Demo,
        "",
        &[
            (&[A::Help], "every demo key"),
            (&[A::Back], "back to the card"),
        ],
    ),
    (
        C::Command,
        "Enter run · Tab complete · Up/Down history · Esc close",
        &[],
    ),
    (
        C::Editor,
        "Esc save and close · Ctrl-S save · Ctrl-N next file",
        &[],
    ),
    (
        C::Review,
        "",
        &[
            (&[A::Reveal], "answer/Good"),
            (
                &[A::Grade(1), A::Grade(2), A::Grade(3), A::Grade(4)],
                "grade",
            ),
            (&[A::Undo], "undo"),
            (&[A::Bury], "bury"),
            (&[A::Help], "help"),
            (&[A::Back], "back"),
        ],
    ),
    (
        C::Stats,
        "",
        &[
            (&[A::StatsView], "progress/history"),
            (&[A::Help], "help"),
            (&[A::Back], "back"),
        ],
    ),
    (
        C::Settings,
        "",
        &[
            (&[A::PrevValue, A::NextValue], "change"),
            (&[A::Help], "help"),
            (&[A::Back], "back"),
        ],
    ),
    (
        C::Setup,
        "",
        &[
            (&[A::Up, A::Down], "option"),
            (&[A::PrevValue, A::NextValue], "change"),
            (&[A::Advance], "start"),
            (&[A::Back], "back"),
        ],
    ),
    (
        C::Interview,
        "",
        &[
            (&[A::Advance], START_FINISH),
            (&[A::PauseTimer], "pause"),
            (&[A::Notes], "notes"),
            (&[A::EndNow], "end"),
            (&[A::Help], "help"),
        ],
    ),
    (C::Notes, "type notes · Enter or Esc close", &[]),
    (
        C::Rubric,
        "",
        &[
            (&[A::Toggle], "tick"),
            (&[A::Up, A::Down], "move"),
            (&[A::Advance], "score"),
            (&[A::PageUp, A::PageDown], "answers"),
            (&[A::EndNow], "end"),
        ],
    ),
    (
        C::Judge,
        "",
        &[
            (&[A::Judge(1)], "answered"),
            (&[A::Judge(2)], "partly"),
            (&[A::Judge(3)], "missed"),
            (&[A::EndNow], "end"),
        ],
    ),
    (
        C::Scorecard,
        "",
        &[
            (&[A::WriteReport], "write report"),
            (&[A::Up, A::Down], "scroll"),
            (&[A::Back], "back"),
        ],
    ),
    (
        C::Quiz,
        "",
        &[
            (
                &[A::Choose(1), A::Choose(2), A::Choose(3), A::Choose(4)],
                "answer",
            ),
            (&[A::Advance], "choose/next"),
            (&[A::EndNow], "end"),
            (&[A::Back], "back"),
        ],
    ),
    (C::Help, "", &[(&[A::Help], "help"), (&[A::Back], "back")]),
    (C::Global, "", &[(&[A::Help], "help"), (&[A::Back], "back")]),
];

#[cfg(test)]
mod tests {
    use super::super::Override;
    use super::*;

    #[test]
    fn status_hints_name_the_keys_the_keymap_binds() {
        let default = Keymap::default();
        assert_eq!(
            default.hints(Context::Card),
            "Space reveal · 1-9 jump · [ ] level · d demo · r run code · ? help · q back"
        );
        let (km, problems) = Keymap::with_overrides(
            &[Override {
                action: "open-demo".into(),
                keys: vec!["D".into()],
                line: 2,
            }],
            "config.toml",
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert!(
            km.hints(Context::Card).contains("D demo"),
            "{}",
            km.hints(Context::Card)
        );
        assert!(!km.hints(Context::Card).contains("d demo"));
    }
}
