//! Tests owned by the `routing` work; see the module's own docs.
