//! Writing: append an Arrow C stream's rows to a Delta table as ONE commit (blind append),
//! creating the table (unpartitioned) when its log is empty. The Parquet files are written
//! first; the commit then puts `_delta_log/<version>.json` with put-if-absent, so a process
//! killed before the commit leaves no commit (at most unreferenced data files), and a
//! concurrent writer that took the version makes this commit fail rather than overwrite.

use std::ffi::{c_char, c_int};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use delta_kernel::arrow::ffi_stream::{RecordBatchStreamReader, FFI_ArrowArrayStream};
use delta_kernel::arrow::record_batch::{RecordBatch, RecordBatchReader};
use delta_kernel::committer::FileSystemCommitter;
use delta_kernel::engine::arrow_conversion::TryFromArrow;
use delta_kernel::engine::arrow_data::ArrowEngineData;
use delta_kernel::object_store::path::Path as StorePath;
use delta_kernel::object_store::{ObjectStore, ObjectStoreExt as _};
use delta_kernel::parquet::arrow::arrow_writer::{ArrowWriter, ArrowWriterOptions};
use delta_kernel::parquet::basic::{Compression, ZstdLevel};
use delta_kernel::parquet::file::properties::WriterProperties;
use delta_kernel::parquet::schema::types::ColumnPath;
use delta_kernel::schema::StructType;
use delta_kernel::transaction::create_table::create_table;
use delta_kernel::transaction::{BoundWriteContext, CommitResult, Imperative, Transaction, UpdateTableOperation};
use delta_kernel::{Engine as _, EngineData, FileMeta, KernelError, KernelResult, Snapshot};
use delta_kernel_default_engine::executor::tokio::TokioBackgroundExecutor;
use delta_kernel_default_engine::executor::TaskExecutor;
use delta_kernel_default_engine::storage::store_from_url_opts;
use delta_kernel_default_engine::parquet::DataFileMetadata;
use delta_kernel_default_engine::stats::FileStatsAccumulator;
use delta_kernel_default_engine::{build_add_file_metadata, DefaultEngine, DefaultEngineBuilder};
use futures::TryStreamExt;
use url::Url;
use uuid::Uuid;

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

/// The page compression of the data files a commit writes: `--parquet-compression`'s
/// names (snappy, the default of Spark's Delta writer and of Griffin's .parquet outputs;
/// zstd; lz4, written as LZ4_RAW, the codec of plain LZ4 blocks that pyarrow reports as LZ4;
/// none).
fn compression_named(name: &str) -> Result<Compression, String> {
    match name {
        "" | "snappy" => Ok(Compression::SNAPPY),
        "zstd" => Ok(Compression::ZSTD(ZstdLevel::default())),
        "lz4" => Ok(Compression::LZ4_RAW),
        "none" => Ok(Compression::UNCOMPRESSED),
        other => Err(format!("unknown Parquet compression '{other}' (snappy, zstd, lz4 or none)")),
    }
}

/// How the data files' pages are written: the codec, and the (physical) columns written
/// without a dictionary (the caller's choice: mostly distinct text, where a dictionary is
/// pure cost).
#[derive(Clone)]
struct PageOptions {
    compression: Compression,
    plain_columns: Vec<String>,
}

impl PageOptions {
    fn writer_properties(&self) -> WriterProperties {
        // Row groups of 65,536 rows, as a `.parquet` output's (a file holds several).
        let mut builder = WriterProperties::builder()
            .set_compression(self.compression)
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS));
        for name in &self.plain_columns {
            builder = builder.set_column_dictionary_enabled(ColumnPath::from(name.as_str()), false);
        }
        builder.build()
    }
}

