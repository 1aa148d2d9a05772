# The module under test is the one built by CMake: ctest sets PYTHONPATH to
# <build>/python. Fail loudly (not skip) when it is missing.
import relayout  # noqa: F401
