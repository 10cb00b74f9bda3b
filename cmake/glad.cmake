# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
# The OpenGL 3.3 core loader is generated at build time by Debian's python3-glad (glad 2), from the
# Khronos XML it ships, into the build tree. --reproducible keeps glad offline (without it glad tries
# to download the registry). Nothing generated is committed.
find_program(GLAD_EXECUTABLE glad REQUIRED)
set(GLAD_OUT ${CMAKE_BINARY_DIR}/glad)
add_custom_command(
    OUTPUT ${GLAD_OUT}/src/gl.c ${GLAD_OUT}/include/glad/gl.h
    COMMAND ${GLAD_EXECUTABLE} --quiet --reproducible --api gl:core=3.3 --extensions= --out-path ${GLAD_OUT} c
    COMMENT "Generating the OpenGL 3.3 core loader with glad"
    VERBATIM)
add_library(glad STATIC ${GLAD_OUT}/src/gl.c)
target_include_directories(glad SYSTEM PUBLIC ${GLAD_OUT}/include)
target_link_libraries(glad PUBLIC ${CMAKE_DL_LIBS})
