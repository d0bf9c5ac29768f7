//! The live demo beside a question: one simulator session per question, kept by the app
//! while the learner goes back and forth. Every manipulation is a line of kubectl or a
//! directive run through `Session::run_line`, so the output pane shows what happened and
//! the hotkeys teach the commands.

use std::time::Duration;

use ratatui::crossterm::event::KeyEvent;
use ratatui_textarea::TextArea;

use crate::tui::line_edit::LineEdit;

use crate::content::Question;
use crate::sim::directive::{Component, Trigger};
use crate::sim::informer::RunState;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::session::Session;
use crate::tui::complete;
use crate::tui::keymap::Action;

use super::Nav;

/// Simulated seconds per half second of wall time, by speed step.
pub const SPEEDS: [u32; 4] = [1, 2, 4, 8];
/// Wall time per simulated second at 1x.
pub const BASE_TICK: Duration = Duration::from_millis(500);
/// Output pane rows kept.
const OUTPUT_CAP: usize = 2000;

/// The components the controller panel always lists; the autoscaler and the GitOps
/// syncer join them once a line starts them.
pub const CONTROLLERS: [Component; 3] = [
    Component::Deployment,
    Component::ReplicaSet,
    Component::Kubelet,
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutKind {
    /// The line the learner (or a hotkey) ran.
    Command,
    /// Prose: wrapped at word boundaries to the pane.
    Stdout,
    /// What kubectl lays out in columns (tables, YAML, JSON, describe) or a file: one
    /// line per line, cut with `…` at the pane's edge (`v` widens the pane).
    Table,
    Stderr,
}

/// One challenge as the demo shows it.
#[derive(Debug, Clone)]
pub struct Challenge {
    pub title: String,
    pub hints: Vec<String>,
    /// Hints revealed so far.
    pub shown: usize,
    /// Met in an earlier visit (the progress store remembers it).
    pub solved_before: bool,
}

/// The manifest editor: one file at a time, saved into the session's files.
pub struct Editor {
    pub file: String,
    pub area: TextArea<'static>,
}

pub struct Demo {
    /// The question this demo belongs to.
    pub id: String,
    pub session: Session,
    /// The challenges, in the order of `session.met()`.
    pub challenges: Vec<Challenge>,
    /// The challenge the hint key addresses.
    pub chosen: usize,
    pub output: Vec<(OutKind, String)>,
    /// Output rows scrolled up from the newest; 0 follows the tail.
    pub out_scroll: usize,
    /// The output pane takes the whole screen (the panels above it are hidden).
    pub wide: bool,
    /// The command line while typing after `:`.
    pub input: Option<LineEdit>,
    pub history: Vec<String>,
    /// Position in `history` while browsing it with Up/Down.
    hist_pos: Option<usize>,
    pub playing: bool,
    /// Time has never run: the demo waits for the first Space.
    pub waiting_to_start: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// What pause, crash, trigger and drop address: one of [`Demo::components`].
    pub selected: Component,
    pub editor: Option<Editor>,
    /// Challenges already reported as met, so each is announced (and saved) once.
    announced: Vec<bool>,
}

impl std::fmt::Debug for Demo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Demo")
            .field("id", &self.id)
            .field("now", &self.session.now())
            .field("playing", &self.playing)
            .finish_non_exhaustive()
    }
}

