// The one place that configures and includes Xbyak. Every other file
// includes this header instead of <xbyak/xbyak.h>.
#ifndef RELAYOUT_JIT_X64_XBYAK_HPP
#define RELAYOUT_JIT_X64_XBYAK_HPP

// No exceptions across the library: Xbyak errors are read back with
// Xbyak::GetError() after code generation.
#ifndef XBYAK_NO_EXCEPTION
#define XBYAK_NO_EXCEPTION
#endif
#ifndef XBYAK_NO_OP_NAMES
#define XBYAK_NO_OP_NAMES
#endif
// Code memory comes from mmap and is switched to read+execute after
// generation; it is never writable and executable at once.
#ifndef XBYAK_USE_MMAP_ALLOCATOR
#define XBYAK_USE_MMAP_ALLOCATOR
#endif

#include <xbyak/xbyak.h>
#include <xbyak/xbyak_util.h>

#endif
