//! The demo screen driven by key events (no terminal): open it from a card, run commands
//! and hotkeys, edit a manifest and apply it, go back and find everything kept; snapshots
//! at 80x24 and 120x40 with the styles that carry meaning.

mod common;

use common::*;
use kubedrill::sim::kind::Kind;
use kubedrill::sim::obj;
use kubedrill::tui::App;
use kubedrill::tui::Msg;
use kubedrill::tui::app::Screen;
use kubedrill::tui::keymap::Context;
use kubedrill::tui::screens::demo::Demo;
use ratatui::crossterm::event::KeyCode;
use ratatui::style::Modifier;

/// The card of the n-th question (0 = spec-vs-status, 1 = deleted-pod-returns).
fn card(n: usize, w: u16, h: u16) -> App {
    let mut a = app(w, h);
    a.update(key(KeyCode::Enter));
    for _ in 0..n {
        a.update(ch('j'));
    }
    a.update(key(KeyCode::Enter));
    a
}

fn demo(a: &App) -> &Demo {
    match a.screen() {
        Screen::Demo(id) => a.demo(id).expect("demo kept"),
        other => panic!("not on a demo: {other:?}"),
    }
}

fn command(a: &mut App, line: &str) {
    a.update(ch(':'));
    assert_eq!(a.context(), Context::Command);
    typed(a, line);
    a.update(key(KeyCode::Enter));
}

fn replicas(d: &Demo) -> i64 {
    let dep = d.session.object(Kind::Deployment, "web").expect("web");
    obj::int(dep, &["spec", "replicas"]).expect("replicas")
}

fn active_pods(d: &Demo) -> Vec<String> {
    d.session
        .objects(Kind::Pod)
        .filter(|p| !obj::is_deleting(p))
        .map(|p| obj::name(p).to_string())
        .collect()
}

