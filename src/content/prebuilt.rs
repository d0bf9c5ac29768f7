//! Content parsed and checked ahead of time: build.rs loads the shipped files with this
//! layer's own parser and packs the result into the binary, so a start decodes a deck
//! instead of parsing its TOML. What a later load needs of those files is kept with it:
//! where each id was defined, for the "first defined at" of a duplicate in a user file.

use serde::{Deserialize, Serialize};

use super::load::{Loaded, Place};
use super::model::Deck;

/// A deck that loaded cleanly, with where its ids came from.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(deserialize = "'de: 'static"))]
pub struct Prebuilt {
    pub deck: Deck,
    /// The files it was loaded from, as shown to the user.
    pub files: Vec<String>,
    /// Where each topic's id is, in the order of `deck.topics`.
    pub topic_at: Vec<At>,
    /// Where each question's id is, in the order of `deck.questions`.
    pub question_at: Vec<At>,
}

/// A place in one of [`Prebuilt::files`]: 1-based line and column, as diagnostics show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct At {
    pub file: u32,
    pub line: u32,
    pub col: u32,
}

/// Why a set of files cannot be packed.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    #[error("{count} problem(s) in the content:\n\n{rendered}")]
    Problems { count: usize, rendered: String },
    #[error("{0}")]
    Encode(#[from] postcard::Error),
}

impl Prebuilt {
    /// The deck of a clean load with the places of its ids; every problem, rendered as
    /// `kubedrill check` renders it, otherwise.
    pub fn from_loaded(loaded: &Loaded) -> Result<Prebuilt, PackError> {
        if !loaded.is_clean() {
            return Err(PackError::Problems {
                count: loaded.diagnostics.len(),
                rendered: loaded.render(false),
            });
        }
        let files: Vec<String> = (loaded.prebuilt_files.iter().cloned())
            .chain(loaded.sources.iter().map(|s| s.name.clone()))
            .collect();
        let at = |place: &Place| match place {
            Place::Prebuilt(at) => *at,
            Place::Source(i, span) => {
                let (line, col) = loaded.sources[*i].line_col(span.start);
                At {
                    file: index(loaded.prebuilt_files.len() + i),
                    line: index(line),
                    col: index(col),
                }
            }
        };
        Ok(Prebuilt {
            deck: loaded.deck.clone(),
            files,
            topic_at: loaded.topic_places.iter().map(at).collect(),
            question_at: loaded.question_places.iter().map(at).collect(),
        })
    }

    /// The packed form build.rs embeds.
    pub fn pack(&self) -> Result<Vec<u8>, PackError> {
        Ok(postcard::to_allocvec(self)?)
    }

    /// Decodes what [`Self::pack`] made, its strings borrowed from `bytes`.
    pub fn unpack(bytes: &'static [u8]) -> Result<Prebuilt, postcard::Error> {
        postcard::from_bytes(bytes)
    }
}

/// Positions in content files: a file is at most 8 MiB (`MAX_FILE_BYTES`), so they fit.
fn index(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
