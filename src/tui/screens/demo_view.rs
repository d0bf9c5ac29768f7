//! Drawing the demo screen: the Deployment's spec beside its status, ReplicaSets and pods,
//! controllers, challenges, a replicas chart, events, the output pane and the command line.
//! Reads the session only.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};
use serde_json::Value;

use crate::sim::controllers::pods::{is_active, is_ready};
use crate::sim::directive::Trigger;
use crate::sim::informer::RunState;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::time;
use crate::tui::keymap::{Action, Context, Keymap};
use crate::tui::text;
use crate::tui::theme::Theme;

use super::Ctx;
use super::demo::{Demo, OutKind, SPEEDS};

/// What the demo leaves out, named on screen (README: "What the demo simplifies").
pub const SIMPLIFIES: &str = "simplified: one namespace · no preemption · fake apps · resync every 30 s · drop and edge are teaching faults";
const SIMPLIFIES_SHORT: &str =
    "simplified: 1 ns, no preemption, fake apps, 30 s resync; drop/edge not real";

pub struct View<'a> {
    pub ctx: Ctx<'a>,
    pub demo: &'a Demo,
}

/// The rows of the demo screen.
pub struct Areas {
    pub banner: Rect,
    pub upper: Rect,
    pub events: Rect,
    pub output: Rect,
    pub command: Rect,
}

/// `wide` gives the output pane everything but the banner and the command line.
pub fn areas(area: Rect, wide: bool) -> Areas {
    let lower_h = if wide {
        area.height
    } else {
        (area.height * 2 / 5).max(5)
    };
    let [banner, upper, lower, command] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(lower_h),
        Constraint::Length(1),
    ])
    .areas(area);
    // Narrow screens give kubectl's tables the wider half.
    let out_share = if area.width < 100 { 3 } else { 2 };
    let [events, output] = if wide {
        [Rect::new(lower.x, lower.y, 0, lower.height), lower]
    } else {
        Layout::horizontal([Constraint::Fill(2), Constraint::Fill(out_share)])
            .spacing(1)
            .areas(lower)
    };
    Areas {
        banner,
        upper,
        events,
        output,
        command,
    }
}

/// Rows of output visible, for paging.
pub fn output_rows(area: Rect, wide: bool) -> usize {
    areas(area, wide).output.height.saturating_sub(1) as usize
}

/// A titled panel with a rule on top; returns the inside.
pub(super) fn panel(title: Line<'_>, theme: &Theme, area: Rect, buf: &mut Buffer) -> Rect {
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(theme.border)
        .title(title);
    let inner = block.inner(area);
    block.render(area, buf);
    inner
}

fn title<'a>(text: &str, theme: &Theme) -> Line<'a> {
    Line::from(Span::styled(format!(" {text} "), theme.header))
}

impl Widget for &View<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let d = self.demo;
        let a = areas(area, d.wide);
        let (long, short) = (SIMPLIFIES, SIMPLIFIES_SHORT);
        let banner = if a.banner.width as usize > long.chars().count() {
            long
        } else {
            short
        };
        Paragraph::new(Span::styled(format!(" {banner}"), theme.dim)).render(a.banner, buf);

        if d.wide && d.editor.is_none() {
            output(d, theme, a.output, buf);
            command_line(d, theme, self.ctx.keymap, a.command, buf);
            return;
        }
        if let Some(e) = &d.editor {
            let inner = panel(
                title(
                    &format!(
                        "editing {}: Esc save and close · Ctrl-S save · Ctrl-N next file",
                        e.file
                    ),
                    theme,
                ),
                theme,
                a.upper,
                buf,
            );
            e.area.render(inner, buf);
        } else {
            upper(d, theme, a.upper, buf);
        }
        events(d, theme, a.events, buf);
        output(d, theme, a.output, buf);
        command_line(d, theme, self.ctx.keymap, a.command, buf);
    }
}

