//! `route`: implemented by its issue.
