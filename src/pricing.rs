//! `pricing`: implemented by its issue.