fn upper(d: &Demo, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let [left, right] = Layout::horizontal([Constraint::Fill(1), Constraint::Fill(1)])
        .spacing(1)
        .areas(area);
    // The workload: the Deployment web, or the scenario's StatefulSet, DaemonSet or Job.
    let workload = d.session.workload();
    let dep = match workload {
        Some((Kind::StatefulSet, s)) => super::demo_sets::stateful_set_lines(s, theme),
        Some((Kind::DaemonSet, s)) => super::demo_sets::daemon_set_lines(s, theme),
        Some((Kind::Job, j)) => super::demo_jobs::job_lines(j, d.session.now(), theme),
        _ => deployment_lines(d, theme),
    };
    let [dep_area, pods_area] =
        Layout::vertical([Constraint::Length(dep.1 as u16 + 1), Constraint::Fill(1)]).areas(left);
    let inner = panel(dep.0, theme, dep_area, buf);
    let spec_w = dep.2.iter().map(Line::width).max().unwrap_or(0) as u16;
    let [spec, _, status] = Layout::horizontal([
        Constraint::Length(spec_w),
        Constraint::Length(3),
        Constraint::Fill(1),
    ])
    .areas(inner);
    let rule = Rect {
        x: spec.right() + 1,
        width: 1,
        height: inner.height.min(3),
        ..spec
    }
    .intersection(inner);
    Paragraph::new(vec![Line::from(Span::styled("│", theme.border)); 3]).render(rule, buf);
    Paragraph::new(dep.2).render(spec, buf);
    Paragraph::new(dep.3).render(status, buf);
    let cond_area = Rect {
        y: inner.y.saturating_add(3).min(inner.bottom()),
        height: inner.height.saturating_sub(3),
        ..inner
    };
    Paragraph::new(dep.4).render(cond_area, buf);

    let (heading, mut lines) = match workload {
        Some((Kind::StatefulSet, s)) => (
            "Pods and claims",
            super::demo_sets::stateful_pod_lines(d, s, theme),
        ),
        Some((Kind::DaemonSet, s)) => (
            "Pods by node",
            super::demo_sets::daemon_pod_lines(d, s, theme),
        ),
        Some((Kind::Job, _)) => ("Jobs and pods", super::demo_jobs::job_pod_lines(d, theme)),
        _ => ("ReplicaSets and pods", pod_lines(d, theme)),
    };
    let inner = panel(title(heading, theme), theme, pods_area, buf);
    let rows = inner.height as usize;
    // What does not fit is counted, not silently cut: a new pod may be just below.
    if lines.len() > rows && rows > 0 {
        // Pod rows are the indented ones; ReplicaSet headers are not counted as pods.
        let is_pod = |l: &Line| l.spans.first().is_some_and(|s| s.content.starts_with("  "));
        let hidden = lines[rows - 1..].iter().filter(|l| is_pod(l)).count();
        lines.truncate(rows - 1);
        lines.push(Line::styled(
            format!("… {hidden} more pods (:kubectl get pods)"),
            theme.dim,
        ));
    }
    Paragraph::new(lines).render(inner, buf);

    // The controllers panel gives way first on a short screen: the challenges keep a
    // title and two rows, the chart five.
    let ctl_rows = right.height.saturating_sub(3 + 5 + 1).max(1) as usize;
    let ctl = fit_controllers(controller_lines(d, theme), ctl_rows, theme);
    // The challenges get what they need, up to what leaves the chart three rows.
    let chal = challenge_lines(d, theme, right.width.saturating_sub(2) as usize);
    let room = right
        .height
        .saturating_sub(ctl.len() as u16 + 1)
        .saturating_sub(4)
        .max(2);
    let [ctl_area, chal_area, chart_area] = Layout::vertical([
        Constraint::Length(ctl.len() as u16 + 1),
        Constraint::Length((chal.len() as u16 + 1).min(room)),
        Constraint::Fill(1),
    ])
    .areas(right);
    let inner = panel(
        title("Controllers (c picks the one hotkeys address)", theme),
        theme,
        ctl_area,
        buf,
    );
    Paragraph::new(ctl).render(inner, buf);
    let solved = (0..d.challenges.len()).filter(|i| d.solved(*i)).count();
    let inner = panel(
        title(
            &format!(
                "Challenges {solved}/{} (n picks, h hints)",
                d.challenges.len()
            ),
            theme,
        ),
        theme,
        chal_area,
        buf,
    );
    // Keep the chosen challenge and its hints in view when they do not all fit.
    let rows = inner.height as usize;
    let first = chal.iter().position(|(i, _)| *i == d.chosen).unwrap_or(0);
    let last = chal.iter().rposition(|(i, _)| *i == d.chosen).unwrap_or(0);
    let skip = (last + 1).saturating_sub(rows).min(first);
    let lines: Vec<Line> = chal.into_iter().skip(skip).map(|(_, l)| l).collect();
    Paragraph::new(lines).render(inner, buf);
    super::demo_chart::chart(d, theme, chart_area, buf);
}

