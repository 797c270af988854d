//! `graph`: implemented by its issue.
