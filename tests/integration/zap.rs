//! Tests owned by the `zap` work; see the module's own docs.
