//! Terminal app: app state, `update(Msg)`, the keymap as data, one module per screen and
//! a const theme. No file IO and no simulation of its own.
