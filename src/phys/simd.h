// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The lanes of the solver's wide kernels: a float vector `fw` of LANES floats and the operations the kernels
// use, for one instruction set chosen by the includer with one of PH_LANES_AVX2 (8 lanes, fused
// multiply-add), PH_LANES_SSE2 (4 lanes, multiply then add: SSE2 has no fused form) or PH_LANES_NEON (4
// lanes, fused). The kernels (solver_wide_kernels.h) are written once against this and built once per
// instruction set.
// + - * / and unary - are the compiler's vector operators (GCC and clang have them for __m256, __m128 and
// float32x4_t alike); with -ffp-contract=off they are never fused, so a fused multiply-add happens exactly
// where fw_madd or fw_msub asks for one.
// Every operation gives in each lane what x86's does, so that the instruction sets differ only where the
// arithmetic itself does (fused or not): fw_min and fw_max return their second operand when the lanes are
// equal or one is a NaN (minps, maxps), which the kernels rely on (a NaN impulse clamps to zero), and Neon's
// own min and max, which return a NaN and order -0 below +0, are not used. A mask is an fw whose lanes are
// all ones (true) or all zeros.
#pragma once

#include <stdbool.h> // bool

#if defined(PH_LANES_AVX2)
#include <immintrin.h>
#define LANES 8
typedef __m256 fw;
#elif defined(PH_LANES_SSE2)
#include <emmintrin.h>
#define LANES 4
typedef __m128 fw;
#elif defined(PH_LANES_NEON)
#include <arm_neon.h>
#define LANES 4
typedef float32x4_t fw;
#else
#error "simd.h: define PH_LANES_AVX2, PH_LANES_SSE2 or PH_LANES_NEON before including it"
#endif

// Every helper is inlined whatever its size: each takes and returns values in registers, and an out-of-line
// call would pass them through memory.
#define FW_INLINE static inline __attribute__((always_inline))

// One-line wrappers of an instruction set's intrinsics, so that each set's operations below read as a table.
#define FW_UNARY(name, op)                                                                                   \
    FW_INLINE fw name(fw a)                                                                                  \
    {                                                                                                        \
        return op(a);                                                                                        \
    }
#define FW_BINARY(name, op)                                                                                  \
    FW_INLINE fw name(fw a, fw b)                                                                            \
    {                                                                                                        \
        return op(a, b);                                                                                     \
    }
#if defined(PH_LANES_AVX2)
#define FW_COMPARE(name, predicate)                                                                          \
    FW_INLINE fw name(fw a, fw b)                                                                            \
    {                                                                                                        \
        return _mm256_cmp_ps(a, b, predicate);                                                               \
    }
#elif defined(PH_LANES_NEON)
// Neon's comparisons and bitwise operations work on unsigned lanes: `expr` of a, b (floats) or x, y (their
// bits) gives a mask's bits.
#define FW_NEON_COMPARE(name, expr)                                                                          \
    FW_INLINE fw name(fw a, fw b)                                                                            \
    {                                                                                                        \
        return vreinterpretq_f32_u32(expr);                                                                  \
    }
#define FW_NEON_BITS(name, expr)                                                                             \
    FW_INLINE fw name(fw a, fw b)                                                                            \
    {                                                                                                        \
        uint32x4_t x = vreinterpretq_u32_f32(a), y = vreinterpretq_u32_f32(b);                               \
        return vreinterpretq_f32_u32(expr);                                                                  \
    }
#endif

#if defined(PH_LANES_AVX2)

