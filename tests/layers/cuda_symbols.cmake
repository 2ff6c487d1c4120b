# Whether a binary holds or calls CUDA's runtime: any symbol named cuda<Name> or __cuda<name>
# (cudaMalloc, __cudaRegisterFatBinary, ...), defined (the static runtime) or undefined (the
# shared one). Our own wrappers are C++ names, mangled, so they never start that way.
#   cmake -DNM=nm -DBINARY=file -DEXPECT=absent|present -P cuda_symbols.cmake
execute_process(COMMAND ${NM} ${BINARY} OUTPUT_VARIABLE symbols ERROR_VARIABLE errors
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${NM} ${BINARY} failed (${status}): ${errors}")
endif()
string(REGEX MATCHALL "[ \t](__cuda[A-Za-z]|cuda[A-Z])[A-Za-z0-9_]*" found "${symbols}")
list(REMOVE_DUPLICATES found)
list(LENGTH found count)
if(EXPECT STREQUAL "absent" AND count GREATER 0)
  list(SUBLIST found 0 10 some)
  string(REPLACE ";" "," some "${some}")
  message(FATAL_ERROR "${BINARY} holds ${count} CUDA runtime symbols, e.g.${some}")
elseif(EXPECT STREQUAL "present" AND count EQUAL 0)
  message(FATAL_ERROR "${BINARY} holds no CUDA runtime symbol: the check cannot see them")
elseif(NOT EXPECT MATCHES "^(absent|present)$")
  message(FATAL_ERROR "EXPECT must be absent or present, not '${EXPECT}'")
endif()
message(STATUS "${BINARY}: ${count} CUDA runtime symbols (expected ${EXPECT})")
