// Adapters over the system's yajl 2 (Debian: libyajl-dev), and the one pass in C over a streamed chunk (cyajl_scan),
// which needs vector instructions Swift does not reach. Only static-inline functions live here: yajl_config is
// variadic, and Swift cannot call a variadic C function. (SwiftPM does not notice a change to this header: after one,
// touch the Swift files that import CYajl, or build clean.)
#ifndef CYAJL_SHIM_H
#define CYAJL_SHIM_H

#include <yajl/yajl_parse.h>
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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

// MARK: - What a chunk holds

/// Bits of ``cyajl_scan``'s result: which of the bytes the tokenizer treats specially a buffer holds.
enum {
    /// A byte of 0x80 or more: not ASCII.
    CYAJL_SCAN_NON_ASCII = 1,
    /// A backslash: an escape, perhaps of a UTF-16 surrogate.
    CYAJL_SCAN_BACKSLASH = 2,
    /// A line feed.
    CYAJL_SCAN_NEWLINE = 4,
    /// A form feed or a vertical tab, which yajl takes for whitespace and JSON doesn't.
    CYAJL_SCAN_FORM_FEED_OR_VERTICAL_TAB = 8,
    CYAJL_SCAN_ALL = 15
};

/// The flags of the bytes one at a time: for the end of a buffer, and where no vector version is written.
static inline unsigned cyajl_scan_bytes(const unsigned char *bytes, size_t count) {
    unsigned flags = 0;
    for (size_t index = 0; index < count; index++) {
        unsigned char byte = bytes[index];
        if (byte >= 0x80) flags |= CYAJL_SCAN_NON_ASCII;
        else if (byte == 0x5C) flags |= CYAJL_SCAN_BACKSLASH;
        else if (byte == 0x0A) flags |= CYAJL_SCAN_NEWLINE;
        else if (byte == 0x0B || byte == 0x0C) flags |= CYAJL_SCAN_FORM_FEED_OR_VERTICAL_TAB;
    }
    return flags;
}

#if defined(__x86_64__)
#include <cpuid.h>

/// SSE2, which every x86-64 processor has: sixteen bytes a step, each kind's bytes gathered in a vector of its own
/// (a byte past ASCII by its high bit, the others by comparison), tested once at the end.
static inline unsigned cyajl_scan_sse2(const unsigned char *bytes, size_t count) {
    typedef unsigned char vector __attribute__((vector_size(16), aligned(1)));
    typedef unsigned long long words __attribute__((vector_size(16)));
    vector high = {0}, backslash = {0}, newline = {0}, control = {0};
    size_t index = 0;
    for (; count - index >= 16; index += 16) {
        vector v = *(const vector *)(bytes + index);
        high |= v;
        backslash |= (vector)(v == 0x5C);
        newline |= (vector)(v == 0x0A);
        control |= (vector)((vector)(v - 0x0B) < 2);
    }
    words h = (words)high & 0x8080808080808080ULL, b = (words)backslash, n = (words)newline, c = (words)control;
    unsigned flags = 0;
    if (h[0] | h[1]) flags |= CYAJL_SCAN_NON_ASCII;
    if (b[0] | b[1]) flags |= CYAJL_SCAN_BACKSLASH;
    if (n[0] | n[1]) flags |= CYAJL_SCAN_NEWLINE;
    if (c[0] | c[1]) flags |= CYAJL_SCAN_FORM_FEED_OR_VERTICAL_TAB;
    return flags | cyajl_scan_bytes(bytes + index, count - index);
}