pub(super) type DeploymentLines = (
    Line<'static>,
    usize,
    Vec<Line<'static>>,
    Vec<Line<'static>>,
    Vec<Line<'static>>,
);

/// Title, body height, spec column, status column, conditions.
fn deployment_lines(d: &Demo, theme: &Theme) -> DeploymentLines {
    let Some(dep) = d.session.object(Kind::Deployment, "web") else {
        return (
            title("Deployment web", theme),
            1,
            vec![Line::from(
                "not found: `kubectl apply -f web.yaml` creates it",
            )],
            Vec::new(),
            Vec::new(),
        );
    };
    let int = |p: &[&str]| obj::int(dep, p);
    let show = |v: Option<i64>| v.map_or("-".to_string(), |n| n.to_string());
    let generation = int(&["metadata", "generation"]);
    let observed = int(&["status", "observedGeneration"]);
    let lag = generation != observed;
    let gen_style = if lag { theme.alert } else { Style::new() };
    let image = obj::path(dep, &["spec", "template", "spec", "containers"])
        .and_then(|c| c.get(0))
        .and_then(|c| c["image"].as_str())
        .unwrap_or("-")
        .to_string();
    let paused = obj::path(dep, &["spec", "paused"]).and_then(Value::as_bool) == Some(true);
    let spec = vec![
        Line::from(format!("replicas {}", show(int(&["spec", "replicas"])))),
        Line::from(Span::styled(
            format!("generation {}", show(generation)),
            gen_style,
        )),
        Line::from(format!(
            "image {image}{}",
            if paused { " · paused" } else { "" }
        )),
    ];
    let status = vec![
        Line::from(format!(
            "replicas {} · updated {}",
            show(int(&["status", "replicas"])),
            show(int(&["status", "updatedReplicas"]))
        )),
        Line::from(Span::styled(
            format!("observedGeneration {}", show(observed)),
            gen_style,
        )),
        Line::from(format!(
            "ready {} · available {}",
            show(int(&["status", "readyReplicas"])),
            show(int(&["status", "availableReplicas"]))
        )),
    ];
    let mut conds: Vec<Line<'static>> = obj::path(dep, &["status", "conditions"])
        .and_then(Value::as_array)
        .map(|cs| {
            cs.iter()
                .map(|c| {
                    let s = c["status"].as_str().unwrap_or("");
                    // ReplicaFailure is the one condition whose True is bad news.
                    let good = (s == "True") != (c["type"] == "ReplicaFailure");
                    Line::from(vec![
                        Span::styled(
                            format!("{}={s}", c["type"].as_str().unwrap_or("")),
                            if good { theme.good } else { theme.accent },
                        ),
                        Span::styled(
                            format!(" {}", c["reason"].as_str().unwrap_or("")),
                            theme.dim,
                        ),
                    ])
                })
                .collect()
        })
        .unwrap_or_default();
    conds.extend(super::demo_hpa::hpa_lines(d, theme));
    conds.extend(super::demo_kcm::kcm_lines(d, theme));
    conds.extend(super::demo_admission::admission_lines(d, theme));
    conds.extend(super::demo_operator::operator_lines(d, theme));
    let title = Line::from(vec![
        Span::styled(" Deployment web: spec │ status ", theme.header),
        Span::styled(
            if lag { " observedGeneration lags " } else { "" },
            theme.alert,
        ),
    ]);
    let h = 3 + conds.len();
    (title, h, spec, status, conds)
}