fn output_text(d: &Demo) -> String {
    d.output
        .iter()
        .map(|(_, l)| l.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

fn find(t: &ratatui::Terminal<ratatui::backend::TestBackend>, needle: &str) -> (u16, u16) {
    let text = screen_text(t);
    for (y, line) in text.lines().enumerate() {
        if let Some(byte) = line.find(needle) {
            return (line[..byte].chars().count() as u16, y as u16);
        }
    }
    panic!("{needle} not on screen:\n{text}");
}

#[test]
fn d_opens_the_demo_and_q_goes_back_with_state_kept() {
    let mut a = card(0, 120, 40);
    a.update(ch('d'));
    assert_eq!(a.context(), Context::Demo);
    assert_eq!(demo(&a).id, "spec-vs-status");
    command(&mut a, "kubectl scale deploy web --replicas=5");
    assert!(
        output_text(demo(&a)).contains("deployment.apps/web scaled"),
        "{}",
        output_text(demo(&a))
    );
    for _ in 0..4 {
        a.update(Msg::Tick);
    }
    let now = demo(&a).session.now();
    a.update(ch('q'));
    assert!(matches!(a.screen(), Screen::Card(c) if c.id == "spec-vs-status"));
    // Time does not pass while the learner reads the card.
    a.update(Msg::Tick);
    a.update(ch('d'));
    let d = demo(&a);
    assert_eq!(d.session.now(), now);
    assert_eq!(replicas(d), 5);
    assert_eq!(active_pods(d).len(), 5);
    assert!(output_text(d).contains("$ kubectl scale deploy web --replicas=5"));
    assert_eq!(d.history, vec!["kubectl scale deploy web --replicas=5"]);
    // One press of q from the demo, one from the card, and the list is back.
    a.update(ch('q'));
    a.update(ch('q'));
    assert!(matches!(a.screen(), Screen::List(_)));
}

#[test]
fn deleting_a_pod_by_hotkey_runs_kubectl_and_a_new_pod_appears() {
    let mut a = card(1, 80, 24);
    a.update(ch('d'));
    let before = active_pods(demo(&a));
    assert_eq!(before.len(), 3);
    a.update(ch('x'));
    let d = demo(&a);
    let gone = &before[0];
    assert!(
        output_text(d).contains(&format!("$ kubectl delete pod {gone}")),
        "{}",
        output_text(d)
    );
    assert!(output_text(d).contains(&format!("pod \"{gone}\" deleted")));
    for _ in 0..3 {
        a.update(Msg::Tick);
    }
    let after = active_pods(demo(&a));
    assert_eq!(after.len(), 3, "{after:?}");
    assert!(!after.contains(gone));
    let t = render(&a, 80, 24);
    let new = after
        .iter()
        .find(|p| !before.contains(p))
        .expect("a new pod");
    find(&t, new);
}

#[test]
fn hotkeys_scale_pause_trigger_and_time() {
    let mut a = card(1, 120, 40);
    a.update(ch('d'));
    a.update(ch('+'));
    assert_eq!(replicas(demo(&a)), 4);
    a.update(ch('-'));
    a.update(ch('-'));
    assert_eq!(replicas(demo(&a)), 2);
    // The self-healing demo addresses the ReplicaSet controller first.
    a.update(ch('z'));
    assert_eq!(
        demo(&a)
            .session
            .component_state(kubedrill::sim::directive::Component::ReplicaSet),
        "paused"
    );
    a.update(ch('z'));
    a.update(ch('t'));
    a.update(ch('w'));
    a.update(ch('C'));
    a.update(ch('C'));
    let out = output_text(demo(&a));
    for line in [
        "$ kubectl scale deployment web --replicas=4",
        "$ pause replicaset",
        "$ resume replicaset",
        "$ trigger replicaset edge",
        "replicaset controller is now edge-triggered",
        "$ drop replicaset 1",
        "$ crash replicaset",
        "$ restart replicaset",
    ] {
        assert!(out.contains(line), "missing {line}:\n{out}");
    }
    // Time stands still until the first Space: ticks from the loop do nothing; `.`
    // steps one second.
    assert!(a.tick_interval().is_none());
    assert!(screen_text(&render(&a, 120, 40)).contains("Space starts time"));
    let now = demo(&a).session.now();
    a.update(Msg::Tick);
    assert_eq!(demo(&a).session.now(), now);
    a.update(ch('.'));
    assert_eq!(demo(&a).session.now(), now + 1);
    a.update(ch(' '));
    let slow = a.tick_interval().expect("playing");
    assert!(!screen_text(&render(&a, 120, 40)).contains("Space starts time"));
    a.update(ch('>'));
    assert_eq!(a.tick_interval().expect("playing") * 2, slow);
    a.update(ch(' '));
    assert!(a.tick_interval().is_none());
}

#[test]
fn command_line_history_and_completion() {
    let mut a = card(1, 120, 40);
    a.update(ch('d'));
    command(&mut a, "kubectl get deploy");
    command(&mut a, "status");
    a.update(ch(':'));
    a.update(key(KeyCode::Up));
    assert_eq!(demo(&a).input.as_ref().map(|i| i.text()), Some("status"));
    a.update(key(KeyCode::Up));
    assert_eq!(
        demo(&a).input.as_ref().map(|i| i.text()),
        Some("kubectl get deploy")
    );
    a.update(key(KeyCode::Down));
    assert_eq!(demo(&a).input.as_ref().map(|i| i.text()), Some("status"));
    a.update(key(KeyCode::Esc));
    assert_eq!(a.context(), Context::Demo);

    a.update(ch(':'));
    typed(&mut a, "kub");
    a.update(key(KeyCode::Tab));
    typed(&mut a, "get rep");
    a.update(key(KeyCode::Tab));
    assert_eq!(
        demo(&a).input.as_ref().map(|i| i.text()),
        Some("kubectl get replicasets ")
    );
    a.update(key(KeyCode::Tab));
    a.update(key(KeyCode::Enter));
    let out = output_text(demo(&a));
    assert!(
        out.contains("NAME             DESIRED   CURRENT   READY"),
        "{out}"
    );
    // q typed on the command line is text, not back.
    a.update(ch(':'));
    a.update(ch('q'));
    assert_eq!(demo(&a).input.as_ref().map(|i| i.text()), Some("q"));
}

/// Two pasted lines on `:` become one line to read and confirm; nothing runs before Enter
/// (they once ran as typed keys and deleted three pods).
#[test]
fn a_multi_line_paste_on_the_command_line_runs_nothing_until_enter() {
    let mut a = card(1, 120, 40);
    a.update(ch('d'));
    let before = active_pods(demo(&a));
    a.update(ch(':'));
    a.update(Msg::Paste(
        "kubectl delete pod x\nkubectl scale deploy web --replicas=9".into(),
    ));
    assert_eq!(a.context(), Context::Command);
    assert_eq!(active_pods(demo(&a)), before);
    assert_eq!(replicas(demo(&a)), 3);
    assert_eq!(
        demo(&a).input.as_ref().map(|i| i.text()),
        Some("kubectl delete pod x kubectl scale deploy web --replicas=9")
    );
}

#[test]
fn the_editor_changes_what_apply_reads() {
    let mut a = card(0, 120, 40);
    a.update(ch('d'));
    a.update(ch('e'));
    assert_eq!(a.context(), Context::Editor);
    assert_eq!(
        demo(&a).editor.as_ref().map(|e| e.file.as_str()),
        Some("web.yaml")
    );
    // Line 8 of web.yaml is `  replicas: 3`.
    for _ in 0..7 {
        a.update(key(KeyCode::Down));
    }
    a.update(key(KeyCode::End));
    a.update(key(KeyCode::Backspace));
    a.update(ch('6'));
    a.update(key(KeyCode::Esc));
    assert_eq!(a.context(), Context::Demo);
    let d = demo(&a);
    assert!(
        d.session
            .file("web.yaml")
            .unwrap()
            .contains("  replicas: 6\n")
    );
    assert!(output_text(d).contains("saved web.yaml"));
    command(&mut a, "kubectl apply -f web.yaml");
    assert_eq!(replicas(demo(&a)), 6, "{}", output_text(demo(&a)));
}

#[test]
fn r_on_the_card_runs_its_runnable_code_in_the_demo() {
    let mut a = card(0, 120, 40);
    a.update(ch('r'));
    let d = demo(&a);
    let out = output_text(d);
    assert!(
        out.contains("$ kubectl get deploy web -o jsonpath="),
        "{out}"
    );
    assert!(out.contains("generation 2, observed 2"), "{out}");
    assert!(
        out.contains("Available=True (MinimumReplicasAvailable)"),
        "{out}"
    );
}

/// spec-vs-status with the controller paused and spec changed: generation ahead.
fn lagging(w: u16, h: u16) -> App {
    let mut a = card(0, w, h);
    a.update(ch('d'));
    a.update(ch('z'));
    a.update(ch('+'));
    a
}

#[test]
fn generation_lag_is_highlighted() {
    let a = lagging(120, 40);
    let t = render(&a, 120, 40);
    let buf = t.backend().buffer();
    // The question's setup scaled once (generation 2); the learner's edit makes it 3.
    let (x, y) = find(&t, "generation 3");
    let (ox, oy) = find(&t, "observedGeneration 2");
    let alert = a.theme().alert;
    assert_eq!(buf[(x, y)].bg, alert.bg.unwrap());
    assert_eq!(buf[(ox, oy)].bg, alert.bg.unwrap());
    find(&t, "observedGeneration lags");

    // Resumed, the controller catches up and the highlight goes.
    let mut a = a;
    a.update(ch('z'));
    a.update(Msg::Tick);
    let t = render(&a, 120, 40);
    let buf = t.backend().buffer();
    let (x, y) = find(&t, "observedGeneration 3");
    assert_ne!(buf[(x, y)].bg, alert.bg.unwrap());
    assert!(!screen_text(&t).contains("lags"));
}

#[test]
fn met_challenges_are_ticked_and_styled() {
    let mut a = card(1, 120, 40);
    a.update(ch('d'));
    let t = render(&a, 120, 40);
    find(&t, "[ ] Delete a pod and watch it come back");
    a.update(ch(' '));
    a.update(ch('x'));
    for _ in 0..5 {
        a.update(Msg::Tick);
    }
    let t = render(&a, 120, 40);
    let (x, y) = find(&t, "[x] Delete a pod and watch it come back");
    let good = a.theme().good;
    assert_eq!(t.backend().buffer()[(x, y)].fg, good.fg.unwrap());
    assert!(
        t.backend().buffer()[(x, y)]
            .modifier
            .contains(Modifier::BOLD)
    );
}

#[test]
fn a_met_challenge_is_announced_once_and_saved_as_solved() {
    let tmp = tempfile::tempdir().expect("tmp");
    let opened = kubedrill::study::Store::open_dir(tmp.path(), 1_000);
    let progress =
        kubedrill::study::Progress::new(opened.store, Default::default()).expect("progress");
    let mut a = App::new(loaded(), Default::default()).with_progress(progress, vec![]);
    a.update(Msg::Resize(120, 40));
    a.now = 5_000;
    a.update(key(KeyCode::Enter));
    a.update(ch('j'));
    a.update(key(KeyCode::Enter));
    a.update(ch('d'));
    a.update(ch(' '));
    a.update(ch('x'));
    let mut announced = 0;
    for _ in 0..8 {
        a.update(Msg::Tick);
        if a.status.as_deref() == Some("challenge met: Delete a pod and watch it come back") {
            announced += 1;
            a.status = None;
        }
    }
    assert_eq!(announced, 1, "announced once, not on every tick");
    let solved = a
        .progress
        .as_ref()
        .expect("store")
        .store
        .solved()
        .expect("solved");
    assert_eq!(
        solved,
        vec![(
            "deleted-pod-returns".to_string(),
            "Delete a pod and watch it come back".to_string(),
            5_000
        )]
    );
}

/// At 80 columns kubectl's pod table wraps in the output pane; `v` gives it the whole
/// width, so each pod is one line again, and brings the panels back.
#[test]
fn v_widens_the_output_so_tables_fit() {
    let (w, h) = (80, 24);
    let mut a = card(1, w, h);
    a.update(ch('d'));
    command(&mut a, "kubectl get pods");
    let pod = active_pods(demo(&a))[0].clone();
    let row_of = |a: &App| {
        let text = screen_text(&render(a, w, h));
        text.lines()
            .find(|l| l.contains(&pod))
            .map(str::to_string)
            .unwrap_or_default()
    };
    assert!(
        !row_of(&a).contains("Running   0"),
        "the narrow pane cuts the row: {}",
        row_of(&a)
    );
    a.update(ch('v'));
    assert!(demo(&a).wide);
    let row = row_of(&a);
    assert!(
        row.contains(&pod) && row.contains("1/1") && row.contains("Running   0"),
        "one line per pod when wide: {row}"
    );
    assert!(
        !screen_text(&render(&a, w, h)).contains("Challenges"),
        "the panels give way"
    );
    insta::assert_snapshot!("demo_wide_output_80x24", render(&a, w, h).backend());
    a.update(ch('v'));
    assert!(!demo(&a).wide);
    assert!(screen_text(&render(&a, w, h)).contains("Challenges"));
}

/// More pods than the panel has rows: the last row says how many are not shown.
#[test]
fn pods_that_do_not_fit_are_counted() {
    let (w, h) = (80, 24);
    let mut a = card(1, w, h);
    a.update(ch('d'));
    command(&mut a, "kubectl scale deploy web --replicas=9");
    a.update(ch(' '));
    for _ in 0..3 {
        a.update(Msg::Tick);
    }
    let text = screen_text(&render(&a, w, h));
    assert!(text.contains("… 6 more pods (:kubectl get pods)"), "{text}");
}

#[test]
fn snapshots() {
    for (w, h) in [(80, 24), (120, 40)] {
        let a = lagging(w, h);
        insta::assert_snapshot!(format!("demo_lagging_{w}x{h}"), render(&a, w, h).backend());
        let mut a = card(1, w, h);
        a.update(ch('d'));
        a.update(ch(' '));
        a.update(ch('x'));
        for _ in 0..3 {
            a.update(Msg::Tick);
        }
        command(&mut a, "kubectl get pods");
        insta::assert_snapshot!(format!("demo_healed_{w}x{h}"), render(&a, w, h).backend());
        a.update(ch('e'));
        insta::assert_snapshot!(format!("demo_editor_{w}x{h}"), render(&a, w, h).backend());
    }
}

/// A store in a temporary folder, and an app on it at `w`x`h`.
fn app_with_store(w: u16, h: u16) -> (tempfile::TempDir, App) {
    let tmp = tempfile::tempdir().expect("tmp");
    let opened = kubedrill::study::Store::open_dir(tmp.path(), 1_000);
    let progress =
        kubedrill::study::Progress::new(opened.store, Default::default()).expect("progress");
    let mut a = App::new(loaded(), Default::default()).with_progress(progress, vec![]);
    a.update(Msg::Resize(w, h));
    (tmp, a)
}

/// The whole loop a learner goes through: open a demo, read the hint, meet the challenge,
/// reset, and find it still solved, in the demo, on the card and in the list.
#[test]
fn a_hint_a_met_challenge_and_a_reset_that_keeps_it_solved() {
    let (_tmp, mut a) = app_with_store(120, 40);
    a.update(key(KeyCode::Enter));
    a.update(ch('j'));
    a.update(key(KeyCode::Enter));
    a.update(ch('d'));
    let start = demo(&a).session.elapsed();
    let hint = a
        .deck
        .question("deleted-pod-returns")
        .unwrap()
        .demo
        .challenges[0]
        .hints[0]
        .clone();
    assert!(!screen_text(&render(&a, 120, 40)).contains("hint:"));
    a.update(ch('h'));
    let text = screen_text(&render(&a, 120, 40));
    assert!(text.contains("hint:"), "{text}");
    // Shown as the card shows content: Markdown marks rendered, not printed.
    let hint = kubedrill::tui::text::flat(&hint);
    let words: Vec<&str> = hint.split_whitespace().take(3).collect();
    assert!(text.contains(&words.join(" ")), "the hint in full:\n{text}");
    a.update(ch(' '));
    a.update(ch('x'));
    for _ in 0..5 {
        a.update(Msg::Tick);
    }
    let text = screen_text(&render(&a, 120, 40));
    assert!(
        text.contains("[x] Delete a pod and watch it come back"),
        "{text}"
    );
    assert!(text.contains("met at t+"), "what met it is shown:\n{text}");
    assert!(text.contains("after `kubectl delete pod"), "{text}");
    a.update(ch('R'));
    let d = demo(&a);
    assert_eq!(d.session.elapsed(), start, "reset goes back to the start");
    assert_eq!(active_pods(d).len(), 3);
    let text = screen_text(&render(&a, 120, 40));
    assert!(
        text.contains("[x] Delete a pod and watch it come back"),
        "{text}"
    );
    assert!(text.contains("Challenges 1/5"), "{text}");
    // The card and the list say so too.
    a.update(ch('q'));
    assert!(screen_text(&render(&a, 120, 40)).contains("demo 1/5"));
    a.update(ch('q'));
    // The list's preview of the selected question, and the demo column when the table
    // is wide enough for it.
    let list = screen_text(&render(&a, 120, 40));
    assert!(list.contains("demo challenges 1/5"), "{list}");
    let list = screen_text(&render(&a, 200, 40));
    let row = list
        .lines()
        .find(|l| l.contains("> deleted-pod-returns"))
        .expect("row");
    assert!(row.contains("1/5"), "{row}");
}

/// A second visit to a demo, in a new app on the same store: what was solved is ticked.
#[test]
fn solved_challenges_are_remembered_across_runs() {
    let tmp = tempfile::tempdir().expect("tmp");
    for run in 0..2 {
        let opened = kubedrill::study::Store::open_dir(tmp.path(), 1_000);
        let progress =
            kubedrill::study::Progress::new(opened.store, Default::default()).expect("progress");
        let mut a = App::new(loaded(), Default::default()).with_progress(progress, vec![]);
        a.update(Msg::Resize(120, 40));
        a.update(key(KeyCode::Enter));
        a.update(ch('j'));
        a.update(key(KeyCode::Enter));
        a.update(ch('d'));
        if run == 0 {
            a.update(ch(' '));
            a.update(ch('x'));
            for _ in 0..5 {
                a.update(Msg::Tick);
            }
        } else {
            let text = screen_text(&render(&a, 120, 40));
            assert!(
                text.contains("[x] Delete a pod and watch it come back"),
                "{text}"
            );
            assert!(text.contains("solved on an earlier visit"), "{text}");
        }
    }
}

#[test]
fn hints_are_revealed_one_at_a_time_and_n_picks_the_challenge() {
    let mut a = card(1, 120, 40);
    a.update(ch('d'));
    a.update(ch('n'));
    assert_eq!(demo(&a).chosen, 1);
    a.update(ch('N'));
    a.update(ch('N'));
    assert_eq!(demo(&a).chosen, 4, "N wraps to the last");
    a.update(ch('h'));
    assert_eq!(demo(&a).challenges[4].shown, 1);
    a.update(ch('h'));
    assert_eq!(demo(&a).challenges[4].shown, 1, "one hint: it stays one");
    assert!(a.status.as_deref().unwrap_or("").contains("every hint"));
}

#[test]
fn hint_snapshots() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut a = card(1, w, h);
        a.update(ch('d'));
        a.update(ch('h'));
        insta::assert_snapshot!(format!("demo_hint_{w}x{h}"), render(&a, w, h).backend());
    }
}