/// AVX2: each byte's kind looked up by its two halves (`vpshufb`), a bit per kind (the bits of ``CYAJL_SCAN_ALL``): a
/// byte is of a kind when the table of its high half and the table of its low half both have that kind's bit. Every
/// low half has the non-ASCII bit, so the high half 8 to F alone decides it; backslash is 5C, line feed 0A, vertical
/// tab and form feed 0B and 0C. Sixty-four bytes a step, then thirty-two. Only where the processor and the system
/// support it (``cyajl_has_avx2``).
__attribute__((target("avx2"))) static inline unsigned cyajl_scan_avx2(const unsigned char *bytes, size_t count) {
    typedef unsigned char vector __attribute__((vector_size(32), aligned(1)));
    typedef char signed_vector __attribute__((vector_size(32)));
    typedef unsigned long long words __attribute__((vector_size(32)));
    enum {
        A = CYAJL_SCAN_NON_ASCII,
        B = CYAJL_SCAN_BACKSLASH,
        N = CYAJL_SCAN_NEWLINE,
        F = CYAJL_SCAN_FORM_FEED_OR_VERTICAL_TAB
    };
    // vpshufb looks up within each sixteen-byte lane: both lanes hold the same table.
    const vector high_table = {N | F, 0, 0, 0, 0, B, 0, 0, A, A, A, A, A, A, A, A,
                               N | F, 0, 0, 0, 0, B, 0, 0, A, A, A, A, A, A, A, A};
    const vector low_table = {A, A, A, A, A, A, A, A, A, A, A | N, A | F, A | B | F, A, A, A,
                              A, A, A, A, A, A, A, A, A, A, A | N, A | F, A | B | F, A, A, A};
#define CYAJL_KINDS(v)                                                                                               \
    ((vector)__builtin_ia32_pshufb256((signed_vector)high_table, (signed_vector)((vector)((words)(v) >> 4) & 0x0F)) \
     & (vector)__builtin_ia32_pshufb256((signed_vector)low_table, (signed_vector)((v) & 0x0F)))
    vector kinds = {0};
    size_t index = 0;
    for (; count - index >= 64; index += 64) {
        vector first = *(const vector *)(bytes + index), second = *(const vector *)(bytes + index + 32);
        kinds |= CYAJL_KINDS(first) | CYAJL_KINDS(second);
    }
    if (count - index >= 32) {
        vector v = *(const vector *)(bytes + index);
        kinds |= CYAJL_KINDS(v);
        index += 32;
    }
#undef CYAJL_KINDS
    words lanes = (words)kinds;
    unsigned long long any = lanes[0] | lanes[1] | lanes[2] | lanes[3];
    any |= any >> 32;
    any |= any >> 16;
    any |= any >> 8;
    return ((unsigned)any & CYAJL_SCAN_ALL) | cyajl_scan_bytes(bytes + index, count - index);
}

/// Whether the processor has AVX2 and the system saves its registers (OSXSAVE, and XCR0's SSE and AVX state).
static inline int cyajl_has_avx2(void) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & bit_OSXSAVE) || !(ecx & bit_AVX)) return 0;
    unsigned xcr0_low, xcr0_high;
    __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 6) != 6) return 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    return (ebx & bit_AVX2) != 0;
}
#else
static inline int cyajl_has_avx2(void) { return 0; }
#endif

/// Which kinds of byte the `count` bytes at `bytes` hold (``CYAJL_SCAN_NON_ASCII`` and the others). A bit may be set
/// for a kind the buffer does not hold (where no vector version is written, all are): the tokenizer's checks of that
/// kind then run as they would without the scan. `use_avx2` is ``cyajl_has_avx2()``, asked once by the caller.
static inline unsigned cyajl_scan(const unsigned char *bytes, size_t count, int use_avx2) {
#if defined(__x86_64__)
    return use_avx2 ? cyajl_scan_avx2(bytes, count) : cyajl_scan_sse2(bytes, count);
#else
    (void)bytes;
    (void)count;
    (void)use_avx2;
    return CYAJL_SCAN_ALL;
#endif
}

// MARK: - Where a string is cut

/// The bits of a 64-byte block's bytes equal to `value`, bit i for byte i (SSE2 on x86-64, a byte at a time
/// elsewhere).
static inline unsigned long long cyajl_block_mask(const unsigned char *block, unsigned char value) {
    unsigned long long mask = 0;
#if defined(__x86_64__)
    typedef unsigned char vector __attribute__((vector_size(16), aligned(1)));
    typedef char signed_vector __attribute__((vector_size(16)));
    for (int part = 0; part < 4; part++) {
        vector equal = (vector)(*(const vector *)(block + 16 * part) == value);
        mask |= (unsigned long long)(unsigned)__builtin_ia32_pmovmskb128((signed_vector)equal) << (16 * part);
    }
#else
    for (int index = 0; index < 64; index++) mask |= (unsigned long long)(block[index] == value) << index;
#endif
    return mask;
}