/// Consecutive batches as one data file's bytes and its statistics: the CPU half of
/// DefaultEngine::write_parquet (the logical-to-physical transform, the file statistics,
/// the Parquet encoding) with the shim's writer properties (the default engine's writer
/// leaves the pages uncompressed). Each batch is transformed, counted and encoded in turn,
/// so nothing but the file's Parquet bytes is held. Runs on any thread.
fn encode_data_file(
    engine: &Engine,
    batches: &[RecordBatch],
    context: &BoundWriteContext,
    pages: &PageOptions,
) -> KernelResult<(Vec<u8>, delta_kernel::arrow::array::StructArray)> {
    let first = batches.first().ok_or_else(|| KernelError::generic("a data file needs rows"))?;
    let input_schema = delta_kernel::schema::Schema::try_from_arrow(first.schema())?;
    let physical_schema = context.physical_data_schema();
    let to_physical = engine.evaluation_handler().new_expression_evaluator(
        input_schema.into(),
        context.logical_to_physical(),
        physical_schema.clone().into(),
    )?;
    let mut stats = FileStatsAccumulator::new(context.stats_columns(), physical_schema);
    let options = ArrowWriterOptions::new().with_skip_arrow_metadata(true).with_properties(pages.writer_properties());
    let mut writer: Option<ArrowWriter<Vec<u8>>> = None;
    for batch in batches {
        let physical = to_physical.evaluate(&ArrowEngineData::new(batch.clone()))?;
        let physical = ArrowEngineData::try_from_engine_data(physical)?;
        let batch = physical.record_batch();
        stats.merge(batch)?;
        let writer = match writer.as_mut() {
            Some(open) => open,
            None => writer.insert(ArrowWriter::try_new_with_options(Vec::new(), batch.schema(), options.clone())?),
        };
        writer.write(batch)?;
    }
    let buffer = writer.ok_or_else(|| KernelError::generic("a data file needs rows"))?.into_inner()?;
    let stats = stats.finish()?.ok_or_else(|| KernelError::generic("a data file without statistics"))?;
    Ok((buffer, stats))
}

/// Puts a data file's bytes under the context's write directory (a PUT then a HEAD, as
/// DefaultEngine::write_parquet) and returns its Add action metadata.
async fn put_data_file(
    store: Arc<dyn ObjectStore>,
    buffer: Vec<u8>,
    stats: delta_kernel::arrow::array::StructArray,
    context: Arc<BoundWriteContext>,
) -> KernelResult<Box<dyn EngineData>> {
    let size = buffer.len() as u64;
    let location = context.write_dir().join(&format!("{}.parquet", Uuid::new_v4()))?;
    let path = StorePath::from_url_path(location.path())?;
    store.put(&path, buffer.into()).await?;
    let written = store.head(&path).await?;
    if written.size != size {
        return Err(KernelError::generic(format!(
            "{location}: {} bytes written, the store holds {}",
            size, written.size
        )));
    }
    let file = FileMeta::new(location, written.last_modified.timestamp_millis(), size);
    build_add_file_metadata(DataFileMetadata::new(file, stats), context.as_ref())
}

const ROW_GROUP_ROWS: usize = 65_536;

/// The Arrow bytes of rows that one data file takes when the table sets no
/// `delta.targetFileSize`: about 20-30 MB of Snappy Parquet for the benchmark's rows.
const DEFAULT_FILE_ARROW_BYTES: u64 = 64 << 20;
/// The most Arrow bytes one data file takes whatever the table's target: each encoding
/// thread holds its file's Parquet bytes until the PUT.
const MAX_FILE_ARROW_BYTES: u64 = 256 << 20;