impl Demo {
    /// The question's scenario with its setup lines run and its challenges set, as the
    /// learner finds it.
    /// `solved` names the challenges the progress store has as solved.
    pub fn new(q: &Question, seed: u64, solved: &[String]) -> Result<Demo, String> {
        let mut session = Session::new(&q.demo.scenario, seed)?;
        for line in &q.demo.setup {
            let out = session.run_line(line);
            if !out.stderr.is_empty() {
                return Err(format!(
                    "{}: setup line `{line}` failed: {}",
                    q.id,
                    out.stderr.trim_end()
                ));
            }
        }
        let goals = q.demo.challenges.iter().map(|c| c.goal.as_str());
        session
            .set_goals(goals)
            .map_err(|e| format!("{}: a challenge goal does not parse: {e}", q.id))?;
        let selected = if q.demo.scenario == "self-healing" {
            Component::ReplicaSet
        } else {
            Component::Deployment
        };
        let challenges = q
            .demo
            .challenges
            .iter()
            .map(|c| Challenge {
                title: c.title.to_string(),
                hints: c.hints.iter().map(ToString::to_string).collect(),
                shown: 0,
                solved_before: solved.iter().any(|t| *t == c.title),
            })
            .collect();
        let mut d = Demo {
            id: q.id.to_string(),
            session,
            challenges,
            chosen: 0,
            output: Vec::new(),
            out_scroll: 0,
            wide: false,
            input: None,
            history: Vec::new(),
            hist_pos: None,
            playing: false,
            waiting_to_start: true,
            speed: 0,
            selected,
            editor: None,
            announced: Vec::new(),
        };
        d.say(
            OutKind::Stdout,
            &format!(
                "{}\nTime stands still until you press Space.\n: runs kubectl (or k) or a \
                 directive (`help` lists them) · h shows the chosen challenge's hint · R resets",
                d.session.scenario.summary
            ),
        );
        Ok(d)
    }

    /// The component the hotkeys address; the deployment controller when the chosen
    /// one is no longer listed (a reset turned the autoscaler off).
    pub fn controller(&self) -> Component {
        if self.components().contains(&self.selected) {
            self.selected
        } else {
            Component::Deployment
        }
    }

    /// The components the controller panel lists, in its order: the ones that always
    /// run (the StatefulSet and volume controllers where there is work for them), then
    /// the autoscaler and the GitOps syncer once started.
    pub fn components(&self) -> Vec<Component> {
        Component::ALL
            .into_iter()
            .filter(|c| CONTROLLERS.contains(c) || self.session.component_state(*c) != "off")
            .filter(|c| self.session.component_in_use(*c))
            .collect()
    }

    /// How often a simulated second passes, while playing.
    pub fn interval(&self) -> Option<Duration> {
        self.playing.then(|| BASE_TICK / SPEEDS[self.speed])
    }

    /// One simulated second, as the play loop advances it.
    pub fn tick(&mut self) {
        self.session.tick();
    }

    /// Titles of challenges met since the last call.
    pub fn newly_met(&mut self) -> Vec<String> {
        let met = self.session.met();
        self.announced.resize(met.len(), false);
        let mut out = Vec::new();
        for (i, (&now, seen)) in met.iter().zip(self.announced.iter_mut()).enumerate() {
            if now && !*seen {
                *seen = true;
                out.extend(self.challenges.get(i).map(|c| c.title.clone()));
            }
        }
        out
    }

    /// Met in this demo, or solved on an earlier visit.
    pub fn solved(&self, i: usize) -> bool {
        self.session.met().get(i).copied().unwrap_or(false)
            || self.challenges.get(i).is_some_and(|c| c.solved_before)
    }

    /// A line from the app into the output pane (where an export went).
    pub fn note(&mut self, is_error: bool, text: &str) {
        let kind = if is_error {
            OutKind::Stderr
        } else {
            OutKind::Stdout
        };
        self.say(kind, text);
    }

    fn say(&mut self, kind: OutKind, text: &str) {
        // What kubectl echoes back may hold an escape code the learner pasted: shown, not run.
        for l in text.lines() {
            self.output
                .push((kind, crate::content::text::terminal_safe(l).into_owned()));
        }
        if self.output.len() > OUTPUT_CAP {
            let cut = self.output.len() - OUTPUT_CAP;
            self.output.drain(..cut);
        }
        self.out_scroll = 0;
    }

