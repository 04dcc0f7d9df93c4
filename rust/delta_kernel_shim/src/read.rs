//! Reading: open a snapshot, report its version and schema, scan it into an Arrow C stream.

use std::ffi::{c_char, c_int};
use std::sync::Arc;

use delta_kernel::arrow::array::RecordBatchReader;
use delta_kernel::arrow::datatypes::{Schema as ArrowSchema, SchemaRef as ArrowSchemaRef};
use delta_kernel::arrow::error::ArrowError;
use delta_kernel::arrow::ffi::FFI_ArrowSchema;
use delta_kernel::arrow::ffi_stream::FFI_ArrowArrayStream;
use delta_kernel::arrow::record_batch::RecordBatch;
use delta_kernel::engine::arrow_conversion::TryFromKernel;
use delta_kernel::engine::arrow_data::EngineDataArrowExt;
use delta_kernel::history_manager::{latest_version_as_of, HistoryCommitType};
use delta_kernel::schema::SchemaRef;
use delta_kernel::{Engine, EngineData, KernelResult, Snapshot, SnapshotRef};

use crate::ffi_util::{c_text, guarded};
use crate::options::{engine_for, store_options, table_url};

/// Which snapshot `griffin_delta_open` opens.
pub const GRIFFIN_DELTA_LATEST: c_int = 0;
pub const GRIFFIN_DELTA_AT_VERSION: c_int = 1;
pub const GRIFFIN_DELTA_AT_TIMESTAMP_MS: c_int = 2;

/// An open snapshot and the engine that reads it.
pub struct GriffinDeltaSnapshot {
    engine: Arc<dyn Engine>,
    snapshot: SnapshotRef,
}

fn open(location: &str, mode: c_int, value: i64, options: &[(String, String)]) -> Result<GriffinDeltaSnapshot, String> {
    let url = table_url(location)?;
    let engine = engine_for(&url, options)?;
    let named = |e: delta_kernel::KernelError| e.to_string();
    let snapshot = match mode {
        GRIFFIN_DELTA_LATEST => Snapshot::builder_for(url.as_str()).build(engine.as_ref()).map_err(named)?,
        GRIFFIN_DELTA_AT_VERSION => {
            let version = u64::try_from(value).map_err(|_| format!("version {value} is negative"))?;
            Snapshot::builder_for(url.as_str())
                .at_version(version)
                .build(engine.as_ref())
                .map_err(named)?
        }
        GRIFFIN_DELTA_AT_TIMESTAMP_MS => {
            let latest = Snapshot::builder_for(url.as_str()).build(engine.as_ref()).map_err(named)?;
            let commit = latest_version_as_of(&latest, engine.as_ref(), value, HistoryCommitType::Recreatable)
                .map_err(named)?;
            if commit.version == latest.version() {
                latest
            } else {
                Snapshot::builder_for(url.as_str())
                    .at_version(commit.version)
                    .build(engine.as_ref())
                    .map_err(named)?
            }
        }
        other => return Err(format!("unknown snapshot mode {other}")),
    };
    Ok(GriffinDeltaSnapshot { engine, snapshot })
}

/// Opens a snapshot of the table at `location` (a local folder or an s3:// / gs:// URI).
/// `mode` is LATEST (value ignored), AT_VERSION (value = version) or AT_TIMESTAMP_MS (value =
/// milliseconds since the epoch; the latest version committed at or before it). Options are
/// object store settings (aws_endpoint, ...). Returns NULL and sets `*error` on failure.
#[no_mangle]
pub extern "C" fn griffin_delta_open(
    location: *const c_char,
    mode: c_int,
    value: i64,
    option_keys: *const *const c_char,
    option_values: *const *const c_char,
    option_count: usize,
    error: *mut *mut c_char,
) -> *mut GriffinDeltaSnapshot {
    guarded(error, std::ptr::null_mut(), || {
        let location = c_text(location, "table location")?;
        let options = store_options(option_keys, option_values, option_count)?;
        Ok(Box::into_raw(Box::new(open(location, mode, value, &options)?)))
    })
}

