//! `response`: implemented by its issue.
