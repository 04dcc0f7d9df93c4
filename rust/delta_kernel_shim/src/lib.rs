//! A small C ABI over delta-kernel-rs for Griffin: open a Delta table's snapshot (latest, a
//! version, or the latest version at or before a timestamp), report its version and schema,
//! and scan it into an Arrow C stream. The C header is include/delta_kernel_shim.h.
//!
//! Every function catches panics at the boundary; errors come back as a malloc'd
//! one-line message that the caller frees with `griffin_delta_free_string`.

mod ffi_util;
mod options;
mod read;
mod write;

pub use ffi_util::griffin_delta_free_string;
pub use read::{
    griffin_delta_open, griffin_delta_scan, griffin_delta_snapshot_free,
    griffin_delta_snapshot_schema, griffin_delta_snapshot_version,
};
pub use write::griffin_delta_append;