/// Consecutive batches grouped into data files, as ranges `start..end` of `sizes` (the
/// batches' Arrow bytes), in order: as many files as `target` bytes each need, and at
/// least `min_files` (one per encoding thread, so every core encodes) while there are
/// batches enough, each file's bytes near the mean. No range is empty.
fn file_ranges(sizes: &[u64], target: u64, min_files: usize) -> Vec<std::ops::Range<usize>> {
    if sizes.is_empty() {
        return Vec::new();
    }
    let total: u64 = sizes.iter().sum();
    let by_bytes = total.div_ceil(target.max(1)).max(1) as usize;
    let files = by_bytes.max(min_files).min(sizes.len());
    let mut ranges = Vec::with_capacity(files);
    let (mut start, mut cumulative) = (0usize, 0u128);
    for (i, size) in sizes.iter().enumerate() {
        cumulative += *size as u128;
        let closed = ranges.len() + 1; // the files closed once this one closes
        if closed == files {
            break; // the last file takes the rest
        }
        let reached_share = cumulative * files as u128 >= total as u128 * closed as u128;
        let batches_left = sizes.len() - (i + 1);
        if reached_share || batches_left == files - closed {
            ranges.push(start..i + 1);
            start = i + 1;
        }
    }
    ranges.push(start..sizes.len());
    ranges
}

