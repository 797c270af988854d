//! Tests owned by the `request` work; see the module's own docs.
