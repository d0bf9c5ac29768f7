//! Terminal app: app state, `update(Msg)`, the keymap as data, one module per screen and
//! a const theme. No file IO and no simulation of its own: the cli loads content and
//! settings and passes them in.

pub mod app;
pub mod keymap;
pub mod screens;
pub mod text;
pub mod theme;

use std::io::stdout;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::Result;
use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::execute;

use crate::content::Loaded;

pub use app::{App, Msg, Settings};
pub use theme::{Theme, ThemeName};

/// Runs the app until the user quits, Ctrl-C, SIGTERM or SIGHUP; the terminal is restored
/// on every exit path, panics included.
pub fn run(loaded: Loaded, settings: Settings) -> Result<()> {
    run_app(App::new(loaded, settings))
}

/// As `run`, grading into `progress`; `notices` are what opening the store reported.
/// `cram`: question ids to open straight into a cram session, and whether its grades move
/// the schedule.
pub fn run_with_progress(
    loaded: Loaded,
    settings: Settings,
    progress: crate::study::Progress,
    notices: Vec<String>,
    cram: Option<(Vec<String>, bool)>,
) -> Result<()> {
    let mut app = App::new(loaded, settings).with_progress(progress, notices);
    if let Some((ids, reschedule)) = cram {
        app.now = crate::study::time::now();
        app.start_cram(ids, reschedule);
    }
    run_app(app)
}

fn run_app(mut app: App) -> Result<()> {
    // The theme decides colours (the cli picks MONO under NO_COLOR); without this
    // crossterm would turn every colour change into a bare reset that also drops bold and
    // reverse.
    ratatui::crossterm::style::force_color_output(true);

    let stop = Arc::new(AtomicBool::new(false));
    #[cfg(unix)]
    for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP] {
        signal_hook::flag::register(sig, Arc::clone(&stop))?;
    }

    let mut terminal = ratatui::init();
    // ratatui's hook restores the screen; mouse capture is ours to undo.
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(stdout(), DisableMouseCapture);
        prev(info);
    }));

    let result = event_loop(&mut terminal, &mut app, &stop);
    let _ = execute!(stdout(), DisableMouseCapture);
    ratatui::restore();
    result
}

fn event_loop(terminal: &mut DefaultTerminal, app: &mut App, stop: &AtomicBool) -> Result<()> {
    let mut mouse = false;
    app.now = crate::study::time::now();
    let size = terminal.size()?;
    app.update(Msg::Resize(size.width, size.height));
    loop {
        if app.settings.mouse != mouse {
            mouse = app.settings.mouse;
            if mouse {
                execute!(stdout(), EnableMouseCapture)?;
            } else {
                execute!(stdout(), DisableMouseCapture)?;
            }
        }
        terminal.draw(|f| f.render_widget(&*app, f.area()))?;
        // Wait for the next event, waking only to check the signal flag.
        let mut ignored = 0u32;
        let msg = loop {
            if stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            if !event::poll(Duration::from_millis(250))? {
                continue;
            }
            match event::read()? {
                Event::Key(k) if k.is_press() => break Msg::Key(k),
                Event::Mouse(m) => break Msg::Mouse(m),
                Event::Resize(w, h) => break Msg::Resize(w, h),
                _ => {
                    // A terminal that hung up keeps reporting readiness without input:
                    // leave instead of spinning.
                    ignored += 1;
                    if ignored > 1000 || ratatui::crossterm::terminal::size().is_err() {
                        return Ok(());
                    }
                }
            }
        };
        // Study actions take the time as an argument; this loop is where it is read.
        app.now = crate::study::time::now();
        app.update(msg);
        if app.should_quit() {
            return Ok(());
        }
    }
}
