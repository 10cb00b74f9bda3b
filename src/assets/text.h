// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Lexing helpers shared by the .obj and .mtl parsers: whitespace classes and a fast decimal number
// parser working on [p, e) ranges that need not be NUL-terminated. Internal to the assets module.
#pragma once

#include <math.h>    // pow, NAN, INFINITY
#include <stdbool.h> // bool
#include <stdint.h>  // uint64_t

// Significant decimal digits kept while parsing a number: 19 always fit in a uint64_t.
#define TEXT_MAX_MANTISSA_DIGITS 19
// Exponents beyond this already overflow or underflow a double; clamping keeps the int from wrapping.
#define TEXT_MAX_EXPONENT 400

static inline bool text_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static inline bool text_is_digit(char c)
{
    return (unsigned)(c - '0') < 10u;
}

// A token ends at whitespace, the end of the line or a comment.
static inline bool text_is_token_end(const char *p, const char *e)
{
    return p == e || text_is_space(*p) || *p == '#';
}

static inline const char *text_skip_space(const char *p, const char *e)
{
    while (p < e && text_is_space(*p))
        p++;
    return p;
}

static inline bool text_at_end(const char *p, const char *e)
{
    return p == e || *p == '#';
}

// Exact powers of ten a double holds (10^22 is the last one exact in binary64).
// The last exact power of ten in binary64 is 10^22.
#define TEXT_EXACT_POW10_MAX 22
static const double text_pow10_table[TEXT_EXACT_POW10_MAX + 1] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static inline double text_scale_pow10(double m, int e)
{
    if (e >= 0)
        return e <= TEXT_EXACT_POW10_MAX ? m * text_pow10_table[e] : m * pow(10.0, e);
    return e >= -TEXT_EXACT_POW10_MAX ? m / text_pow10_table[-e] : m * pow(10.0, e);
}

// Case-insensitive match of a word at p (for nan and inf).
static inline bool text_match_word(const char *p, const char *e, const char *word)
{
    for (; *word; word++, p++)
        if (p == e || (*p | 0x20) != *word)
            return false;
    return true;
}

// Parses a decimal number at p: [sign] digits [. digits] [e [sign] digits], or nan / inf / infinity.
// Returns the end of the number, or NULL when p holds no number. The value is mantissa * 10^exponent
// in double precision, which is within an ulp or two of correct rounding: plenty for float output.
static inline const char *text_parse_number(const char *p, const char *e, double *out)
{
    bool negative = false;
    if (p < e && (*p == '-' || *p == '+'))
    {
        negative = *p == '-';
        p++;
    }
    if (p < e && !text_is_digit(*p) && *p != '.')
    {
        if (text_match_word(p, e, "nan"))
        {
            *out = (double)NAN;
            return p + 3;
        }
        if (text_match_word(p, e, "infinity"))
        {
            *out = negative ? -(double)INFINITY : (double)INFINITY;
            return p + 8;
        }
        if (text_match_word(p, e, "inf"))
        {
            *out = negative ? -(double)INFINITY : (double)INFINITY;
            return p + 3;
        }
        return NULL;
    }
    uint64_t mantissa = 0;
    int digits = 0, exponent = 0;
    bool any = false;
    while (p < e && text_is_digit(*p))
    {
        if (digits < TEXT_MAX_MANTISSA_DIGITS)
        {
            mantissa = mantissa * 10 + (uint64_t)(*p - '0');
            if (mantissa)
                digits++;
        }
        else
            exponent++;
        any = true;
        p++;
    }
    if (p < e && *p == '.')
    {
        p++;
        while (p < e && text_is_digit(*p))
        {
            if (digits < TEXT_MAX_MANTISSA_DIGITS)
            {
                mantissa = mantissa * 10 + (uint64_t)(*p - '0');
                if (mantissa)
                    digits++;
                exponent--;
            }
            any = true;
            p++;
        }
    }
    if (!any)
        return NULL;
    if (p < e && (*p == 'e' || *p == 'E'))
    {
        const char *q = p + 1;
        bool exp_negative = false;
        if (q < e && (*q == '-' || *q == '+'))
        {
            exp_negative = *q == '-';
            q++;
        }
        if (q < e && text_is_digit(*q))
        {
            int x = 0;
            while (q < e && text_is_digit(*q))
            {
                if (x < TEXT_MAX_EXPONENT * 10)
                    x = x * 10 + (*q - '0');
                q++;
            }
            exponent += exp_negative ? -x : x;
            p = q;
        }
        else
            return NULL; // "1e" or "1e+" is malformed
    }
    if (exponent > TEXT_MAX_EXPONENT)
        exponent = TEXT_MAX_EXPONENT;
    if (exponent < -TEXT_MAX_EXPONENT)
        exponent = -TEXT_MAX_EXPONENT;
    double v = mantissa ? text_scale_pow10((double)mantissa, exponent) : 0.0;
    *out = negative ? -v : v;
    return p;
}
