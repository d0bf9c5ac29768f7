//! Terminal app: app state, `update(Msg)`, the keymap as data, one module per screen and
//! a const theme. No file IO and no simulation of its own: the cli loads content and
//! settings and passes them in.

pub mod app;
pub mod complete;
pub mod config;
pub mod keymap;
pub mod screens;
pub mod text;
pub mod theme;

use std::io::{BufWriter, Stdout, stdout};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, MouseEventKind,
};
use ratatui::crossterm::execute;

use crate::content::Loaded;

pub use app::{App, Msg, Settings};
pub use theme::{Theme, ThemeName};

/// Runs the app until the user quits, Ctrl-C, SIGTERM or SIGHUP; the terminal is restored
/// on every exit path, panics included.
pub fn run(loaded: Loaded, settings: Settings) -> Result<()> {
    run_app(App::new(loaded, settings))
}

/// Runs an app already set up by the caller (a question's demo open, a seed chosen).
pub fn run_app(mut app: App) -> Result<()> {
    // The theme decides colours (the cli picks MONO under NO_COLOR); without this
    // crossterm would turn every colour change into a bare reset that also drops bold and
    // reverse.
    ratatui::crossterm::style::force_color_output(true);

    let stop = Arc::new(AtomicBool::new(false));
    #[cfg(unix)]
    {
        let signals = [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP];
        for sig in signals {
            signal_hook::flag::register(sig, Arc::clone(&stop))?;
        }
        // When the terminal goes away (a killed tmux, a closed ssh session) crossterm's
        // poll loops inside itself on a tty that reads 0 bytes forever, so the event loop
        // never sees the flag. This thread sleeps until a signal comes, gives the loop a
        // moment to leave properly, and otherwise restores what it can and exits.
        let mut pending = signal_hook::iterator::Signals::new(signals)?;
        std::thread::spawn(move || {
            if pending.forever().next().is_some() {
                std::thread::sleep(Duration::from_millis(750));
                let _ = execute!(stdout(), DisableMouseCapture);
                ratatui::restore();
                std::process::exit(0);
            }
        });
    }

    // ratatui::init enters raw mode and the alternate screen and installs the panic hook
    // that leaves them; its terminal writes through stdout's 1 KiB line buffer, a frame
    // in several writes that a terminal may show half done. Ours sends a frame in one.
    drop(ratatui::init());
    let backend = CrosstermBackend::new(BufWriter::with_capacity(FRAME_BUFFER, stdout()));
    let mut terminal = Terminal::new(backend)?;
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

/// Bytes a frame may take before it is written: a full 250x80 frame with colours fits.
const FRAME_BUFFER: usize = 256 * 1024;

type Term = Terminal<CrosstermBackend<BufWriter<Stdout>>>;

fn event_loop(terminal: &mut Term, app: &mut App, stop: &AtomicBool) -> Result<()> {
    let mut mouse = false;
    let mut next_tick: Option<Instant> = None;
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
        // Wait for the next event or, while a demo plays, its next simulated second;
        // otherwise wake only to check the signal flag.
        // The deadline survives key presses so typing does not hold time back.
        next_tick = match (app.tick_interval(), next_tick) {
            (None, _) => None,
            (Some(d), None) => Some(Instant::now() + d),
            (Some(_), at) => at,
        };
        let mut ignored = 0u32;
        let msg = loop {
            if stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            let mut wait = Duration::from_millis(250);
            if let Some(at) = next_tick {
                let left = at.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    // Keep the beat; after a stall, start a fresh one instead of bursting.
                    let now = Instant::now();
                    next_tick = app
                        .tick_interval()
                        .map(|d| if at + d > now { at + d } else { now + d });
                    break Msg::Tick;
                }
                wait = wait.min(left);
            }
            if !event::poll(wait)? {
                continue;
            }
            match event::read()? {
                Event::Key(k) if k.is_press() => break Msg::Key(k),
                // Capture reports every movement: those change nothing, so no redraw (and
                // they are input, not a hung-up terminal).
                Event::Mouse(m)
                    if matches!(m.kind, MouseEventKind::Moved | MouseEventKind::Drag(_)) => {}
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
