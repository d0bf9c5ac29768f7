//! What the terminal app takes from config.toml: theme, target level, mouse, `[mock]`
//! defaults and `[keys]` overrides. Text in, settings and problems out; the cli reads the file. Keys other
//! layers own (review limits) are left to them. A problem never
//! stops the app: each one names the file and line, and that setting keeps its default.

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::content::Level;
use crate::study::mock::Strictness;

use super::keymap::{Keymap, Override};
use super::settings::Settings;
use super::theme::ThemeName;

/// Settings, keymap and problems read from one config.toml.
#[derive(Debug, Clone)]
pub struct Config {
    pub settings: Settings,
    pub keymap: Keymap,
    /// Each names the file and the line: `config.toml:3: theme must be ...`.
    pub problems: Vec<String>,
    /// `[mock] questions` and `strictness`: a mock interview's defaults.
    pub mock_questions: Option<usize>,
    pub mock_strictness: Option<Strictness>,
}

/// Line numbers of many offsets in one text, each found in O(log lines): a `[keys]` table
/// of 100,000 entries counted newlines from the start for each and took 20 s.
struct Lines(Vec<usize>);

impl Lines {
    fn new(text: &str) -> Lines {
        Lines(text.match_indices('\n').map(|(i, _)| i).collect())
    }

    fn of(&self, at: usize) -> usize {
        self.0.partition_point(|&nl| nl < at) + 1
    }
}

/// `[keys]` problems listed in the banner; the rest are counted. (The other settings are
/// one key each, so they are few.)
pub const MAX_PROBLEMS: usize = 20;