FW_INLINE fw fw_load(const float *p)
{
    return _mm256_loadu_ps(p);
}
FW_INLINE void fw_store(float *p, fw v)
{
    _mm256_storeu_ps(p, v);
}
FW_INLINE fw fw_splat(float s)
{
    return _mm256_set1_ps(s);
}
FW_INLINE fw fw_zero(void)
{
    return _mm256_setzero_ps();
}
// a b + c and a b - c, rounded once.
FW_INLINE fw fw_madd(fw a, fw b, fw c)
{
    return _mm256_fmadd_ps(a, b, c);
}
FW_INLINE fw fw_msub(fw a, fw b, fw c)
{
    return _mm256_fmsub_ps(a, b, c);
}
// Lanes of `if_true` where `mask` is set, else of `if_false`.
FW_INLINE fw fw_select(fw if_false, fw if_true, fw mask)
{
    return _mm256_blendv_ps(if_false, if_true, mask);
}
FW_UNARY(fw_sqrt, _mm256_sqrt_ps)
FW_BINARY(fw_min, _mm256_min_ps)
FW_BINARY(fw_max, _mm256_max_ps)
FW_BINARY(fw_and, _mm256_and_ps)
FW_BINARY(fw_or, _mm256_or_ps)
FW_BINARY(fw_xor, _mm256_xor_ps)
FW_BINARY(fw_andnot, _mm256_andnot_ps) // ~a & b
// Ordered comparisons are false where a lane is a NaN; fw_neq and fw_ngt are true there.
FW_COMPARE(fw_gt, _CMP_GT_OQ)
FW_COMPARE(fw_ge, _CMP_GE_OQ)
FW_COMPARE(fw_lt, _CMP_LT_OQ)
FW_COMPARE(fw_eq, _CMP_EQ_OQ)
FW_COMPARE(fw_neq, _CMP_NEQ_UQ)
FW_COMPARE(fw_ngt, _CMP_NGT_UQ)
FW_INLINE bool fw_any(fw mask)
{
    return _mm256_movemask_ps(mask) != 0;
}
FW_INLINE bool fw_all(fw mask)
{
    return _mm256_movemask_ps(mask) == 0xff;
}
// The lanes of p[] that are above i, as a mask.
FW_INLINE fw fw_ints_gt(const int *p, int i)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)p);
    return _mm256_castsi256_ps(_mm256_cmpgt_epi32(v, _mm256_set1_epi32(i)));
}
// p[] (each 0 or -1) as a mask.
FW_INLINE fw fw_ints_mask(const int *p)
{
    return _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)p));
}
FW_INLINE fw fw_ints_to_float(const int *p)
{
    return _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)p));
}

