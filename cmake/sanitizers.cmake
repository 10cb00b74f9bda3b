# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
# SANITIZE=ON builds everything with ASan + UBSan; any UB report aborts the test that caused it.
if(SANITIZE)
    add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
        -fno-omit-frame-pointer)
    add_link_options(-fsanitize=address,undefined)
endif()