/// The app prints what `kubedrill sim` prints, in the same order: kubectl's warning
/// before `configured`.
#[test]
fn output_keeps_kubectls_order_of_warnings() {
    let mut a = card(0, 120, 40);
    a.update(ch('d'));
    command(&mut a, "kubectl replace -f web-minimal.yaml");
    command(&mut a, "kubectl apply -f web.yaml");
    let out = output_text(demo(&a));
    let warn = out.find("Warning: resource deployments/web is missing");
    let done = out.find("deployment.apps/web configured");
    assert!(warn.is_some() && done.is_some() && warn < done, "{out}");
}

/// Simulated time stands still under the help overlay and the editor.
#[test]
fn time_stops_under_help_and_the_editor() {
    let mut a = card(1, 120, 40);
    a.update(ch('d'));
    a.update(ch(' '));
    let now = demo(&a).session.now();
    a.update(ch('?'));
    a.update(Msg::Tick);
    assert_eq!(demo(&a).session.now(), now);
    a.update(key(KeyCode::Esc));
    a.update(ch('e'));
    a.update(Msg::Tick);
    assert_eq!(demo(&a).session.now(), now);
    a.update(key(KeyCode::Esc));
    a.update(Msg::Tick);
    assert_eq!(demo(&a).session.now(), now + 1);
}

