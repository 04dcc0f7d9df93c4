//! Writing: append an Arrow C stream's rows to a Delta table as ONE commit (blind append),
//! creating the table (unpartitioned) when its log is empty. The Parquet files are written
//! first; the commit then puts `_delta_log/<version>.json` with put-if-absent, so a process
//! killed before the commit leaves no commit (at most unreferenced data files), and a
//! concurrent writer that took the version makes this commit fail rather than overwrite.

use std::ffi::{c_char, c_int};
use std::sync::Arc;

use delta_kernel::arrow::ffi_stream::{RecordBatchStreamReader, FFI_ArrowArrayStream};
use delta_kernel::arrow::record_batch::RecordBatchReader;
use delta_kernel::committer::FileSystemCommitter;
use delta_kernel::engine::arrow_conversion::TryFromArrow;
use delta_kernel::engine::arrow_data::ArrowEngineData;
use delta_kernel::object_store::path::Path as StorePath;
use delta_kernel::object_store::ObjectStore;
use delta_kernel::schema::StructType;
use delta_kernel::transaction::create_table::create_table;
use delta_kernel::transaction::{CommitResult, Imperative, Transaction, UpdateTableOperation};
use delta_kernel::Snapshot;
use delta_kernel_default_engine::executor::tokio::TokioBackgroundExecutor;
use delta_kernel_default_engine::executor::TaskExecutor;
use delta_kernel_default_engine::storage::store_from_url_opts;
use delta_kernel_default_engine::{DefaultEngine, DefaultEngineBuilder};
use futures::TryStreamExt;
use url::Url;

use crate::ffi_util::{c_text, guarded};
use crate::options::{store_options, table_url};

const ENGINE_INFO: &str = concat!("griffin-delta-kernel-shim/", env!("CARGO_PKG_VERSION"));

type Engine = DefaultEngine<TokioBackgroundExecutor>;

/// True when the table's `_delta_log/` holds no commit or checkpoint yet.
fn log_is_empty(store: &Arc<dyn ObjectStore>, executor: &TokioBackgroundExecutor, url: &Url) -> Result<bool, String> {
    let prefix = StorePath::from_url_path(format!("{}_delta_log/", url.path())).map_err(|e| e.to_string())?;
    let store = store.clone();
    let listed = executor.block_on(async move {
        store.list(Some(&prefix)).try_collect::<Vec<_>>().await
    });
    let entries = listed.map_err(|e| e.to_string())?;
    Ok(!entries.iter().any(|m| {
        let name = m.location.filename().unwrap_or("");
        name.ends_with(".json") || name.contains(".checkpoint")
    }))
}

/// Writes every batch of `reader` as Parquet and stages the files on `txn`.
fn stage<S>(
    txn: &mut Transaction<S, Imperative>,
    engine: &Arc<Engine>,
    executor: &TokioBackgroundExecutor,
    reader: &mut RecordBatchStreamReader,
) -> Result<i64, String> {
    let state = txn.write_state().map_err(|e| e.to_string())?;
    let context = Arc::new(state.write_context_builder().build().map_err(|e| e.to_string())?);
    let mut rows = 0i64;
    for batch in reader {
        let batch = batch.map_err(|e| e.to_string())?;
        if batch.num_rows() == 0 {
            continue;
        }
        rows += batch.num_rows() as i64;
        let engine = engine.clone();
        let context = context.clone();
        let added = executor.block_on(async move {
            engine.write_parquet(&ArrowEngineData::new(batch), &context).await
        });
        txn.add_files(added.map_err(|e| e.to_string())?);
    }
    Ok(rows)
}

fn committed_version<S>(result: CommitResult<S, Imperative>) -> Result<i64, String> {
    match result {
        CommitResult::Committed(done) => Ok(done.commit_version() as i64),
        CommitResult::Conflicted(c) => Err(format!(
            "another writer committed version {} first; nothing was committed",
            c.conflict_version()
        )),
        CommitResult::Retryable(_) => Err("the commit failed with a retryable I/O error; nothing was committed".into()),
    }
}

fn append(location: &str, options: &[(String, String)], stream: *mut FFI_ArrowArrayStream) -> Result<i64, String> {
    let mut reader = unsafe { RecordBatchStreamReader::from_raw(stream) }.map_err(|e| e.to_string())?;
    let url = table_url_for_write(location)?;
    let store = store_from_url_opts(&url, options.iter().map(|(k, v)| (k.as_str(), v.clone())))
        .map_err(|e| e.to_string())?;
    let executor = Arc::new(TokioBackgroundExecutor::new());
    let engine = Arc::new(DefaultEngineBuilder::new(store.clone()).with_task_executor(executor.clone()).build());
    if log_is_empty(&store, &executor, &url)? {
        let schema = StructType::try_from_arrow(reader.schema().as_ref()).map_err(|e| e.to_string())?;
        let mut txn = create_table(url.as_str(), Arc::new(schema), ENGINE_INFO, true)
            .build(engine.as_ref(), Box::new(FileSystemCommitter::new()))
            .map_err(|e| e.to_string())?;
        stage(&mut txn, &engine, &executor, &mut reader)?;
        committed_version(txn.commit(engine.as_ref()).map_err(|e| e.to_string())?)
    } else {
        let snapshot = Snapshot::builder_for(url.as_str()).build(engine.as_ref()).map_err(|e| e.to_string())?;
        let mut txn = snapshot
            .update_table(UpdateTableOperation::Write, ENGINE_INFO, true)
            .with_blind_append()
            .build(engine.as_ref(), Box::new(FileSystemCommitter::new()))
            .map_err(|e| e.to_string())?;
        stage(&mut txn, &engine, &executor, &mut reader)?;
        committed_version(txn.commit(engine.as_ref()).map_err(|e| e.to_string())?)
    }
}

/// A local table folder may not exist yet: create it, then resolve it as for reads.
fn table_url_for_write(location: &str) -> Result<Url, String> {
    if !location.contains("://") {
        std::fs::create_dir_all(location).map_err(|e| e.to_string())?;
    }
    table_url(location)
}

/// Appends the rows of `stream` (consumed, released) to the table at `location` as one
/// commit, creating the table when it has no log yet. Sets `*version` to the committed
/// version. Returns 0, or -1 with `*error` set (then nothing was committed).
#[no_mangle]
pub extern "C" fn griffin_delta_append(
    location: *const c_char,
    option_keys: *const *const c_char,
    option_values: *const *const c_char,
    option_count: usize,
    stream: *mut FFI_ArrowArrayStream,
    version: *mut i64,
    error: *mut *mut c_char,
) -> c_int {
    guarded(error, -1, || {
        let location = c_text(location, "table location")?;
        let options = store_options(option_keys, option_values, option_count)?;
        let committed = append(location, &options, stream)?;
        if !version.is_null() {
            unsafe { *version = committed };
        }
        Ok(0)
    })
}
