# griffin_bundle_runtime_libs(DESTINATION target...): at install time (the
# wheel's staging), copies every shared library the targets load, directly or
# through each other, into DESTINATION, except
#   - pyarrow's libarrow*/libparquet* (the wheel depends on pyarrow, pinned),
#   - the C and C++ runtime every Linux has (glibc's libraries, libstdc++,
#     libgcc_s), as manylinux wheels do.
# The targets carry $ORIGIN-relative DT_RPATHs to DESTINATION, which the
# dynamic loader also uses for the bundled libraries' own dependencies.
# tests/python/test_wheel.py checks with ldd that nothing else is loaded from
# the system.
function(griffin_bundle_runtime_libs destination)
  set(_files)
  foreach(_target IN LISTS ARGN)
    list(APPEND _files "$<TARGET_FILE:${_target}>")
  endforeach()
  install(CODE "
    file(GET_RUNTIME_DEPENDENCIES
      LIBRARIES ${_files}
      RESOLVED_DEPENDENCIES_VAR _griffin_deps
      UNRESOLVED_DEPENDENCIES_VAR _griffin_missing
      DIRECTORIES \"${GRIFFIN_ARROW_LIB_DIR}\"
      PRE_EXCLUDE_REGEXES
        \"^libarrow\" \"^libparquet\"
        \"^ld-linux\" \"^libc\\\\.so\" \"^libm\\\\.so\" \"^libdl\\\\.so\" \"^librt\\\\.so\" \"^libpthread\\\\.so\"
        \"^libresolv\\\\.so\" \"^libutil\\\\.so\" \"^libstdc\\\\+\\\\+\\\\.so\" \"^libgcc_s\\\\.so\" \"^linux-vdso\"
      POST_EXCLUDE_REGEXES \"/pyarrow/\")
    if(_griffin_missing)
      message(FATAL_ERROR \"griffin wheel: unresolved shared libraries: \${_griffin_missing}\")
    endif()
    # Each under the name the loader asks for (its soname), as a plain file:
    # a wheel holds no symbolic links.
    file(MAKE_DIRECTORY \"\${CMAKE_INSTALL_PREFIX}/${destination}\")
    foreach(_dep IN LISTS _griffin_deps)
      get_filename_component(_name \"\${_dep}\" NAME)
      file(REAL_PATH \"\${_dep}\" _real)
      message(STATUS \"Bundling \${_name} (\${_real})\")
      file(COPY_FILE \"\${_real}\" \"\${CMAKE_INSTALL_PREFIX}/${destination}/\${_name}\")
    endforeach()
  ")
endfunction()