/// `c` goes through every component the panel lists, the autoscaler once it runs.
#[test]
fn c_cycles_through_every_listed_controller() {
    let mut a = card(1, 120, 40);
    a.update(ch('d'));
    command(&mut a, "autoscaler 4");
    let mut seen = Vec::new();
    for _ in 0..10 {
        a.update(ch('c'));
        seen.push(demo(&a).controller().name());
    }
    assert_eq!(
        seen,
        [
            "kubelet",
            "scheduler",
            "node-lifecycle",
            "taint-eviction",
            "disruption",
            "endpoints",
            "endpointslice",
            "autoscaler",
            "deployment",
            "replicaset"
        ]
    );
    for _ in 0..8 {
        a.update(ch('c'));
    }
    a.update(ch('z'));
    assert!(output_text(demo(&a)).contains("$ pause autoscaler"));
}

/// `S` and `:export FILE` hand the sink what `kubedrill sim --export` writes for the lines
/// this demo ran, and say where it went.
#[test]
fn the_session_is_saved_as_a_replay_script() {
    use std::cell::RefCell;
    use std::rc::Rc;
    /// (file asked for, question id, script)
    type Written = Vec<(Option<String>, String, String)>;
    let got: Rc<RefCell<Written>> = Rc::default();
    let mut a = card(1, 120, 40);
    let sink = got.clone();
    a.script_sink = Some(Box::new(move |file, id, script| {
        sink.borrow_mut()
            .push((file.map(String::from), id.to_string(), script.to_string()));
        Ok(file.map_or_else(|| format!("kubedrill-{id}.sh"), String::from))
    }));
    a.update(ch('d'));
    command(&mut a, "k scale deploy web --replicas=4");
    a.update(ch('S'));
    command(&mut a, "export mine.sh");
    let got = got.borrow();
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].0, None);
    assert_eq!(got[1].0.as_deref(), Some("mine.sh"));
    assert_eq!(got[0].1, "deleted-pod-returns");
    let script = &got[0].2;
    assert_eq!(script, &demo(&a).session.export_script());
    assert!(
        script.contains("\nkubectl scale deploy web --replicas=4\n"),
        "{script}"
    );
    let out = output_text(demo(&a));
    assert!(
        out.contains("wrote kubedrill-deleted-pod-returns.sh"),
        "{out}"
    );
    assert!(out.contains("wrote mine.sh"), "{out}");
}