// r[i] holds 8 floats of lane i; afterwards r[j] holds float j of every lane (and back: it is its own
// inverse).
FW_INLINE void fw_transpose8(fw r[8])
{
    fw t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    fw t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    fw t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    fw t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    // s0: float 0 of lanes 0-3 | float 4 of lanes 0-3; s1: floats 1 | 5; s2: 2 | 6; s3: 3 | 7; s4-s7 the same
    // for lanes 4-7.
    fw s0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)),
       s1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    fw s2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)),
       s3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    fw s4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0)),
       s5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
    fw s6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0)),
       s7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
    r[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    r[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    r[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
    r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    r[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
    r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

// The run of 8 floats at rows[l] of each lane l, transposed: out[j] holds float j of every lane. A gather
// per float costs several times more.
FW_INLINE void fw_load_runs(const float *const rows[LANES], fw out[8])
{
    for (int lane = 0; lane < LANES; lane++)
        out[lane] = fw_load(rows[lane]);
    fw_transpose8(out);
}

// The inverse for the first `count` lanes: float j of lane l from in[j] to rows[l][j].
FW_INLINE void fw_store_runs(float *const rows[LANES], int count, const fw in[8])
{
    fw r[8];
    for (int j = 0; j < 8; j++)
        r[j] = in[j];
    fw_transpose8(r);
    for (int lane = 0; lane < count; lane++)
        fw_store(rows[lane], r[lane]);
}

#elif defined(PH_LANES_SSE2)

FW_INLINE fw fw_load(const float *p)
{
    return _mm_loadu_ps(p);
}
FW_INLINE void fw_store(float *p, fw v)
{
    _mm_storeu_ps(p, v);
}
FW_INLINE fw fw_splat(float s)
{
    return _mm_set1_ps(s);
}
FW_INLINE fw fw_zero(void)
{
    return _mm_setzero_ps();
}
// a b + c and a b - c: rounded twice, SSE2 has no fused multiply-add.
FW_INLINE fw fw_madd(fw a, fw b, fw c)
{
    return a * b + c;
}
FW_INLINE fw fw_msub(fw a, fw b, fw c)
{
    return a * b - c;
}
// No blend before SSE4.1.
FW_INLINE fw fw_select(fw if_false, fw if_true, fw mask)
{
    return _mm_or_ps(_mm_and_ps(mask, if_true), _mm_andnot_ps(mask, if_false));
}
FW_UNARY(fw_sqrt, _mm_sqrt_ps)
FW_BINARY(fw_min, _mm_min_ps)
FW_BINARY(fw_max, _mm_max_ps)
FW_BINARY(fw_and, _mm_and_ps)
FW_BINARY(fw_or, _mm_or_ps)
FW_BINARY(fw_xor, _mm_xor_ps)
FW_BINARY(fw_andnot, _mm_andnot_ps)
FW_BINARY(fw_gt, _mm_cmpgt_ps)
FW_BINARY(fw_ge, _mm_cmpge_ps)
FW_BINARY(fw_lt, _mm_cmplt_ps)
FW_BINARY(fw_eq, _mm_cmpeq_ps)
FW_BINARY(fw_neq, _mm_cmpneq_ps)
FW_BINARY(fw_ngt, _mm_cmpngt_ps)
FW_INLINE bool fw_any(fw mask)
{
    return _mm_movemask_ps(mask) != 0;
}
FW_INLINE bool fw_all(fw mask)
{
    return _mm_movemask_ps(mask) == 0xf;
}
FW_INLINE fw fw_ints_gt(const int *p, int i)
{
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    return _mm_castsi128_ps(_mm_cmpgt_epi32(v, _mm_set1_epi32(i)));
}
FW_INLINE fw fw_ints_mask(const int *p)
{
    return _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)p));
}
FW_INLINE fw fw_ints_to_float(const int *p)
{
    return _mm_cvtepi32_ps(_mm_loadu_si128((const __m128i *)p));
}

// Runs of 8 floats are two halves of 4: each half's 4 x 4 block transposed on its own.
FW_INLINE void fw_load_runs(const float *const rows[LANES], fw out[8])
{
    for (int half = 0; half < 2; half++)
    {
        fw r0 = fw_load(rows[0] + 4 * half), r1 = fw_load(rows[1] + 4 * half);
        fw r2 = fw_load(rows[2] + 4 * half), r3 = fw_load(rows[3] + 4 * half);
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        out[4 * half + 0] = r0;
        out[4 * half + 1] = r1;
        out[4 * half + 2] = r2;
        out[4 * half + 3] = r3;
    }
}

FW_INLINE void fw_store_runs(float *const rows[LANES], int count, const fw in[8])
{
    fw r[8];
    for (int half = 0; half < 2; half++)
    {
        fw r0 = in[4 * half + 0], r1 = in[4 * half + 1], r2 = in[4 * half + 2], r3 = in[4 * half + 3];
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        r[0 + half] = r0;
        r[2 + half] = r1;
        r[4 + half] = r2;
        r[6 + half] = r3;
    }
    for (int lane = 0; lane < count; lane++)
    {
        fw_store(rows[lane], r[2 * lane]);
        fw_store(rows[lane] + 4, r[2 * lane + 1]);
    }
}

#elif defined(PH_LANES_NEON)

FW_INLINE fw fw_load(const float *p)
{
    return vld1q_f32(p);
}
FW_INLINE void fw_store(float *p, fw v)
{
    vst1q_f32(p, v);
}
FW_INLINE fw fw_splat(float s)
{
    return vdupq_n_f32(s);
}
FW_INLINE fw fw_zero(void)
{
    return vdupq_n_f32(0.0f);
}
// a b + c and a b - c, rounded once (vfmaq_f32(c, a, b) is c + a b; -c is exact).
FW_INLINE fw fw_madd(fw a, fw b, fw c)
{
    return vfmaq_f32(c, a, b);
}
FW_INLINE fw fw_msub(fw a, fw b, fw c)
{
    return vfmaq_f32(vnegq_f32(c), a, b);
}
FW_INLINE fw fw_as_float(uint32x4_t m)
{
    return vreinterpretq_f32_u32(m);
}
FW_INLINE uint32x4_t fw_as_bits(fw a)
{
    return vreinterpretq_u32_f32(a);
}
FW_INLINE fw fw_select(fw if_false, fw if_true, fw mask)
{
    return vbslq_f32(fw_as_bits(mask), if_true, if_false);
}
// minps, maxps: a < b ? a : b and a > b ? a : b.
FW_INLINE fw fw_min(fw a, fw b)
{
    return vbslq_f32(vcltq_f32(a, b), a, b);
}
FW_INLINE fw fw_max(fw a, fw b)
{
    return vbslq_f32(vcgtq_f32(a, b), a, b);
}
FW_UNARY(fw_sqrt, vsqrtq_f32)
FW_NEON_BITS(fw_and, vandq_u32(x, y))
FW_NEON_BITS(fw_or, vorrq_u32(x, y))
FW_NEON_BITS(fw_xor, veorq_u32(x, y))
FW_NEON_BITS(fw_andnot, vbicq_u32(y, x)) // vbicq(y, x) is y & ~x
FW_NEON_COMPARE(fw_gt, vcgtq_f32(a, b))
FW_NEON_COMPARE(fw_ge, vcgeq_f32(a, b))
FW_NEON_COMPARE(fw_lt, vcltq_f32(a, b))
FW_NEON_COMPARE(fw_eq, vceqq_f32(a, b))
FW_NEON_COMPARE(fw_neq, vmvnq_u32(vceqq_f32(a, b)))
FW_NEON_COMPARE(fw_ngt, vmvnq_u32(vcgtq_f32(a, b)))
FW_INLINE bool fw_any(fw mask)
{
    return vmaxvq_u32(fw_as_bits(mask)) != 0;
}
FW_INLINE bool fw_all(fw mask)
{
    return vminvq_u32(fw_as_bits(mask)) != 0;
}
FW_INLINE fw fw_ints_gt(const int *p, int i)
{
    return fw_as_float(vcgtq_s32(vld1q_s32(p), vdupq_n_s32(i)));
}
FW_INLINE fw fw_ints_mask(const int *p)
{
    return vreinterpretq_f32_s32(vld1q_s32(p));
}
FW_INLINE fw fw_ints_to_float(const int *p)
{
    return vcvtq_f32_s32(vld1q_s32(p));
}

// A 4 x 4 block: r[i] holds 4 floats of lane i; afterwards r[j] holds float j of every lane.
FW_INLINE void fw_transpose4(fw r[4])
{
    float32x4x2_t t01 = vtrnq_f32(r[0], r[1]), t23 = vtrnq_f32(r[2], r[3]);
    r[0] = vcombine_f32(vget_low_f32(t01.val[0]), vget_low_f32(t23.val[0]));
    r[1] = vcombine_f32(vget_low_f32(t01.val[1]), vget_low_f32(t23.val[1]));
    r[2] = vcombine_f32(vget_high_f32(t01.val[0]), vget_high_f32(t23.val[0]));
    r[3] = vcombine_f32(vget_high_f32(t01.val[1]), vget_high_f32(t23.val[1]));
}

FW_INLINE void fw_load_runs(const float *const rows[LANES], fw out[8])
{
    for (int half = 0; half < 2; half++)
    {
        fw *r = out + 4 * half;
        for (int lane = 0; lane < 4; lane++)
            r[lane] = fw_load(rows[lane] + 4 * half);
        fw_transpose4(r);
    }
}

FW_INLINE void fw_store_runs(float *const rows[LANES], int count, const fw in[8])
{
    for (int half = 0; half < 2; half++)
    {
        fw r[4] = {in[4 * half], in[4 * half + 1], in[4 * half + 2], in[4 * half + 3]};
        fw_transpose4(r);
        for (int lane = 0; lane < count; lane++)
            fw_store(rows[lane] + 4 * half, r[lane]);
    }
}

#endif
