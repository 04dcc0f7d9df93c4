# Where the SQL sources (src/connectors/sql/) find their drivers at run time:
# the shared libraries inside the pinned wheels (requirements.txt), located in
# GRIFFIN_PYTHON's environment. A wheel not installed yet still gets its
# expected path (site-packages/<package>/<library>), so installing it later
# needs no reconfigure. Each path can be overridden at run time by an
# environment variable (src/connectors/sql/adbc_driver.h).
# Output: GRIFFIN_ADBC_DEFINITIONS (compile definitions for griffin_core).
execute_process(
  COMMAND "${GRIFFIN_PYTHON}" -c [=[
import importlib.util, os, sysconfig
site = sysconfig.get_paths()["purelib"]
def where(package, library):
    spec = importlib.util.find_spec(package)
    folder = os.path.dirname(spec.origin) if spec and spec.origin else os.path.join(site, package)
    return os.path.join(folder, library)
print(where("adbc_driver_sqlite", "libadbc_driver_sqlite.so"))
print(where("adbc_driver_postgresql", "libadbc_driver_postgresql.so"))
spec = importlib.util.find_spec("_duckdb")
print(spec.origin if spec else "")
libdir, soname = sysconfig.get_config_var("LIBDIR"), sysconfig.get_config_var("INSTSONAME")
print(os.path.join(libdir, soname) if libdir and soname else "")
]=]
  OUTPUT_VARIABLE _adbc_out RESULT_VARIABLE _adbc_rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _adbc_rc EQUAL 0)
  message(FATAL_ERROR "cannot locate the ADBC driver wheels with ${GRIFFIN_PYTHON}")
endif()
string(REPLACE "\n" ";" _adbc_lines "${_adbc_out}")
list(GET _adbc_lines 0 GRIFFIN_ADBC_SQLITE_DRIVER)
list(GET _adbc_lines 1 GRIFFIN_ADBC_POSTGRESQL_DRIVER)
list(GET _adbc_lines 2 GRIFFIN_DUCKDB_LIBRARY)
list(GET _adbc_lines 3 GRIFFIN_LIBPYTHON)
message(STATUS "ADBC drivers: ${GRIFFIN_ADBC_SQLITE_DRIVER} ${GRIFFIN_ADBC_POSTGRESQL_DRIVER}; DuckDB: ${GRIFFIN_DUCKDB_LIBRARY}")
set(GRIFFIN_ADBC_DEFINITIONS
  GRIFFIN_ADBC_SQLITE_DRIVER_DEFAULT="${GRIFFIN_ADBC_SQLITE_DRIVER}"
  GRIFFIN_ADBC_POSTGRESQL_DRIVER_DEFAULT="${GRIFFIN_ADBC_POSTGRESQL_DRIVER}"
  GRIFFIN_DUCKDB_LIBRARY_DEFAULT="${GRIFFIN_DUCKDB_LIBRARY}"
  GRIFFIN_LIBPYTHON_DEFAULT="${GRIFFIN_LIBPYTHON}")
