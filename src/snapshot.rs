//! `snapshot`: implemented by its issue.
