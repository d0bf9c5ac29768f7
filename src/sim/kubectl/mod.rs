//! The demo's kubectl: the command language parsed as kubectl parses it.

pub mod args;