    /// Runs one line as the learner typed it, showing it and what it printed, in the
    /// order `kubedrill sim` and kubectl print it (warnings where they happened).
    pub fn run(&mut self, line: &str) {
        let line = line.trim();
        if line.is_empty() {
            return;
        }
        self.say(OutKind::Command, &format!("$ {line}"));
        let out = self.session.run_line(line);
        let laid_out = lays_out(line);
        for (is_err, text) in out.chunks() {
            let kind = match (is_err, laid_out) {
                (true, _) => OutKind::Stderr,
                (false, true) => OutKind::Table,
                (false, false) => OutKind::Stdout,
            };
            self.say(kind, text);
        }
    }

    /// Reveals the next hint of the chosen challenge; says so when there is none left.
    fn reveal_hint(&mut self) -> Nav {
        let Some(c) = self.challenges.get_mut(self.chosen) else {
            return Nav::Status("this demo has no challenges".into());
        };
        if c.hints.is_empty() {
            return Nav::Status(format!("“{}” has no hint", c.title));
        }
        if c.shown >= c.hints.len() {
            return Nav::Status(format!("every hint of “{}” is showing", c.title));
        }
        c.shown += 1;
        // Into the output pane as well, where it wraps in full whatever the panel's room.
        let said = format!(
            "hint {} of {} for “{}”: {}",
            c.shown,
            c.hints.len(),
            c.title,
            crate::tui::text::flat(&c.hints[c.shown - 1])
        );
        let status = format!("hint {} of {}", c.shown, c.hints.len());
        self.say(OutKind::Stdout, &said);
        Nav::Status(status)
    }

    /// The workload web, as kubectl names its kind (a Deployment, or the statefulset
    /// scenario's StatefulSet), and its `spec.replicas`.
    fn workload_replicas(&self) -> Option<(&'static str, i64)> {
        [
            (Kind::Deployment, "deployment"),
            (Kind::StatefulSet, "statefulset"),
        ]
        .into_iter()
        .find_map(|(k, name)| {
            let n = obj::int(self.session.object(k, "web")?, &["spec", "replicas"])?;
            Some((name, n))
        })
    }

    /// The line a manipulation hotkey runs, from the current state.
    pub fn hotkey_line(&self, action: Action) -> Option<String> {
        let c = self.controller();
        let state = self.session.cluster.state(c);
        Some(match action {
            Action::DeletePod => {
                let pod = self
                    .session
                    .objects(Kind::Pod)
                    .find(|p| !obj::is_deleting(p))?;
                // --wait=false, as you would type to watch the pod terminate: plain kubectl
                // blocks until the pod is gone, which would jump the demo past the lesson.
                format!("kubectl delete pod {} --wait=false", obj::name(pod))
            }
            Action::ScaleUp | Action::ScaleDown => {
                let (kind, n) = self.workload_replicas()?;
                let n = if action == Action::ScaleUp {
                    n + 1
                } else {
                    (n - 1).max(0)
                };
                format!("kubectl scale {kind} web --replicas={n}")
            }
            Action::TogglePause => match state {
                RunState::Running => format!("pause {c}"),
                RunState::Paused => format!("resume {c}"),
                RunState::Crashed => format!("restart {c}"),
            },
            Action::ToggleCrash => match state {
                RunState::Crashed => format!("restart {c}"),
                _ => format!("crash {c}"),
            },
            Action::ToggleTrigger => match self.session.cluster.trigger(c)? {
                Trigger::Level => format!("trigger {c} edge"),
                Trigger::Edge => format!("trigger {c} level"),
            },
            Action::DropEvent => format!("drop {c} 1"),
            // A status write the controller did not make: it reports the truth again at
            // its next sync.
            Action::ForgeStatus => "kubectl patch deployment web --subresource=status --type=merge -p '{\"status\":{\"readyReplicas\":0,\"availableReplicas\":0}}'".to_string(),
            Action::Step => "tick 1".to_string(),
            _ => return None,
        })
    }