#if defined(__x86_64__)
/// The quotes in `count` bytes, thirty-two bytes a step (AVX2).
__attribute__((target("avx2,popcnt"))) static inline size_t cyajl_count_quotes_avx2(const unsigned char *bytes,
                                                                                  size_t count) {
    typedef unsigned char vector __attribute__((vector_size(32), aligned(1)));
    typedef char signed_vector __attribute__((vector_size(32)));
    size_t quotes = 0, index = 0;
    for (; count - index >= 32; index += 32) {
        vector equal = (vector)(*(const vector *)(bytes + index) == '"');
        quotes += (size_t)__builtin_popcount((unsigned)__builtin_ia32_pmovmskb256((signed_vector)equal));
    }
    for (; index < count; index++) quotes += bytes[index] == '"';
    return quotes;
}
#endif

/// The quotes in `count` bytes (sixteen bytes a step with SSE2 on x86-64).
static inline size_t cyajl_count_quotes(const unsigned char *bytes, size_t count, int use_avx2) {
    size_t quotes = 0, index = 0;
#if defined(__x86_64__)
    if (use_avx2) return cyajl_count_quotes_avx2(bytes, count);
    typedef unsigned char vector __attribute__((vector_size(16), aligned(1)));
    typedef char signed_vector __attribute__((vector_size(16)));
    for (; count - index >= 16; index += 16) {
        vector equal = (vector)(*(const vector *)(bytes + index) == '"');
        unsigned bits = (unsigned)__builtin_ia32_pmovmskb128((signed_vector)equal);
        while (bits) {
            bits &= bits - 1;
            quotes++;
        }
    }
#else
    (void)use_avx2;
#endif
    for (; index < count; index++) quotes += bytes[index] == '"';
    return quotes;
}

// glibc declares memrchr only under _GNU_SOURCE.
extern void *memrchr(const void *bytes, int byte, size_t count);

/// ``cyajl_open_string`` for text without a backslash, where no quote is escaped: a string is open at the end when
/// the text holds an odd number of quotes, and it begins at the last one.
static inline size_t cyajl_open_string_unescaped(const unsigned char *bytes, size_t count, int use_avx2) {
    if (cyajl_count_quotes(bytes, count, use_avx2) % 2 == 0) return count;
    const unsigned char *last = memrchr(bytes, '"', count);
    return last ? (size_t)(last - bytes) : count;
}

/// Where a string left open by the end of the `count` bytes at `bytes` begins (the offset of its opening quote), for
/// text that begins outside any string; `count` when every string in it is closed. Sixty-four bytes a step, as
/// simdjson's first stage: the quotes that no odd run of backslashes escapes, then which bytes lie inside a string by
/// the running parity of those quotes. A backslash escapes the next byte wherever it stands: in valid JSON there is
/// none outside a string.
static inline size_t cyajl_open_string(const unsigned char *bytes, size_t count) {
    const unsigned long long even_bits = 0x5555555555555555ULL;
    unsigned long long escape_carry = 0;  // 1: the block's first byte is escaped
    unsigned long long inside_carry = 0;  // all ones: the block begins inside a string
    size_t last_quote = count;            // the last quote not escaped
    unsigned char padded[64];
    for (size_t index = 0; index < count; index += 64) {
        const unsigned char *block = bytes + index;
        size_t length = count - index < 64 ? count - index : 64;
        if (length < 64) {
            memset(padded, ' ', sizeof padded);
            memcpy(padded, block, length);
            block = padded;
        }
        unsigned long long quote = cyajl_block_mask(block, '"'), backslash = cyajl_block_mask(block, '\\');
        unsigned long long escaped = escape_carry;
        if (backslash) {
            // Runs of backslashes that start on an odd bit are turned into runs that start on an even one by an
            // addition; the escaped bytes are then every other bit after each run (simdjson's find_escaped).
            backslash &= ~escape_carry;
            unsigned long long follows_escape = backslash << 1 | escape_carry;
            unsigned long long odd_starts = backslash & ~even_bits & ~follows_escape;
            unsigned long long even_runs;
            escape_carry = __builtin_add_overflow(odd_starts, backslash, &even_runs);
            escaped = (even_bits ^ (even_runs << 1)) & follows_escape;
        } else {
            escape_carry = 0;
        }
        quote &= ~escaped;
        if (quote) last_quote = index + 63 - (size_t)__builtin_clzll(quote);
        unsigned long long inside = quote;
        inside ^= inside << 1;
        inside ^= inside << 2;
        inside ^= inside << 4;
        inside ^= inside << 8;
        inside ^= inside << 16;
        inside ^= inside << 32;
        inside ^= inside_carry;
        inside_carry = (unsigned long long)((long long)inside >> 63);
    }
    return inside_carry ? last_quote : count;
}

#endif
