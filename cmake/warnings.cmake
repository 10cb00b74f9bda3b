# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
# One place for warnings and floating-point settings, applied to every target of the project.
# -ffp-contract=off keeps a*b+c from being fused differently by different compilers, which the
# determinism hash relies on.
set(PH_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wmissing-prototypes -Wstrict-prototypes
    -Wdouble-promotion)
if(WERROR)
    list(APPEND PH_WARNINGS -Werror)
endif()
add_compile_options(-ffp-contract=off)

# Applies the project's warnings to a target of our own code (not to generated or third-party code).
function(ph_warnings target)
    target_compile_options(${target} PRIVATE ${PH_WARNINGS})
endfunction()
