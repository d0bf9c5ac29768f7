//! Rendering each screen at 200x60 into a TestBackend with the shipped content; the goal is
//! at most 1 ms for the heaviest. The demo is measured after a minute of simulated time
//! and a `kubectl describe` in its output pane, so every panel has something to draw.

use criterion::{Criterion, criterion_group, criterion_main};
use kubedrill::content;
use kubedrill::sim::catalog::SimCatalog;
use kubedrill::tui::{App, Msg, Settings};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

fn press(app: &mut App, code: KeyCode) {
    app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

/// The app after `script`: characters are keys, `\n` is Enter, `~` is one demo tick.
fn app(script: &str) -> App {
    let loaded = content::load(content::shipped_sources(), vec![], &SimCatalog);
    let mut app = App::new(loaded, Settings::default());
    app.update(Msg::Resize(200, 60));
    for c in script.chars() {
        match c {
            '\n' => press(&mut app, KeyCode::Enter),
            '~' => app.update(Msg::Tick),
            c => press(&mut app, KeyCode::Char(c)),
        }
    }
    app
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("render_200x60");
    let minute = "~".repeat(60);
    let demo = format!("\nj\nd{minute}x{minute}:kubectl describe deploy web\n");
    let demo_editor = format!("{demo}e");
    let screens = [
        ("home", "".to_string()),
        ("list", "\n".to_string()),
        ("card_prompt", "\n\n".to_string()),
        ("card_all_revealed", "\n\na".to_string()),
        ("help", "\n\n?".to_string()),
        ("settings", "o".to_string()),
        ("demo", demo),
        ("demo_editor", demo_editor),
        ("mock_setup", "m".to_string()),
        ("mock_answering", "m\n\n".to_string()),
        ("mock_rubric", "m\n\n\n j ".to_string()),
        ("mock_scorecard", "m\n\n\n \nE".to_string()),
        ("quiz_feedback", "z\n2".to_string()),
        ("quiz_result", "z\n2\n1\nE".to_string()),
    ];
    // The floor: a frame that draws nothing (buffer reset, diff, TestBackend write).
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    group.bench_function("empty_frame", |b| {
        b.iter(|| {
            let frame = terminal.draw(|_| {}).expect("draw");
            std::hint::black_box(frame.area);
        });
    });
    for (name, script) in screens {
        let app = app(&script);
        let mut terminal = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
        group.bench_function(name, |b| {
            b.iter(|| {
                let frame = terminal
                    .draw(|f| f.render_widget(&app, f.area()))
                    .expect("draw");
                std::hint::black_box(frame.area);
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
