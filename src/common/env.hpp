// Environment knobs (RELAYOUT_*), read once, overridable through the API.
#ifndef RELAYOUT_COMMON_ENV_HPP
#define RELAYOUT_COMMON_ENV_HPP

#include <string>

namespace relayout {
namespace impl {

// Value of an environment variable, or `def` when unset or empty.
std::string getenv_str(const char *name, const std::string &def = "");
// Integer value, or `def` when unset or not a number.
int getenv_int(const char *name, int def);

} // namespace impl
} // namespace relayout

#endif
