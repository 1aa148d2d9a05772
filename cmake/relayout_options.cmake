# Compiler flags shared by every target.

# Bit-exact numerics: the reference, the JIT kernels and benchdnn_lite must
# round identically, so no fused multiply-add contraction anywhere.
add_compile_options(-ffp-contract=off -fno-strict-aliasing)
add_compile_options(-Wall -Wextra -Wno-unused-parameter)

if(RELAYOUT_SANITIZE)
    # -fno-sanitize=enum: the C ABI takes enums from C callers, who may pass
    # any int; the library checks every value and answers invalid_arguments
    # (tests do exactly that), which the enum check would call UB.
    add_compile_options(-fsanitize=address,undefined -fno-sanitize=enum -fno-omit-frame-pointer
            -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
endif()
if(RELAYOUT_TSAN)
    add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
    add_link_options(-fsanitize=thread)
endif()