/// A demo with nodes lists its node controllers with their names and states apart (on a
/// short screen, the ones simply running are counted on one line instead), and gives the
/// scheduler's events/v1 events (which carry eventTime, not lastTimestamp) an age like
/// every other event.
#[test]
fn node_demo_lines_up_its_controllers_and_ages_every_event() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut a = app(w, h);
        a.open_demo("drain-hangs-pdb", &[])
            .expect("question exists");
        command(&mut a, "kubectl drain node-1 --timeout=12s");
        let text = screen_text(&render(&a, w, h));
        if h >= 40 {
            assert!(text.contains("node-lifecycle running"), "{text}");
            assert!(text.contains("taint-eviction running"), "{text}");
        } else {
            assert!(text.contains("… 7 more running (c cycles)"), "{text}");
        }
        assert!(!text.contains("<unknown>"), "{text}");
        insta::assert_snapshot!(format!("demo_drain_{w}x{h}"), render(&a, w, h).backend());
    }
}

/// While `traffic` runs, the chart plots the requests that failed each second beside the
/// replicas, and its title counts them: the rollout's dropped requests are on screen.
#[test]
fn the_chart_counts_failed_requests_while_traffic_runs() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut a = app(w, h);
        a.open_demo("rollout-drops-requests", &[])
            .expect("question exists");
        command(&mut a, "traffic 30");
        command(&mut a, "kubectl set image deploy/web app=nginx:1.28");
        command(&mut a, "tick 20");
        let text = screen_text(&render(&a, w, h));
        // The title is cut on a narrow screen; the plotted spikes are there either way.
        if w >= 120 {
            assert!(text.contains("failed/s (30 of 600 requests)"), "{text}");
        }
        assert!(text.contains("Replicas: spec vs ready"), "{text}");
        assert!(text.contains("challenge met: Count the requests a rollout drops"));
        insta::assert_snapshot!(format!("demo_traffic_{w}x{h}"), render(&a, w, h).backend());
    }
}

