//! [`Keymap`], the bindings in use, and how a key event finds its action.

use ratatui::crossterm::event::KeyEvent;

use super::defaults::KEYMAP;
use super::{Action, Binding, Context};

/// The bindings in use: the defaults with the user's overrides applied. Dispatch and the
/// `?` help both read it, so they cannot drift apart.
#[derive(Debug, Clone)]
pub struct Keymap {
    pub(super) bindings: Vec<Binding>,
}

impl Default for Keymap {
    fn default() -> Self {
        Keymap {
            bindings: KEYMAP.to_vec(),
        }
    }
}

impl Keymap {
    pub fn lookup(&self, ctx: Context, ev: &KeyEvent) -> Option<Action> {
        lookup_in(&self.bindings, ctx, ev)
    }
}

/// The action for a key in a context under the default keymap.
pub fn lookup(ctx: Context, ev: &KeyEvent) -> Option<Action> {
    lookup_in(KEYMAP, ctx, ev)
}

fn lookup_in(bindings: &[Binding], ctx: Context, ev: &KeyEvent) -> Option<Action> {
    let find = |c: Context| {
        bindings
            .iter()
            .find(|bd| bd.ctx == c && bd.key.matches(ev))
            .map(|bd| bd.action)
    };
    // The context's own bindings first; then, in a text box, the shared editing keys;
    // elsewhere the global ones (not while typing or in the help overlay, which have
    // their own rows).
    find(ctx).or_else(|| {
        if ctx.is_text_box() {
            find(Context::TextBox)
        } else if matches!(ctx, Context::Help | Context::Editor) {
            None
        } else {
            find(Context::Global)
        }
    })
}
