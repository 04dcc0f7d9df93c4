//! Where a table lives: its URL and the object store options for it.

use std::ffi::c_char;
use std::path::Path;
use std::sync::Arc;

use delta_kernel::Engine;
use delta_kernel_default_engine::storage::store_from_url_opts;
use delta_kernel_default_engine::DefaultEngineBuilder;
use url::Url;

use crate::ffi_util::c_text;

/// The table root as a URL ending in '/': a local folder (must exist) or an object store URI.
pub(crate) fn table_url(location: &str) -> Result<Url, String> {
    let mut url = if location.contains("://") {
        Url::parse(location).map_err(|e| format!("not a table URI ({e})"))?
    } else {
        let folder = std::fs::canonicalize(Path::new(location))
            .map_err(|e| e.to_string())?;
        if !folder.is_dir() {
            return Err("not a folder".to_string());
        }
        Url::from_directory_path(&folder).map_err(|_| "not an absolute path".to_string())?
    };
    if !url.path().ends_with('/') {
        let path = format!("{}/", url.path());
        url.set_path(&path);
    }
    Ok(url)
}

/// Object store options: the process environment (AWS_*, GOOGLE_* ... as object_store names
/// them, lower-cased), then the caller's key/value pairs, which win.
pub(crate) fn store_options(
    keys: *const *const c_char,
    values: *const *const c_char,
    count: usize,
) -> Result<Vec<(String, String)>, String> {
    let mut options: Vec<(String, String)> = std::env::vars()
        .filter(|(k, _)| k.starts_with("AWS_") || k.starts_with("GOOGLE_"))
        .map(|(k, v)| (k.to_ascii_lowercase(), v))
        .collect();
    // The AWS SDKs' name of the instance metadata endpoint, which the C++ SDK (plain
    // s3:// objects) reads too; object_store calls it aws_metadata_endpoint.
    let sdk_imds = options.iter().find(|(k, _)| k == "aws_ec2_metadata_service_endpoint").map(|(_, v)| v.clone());
    if let Some(endpoint) = sdk_imds {
        if !options.iter().any(|(k, _)| k == "aws_metadata_endpoint") {
            options.push(("aws_metadata_endpoint".into(), endpoint));
        }
    }
    for i in 0..count {
        let key = c_text(unsafe { *keys.add(i) }, "option name")?;
        let value = c_text(unsafe { *values.add(i) }, "option value")?;
        options.push((key.to_ascii_lowercase(), value.to_string()));
    }
    let plain_http = options.iter().any(|(k, v)| {
        (k == "aws_endpoint" || k == "aws_endpoint_url" || k == "google_service_account_path")
            && v.starts_with("http://")
    });
    if plain_http {
        options.push(("aws_allow_http".into(), "true".into()));
        options.push(("allow_http".into(), "true".into()));
    }
    Ok(options)
}

/// A default engine (tokio background executor) over the table's object store.
pub(crate) fn engine_for(url: &Url, options: &[(String, String)]) -> Result<Arc<dyn Engine>, String> {
    let store = store_from_url_opts(url, options.iter().map(|(k, v)| (k.as_str(), v.clone())))
        .map_err(|e| e.to_string())?;
    Ok(Arc::new(DefaultEngineBuilder::new(store).build()))
}