/// The statefulset scenario's panels: the set's spec and status with its revisions, pods
/// by ordinal with the revision each runs, and a canary held by a partition.
#[test]
fn a_statefulset_canary_shows_its_revisions_pod_by_pod() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut a = app(w, h);
        a.open_demo("statefulset-rolling-update", &[])
            .expect("question exists");
        command(
            &mut a,
            r#"kubectl patch sts web -p '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":2}}}}'"#,
        );
        command(&mut a, "kubectl set image sts/web app=nginx:1.28");
        command(&mut a, "tick 5");
        // `+` scales the StatefulSet, not a Deployment it does not have.
        a.update(ch('+'));
        command(&mut a, "tick 3");
        let text = screen_text(&render(&a, w, h));
        assert!(text.contains("StatefulSet web: spec"), "{text}");
        assert!(text.contains("rolling 784c854f75 → 7d9fb579d8"), "{text}");
        assert!(text.contains("web-3 Running 1/1"), "{text}");
        assert!(text.contains("Challenges 1/3"), "{text}");
        insta::assert_snapshot!(
            format!("demo_statefulset_{w}x{h}"),
            render(&a, w, h).backend()
        );
    }
}

/// The jobs scenario's panels: the newest Job's settings and counts with its finishing
/// conditions, then every CronJob and Job with its pods.
#[test]
fn a_failing_job_shows_its_counts_conditions_and_pods() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut a = app(w, h);
        a.open_demo("job-completions-and-retries", &[])
            .expect("question exists");
        command(&mut a, "kubectl apply -f hello.yaml");
        command(&mut a, "kubectl apply -f flaky.yaml");
        command(&mut a, "tick 50");
        let text = screen_text(&render(&a, w, h));
        assert!(text.contains("Job flaky: spec"), "{text}");
        assert!(text.contains("backoffLimit 2"), "{text}");
        assert!(text.contains("Jobs and pods"), "{text}");
        assert!(text.contains("cronjob hello */1 * * * *"), "{text}");
        if h >= 40 {
            assert!(text.contains("succeeded 0 · failed 3"), "{text}");
            assert!(text.contains("Failed · 0/1"), "{text}");
            assert!(text.contains("Failed=True BackoffLimitExceeded"), "{text}");
        }
        insta::assert_snapshot!(format!("demo_jobs_{w}x{h}"), render(&a, w, h).backend());
    }
}

