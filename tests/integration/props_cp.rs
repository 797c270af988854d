//! Tests owned by the `props_cp` work; see the module's own docs.