fn revision(rs: &Value) -> i64 {
    obj::str(
        rs,
        &[
            "metadata",
            "annotations",
            "deployment.kubernetes.io/revision",
        ],
    )
    .and_then(|s| s.parse().ok())
    .unwrap_or(0)
}

/// A pod as `kubectl get pods` shows it: kubectl's own READY and STATUS cells, so the
/// panel and a `get` never disagree (a terminating pod stays ready through its grace).
pub(super) fn pod_line(p: &Value, now: u64, theme: &Theme) -> Line<'static> {
    let cells = crate::sim::table::pod_status::pod_cells(p, now);
    let style = if obj::is_deleting(p) {
        theme.dim
    } else if is_active(p) && is_ready(p) {
        theme.good
    } else {
        theme.accent
    };
    let mut spans = vec![
        Span::raw(format!("  {} ", obj::name(p))),
        Span::styled(format!("{} {}", cells.status, cells.ready), style),
    ];
    // Where it runs, once the scheduler has bound it (the panel cuts this first).
    if let Some(node) = p["spec"]["nodeName"].as_str() {
        spans.push(Span::styled(format!(" {node}"), theme.dim));
    }
    Line::from(spans)
}

fn pod_lines(d: &Demo, theme: &Theme) -> Vec<Line<'static>> {
    let mut rss: Vec<&Value> = d.session.objects(Kind::ReplicaSet).collect();
    rss.sort_by_key(|rs| std::cmp::Reverse(revision(rs)));
    let pods: Vec<&Value> = d.session.objects(Kind::Pod).collect();
    let now = d.session.now();
    let mut out = Vec::new();
    let mut shown = vec![false; pods.len()];
    for rs in rss {
        let int = |p: &[&str]| obj::int(rs, p).unwrap_or(0);
        out.push(Line::from(vec![
            Span::styled(obj::name(rs).to_string(), theme.key),
            Span::styled(format!(" rev {}", revision(rs)), theme.dim),
            Span::raw(format!(
                "  desired {} current {} ready {}",
                int(&["spec", "replicas"]),
                int(&["status", "replicas"]),
                int(&["status", "readyReplicas"])
            )),
        ]));
        let uid = obj::uid(rs);
        for (i, p) in pods.iter().enumerate() {
            if obj::controller_uid(p) == Some(uid) {
                shown[i] = true;
                out.push(pod_line(p, now, theme));
            }
        }
    }
    let orphans: Vec<Line<'static>> = pods
        .iter()
        .zip(&shown)
        .filter(|(_, s)| !**s)
        .map(|(p, _)| pod_line(p, now, theme))
        .collect();
    if !orphans.is_empty() {
        out.push(Line::from(Span::styled("no owner", theme.dim)));
        out.extend(orphans);
    }
    if out.is_empty() {
        out.push(Line::from(Span::styled(
            "no ReplicaSets, no pods",
            theme.dim,
        )));
    }
    out
}

