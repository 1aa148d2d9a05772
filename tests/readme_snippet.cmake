# Compiles and runs the first C++ block of README.md against the built
# library, so the example a new user copies can never rot.
# Args: -DREADME= -DCXX= -DINCLUDE_DIR= -DLIB_FILE= -DWORK_DIR=
file(READ ${README} text)
string(FIND "${text}" "```cpp\n" start)
if(start EQUAL -1)
    message(FATAL_ERROR "README.md has no C++ block")
endif()
math(EXPR start "${start} + 7")
string(SUBSTRING "${text}" ${start} -1 rest)
string(FIND "${rest}" "```" stop)
string(SUBSTRING "${rest}" 0 ${stop} code)
file(WRITE ${WORK_DIR}/readme_snippet.cpp "${code}")
separate_arguments(FLAGS) # "-fsanitize=... -fno-sanitize=..." -> a list
get_filename_component(lib_dir ${LIB_FILE} DIRECTORY)
execute_process(COMMAND ${CXX} -std=c++17 -Wall -Werror ${FLAGS} ${WORK_DIR}/readme_snippet.cpp
        -I${INCLUDE_DIR} ${LIB_FILE} -Wl,-rpath,${lib_dir} -o ${WORK_DIR}/readme_snippet
    RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the README C++ example does not compile")
endif()
execute_process(COMMAND ${WORK_DIR}/readme_snippet RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the README C++ example failed with ${rc}")
endif()
message(STATUS "README example: compiled and ran")
