//! Content layer: the TOML model, loading (embedded and folders) and validation.
