# Golden-file driver: run a command, compare its stdout with an expected file
# and its exit status with an expected one.  Invoked by ctest as
#   cmake -DCMD=<exe;args> -DEXPECTED=<file> -DSTATUS=<n> -DSTDERR=<regex or ->
#         -DWORKDIR=<dir> -P run-golden.cmake
# STDERR "-" requires an empty stderr; anything else is a regex it must match.
# CMD separates its arguments with "^^".  The report's volatile parts are pinned: SOURCE_DATE_EPOCH=0 fixes
# generated_at, and the bondcheck_version value is replaced by "VERSION".
# With BC_GOLDEN_UPDATE=1 in the environment the expected file is
# (re)written instead; review the diff before committing it.
set(ENV{SOURCE_DATE_EPOCH} 0)
# the answer block wraps to COLUMNS when stdout is no terminal: the goldens are at 100
set(ENV{COLUMNS} 100)
string(REPLACE "^^" ";" CMD "${CMD}")
execute_process(COMMAND ${CMD}
  WORKING_DIRECTORY ${WORKDIR}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
string(REGEX REPLACE "\"bondcheck_version\": \"[^\"]*\"" "\"bondcheck_version\": \"VERSION\""
  out "${out}")
if(NOT "${rc}" STREQUAL "${STATUS}")
  message(FATAL_ERROR "exit status ${rc}, expected ${STATUS}\nstderr:\n${err}")
endif()
if("${STDERR}" STREQUAL "-")
  if(NOT "${err}" STREQUAL "")
    message(FATAL_ERROR "expected no stderr output, got:\n${err}")
  endif()
elseif(NOT "${err}" MATCHES "${STDERR}")
  message(FATAL_ERROR "stderr does not match '${STDERR}':\n${err}")
endif()
if(DEFINED ENV{BC_GOLDEN_UPDATE} AND "$ENV{BC_GOLDEN_UPDATE}" STREQUAL "1")
  file(WRITE ${EXPECTED} "${out}")
  message(STATUS "updated ${EXPECTED}")
  return()
endif()
if(NOT EXISTS ${EXPECTED})
  message(FATAL_ERROR "missing ${EXPECTED}; create it with BC_GOLDEN_UPDATE=1 and review it")
endif()
file(READ ${EXPECTED} want)
if(NOT "${out}" STREQUAL "${want}")
  get_filename_component(name ${EXPECTED} NAME)
  set(got_file ${CMAKE_CURRENT_BINARY_DIR}/${name}.got)
  file(WRITE ${got_file} "${out}")
  execute_process(COMMAND diff -u ${EXPECTED} ${got_file} OUTPUT_VARIABLE d)
  message(FATAL_ERROR "output differs from ${EXPECTED} (got: ${got_file}):\n${d}")
endif()