/// The daemonset scenario's panels: the DaemonSet's counts, its pods node by node, and why
/// the tainted GPU node has none; `+` does not scale a DaemonSet.
#[test]
fn a_daemonset_shows_its_pods_node_by_node() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut a = app(w, h);
        a.open_demo("daemonset-placement", &[])
            .expect("question exists");
        command(&mut a, "node-add node-4");
        command(&mut a, "tick 3");
        a.update(ch('+'));
        let text = screen_text(&render(&a, w, h));
        assert!(text.contains("DaemonSet agent: spec"), "{text}");
        if h >= 40 {
            assert!(
                text.contains("no pod: taint dedicated=gpu:NoSchedule not tolerated"),
                "{text}"
            );
        }
        assert!(!text.contains("kubectl scale"), "{text}");
        insta::assert_snapshot!(
            format!("demo_daemonset_{w}x{h}"),
            render(&a, w, h).backend()
        );
    }
}

/// The hpa scenario: under the Deployment's conditions, the HPA's TARGETS as `kubectl get
/// hpa` prints them, its current and desired replicas and bounds, and its conditions'
/// reasons; the controllers panel lists the autoscaler.
#[test]
fn an_autoscaled_deployment_shows_its_hpa() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut a = app(w, h);
        a.open_demo("hpa-algorithm", &[]).expect("question exists");
        command(&mut a, "metrics web load 900m");
        command(&mut a, "tick 15");
        let text = screen_text(&render(&a, w, h));
        assert!(text.contains("HPA web"), "{text}");
        assert!(text.contains("cpu: 150%/50% · 3 → 6"), "{text}");
        assert!(text.contains("min 2 · max 10 · ScaleUpLimit"), "{text}");
        insta::assert_snapshot!(format!("demo_hpa_{w}x{h}"), render(&a, w, h).backend());
    }
}