/// The snapshot's table version.
#[no_mangle]
pub extern "C" fn griffin_delta_snapshot_version(snapshot: *const GriffinDeltaSnapshot) -> i64 {
    match unsafe { snapshot.as_ref() } {
        Some(s) => s.snapshot.version() as i64,
        None => -1,
    }
}

fn arrow_schema(schema: &SchemaRef) -> Result<ArrowSchema, String> {
    ArrowSchema::try_from_kernel(schema.as_ref()).map_err(|e| format!("schema: {e}"))
}

/// Exports the snapshot's logical schema (partition columns included) into `*out`.
/// Returns 0, or -1 with `*error` set.
#[no_mangle]
pub extern "C" fn griffin_delta_snapshot_schema(
    snapshot: *const GriffinDeltaSnapshot,
    out: *mut FFI_ArrowSchema,
    error: *mut *mut c_char,
) -> c_int {
    guarded(error, -1, || {
        let s = unsafe { snapshot.as_ref() }.ok_or("no snapshot")?;
        let schema = arrow_schema(&s.snapshot.schema())?;
        let exported = FFI_ArrowSchema::try_from(&schema).map_err(|e| format!("schema: {e}"))?;
        unsafe { std::ptr::write(out, exported) };
        Ok(0)
    })
}

/// The scan's batches, each re-labelled with the stream's schema.
struct ScanReader {
    schema: ArrowSchemaRef,
    batches: Box<dyn Iterator<Item = KernelResult<Box<dyn EngineData>>>>,
}

// The stream is consumed by one thread at a time (the Arrow C stream contract).
unsafe impl Send for ScanReader {}

impl Iterator for ScanReader {
    type Item = Result<RecordBatch, ArrowError>;
    fn next(&mut self) -> Option<Self::Item> {
        let data = self.batches.next()?;
        Some(
            data.try_into_record_batch()
                .map_err(|e| ArrowError::ExternalError(e.without_backtrace().to_string().into()))
                .and_then(|batch| RecordBatch::try_new(self.schema.clone(), batch.columns().to_vec())),
        )
    }
}

impl RecordBatchReader for ScanReader {
    fn schema(&self) -> ArrowSchemaRef {
        self.schema.clone()
    }
}

fn scan(s: &GriffinDeltaSnapshot, columns: &[&str]) -> Result<FFI_ArrowArrayStream, String> {
    let mut builder = s.snapshot.clone().scan_builder();
    if !columns.is_empty() {
        let projected = s.snapshot.schema().project(columns).map_err(|e| e.to_string())?;
        builder = builder.with_schema(projected);
    }
    let scan = builder.build().map_err(|e| e.to_string())?;
    let schema = Arc::new(arrow_schema(scan.logical_schema())?);
    let batches = scan.execute(s.engine.clone()).map_err(|e| e.to_string())?;
    let reader = ScanReader { schema, batches: Box::new(batches) };
    Ok(FFI_ArrowArrayStream::new(Box::new(reader)))
}

/// Scans the snapshot (deletion vectors applied, partition values filled in, logical column
/// names) into `*out`. `columns` (may be empty) limits the scan to those top-level columns.
/// Returns 0, or -1 with `*error` set.
#[no_mangle]
pub extern "C" fn griffin_delta_scan(
    snapshot: *const GriffinDeltaSnapshot,
    columns: *const *const c_char,
    column_count: usize,
    out: *mut FFI_ArrowArrayStream,
    error: *mut *mut c_char,
) -> c_int {
    guarded(error, -1, || {
        let s = unsafe { snapshot.as_ref() }.ok_or("no snapshot")?;
        let mut names = Vec::with_capacity(column_count);
        for i in 0..column_count {
            names.push(c_text(unsafe { *columns.add(i) }, "column name")?);
        }
        let stream = scan(s, &names)?;
        unsafe { std::ptr::write(out, stream) };
        Ok(0)
    })
}

/// Frees a snapshot from `griffin_delta_open`.
#[no_mangle]
pub extern "C" fn griffin_delta_snapshot_free(snapshot: *mut GriffinDeltaSnapshot) {
    if !snapshot.is_null() {
        drop(unsafe { Box::from_raw(snapshot) });
    }
}