/// The controller rows that fit in `rows`: all of them when they do; otherwise the chosen
/// one and every one not simply running come first, the rest as room allows, in their
/// order, and a last line counts what is left out (c still reaches it).
fn fit_controllers(
    lines: Vec<(bool, Line<'static>)>,
    rows: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    if lines.len() <= rows {
        return lines.into_iter().map(|(_, l)| l).collect();
    }
    let room = rows.saturating_sub(1);
    let mut shown: Vec<bool> = lines.iter().map(|(keep, _)| *keep).collect();
    let mut count = shown.iter().filter(|s| **s).count();
    for s in shown.iter_mut() {
        if count >= room {
            break;
        }
        if !*s {
            *s = true;
            count += 1;
        }
    }
    let hidden = shown.iter().filter(|s| !**s).count();
    let mut out: Vec<Line<'static>> = lines
        .into_iter()
        .zip(shown)
        .filter(|(_, s)| *s)
        .map(|((_, l), _)| l)
        .collect();
    out.push(Line::styled(
        format!("  … {hidden} more running (c cycles)"),
        theme.dim,
    ));
    out
}

/// One line per listed controller, tagged with whether it must stay in view when the
/// panel is short: the chosen one, and any paused or crashed.
fn controller_lines(d: &Demo, theme: &Theme) -> Vec<(bool, Line<'static>)> {
    let selected = d.controller();
    let components = d.components();
    // The names line up, however long the longest listed is (`node-lifecycle`).
    let width = components
        .iter()
        .map(|c| c.name().len() + 1)
        .max()
        .unwrap_or(0)
        .max(11);
    components
        .into_iter()
        .map(|c| {
            let state = d.session.component_state(c);
            let state_style = match state {
                s if s == RunState::Crashed.as_str() => theme.alert,
                s if s == RunState::Paused.as_str() => theme.accent,
                _ => Style::new(),
            };
            let mut spans = vec![
                Span::styled(if c == selected { "› " } else { "  " }, theme.key),
                Span::styled(
                    format!("{:<width$}", c.name()),
                    if c == selected {
                        theme.key
                    } else {
                        Style::new()
                    },
                ),
                Span::styled(format!("{state:<8}"), state_style),
            ];
            if let Some((t, q)) = d.session.controller_queue(c) {
                let (word, style) = match t {
                    Trigger::Level => ("level", Style::new()),
                    Trigger::Edge => ("edge", theme.accent),
                };
                spans.push(Span::styled(format!(" {word:<5}"), style));
                spans.push(Span::raw(format!(" queue {q}")));
            }
            let waiting = d.session.waiting_requests(c);
            if waiting > 0 {
                // Its client's rate limit (kube-api-qps) holds these back.
                spans.push(Span::styled(format!(" · {waiting} waiting"), theme.accent));
            }
            let keep = c == selected
                || state == RunState::Crashed.as_str()
                || state == RunState::Paused.as_str()
                || waiting > 0;
            (keep, Line::from(spans))
        })
        .collect()
}

/// Each challenge: a box, ticked once met (now or on an earlier visit), the chosen one
/// marked, with what met it and the hints revealed so far, wrapped to `width`; each line
/// tagged with its challenge's index.
fn challenge_lines(d: &Demo, theme: &Theme, width: usize) -> Vec<(usize, Line<'static>)> {
    let met_by = d.session.met_by();
    let mut out = Vec::new();
    for (i, c) in d.challenges.iter().enumerate() {
        let chosen = i == d.chosen;
        let mark = if chosen { "› " } else { "  " };
        let (boxed, style) = if d.solved(i) {
            ("[x]", theme.good)
        } else {
            ("[ ]", Style::new())
        };
        let head = Line::from(vec![
            Span::styled(mark, theme.key),
            Span::styled(format!("{boxed} {}", c.title), style),
        ]);
        if chosen {
            out.extend(text::wrap(&head, width, 6).into_iter().map(|l| (i, l)));
        } else {
            out.push((i, text::truncate_line(&head, width)));
        }
        if !chosen {
            continue;
        }
        let mut details = Vec::new();
        match met_by.get(i).and_then(Option::as_ref) {
            Some(m) => details.push(Line::styled(
                match &m.after {
                    Some(line) => format!("met at {} after `{line}`", time::clock(m.at)),
                    None => format!("met at {}", time::clock(m.at)),
                },
                theme.good,
            )),
            None if c.solved_before => details.push(Line::styled(
                "solved on an earlier visit; R resets the demo to try it again",
                theme.dim,
            )),
            None => {}
        }
        for (n, h) in c.hints.iter().take(c.shown).enumerate() {
            let label = if c.hints.len() > 1 {
                format!("hint {}: ", n + 1)
            } else {
                "hint: ".to_string()
            };
            details.push(text::inline(&label, h, Style::default(), theme));
        }
        if c.shown < c.hints.len() {
            details.push(Line::styled(
                if c.shown == 0 {
                    "h shows a hint".to_string()
                } else {
                    format!("h shows hint {} of {}", c.shown + 1, c.hints.len())
                },
                theme.dim,
            ));
        }
        for l in details {
            let indented = Line::from(
                std::iter::once(Span::raw("      "))
                    .chain(
                        l.spans
                            .iter()
                            .map(|s| Span::styled(s.content.to_string(), l.style.patch(s.style))),
                    )
                    .collect::<Vec<_>>(),
            );
            out.extend(text::wrap(&indented, width, 6).into_iter().map(|l| (i, l)));
        }
    }
    out
}

/// When an event was last seen, as `kubectl get events` reads it: a core/v1 event's
/// `lastTimestamp`; an events.k8s.io one's series, else its `eventTime`.
fn last_seen(e: &Value) -> &str {
    e["series"]["lastObservedTime"]
        .as_str()
        .or_else(|| e["lastTimestamp"].as_str())
        .or_else(|| e["eventTime"].as_str())
        .unwrap_or("")
}

fn events(d: &Demo, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let mut evs: Vec<&Value> = d.session.objects(Kind::Event).collect();
    // Oldest first, so the newest sits at the bottom like a log; times compare as
    // instants (an eventTime carries microseconds, a lastTimestamp none).
    evs.sort_by_key(|e| {
        (
            time::parse_rfc3339(last_seen(e)).unwrap_or(0),
            obj::str(e, &["metadata", "resourceVersion"])
                .and_then(|s| s.parse::<u64>().ok())
                .unwrap_or(0),
        )
    });
    let inner = panel(title("Events", theme), theme, area, buf);
    let now = d.session.now();
    let rows = inner.height as usize;
    let shown = &evs[evs.len().saturating_sub(rows)..];
    let ages: Vec<String> = shown.iter().map(|e| time::age(last_seen(e), now)).collect();
    // One width for the column, so the reasons line up whatever the ages.
    let aw = ages.iter().map(String::len).max().unwrap_or(0).max(3);
    let lines: Vec<Line<'static>> = shown
        .iter()
        .zip(&ages)
        .map(|(e, age)| {
            let count = e["series"]["count"]
                .as_i64()
                .or_else(|| e["count"].as_i64())
                .unwrap_or(1);
            let warn = e["type"] == "Warning";
            Line::from(vec![
                Span::styled(format!("{age:>aw$} "), theme.dim),
                Span::styled(
                    format!("{} ", e["reason"].as_str().unwrap_or("")),
                    if warn { theme.accent } else { theme.key },
                ),
                Span::raw(format!(
                    "{}{}",
                    e["message"].as_str().unwrap_or(""),
                    if count > 1 {
                        format!(" (x{count})")
                    } else {
                        String::new()
                    }
                )),
            ])
        })
        .collect();
    if lines.is_empty() {
        Paragraph::new(Span::styled("no events yet", theme.dim)).render(inner, buf);
    } else {
        let width = inner.width as usize;
        let cut: Vec<Line> = lines
            .iter()
            .map(|l| text::truncate_line(l, width))
            .collect();
        Paragraph::new(cut).render(inner, buf);
    }
}

/// One output line as the pane shows it: prose wrapped at word boundaries, what kubectl
/// lays out in columns kept to one row and cut with `…`.
fn fit(kind: OutKind, line: &str, width: usize) -> Vec<String> {
    let line = text::expand_tabs(line);
    if kind == OutKind::Table {
        return vec![text::truncate(&line, width)];
    }
    let wrapped = text::wrap(&Line::raw(line), width.max(1), 0);
    if wrapped.is_empty() {
        return vec![String::new()];
    }
    wrapped
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}

fn output(d: &Demo, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let rows = area.height.saturating_sub(1) as usize;
    let width = area.width as usize;
    // Wrap from the newest line back, only as far as the view and its scroll reach.
    let want = rows + d.out_scroll;
    let mut wrapped: Vec<(OutKind, String)> = Vec::new();
    let mut older = false;
    for (k, l) in d.output.iter().rev() {
        if wrapped.len() >= want {
            older = true;
            break;
        }
        for part in fit(*k, l, width).into_iter().rev() {
            wrapped.push((*k, part));
        }
    }
    let scroll = d
        .out_scroll
        .min(wrapped.len().saturating_sub(rows))
        .min(if older { usize::MAX } else { wrapped.len() });
    let t = if scroll > 0 {
        format!("Output (scrolled up {scroll}; j goes down)")
    } else {
        "Output".to_string()
    };
    let inner = panel(title(&t, theme), theme, area, buf);
    let lines: Vec<Line<'static>> = wrapped
        .iter()
        .skip(scroll)
        .take(rows)
        .rev()
        .map(|(k, l)| {
            let style = match k {
                OutKind::Command => theme.key,
                OutKind::Stdout | OutKind::Table => Style::new(),
                OutKind::Stderr => theme.accent,
            };
            Line::from(Span::styled(l.clone(), style))
        })
        .collect();
    Paragraph::new(lines).render(inner, buf);
}

/// The demo's most used keys, from the keymap so config.toml's overrides show here too;
/// only as many whole hints as fit in `width` columns.
fn demo_keys(keymap: &Keymap, width: usize) -> String {
    let hints: [(&[Action], &str); 8] = [
        (&[Action::Command], "command"),
        (&[Action::PlayPause], "play/pause"),
        (&[Action::Hint], "hint"),
        (&[Action::DeletePod], "delete pod"),
        (&[Action::ScaleUp, Action::ScaleDown], "scale"),
        (&[Action::TogglePause], "pause"),
        (&[Action::Edit], "edit"),
        (&[Action::WideOutput], "wide output"),
    ];
    hints
        .iter()
        .filter_map(|(actions, what)| {
            let keys = keymap.keys_for(Context::Demo, actions);
            (!keys.is_empty()).then(|| format!("{keys} {what}"))
        })
        .fold(String::new(), |acc, hint| {
            let next = if acc.is_empty() {
                hint
            } else {
                format!("{acc} · {hint}")
            };
            if text::width_of(&next) <= width {
                next
            } else {
                acc
            }
        })
}

fn command_line(d: &Demo, theme: &Theme, keymap: &Keymap, area: Rect, buf: &mut Buffer) {
    let line = match &d.input {
        Some(input) => {
            let mut spans = vec![Span::styled(":", theme.key)];
            spans.extend(input.spans(Style::default(), theme.selected));
            Line::from(spans)
        }
        None => {
            let play = if d.playing { "▶" } else { "⏸" };
            let clock = format!(
                "{play} {}x {} ",
                SPEEDS[d.speed],
                time::clock(d.session.elapsed())
            );
            let clock = if d.waiting_to_start {
                format!("{clock}Space starts time · ")
            } else {
                clock
            };
            let room = (area.width as usize).saturating_sub(text::width_of(&clock));
            Line::from(vec![
                Span::styled(clock, if d.playing { theme.good } else { theme.accent }),
                Span::styled(demo_keys(keymap, room), theme.dim),
            ])
        }
    };
    Paragraph::new(line).render(area, buf);
}
