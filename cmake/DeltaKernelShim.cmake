# rust/delta_kernel_shim (delta-kernel-rs behind a C ABI) built through cargo, as the
# IMPORTED static library griffin::delta_kernel_shim.
#
# - cargo's target directory is cached outside the clone, as ccache is:
#   ${GRIFFIN_CARGO_TARGET_DIR} (default ~/.cache/griffin/cargo-target), so a fresh
#   clone or a second worktree rebuilds only the shim, not its ~300 crates.
# - `--locked`: the crates are exactly those of rust/delta_kernel_shim/Cargo.lock.
# - The Rust static library carries the Rust standard library, zstd, aws-lc and the
#   rest of its dependencies, whose global symbols would clash with Arrow's and
#   Debian's. So the members the C functions need are linked into one relocatable
#   object (ld -r -u griffin_delta_...), and objcopy makes every defined symbol local
#   except those matching rust/delta_kernel_shim/exports.txt (griffin_delta_*); the
#   archive CMake links holds that one object. (A linker version script does this for
#   a shared object; GNU ld ignores one on a relocatable link, hence objcopy.) objcopy
#   also drops the LLVM bitcode that rustc embeds (.llvmbc): binutils' LLVM 14 plugin
#   aborts on it ("LLVM ERROR: Invalid encoding") when ar indexes the archive.
# Needs cargo/rustc >= 1.88 (scripts/setup_delta.sh checks and says what to do).

set(GRIFFIN_SHIM_DIR ${CMAKE_SOURCE_DIR}/rust/delta_kernel_shim)
set(GRIFFIN_CARGO_TARGET_DIR "$ENV{HOME}/.cache/griffin/cargo-target" CACHE PATH
    "cargo's target directory for the Delta kernel shim (outside the clone, shared)")
# rustup's cargo first (Debian's rustc 1.63 is too old for delta_kernel).
find_program(GRIFFIN_CARGO cargo PATHS $ENV{CARGO_HOME}/bin $ENV{HOME}/.cargo/bin NO_DEFAULT_PATH)
find_program(GRIFFIN_CARGO cargo REQUIRED)
find_program(GRIFFIN_OBJCOPY objcopy REQUIRED)
if(CMAKE_LINKER)
  set(GRIFFIN_LD ${CMAKE_LINKER})
else()
  find_program(GRIFFIN_LD ld REQUIRED)
endif()

set(GRIFFIN_SHIM_RUST_LIB ${GRIFFIN_CARGO_TARGET_DIR}/release/libdelta_kernel_shim.a)
set(GRIFFIN_SHIM_OBJECT ${CMAKE_BINARY_DIR}/delta_kernel_shim/delta_kernel_shim.o)
set(GRIFFIN_SHIM_LIB ${CMAKE_BINARY_DIR}/delta_kernel_shim/libgriffin_delta_kernel_shim.a)
file(GLOB GRIFFIN_SHIM_RUST_SOURCES CONFIGURE_DEPENDS ${GRIFFIN_SHIM_DIR}/src/*.rs)

# cargo runs in a fixed environment (env -i): the C build scripts under it (aws-lc-sys,
# zstd-sys, through cc-rs) rerun whenever CC, CXX, CFLAGS, PKG_CONFIG_PATH and the like
# change, and pip's build of the Python package sets CC and CXX where ninja's build does
# not, so the two took turns rebuilding aws-lc (minutes each on 2 cores) in the shared
# target directory.
find_program(GRIFFIN_ENV env REQUIRED)
get_filename_component(GRIFFIN_CARGO_BIN_DIR ${GRIFFIN_CARGO} DIRECTORY)
set(GRIFFIN_CARGO_ENVIRONMENT HOME=$ENV{HOME} PATH=${GRIFFIN_CARGO_BIN_DIR}:/usr/local/bin:/usr/bin:/bin
    CARGO_TARGET_DIR=${GRIFFIN_CARGO_TARGET_DIR})
foreach(variable CARGO_HOME RUSTUP_HOME RUSTUP_TOOLCHAIN)
  if(DEFINED ENV{${variable}})
    list(APPEND GRIFFIN_CARGO_ENVIRONMENT ${variable}=$ENV{${variable}})
  endif()
endforeach()

# cargo decides itself what is out of date; the stamp-free command runs on every build
# (a no-op build takes well under a second), and the ld/objcopy step only when the
# Rust library changed.
add_custom_target(griffin_delta_cargo
  COMMAND ${GRIFFIN_ENV} -i ${GRIFFIN_CARGO_ENVIRONMENT}
          ${GRIFFIN_CARGO} build --release --locked --quiet
          --manifest-path ${GRIFFIN_SHIM_DIR}/Cargo.toml
  BYPRODUCTS ${GRIFFIN_SHIM_RUST_LIB}
  WORKING_DIRECTORY ${GRIFFIN_SHIM_DIR}
  COMMENT "cargo: rust/delta_kernel_shim"
  USES_TERMINAL)

add_custom_command(
  OUTPUT ${GRIFFIN_SHIM_LIB}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/delta_kernel_shim
  COMMAND ${GRIFFIN_LD} -r -o ${GRIFFIN_SHIM_OBJECT}
          -u griffin_delta_open -u griffin_delta_snapshot_version -u griffin_delta_snapshot_schema
          -u griffin_delta_scan -u griffin_delta_snapshot_free -u griffin_delta_free_string
          -u griffin_delta_append
          ${GRIFFIN_SHIM_RUST_LIB}
  COMMAND ${GRIFFIN_OBJCOPY} --wildcard --keep-global-symbols=${GRIFFIN_SHIM_DIR}/exports.txt
          --remove-section=.llvmbc --remove-section=.llvmcmd ${GRIFFIN_SHIM_OBJECT}
  COMMAND ${CMAKE_COMMAND} -E rm -f ${GRIFFIN_SHIM_LIB}
  COMMAND ${CMAKE_AR} qc ${GRIFFIN_SHIM_LIB} ${GRIFFIN_SHIM_OBJECT}
  DEPENDS griffin_delta_cargo ${GRIFFIN_SHIM_RUST_LIB} ${GRIFFIN_SHIM_DIR}/exports.txt
  COMMENT "delta_kernel_shim: one object, only griffin_delta_* global"
  VERBATIM)
add_custom_target(griffin_delta_shim_lib DEPENDS ${GRIFFIN_SHIM_LIB})

add_library(griffin_delta_kernel_shim STATIC IMPORTED GLOBAL)
set_target_properties(griffin_delta_kernel_shim PROPERTIES
  IMPORTED_LOCATION ${GRIFFIN_SHIM_LIB}
  INTERFACE_INCLUDE_DIRECTORIES ${GRIFFIN_SHIM_DIR}/include
  # What the Rust standard library needs from the system.
  INTERFACE_LINK_LIBRARIES "Threads::Threads;${CMAKE_DL_LIBS};m")
# No add_dependencies on the imported target: that would hold back every object of
# griffin_core until cargo is done. The archive is a file that the link steps need,
# and the custom command above is how Ninja makes it.
add_library(griffin::delta_kernel_shim ALIAS griffin_delta_kernel_shim)
