# RELAYOUT_JIT_DUMP=1 writes every generated kernel to the working
# directory: runs a cpu reorder (x86-64 code, where the machine has a JIT
# ISA) and, where an OpenCL device exists, an ocl -> ocl transpose
# (generated OpenCL C), in an empty directory, and checks the files.
#   cmake -DBENCHDNN_LITE=path/to/benchdnn_lite -DWORK_DIR=dir -P jit_dump.cmake
if(NOT BENCHDNN_LITE OR NOT WORK_DIR)
    message(FATAL_ERROR "set -DBENCHDNN_LITE=<path to the binary> -DWORK_DIR=<scratch dir>")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
execute_process(
    COMMAND ${CMAKE_COMMAND} -E env RELAYOUT_JIT_DUMP=1
            ${BENCHDNN_LITE} --mode=CP --fix-times-per-prb=2 --stag=nchw --dtag=nChw16c 2x17x5x3
            --reset --mode=CP --fix-times-per-prb=2 --engine=ocl --cross-engine=none
            --stag=ab --dtag=ba 37x21
    WORKING_DIRECTORY "${WORK_DIR}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "benchdnn_lite exited with ${rc}")
endif()
file(GLOB bins "${WORK_DIR}/relayout_jit_*.bin")
file(GLOB cls "${WORK_DIR}/relayout_ocl_*.cl")
if(NOT out MATCHES "0:PASSED")
    message(FATAL_ERROR "jit dump: the cpu problem did not pass")
endif()
# the perf row names the implementation: a JIT one must have written code
if(out MATCHES "perf,cpu,jit:" AND NOT bins)
    message(FATAL_ERROR "jit dump: a jit reorder ran but wrote no relayout_jit_*.bin")
endif()
if(out MATCHES "1:PASSED")
    if(NOT cls)
        message(FATAL_ERROR "jit dump: the ocl problem ran but wrote no relayout_ocl_*.cl")
    endif()
    set(found_tiles FALSE)
    foreach(f ${cls})
        file(READ "${f}" text)
        if(NOT text MATCHES "^// build options: -cl-std=CL1.2")
            message(FATAL_ERROR "jit dump: ${f} does not start with its build options")
        endif()
        if(text MATCHES "__kernel void rl_reorder" AND text MATCHES "uint t\\[16\\]\\[16\\];")
            set(found_tiles TRUE)
        endif()
    endforeach()
    if(NOT found_tiles)
        message(FATAL_ERROR "jit dump: no dumped program is the tiled f32 ab -> ba plan kernel")
    endif()
endif()