/// Applies config.toml `text` (read from `file`, named in messages) over `base`.
pub fn parse(text: &str, file: &str, base: Settings) -> Config {
    let mut cfg = Config {
        settings: base,
        keymap: Keymap::default(),
        problems: Vec::new(),
        mock_questions: None,
        mock_strictness: None,
    };
    let root = match DeTable::parse(text) {
        Ok(r) => r,
        Err(e) => {
            let line =
                crate::content::text::line_at(text.as_bytes(), e.span().map_or(0, |s| s.start));
            cfg.problems.push(format!(
                "{file}:{line}: invalid TOML: {}",
                e.message().trim()
            ));
            return cfg;
        }
    };
    let root = root.get_ref();
    let lines = Lines::new(text);
    let at = |v: &Spanned<DeValue<'_>>| lines.of(v.span().start);
    let str_of = |v: &Spanned<DeValue<'_>>| match v.get_ref() {
        DeValue::String(s) => Some(s.to_string()),
        _ => None,
    };
    if let Some(v) = root.get("theme") {
        match str_of(v).as_deref() {
            Some("colour" | "color" | "default") => cfg.settings.theme = ThemeName::Default,
            Some("mono") => cfg.settings.theme = ThemeName::Mono,
            _ => cfg.problems.push(format!(
                "{file}:{}: theme must be \"colour\" or \"mono\"",
                at(v)
            )),
        }
    }
    if let Some(v) = root.get("target_level") {
        match str_of(v).as_deref().and_then(Level::parse) {
            Some(l) => cfg.settings.level = l,
            None => cfg.problems.push(format!(
                "{file}:{}: target_level must be one of {}",
                at(v),
                Level::ALL
                    .iter()
                    .map(|l| format!("\"{}\"", l.as_str()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
    if let Some(v) = root.get("mouse") {
        match v.get_ref() {
            DeValue::Boolean(b) => cfg.settings.mouse = *b,
            _ => cfg
                .problems
                .push(format!("{file}:{}: mouse must be true or false", at(v))),
        }
    }
    if let Some(v) = root.get("mock") {
        match v.get_ref() {
            DeValue::Table(t) => {
                if let Some(q) = t.get("questions") {
                    match q.get_ref() {
                        DeValue::Integer(i) => match i.as_str().parse::<usize>() {
                            Ok(n) if (1..=10).contains(&n) => cfg.mock_questions = Some(n),
                            _ => cfg.problems.push(format!(
                                "{file}:{}: [mock] questions must be 1 to 10",
                                at(q)
                            )),
                        },
                        _ => cfg.problems.push(format!(
                            "{file}:{}: [mock] questions must be 1 to 10",
                            at(q)
                        )),
                    }
                }
                if let Some(st) = t.get("strictness") {
                    match str_of(st).as_deref().and_then(Strictness::parse) {
                        Some(x) => cfg.mock_strictness = Some(x),
                        None => cfg.problems.push(format!(
                            "{file}:{}: [mock] strictness must be \"lenient\", \"standard\" or \"strict\"",
                            at(st)
                        )),
                    }
                }
            }
            _ => cfg.problems.push(format!(
                "{file}:{}: mock must be a table: [mock] then questions = 5, strictness = \"standard\"",
                at(v)
            )),
        }
    }
    if let Some(v) = root.get("keys") {
        let DeValue::Table(keys) = v.get_ref() else {
            cfg.problems.push(format!(
                "{file}:{}: keys must be a table: [keys] then lines like reveal = [\"space\", \"v\"]",
                at(v)
            ));
            return cfg;
        };
        let mut overrides = Vec::new();
        for (name, val) in keys {
            let list: Option<Vec<String>> = match val.get_ref() {
                DeValue::String(s) => Some(vec![s.to_string()]),
                DeValue::Array(a) => a.iter().map(str_of).collect(),
                _ => None,
            };
            match list {
                Some(keys) => overrides.push(Override {
                    action: name.get_ref().to_string(),
                    keys,
                    line: at(val),
                }),
                None => cfg.problems.push(format!(
                    "{file}:{}: [keys] {} must be a key or a list of keys",
                    at(val),
                    name.get_ref()
                )),
            }
        }
        // The table iterates in key order; problems read best in the file's order.
        overrides.sort_by_key(|o| o.line);
        let (keymap, problems) = Keymap::with_overrides(&overrides, file);
        cfg.keymap = keymap;
        cfg.problems.extend(problems);
    }
    cfg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::keymap::{Action, Context};
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    #[test]
    fn reads_settings_and_keys_and_leaves_other_layers_keys_alone() {
        let c = parse(
            "theme = \"mono\"\ntarget_level = \"senior\"\nmouse = true\ndaily_new = 10\n\n[keys]\nreveal = [\"v\", \"enter\"]\ndelete-pod = \"d\"\n",
            "config.toml",
            Settings::default(),
        );
        assert!(c.problems.is_empty(), "{:?}", c.problems);
        assert_eq!(c.settings.theme, ThemeName::Mono);
        assert_eq!(c.settings.level, Level::Senior);
        assert!(c.settings.mouse);
        let v = KeyEvent::new(KeyCode::Char('v'), KeyModifiers::NONE);
        assert_eq!(c.keymap.lookup(Context::Card, &v), Some(Action::Reveal));
        let d = KeyEvent::new(KeyCode::Char('d'), KeyModifiers::NONE);
        assert_eq!(c.keymap.lookup(Context::Demo, &d), Some(Action::DeletePod));
    }

    #[test]
    fn each_problem_names_the_file_and_line_and_keeps_the_default() {
        let c = parse(
            "theme = \"pink\"\n\ntarget_level = 3\nmouse = \"yes\"\n[keys]\nup = 5\n",
            "/cfg/config.toml",
            Settings::default(),
        );
        assert_eq!(
            c.problems,
            vec![
                "/cfg/config.toml:1: theme must be \"colour\" or \"mono\"",
                "/cfg/config.toml:3: target_level must be one of \"junior\", \"middle\", \"senior\", \"principal\"",
                "/cfg/config.toml:4: mouse must be true or false",
                "/cfg/config.toml:6: [keys] up must be a key or a list of keys",
            ]
        );
        assert_eq!(c.settings, Settings::default());
    }

    #[test]
    fn mock_defaults_come_from_the_mock_table() {
        let c = parse(
            "[mock]\nquestions = 3\nstrictness = \"strict\"\n",
            "config.toml",
            Settings::default(),
        );
        assert!(c.problems.is_empty(), "{:?}", c.problems);
        assert_eq!(c.mock_questions, Some(3));
        assert_eq!(c.mock_strictness, Some(Strictness::Strict));
        let c = parse(
            "[mock]\nquestions = 40\nstrictness = \"harsh\"\n",
            "config.toml",
            Settings::default(),
        );
        assert_eq!(
            c.problems,
            vec![
                "config.toml:2: [mock] questions must be 1 to 10",
                "config.toml:3: [mock] strictness must be \"lenient\", \"standard\" or \"strict\"",
            ]
        );
        assert_eq!(c.mock_questions, None);
    }

    #[test]
    fn a_huge_keys_table_is_read_in_one_pass_with_its_problems_counted() {
        let mut text = String::from("mouse = true\n[keys]\n");
        for i in 0..100_000 {
            text.push_str(&format!("no-such-action-{i} = \"x\"\n"));
        }
        text.push_str(&format!("reveal = [{}]\n", vec!["\"v\""; 17].join(", ")));
        let c = parse(&text, "config.toml", Settings::default());
        assert!(c.settings.mouse);
        assert_eq!(c.problems.len(), MAX_PROBLEMS + 1);
        assert!(
            c.problems[0].starts_with("config.toml:3: [keys] has no action `no-such-action-0`")
        );
        assert!(
            c.problems[19].starts_with("config.toml:22: "),
            "{}",
            c.problems[19]
        );
        assert_eq!(
            c.problems[20],
            "config.toml: and 99981 more problems in [keys]"
        );
    }

    #[test]
    fn broken_toml_reports_its_line() {
        let c = parse(
            "mouse = true\ntheme = \n",
            "config.toml",
            Settings::default(),
        );
        assert_eq!(c.problems.len(), 1);
        assert!(
            c.problems[0].starts_with("config.toml:2: invalid TOML"),
            "{:?}",
            c.problems
        );
        assert_eq!(c.settings, Settings::default());
    }
}