    /// Handles an action on the demo screen (not typing, not editing).
    pub fn handle(&mut self, action: Action, page: usize) -> Nav {
        let page = page.max(1);
        match action {
            Action::Command => {
                self.input = Some(LineEdit::default());
                self.hist_pos = None;
            }
            Action::PlayPause => {
                self.playing = !self.playing;
                self.waiting_to_start = false;
                return Nav::Status(if self.playing { "playing" } else { "paused" }.into());
            }
            Action::NextChallenge | Action::PrevChallenge => {
                let n = self.challenges.len().max(1);
                self.chosen = if action == Action::NextChallenge {
                    (self.chosen + 1) % n
                } else {
                    (self.chosen + n - 1) % n
                };
            }
            Action::Hint => return self.reveal_hint(),
            Action::Reset => self.run("reset"),
            Action::ExportScript => return Nav::Export(None),
            Action::Faster | Action::Slower => {
                self.speed = if action == Action::Faster {
                    (self.speed + 1).min(SPEEDS.len() - 1)
                } else {
                    self.speed.saturating_sub(1)
                };
                return Nav::Status(format!("speed {}x", SPEEDS[self.speed]));
            }
            Action::NextController => {
                let all = self.components();
                let at = all.iter().position(|c| *c == self.selected);
                self.selected = all[at.map_or(0, |i| (i + 1) % all.len())];
                return Nav::Status(format!(
                    "hotkeys now address the {} controller",
                    self.controller()
                ));
            }
            Action::Edit => self.open_editor(0),
            Action::WideOutput => {
                self.wide = !self.wide;
                return Nav::Status(
                    if self.wide {
                        "output fills the screen; the same key brings back the panels"
                    } else {
                        "panels shown again"
                    }
                    .into(),
                );
            }
            Action::Up => self.out_scroll = (self.out_scroll + 1).min(self.output.len()),
            Action::Down => self.out_scroll = self.out_scroll.saturating_sub(1),
            Action::PageUp => self.out_scroll = (self.out_scroll + page).min(self.output.len()),
            Action::PageDown => self.out_scroll = self.out_scroll.saturating_sub(page),
            Action::Top => self.out_scroll = self.output.len(),
            Action::Bottom => self.out_scroll = 0,
            _ => match self.hotkey_line(action) {
                Some(line) => self.run(&line),
                None if action == Action::DeletePod => {
                    return Nav::Status("no pod to delete".into());
                }
                None if action == Action::ToggleTrigger => {
                    return Nav::Status(format!(
                        "the {} has no trigger mode; c picks another controller",
                        self.controller()
                    ));
                }
                None => {}
            },
        }
        Nav::Stay
    }

    /// Handles an action while the command line is open.
    pub fn handle_input(&mut self, action: Action) -> Nav {
        let Some(input) = self.input.as_mut() else {
            return Nav::Stay;
        };
        match action {
            Action::CmdRun => {
                let line = std::mem::take(input).into_text();
                self.input = None;
                self.hist_pos = None;
                if !line.trim().is_empty() {
                    if self.history.last() != Some(&line) {
                        self.history.push(line.clone());
                    }
                    // Writing a file is the app's to do, not the simulator's.
                    let words: Vec<&str> = line.split_whitespace().collect();
                    if let ["export", rest @ ..] = words.as_slice() {
                        self.say(OutKind::Command, &format!("$ {}", line.trim()));
                        return match rest {
                            [] => Nav::Export(None),
                            [file] => Nav::Export(Some(file.to_string())),
                            _ => {
                                self.say(OutKind::Stderr, "error: usage: `export [FILE]`");
                                Nav::Stay
                            }
                        };
                    }
                    self.run(&line);
                }
            }
            Action::CmdCancel => self.input = None,
            Action::EditText(e) => {
                input.apply(e);
            }
            // What is before the cursor is completed; what is after it stays.
            Action::CmdComplete => {
                let (head, rest) = input.text().split_at(input.cursor());
                let c = complete::complete(head, &self.session);
                let rest = rest.to_string();
                *input = LineEdit::new(c.line);
                input.insert_str(&rest);
                for _ in rest.chars() {
                    input.apply(crate::tui::line_edit::Edit::Left);
                }
                if !c.choices.is_empty() {
                    return Nav::Status(c.choices.join("  "));
                }
            }
            Action::HistPrev | Action::HistNext => {
                if self.history.is_empty() {
                    return Nav::Stay;
                }
                let last = self.history.len() - 1;
                self.hist_pos = match (self.hist_pos, action) {
                    (None, Action::HistPrev) => Some(last),
                    (Some(i), Action::HistPrev) => Some(i.saturating_sub(1)),
                    (Some(i), Action::HistNext) if i < last => Some(i + 1),
                    _ => None,
                };
                *input = LineEdit::new(
                    self.hist_pos
                        .map(|i| self.history[i].clone())
                        .unwrap_or_default(),
                );
            }
            _ => {}
        }
        Nav::Stay
    }

