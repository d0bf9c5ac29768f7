//! Study layer: spaced repetition, quiz generation, the mock-interview state machine and
//! the progress store. Never touches the terminal; time is always passed in.

pub mod answer;
pub mod config;
pub mod history;
pub mod mock;
pub mod package;
pub mod quiz;
pub mod schedule;
pub mod session;
pub mod stats;
pub mod store;
pub mod time;

pub use config::StudyConfig;
pub use schedule::{CardState, Grade, Phase, Preview, Scheduler};
pub use session::{CramFilter, Kind, Progress, Session, StudyError};
pub use stats::Stats;
pub use store::{Mode, Opened, Store, StoreError};
