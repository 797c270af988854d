//! `request`: implemented by its issue.
