# Perf-mode smoke test: runs two tiny problems in --mode=P and checks the
# output format (table row, perf line with nine fields, summary lines).
#   cmake -DBENCHDNN_LITE=path/to/benchdnn_lite -P perf_smoke.cmake
if(NOT BENCHDNN_LITE)
    message(FATAL_ERROR "set -DBENCHDNN_LITE=<path to the binary>")
endif()
execute_process(
    COMMAND ${BENCHDNN_LITE} --mode=P --fix-times-per-prb=5
            --stag=nchw --dtag=nChw16c 2x17x5x3
            --reset --mode=P --fix-times-per-prb=5 --sdt=f32 --ddt=s8 --stag=ab --dtag=ba
            --attr-scales=src:common:2 --perf-template=tmpl^%impl%^%gbps%^%copy_pct% 64x48
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "benchdnn_lite exited with ${rc}")
endif()
set(num "[0-9]+(\\.[0-9]+)?")
foreach(re
        "0:EXECUTED __REPRO: --reorder --stag=nchw --dtag=nChw16c 2x17x5x3"
        "perf,cpu,[^,\n]+,--stag=nchw --dtag=nChw16c 2x17x5x3,${num},${num},${num},${num},${num}\n"
        "1:EXECUTED __REPRO: --reorder --ddt=s8 --stag=ab --dtag=ba --attr-scales=src:common:2 64x48"
        "tmpl\\^[^^\n]+\\^${num}\\^${num}\n"
        "tests:2 passed:2 skipped:0 unimplemented:0 failed:0\n"
        "\nbenchdnn_lite: 2 passed, 0 failed\n")
    if(NOT out MATCHES "${re}")
        message(FATAL_ERROR "perf smoke: output does not match: ${re}")
    endif()
endforeach()
