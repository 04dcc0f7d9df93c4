//! Error strings and panic containment at the C boundary.

use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Writes `message` (one line) into `*error` as a C string the caller frees.
pub(crate) fn set_error(error: *mut *mut c_char, message: &str) {
    if error.is_null() {
        return;
    }
    let one_line: String = message
        .split('\n')
        .map(str::trim)
        .take_while(|l| !is_backtrace_frame(l))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
        .replace('\0', " ");
    let text = CString::new(one_line).unwrap_or_default();
    unsafe { *error = text.into_raw() };
}

/// "0: delta_kernel::...": where a captured backtrace (RUST_BACKTRACE=1) starts.
fn is_backtrace_frame(line: &str) -> bool {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && line[digits..].starts_with(": ")
}

/// Runs `body`; an `Err` or a panic becomes `*error` and returns `fallback`.
pub(crate) fn guarded<T>(
    error: *mut *mut c_char,
    fallback: T,
    body: impl FnOnce() -> Result<T, String>,
) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => value,
        Ok(Err(message)) => {
            set_error(error, &message);
            fallback
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            set_error(error, &format!("delta kernel panicked: {what}"));
            fallback
        }
    }
}

/// Borrows a C string argument as UTF-8.
pub(crate) fn c_text<'a>(text: *const c_char, what: &str) -> Result<&'a str, String> {
    if text.is_null() {
        return Err(format!("{what} is missing"));
    }
    unsafe { CStr::from_ptr(text) }
        .to_str()
        .map_err(|_| format!("{what} is not UTF-8"))
}

/// Frees a string that this library returned.
#[no_mangle]
pub extern "C" fn griffin_delta_free_string(text: *mut c_char) {
    if !text.is_null() {
        drop(unsafe { CString::from_raw(text) });
    }
}
