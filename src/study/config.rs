//! The study settings read from `config.toml`: desired retention and the daily new-card
//! limit. Other keys in the file belong to other parts of the app and are left alone.

use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StudyConfig {
    /// The recall probability FSRS schedules for, 0.7..=0.99.
    pub desired_retention: f32,
    /// New cards introduced per day.
    pub new_cards_per_day: u32,
}

impl Default for StudyConfig {
    fn default() -> Self {
        StudyConfig {
            desired_retention: 0.9,
            new_cards_per_day: 20,
        }
    }
}

#[derive(Deserialize)]
struct Raw {
    desired_retention: Option<toml::Spanned<f64>>,
    new_cards_per_day: Option<toml::Spanned<i64>>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{file}:{line}: {message}")]
    Toml {
        file: String,
        line: usize,
        message: String,
    },
    #[error("{file}:{line}: desired_retention = {value}: must be between 0.7 and 0.99")]
    Retention {
        file: String,
        line: usize,
        value: f64,
    },
    #[error("{file}:{line}: new_cards_per_day = {value}: must be between 0 and 9999")]
    NewCards {
        file: String,
        line: usize,
        value: i64,
    },
}

impl StudyConfig {
    /// Reads the top-level `desired_retention` and `new_cards_per_day` keys of a
    /// config.toml's text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<StudyConfig, ConfigError> {
        let line = |at: usize| crate::content::text::line_at(text.as_bytes(), at);
        let raw: Raw = toml::from_str(text).map_err(|e| ConfigError::Toml {
            file: file.to_string(),
            line: line(e.span().map_or(0, |s| s.start)),
            message: e.message().trim().to_string(),
        })?;
        let mut c = StudyConfig::default();
        if let Some(v) = raw.desired_retention {
            let (at, v) = (v.span().start, v.into_inner());
            if !(0.7..=0.99).contains(&v) {
                return Err(ConfigError::Retention {
                    file: file.into(),
                    line: line(at),
                    value: v,
                });
            }
            c.desired_retention = v as f32;
        }
        if let Some(v) = raw.new_cards_per_day {
            let (at, v) = (v.span().start, v.into_inner());
            if !(0..=9999).contains(&v) {
                return Err(ConfigError::NewCards {
                    file: file.into(),
                    line: line(at),
                    value: v,
                });
            }
            c.new_cards_per_day = v as u32;
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_its_keys_and_ignores_the_rest() {
        let c = StudyConfig::parse(
            "theme = \"mono\"\ndesired_retention = 0.85\nnew_cards_per_day = 5\n[keys]\nx = 1\n",
            "config.toml",
        )
        .expect("valid");
        assert_eq!(c.desired_retention, 0.85);
        assert_eq!(c.new_cards_per_day, 5);
        assert_eq!(
            StudyConfig::parse("", "c").expect("empty"),
            StudyConfig::default()
        );
        let e = StudyConfig::parse("desired_retention = 1.5", "config.toml").unwrap_err();
        assert_eq!(
            e.to_string(),
            "config.toml:1: desired_retention = 1.5: must be between 0.7 and 0.99"
        );
    }
}
