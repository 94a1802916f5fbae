// Adapters over the system's yajl 2 (Debian: libyajl-dev). Only static-inline functions live here: yajl_config is
// variadic, and Swift cannot call a variadic C function.
#ifndef CYAJL_SHIM_H
#define CYAJL_SHIM_H

#include <yajl/yajl_parse.h>
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>

/// Accept several top-level values one after another (JSON Lines, concatenated values).
static inline int cyajl_set_allow_multiple_values(yajl_handle handle, int enabled) {
    return yajl_config(handle, yajl_allow_multiple_values, enabled);
}

/// Turns yajl's own UTF-8 check of strings off: the tokenizer checks every string itself, more strictly (yajl lets
/// overlong forms, encoded surrogates and code points past U+10FFFF through).
static inline int cyajl_set_dont_validate_strings(yajl_handle handle, int enabled) {
    return yajl_config(handle, yajl_dont_validate_strings, enabled);
}

// Number conversion in the C locale, whatever locale the program has set: glibc declares strtod_l only under
// _GNU_SOURCE, and LC_ALL_MASK is a macro Swift cannot import.
extern double strtod_l(const char *text, char **end, locale_t locale);
extern float strtof_l(const char *text, char **end, locale_t locale);

// The calling thread's stack bounds, for the Codable coders' stack guard: glibc declares pthread_getattr_np only under
// _GNU_SOURCE too.
extern int pthread_getattr_np(pthread_t thread, pthread_attr_t *attributes);

/// The caller's frame address: the real stack, even where AddressSanitizer keeps addressable locals elsewhere.
static inline unsigned long cyajl_frame_address(void) {
    return (unsigned long)__builtin_frame_address(0);
}

static inline locale_t cyajl_new_c_locale(void) {
    return newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

static inline double cyajl_strtod_c(const char *text, locale_t c_locale) {
    return strtod_l(text, NULL, c_locale);
}

static inline float cyajl_strtof_c(const char *text, locale_t c_locale) {
    return strtof_l(text, NULL, c_locale);
}

#endif
