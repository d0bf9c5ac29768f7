//! The real terminal's input side, and every way a session ends from outside.
//!
//! Input is read on a thread of its own and handed over a channel, so the event loop never
//! waits inside crossterm. That matters when the terminal goes away: crossterm 0.29's
//! reader loops without end on a tty that reads end-of-file (its inner `read` loop stops
//! only on `WouldBlock`), so the loop that called it would never run again. Here the event
//! loop asks the tty itself whether it has hung up each time it wakes, and leaves.
//! SIGTERM, SIGHUP, SIGINT and SIGQUIT arrive on the same channel, and so does SIGWINCH.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use ratatui::crossterm::event::{self, Event};

/// What the event loop hears from outside.
#[derive(Debug)]
pub enum Input {
    Event(Event),
    /// The terminal changed size (SIGWINCH): read the new size from it.
    Resized,
    /// The terminal hung up or can no longer be read.
    Gone,
    /// A signal asked the app to end.
    Stop,
}

/// How long the event loop has, after a signal, to restore the terminal and leave on its
/// own before the signal thread does it instead (a write blocked on a frozen terminal).
const GRACE: Duration = Duration::from_secs(2);

/// What the last resort writes: mouse capture and bracketed paste off, cursor shown, main
/// screen back (the sequences crossterm's commands write).
const RESTORE: &[u8] =
    b"\x1b[?1006l\x1b[?1015l\x1b[?1003l\x1b[?1002l\x1b[?1000l\x1b[?2004l\x1b[?25h\x1b[?1049l";

pub struct Events {
    rx: Receiver<Input>,
    /// Set as the app leaves: the input thread reads nothing more, so what the user types
    /// while the app exits goes to the shell, not to a thread about to end.
    leaving: Arc<AtomicBool>,
}

/// The signals that end a session and the terminal's changes of size, heard on a thread
/// of their own from the moment this is made, before the terminal is taken: a TERM while
/// the first frame's write is stuck on a frozen terminal still restores it, and a resize
/// while the first frame is drawn is not lost (crossterm listens for SIGWINCH only once
/// its reader is first polled, which [`Events::start`] begins).
pub struct Signals {
    tx: Sender<Input>,
    rx: Receiver<Input>,
}

impl Signals {
    pub fn catch() -> std::io::Result<Signals> {
        let (tx, rx) = mpsc::channel();
        watch_signals(tx.clone())?;
        Ok(Signals { tx, rx })
    }
}

impl Events {
    /// Starts the input thread, on the channel `signals` already sends to. Called after
    /// the first frame is drawn, so making the thread does not hold it back; keys typed
    /// before wait in the terminal.
    pub fn start(signals: Signals) -> std::io::Result<Events> {
        let Signals { tx, rx } = signals;
        let leaving = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&leaving);
        std::thread::Builder::new()
            .name("input".into())
            .spawn(move || read_input(&tx, &flag))?;
        Ok(Events { rx, leaving })
    }

    /// No more input is read from the terminal.
    pub fn stop(&self) {
        self.leaving.store(true, Ordering::SeqCst);
    }

    /// The next input, or None when `wait` passes first.
    pub fn next(&self, wait: Duration) -> Option<Input> {
        match self.rx.recv_timeout(wait) {
            Ok(input) => Some(input),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Input::Gone),
        }
    }
}

fn read_input(tx: &Sender<Input>, leaving: &AtomicBool) {
    loop {
        // Checked before each wait so crossterm is never entered on a dead tty; one that
        // dies during a wait is caught by the event loop's own check.
        if hung_up() {
            let _ = tx.send(Input::Gone);
            return;
        }
        let input = match event::poll(Duration::from_millis(100)) {
            Ok(_) if leaving.load(Ordering::SeqCst) => return,
            Ok(false) => continue,
            Ok(true) => match event::read() {
                Ok(e) => Input::Event(e),
                Err(_) => Input::Gone,
            },
            Err(_) => Input::Gone,
        };
        let gone = matches!(input, Input::Gone);
        if tx.send(input).is_err() || gone {
            return;
        }
    }
}

#[cfg(unix)]
fn watch_signals(tx: Sender<Input>) -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGWINCH};
    let mut signals =
        signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGWINCH])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                if signal == SIGWINCH {
                    // Nobody listening: the app is on its way out.
                    let _ = tx.send(Input::Resized);
                    continue;
                }
                let _ = tx.send(Input::Stop);
                std::thread::sleep(GRACE);
                last_resort_exit();
            }
        })?;
    Ok(())
}

#[cfg(not(unix))]
fn watch_signals(_tx: Sender<Input>) -> std::io::Result<()> {
    Ok(())
}

/// Restores the terminal without taking stdout's lock (the event loop may hold it in a
/// blocked write) and exits. Progress is already durable: each grade is committed when
/// it is made.
#[cfg(unix)]
fn last_resort_exit() -> ! {
    use std::os::fd::AsFd;
    if let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() {
        let _ = std::fs::File::from(fd).write_all(RESTORE);
    }
    let _ = ratatui::crossterm::terminal::disable_raw_mode();
    // std's exit flushes stdout only if its lock is free, so this cannot block.
    std::process::exit(1)
}

/// True when the terminal on stdin has hung up (its other side closed) or is no longer a
/// usable file: what a closed window, a killed tmux or a dropped ssh session look like.
#[cfg(unix)]
pub fn hung_up() -> bool {
    let mut fds = [libc::pollfd {
        fd: 0,
        events: 0,
        revents: 0,
    }];
    // SAFETY: one valid pollfd, its length passed, no timeout: poll only fills `revents`.
    let n = unsafe { libc::poll(fds.as_mut_ptr(), 1, 0) };
    n > 0 && fds[0].revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
}

#[cfg(not(unix))]
pub fn hung_up() -> bool {
    false
}

#[cfg(all(test, unix))]
mod tests {
    use std::time::Duration;

    use super::{Input, Signals};

    /// The first frame is drawn before the key reader starts, and crossterm hears SIGWINCH
    /// only from its reader's first poll: a resize in between must still arrive. (Leaves
    /// this test process's TERM, HUP, INT and QUIT caught, as in the app.)
    #[test]
    fn a_resize_before_the_reader_starts_is_heard() {
        let signals = Signals::catch().expect("signal handlers install");
        // SAFETY: raise only sends SIGWINCH to this process; its handler, signal-hook's,
        // writes to a pipe (and the signal is ignored by default anyway).
        unsafe {
            libc::raise(libc::SIGWINCH);
        }
        let heard = signals.rx.recv_timeout(Duration::from_secs(10));
        assert!(matches!(heard, Ok(Input::Resized)), "{heard:?}");
    }
}
