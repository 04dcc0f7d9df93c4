# Declares IMPORTED targets for the Arrow C++ 26 libraries shipped inside the
# pinned pyarrow wheel (no CMake/pkg-config files are shipped with it).
# Input: GRIFFIN_PYTHON, the interpreter of the project venv.
# Output: Arrow::arrow Arrow::compute Arrow::parquet Arrow::dataset Arrow::acero
#         Arrow::flight Arrow::s3, and GRIFFIN_ARROW_LIB_DIR (used for RPATH).
execute_process(
  COMMAND "${GRIFFIN_PYTHON}" -c
    "import pyarrow as pa; print(pa.__version__); print(pa.get_include()); print(pa.get_library_dirs()[0])"
  OUTPUT_VARIABLE _pa_out RESULT_VARIABLE _pa_rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _pa_rc EQUAL 0)
  message(FATAL_ERROR "pyarrow is not importable by ${GRIFFIN_PYTHON}; run scripts/setup.sh first")
endif()
string(REPLACE "\n" ";" _pa_lines "${_pa_out}")
list(GET _pa_lines 0 GRIFFIN_ARROW_VERSION)
list(GET _pa_lines 1 GRIFFIN_ARROW_INCLUDE_DIR)
list(GET _pa_lines 2 GRIFFIN_ARROW_LIB_DIR)
if(NOT GRIFFIN_ARROW_VERSION MATCHES "^26\\.")
  message(FATAL_ERROR "pyarrow ${GRIFFIN_ARROW_VERSION} found; Griffin is pinned to 26.x")
endif()
message(STATUS "Arrow ${GRIFFIN_ARROW_VERSION} from ${GRIFFIN_ARROW_LIB_DIR}")

function(griffin_import_arrow target soname)
  add_library(${target} SHARED IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES
    IMPORTED_LOCATION "${GRIFFIN_ARROW_LIB_DIR}/${soname}.so.2600"
    INTERFACE_INCLUDE_DIRECTORIES "${GRIFFIN_ARROW_INCLUDE_DIR}")
endfunction()

griffin_import_arrow(Arrow::arrow libarrow)
griffin_import_arrow(Arrow::compute libarrow_compute)
griffin_import_arrow(Arrow::parquet libparquet)
griffin_import_arrow(Arrow::acero libarrow_acero)
griffin_import_arrow(Arrow::dataset libarrow_dataset)
griffin_import_arrow(Arrow::flight libarrow_flight)
griffin_import_arrow(Arrow::s3 libarrow_s3)  # S3FileSystem (AWS SDK inside); GCS is in libarrow
set_property(TARGET Arrow::compute PROPERTY INTERFACE_LINK_LIBRARIES Arrow::arrow)
set_property(TARGET Arrow::parquet PROPERTY INTERFACE_LINK_LIBRARIES Arrow::arrow)
set_property(TARGET Arrow::s3 PROPERTY INTERFACE_LINK_LIBRARIES Arrow::arrow)
