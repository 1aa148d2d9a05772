/* relayout — build configuration and version. */
#ifndef RELAYOUT_RELAYOUT_CONFIG_H
#define RELAYOUT_RELAYOUT_CONFIG_H

#define RELAYOUT_VERSION_MAJOR 0
#define RELAYOUT_VERSION_MINOR 1
#define RELAYOUT_VERSION_PATCH 0

/* Symbols of the shared library are hidden unless marked with RELAYOUT_API. */
#if defined(RELAYOUT_STATIC)
#define RELAYOUT_API
#elif defined(_WIN32)
#ifdef RELAYOUT_BUILDING
#define RELAYOUT_API __declspec(dllexport)
#else
#define RELAYOUT_API __declspec(dllimport)
#endif
#else
#define RELAYOUT_API __attribute__((visibility("default")))
#endif

#endif /* RELAYOUT_RELAYOUT_CONFIG_H */
