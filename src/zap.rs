//! `zap`: implemented by its issue.
