//! Tests owned by the `props_curve` work; see the module's own docs.
