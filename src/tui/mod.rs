//! Terminal app: app state, `update(Msg)`, the keymap as data, one module per screen and
//! a const theme. No file IO and no simulation of its own: the cli loads content and
//! settings and passes them in.

pub mod app;
pub mod complete;
pub mod config;
pub mod keymap;
pub mod line_edit;
mod rows;
pub mod screens;
mod settings;
mod terminal;
pub mod text;
pub mod theme;

use std::io::{BufWriter, Stdout, stdout};
use std::time::{Duration, Instant};

use anyhow::Result;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture, Event,
    MouseEventKind,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{EnterAlternateScreen, enable_raw_mode};

use crate::content::Loaded;

pub use app::{App, Msg, Settings};
pub use theme::{Theme, ThemeName};

use terminal::Input;

/// Runs the app until the user quits, Ctrl-C, a signal (TERM, HUP, INT, QUIT) or its
/// terminal goes away; the terminal is restored on every exit path, panics included.
pub fn run(loaded: Loaded, settings: Settings) -> Result<()> {
    run_app(App::new(loaded, settings))
}

/// Runs an app already set up by the caller (a question's demo open, a seed chosen).
pub fn run_app(mut app: App) -> Result<()> {
    // The theme decides colours (the cli picks MONO under NO_COLOR); without this
    // crossterm would turn every colour change into a bare reset that also drops bold and
    // reverse.
    ratatui::crossterm::style::force_color_output(true);

    // Heard before the terminal is taken, so a TERM or HUP from here on restores it and a
    // resize during the first frame is not missed.
    let signals = terminal::Signals::catch()?;

    // What ratatui::init does, but for its Terminal: a panic hook that leaves the screen
    // as it was, then raw mode and the alternate screen. Its Terminal writes through
    // stdout's 1 KiB line buffer, a frame in several writes that a terminal may show half
    // done; ours sends a frame in one, and making and dropping its own cost two frame
    // buffers and a size query before the first frame.
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        leave();
        prev(info);
    }));
    let setup = || -> Result<Term> {
        enable_raw_mode()?;
        execute!(stdout(), EnterAlternateScreen)?;
        let backend = CrosstermBackend::new(BufWriter::with_capacity(FRAME_BUFFER, stdout()));
        let terminal = Terminal::new(backend)?;
        // A paste arrives as one event, typed into the field in focus, instead of as keys
        // that would run commands (two pasted lines on `:` deleted three pods).
        execute!(stdout(), EnableBracketedPaste)?;
        Ok(terminal)
    };
    let mut terminal = match setup() {
        Ok(t) => t,
        Err(e) => {
            leave();
            return Err(e);
        }
    };

    let mut mouse = false;
    let result = first_frame(&mut terminal, &mut app, &mut mouse).and_then(|shown| {
        if !shown {
            return Ok(());
        }
        // Input is read from here on, in raw mode, each key as it is pressed.
        let events = terminal::Events::start(signals)?;
        let r = event_loop(&mut terminal, &mut app, &events, &mut mouse);
        events.stop();
        r
    });
    leave();
    result
}

/// The app sized to the terminal and drawn, before anything else is started; false when
/// the terminal went away.
fn first_frame(terminal: &mut Term, app: &mut App, mouse: &mut bool) -> Result<bool> {
    app.now = crate::study::time::now();
    let size = terminal.size()?;
    app.update(Msg::Resize(size.width, size.height));
    draw(terminal, app, mouse)
}

/// The terminal as the app found it: mouse capture and bracketed paste off, raw mode off,
/// the main screen back. Every exit takes this path, a panic included.
fn leave() {
    let _ = execute!(stdout(), DisableMouseCapture, DisableBracketedPaste);
    ratatui::restore();
}

/// Bytes a frame may take before it is written: a full 250x80 frame with colours fits.
const FRAME_BUFFER: usize = 256 * 1024;

type Term = Terminal<CrosstermBackend<BufWriter<Stdout>>>;

/// Waits for an event, updates, draws; until the app quits or the terminal goes away.
fn event_loop(
    terminal: &mut Term,
    app: &mut App,
    events: &terminal::Events,
    mouse: &mut bool,
) -> Result<()> {
    let mut next_tick: Option<Instant> = None;
    loop {
        // Wait for the next event or, while a demo plays, its next simulated second;
        // otherwise wake only to check that the terminal is still there.
        // The deadline survives key presses so typing does not hold time back.
        next_tick = match (app.tick_interval(), next_tick) {
            (None, _) => None,
            (Some(d), None) => Some(Instant::now() + d),
            (Some(_), at) => at,
        };
        let msg = loop {
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
            let event = match events.next(wait) {
                None if terminal::hung_up() => return Ok(()),
                None => continue,
                Some(Input::Gone | Input::Stop) => return Ok(()),
                // Heard from the signal, and again from crossterm's reader once it runs
                // (a second frame of the same size writes nothing). A size that cannot be
                // read is a terminal going away, which the next wake finds hung up.
                Some(Input::Resized) => match terminal.size() {
                    Ok(size) => Event::Resize(size.width, size.height),
                    Err(_) => continue,
                },
                Some(Input::Event(e)) => e,
            };
            match event {
                Event::Key(k) if k.is_press() => break Msg::Key(k),
                // Capture reports every movement: those change nothing, so no redraw.
                Event::Mouse(m)
                    if matches!(m.kind, MouseEventKind::Moved | MouseEventKind::Drag(_)) => {}
                Event::Mouse(m) => break Msg::Mouse(m),
                Event::Resize(w, h) => break Msg::Resize(w, h),
                Event::Paste(text) => break Msg::Paste(text),
                _ => {}
            }
        };
        // Study actions take the time as an argument; this loop is where it is read.
        app.now = crate::study::time::now();
        app.update(msg);
        if app.should_quit() {
            return Ok(());
        }
        if !draw(terminal, app, mouse)? {
            return Ok(());
        }
    }
}

/// One frame, with mouse capture switched to match the settings first; false when the
/// terminal went away (writing to it fails: that is an exit, not an error).
fn draw(terminal: &mut Term, app: &App, mouse: &mut bool) -> Result<bool> {
    match draw_frame(terminal, app, mouse) {
        Ok(()) => Ok(true),
        Err(_) if terminal::hung_up() => Ok(false),
        Err(e) => Err(e),
    }
}

fn draw_frame(terminal: &mut Term, app: &App, mouse: &mut bool) -> Result<()> {
    if app.settings.mouse != *mouse {
        *mouse = app.settings.mouse;
        if *mouse {
            execute!(stdout(), EnableMouseCapture)?;
        } else {
            execute!(stdout(), DisableMouseCapture)?;
        }
    }
    terminal.draw(|f| f.render_widget(app, f.area()))?;
    Ok(())
}