/// The leader-election scenario: a line under the Deployment's conditions says which
/// kube-controller-manager replica leads, and, once the leader is killed, that nothing
/// reconciles; the controllers panel shows them down.
#[test]
fn a_killed_leader_leaves_nothing_reconciling() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut a = app(w, h);
        a.open_demo("leader-election", &[])
            .expect("question exists");
        let text = screen_text(&render(&a, w, h));
        assert!(text.contains("kcm kcm-1 leads · kcm-2 waits"), "{text}");
        command(&mut a, "kcm kill leader");
        command(&mut a, "tick 3");
        let text = screen_text(&render(&a, w, h));
        assert!(text.contains("kcm-1 down"), "{text}");
        assert!(text.contains("crashed"), "{text}");
        insta::assert_snapshot!(
            format!("demo_leader_election_{w}x{h}"),
            render(&a, w, h).backend()
        );
    }
}

/// The admission demo shows the webhook, its policy and its server, and the request the
/// webhook refused once the server is gone.
#[test]
fn a_webhook_without_its_server_shows_in_the_demo() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut a = app(w, h);
        a.open_demo("admission-webhook-down", &[])
            .expect("question exists");
        let text = screen_text(&render(&a, w, h));
        assert!(text.contains("webhook policy Fail · allows"), "{text}");
        command(&mut a, "kubectl scale deploy policy --replicas=0");
        command(&mut a, "tick 3");
        command(&mut a, "kubectl delete pod -l app=web --wait=false");
        command(&mut a, "tick 2");
        let text = screen_text(&render(&a, w, h));
        assert!(text.contains("no ready server"), "{text}");
        assert!(text.contains("refused (InternalError)"), "{text}");
        insta::assert_snapshot!(
            format!("demo_admission_{w}x{h}"),
            render(&a, w, h).backend()
        );
    }
}

/// The operator scenario shows the CRD's versions, each WebApp's generation against the
/// observedGeneration its status reports, and the operator's state and request rate.
#[test]
fn an_operator_and_its_webapps_show_in_the_demo() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut a = app(w, h);
        a.open_demo("operator-status-conditions", &[])
            .expect("question exists");
        let text = screen_text(&render(&a, w, h));
        assert!(text.contains("webapp shop gen 1 · observed 1"), "{text}");
        command(&mut a, "kubectl scale deploy webapp-operator --replicas=0");
        command(&mut a, "tick 2");
        command(
            &mut a,
            r#"kubectl patch wa shop --type merge -p '{"spec":{"replicas":3}}'"#,
        );
        command(&mut a, "tick 2");
        let text = screen_text(&render(&a, w, h));
        assert!(text.contains("gen 2 · observed 1"), "{text}");
        assert!(text.contains("operator not running"), "{text}");
        insta::assert_snapshot!(format!("demo_operator_{w}x{h}"), render(&a, w, h).backend());
    }
}