    pub fn type_char(&mut self, c: char) {
        if let Some(input) = self.input.as_mut() {
            input.insert(c);
        }
    }

    /// Pasted text (one bracketed paste): into the editor as it is, or onto the command
    /// line as one line, its line breaks made spaces. Nothing runs until Enter.
    pub fn paste(&mut self, text: &str) {
        if let Some(e) = self.editor.as_mut() {
            e.area.insert_str(text.replace("\r\n", "\n"));
        } else if let Some(input) = self.input.as_mut() {
            input.insert_str(&crate::tui::text::one_line(text).collect::<String>());
        }
    }

    /// Opens the editor on the file `offset` places after the current one (the first
    /// file when none is open).
    fn open_editor(&mut self, offset: usize) {
        // The editor lives where the panels are.
        self.wide = false;
        let names: Vec<String> = self.session.file_names().map(str::to_string).collect();
        if names.is_empty() {
            return;
        }
        let at = self
            .editor
            .as_ref()
            .and_then(|e| names.iter().position(|n| *n == e.file))
            .map_or(0, |i| (i + offset) % names.len());
        let file = names[at].clone();
        let text = self.session.file(&file).unwrap_or_default();
        let area = TextArea::new(text.lines().map(str::to_string).collect());
        self.editor = Some(Editor { file, area });
    }

    /// Writes the editor's text into the session's file of that name.
    fn save_editor(&mut self) -> Option<String> {
        let e = self.editor.as_ref()?;
        let mut text = e.area.lines().join("\n");
        text.push('\n');
        let file = e.file.clone();
        if self.session.file(&file) != Some(text.as_str()) {
            self.session.write_file(&file, text);
            self.say(
                OutKind::Stdout,
                &format!("saved {file}; `kubectl apply -f {file}` applies it"),
            );
        }
        Some(file)
    }

    /// Handles an editor action; other keys go to the text area.
    pub fn handle_editor(&mut self, action: Action) -> Nav {
        match action {
            Action::EditorSave => {
                if let Some(f) = self.save_editor() {
                    return Nav::Status(format!("saved {f}"));
                }
            }
            Action::EditorClose => {
                self.save_editor();
                self.editor = None;
            }
            Action::EditorNextFile => {
                self.save_editor();
                self.open_editor(1);
            }
            _ => {}
        }
        Nav::Stay
    }

    pub fn editor_key(&mut self, key: KeyEvent) {
        if let Some(e) = self.editor.as_mut() {
            e.area.input(key);
        }
    }
}

/// Whether a line prints what kubectl lays out in columns (`get`, `describe`, `-o`,
/// history, `top`-like tables) or a file (`cat`, `files`, `status`).
fn lays_out(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.first().copied() {
        Some("kubectl" | "k") => words.iter().any(|w| {
            matches!(*w, "get" | "describe" | "history" | "view-last-applied")
                || w.starts_with("-o")
                || w.starts_with("--output")
        }),
        Some("cat" | "files" | "status") => true,
        _ => false,
    }
}
