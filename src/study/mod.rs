//! Study layer: spaced repetition, quiz generation, the mock-interview state machine and
//! the progress store. Never touches the terminal; time is always passed in.

pub mod mock;
pub mod quiz;