/// Writes the batches of `reader` as Parquet data files of consecutive rows (`file_ranges`:
/// `target_file_bytes` of Arrow data each, capped at MAX_FILE_ARROW_BYTES) and stages the
/// files on `txn`, in the reader's order. The files are encoded on up to one thread per
/// core (the CPU work; each file's PUT goes through the executor), and the first error
/// stops the rest. The batches are the spooled run's (memory-mapped on the C++ side), so
/// holding them all holds no copy.
fn stage<S>(
    txn: &mut Transaction<S, Imperative>,
    engine: &Arc<Engine>,
    store: &Arc<dyn ObjectStore>,
    executor: &TokioBackgroundExecutor,
    reader: &mut RecordBatchStreamReader,
    pages: &PageOptions,
    target_file_bytes: u64,
) -> Result<i64, String> {
    let state = txn.write_state().map_err(|e| e.to_string())?;
    let context = Arc::new(state.write_context_builder().build().map_err(|e| e.to_string())?);
    let mut batches = Vec::new();
    for batch in reader {
        let batch = batch.map_err(|e| e.to_string())?;
        if batch.num_rows() > 0 {
            batches.push(batch);
        }
    }
    let rows = batches.iter().map(|b| b.num_rows() as i64).sum();
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let sizes: Vec<u64> = batches.iter().map(|b| b.get_array_memory_size() as u64).collect();
    let files = file_ranges(&sizes, target_file_bytes.min(MAX_FILE_ARROW_BYTES), cores);
    let threads = cores.min(files.len()).max(1);
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let added: Vec<Mutex<Option<Result<Box<dyn EngineData>, String>>>> =
        (0..files.len()).map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= files.len() || failed.load(Ordering::Relaxed) {
                    break;
                }
                let written = encode_data_file(engine.as_ref(), &batches[files[i].clone()], context.as_ref(), pages)
                    .and_then(|(buffer, stats)| {
                        let (store, context) = (store.clone(), context.clone());
                        executor.block_on(async move { put_data_file(store, buffer, stats, context).await })
                    })
                    .map_err(|e| e.to_string());
                if written.is_err() {
                    failed.store(true, Ordering::Relaxed);
                }
                *added[i].lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(written);
            });
        }
    });
    for slot in added {
        match slot.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()) {
            Some(Ok(file)) => txn.add_files(file),
            Some(Err(error)) => return Err(error),
            None => {} // not written: an earlier error stopped it, and is returned below
        }
    }
    if failed.load(Ordering::Relaxed) {
        return Err("a data file could not be written; nothing was committed".into());
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

fn append(
    location: &str,
    options: &[(String, String)],
    pages: &PageOptions,
    stream: *mut FFI_ArrowArrayStream,
) -> Result<i64, String> {
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
        stage(&mut txn, &engine, &store, &executor, &mut reader, pages, DEFAULT_FILE_ARROW_BYTES)?;
        committed_version(txn.commit(engine.as_ref()).map_err(|e| e.to_string())?)
    } else {
        let snapshot = Snapshot::builder_for(url.as_str()).build(engine.as_ref()).map_err(|e| e.to_string())?;
        let target = snapshot.table_properties().target_file_size.map_or(DEFAULT_FILE_ARROW_BYTES, |t| t.get());
        let mut txn = snapshot
            .update_table(UpdateTableOperation::Write, ENGINE_INFO, true)
            .with_blind_append()
            .build(engine.as_ref(), Box::new(FileSystemCommitter::new()))
            .map_err(|e| e.to_string())?;
        stage(&mut txn, &engine, &store, &executor, &mut reader, pages, target)?;
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
/// commit, creating the table when it has no log yet, its data files' pages compressed with
/// `compression` (snappy, zstd, lz4 or none; null or empty: snappy), and the
/// `plain_column_count` columns named in `plain_columns` written without a dictionary.
/// Sets `*version` to the committed version. Returns 0, or -1 with `*error` set (then
/// nothing was committed).
#[no_mangle]
pub extern "C" fn griffin_delta_append(
    location: *const c_char,
    option_keys: *const *const c_char,
    option_values: *const *const c_char,
    option_count: usize,
    compression: *const c_char,
    plain_columns: *const *const c_char,
    plain_column_count: usize,
    stream: *mut FFI_ArrowArrayStream,
    version: *mut i64,
    error: *mut *mut c_char,
) -> c_int {
    guarded(error, -1, || {
        let location = c_text(location, "table location")?;
        let options = store_options(option_keys, option_values, option_count)?;
        let compression = if compression.is_null() { "" } else { c_text(compression, "compression")? };
        if plain_columns.is_null() && plain_column_count > 0 {
            return Err("plain column names are missing".into());
        }
        let mut names = Vec::with_capacity(plain_column_count);
        for i in 0..plain_column_count {
            names.push(c_text(unsafe { *plain_columns.add(i) }, "column name")?.to_string());
        }
        let pages = PageOptions { compression: compression_named(compression)?, plain_columns: names };
        let committed = append(location, &options, &pages, stream)?;
        if !version.is_null() {
            unsafe { *version = committed };
        }
        Ok(0)
    })
}

#[cfg(test)]
mod tests {
    use super::file_ranges;

    fn lengths(ranges: &[std::ops::Range<usize>]) -> Vec<usize> {
        ranges.iter().map(|r| r.len()).collect()
    }

    #[test]
    fn ranges_cover_every_batch_once_in_order_and_none_is_empty() {
        for count in 0..40usize {
            for min_files in 1..5 {
                for target in [1u64, 7, 50, 1000] {
                    let sizes: Vec<u64> = (0..count).map(|i| (i as u64 * 7919) % 23 + 1).collect();
                    let ranges = file_ranges(&sizes, target, min_files);
                    let mut next = 0;
                    for r in &ranges {
                        assert_eq!(r.start, next);
                        assert!(r.end > r.start);
                        next = r.end;
                    }
                    assert_eq!(next, count);
                    if count > 0 {
                        let total: u64 = sizes.iter().sum();
                        let want = (total.div_ceil(target) as usize).max(min_files).min(count);
                        assert_eq!(ranges.len(), want, "{sizes:?} {target} {min_files}");
                    }
                }
            }
        }
    }

    #[test]
    fn small_data_gets_one_file_per_thread_and_large_data_files_near_the_target() {
        assert_eq!(lengths(&file_ranges(&[10, 10, 10], 1000, 2)), vec![2, 1]);
        assert_eq!(lengths(&file_ranges(&[10, 10, 10], 1000, 8)), vec![1, 1, 1]);
        assert_eq!(lengths(&file_ranges(&[10; 100], 100, 2)), vec![10; 10]);
        assert_eq!(lengths(&file_ranges(&[10; 100], 1000, 1)), vec![100]);
        assert_eq!(lengths(&file_ranges(&[100, 1, 1, 1, 1], 100, 1)), vec![1, 4]);
    }
}
