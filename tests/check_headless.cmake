# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
# Fails when the engine (src/phys, include/phys) includes SDL, GL or glad, or opens files.
file(GLOB_RECURSE files ${ROOT}/src/phys/*.c ${ROOT}/src/phys/*.h ${ROOT}/include/phys/*.h)
set(bad "")
foreach(f ${files})
    file(STRINGS ${f} lines REGEX "SDL|GL/|glad|fopen")
    if(lines)
        list(APPEND bad "${f}: ${lines}")
    endif()
endforeach()
if(bad)
    message(FATAL_ERROR "the engine must stay headless; found:\n${bad}")
endif()
list(LENGTH files n)
message(STATUS "${n} engine files checked: no SDL, GL, glad or fopen")
