// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The impact sounds' synthesis (src/game/sound.c, sound_mix), without an audio device: a knock starts loud
// and dies away to silence within its length, a stronger impact is louder and lower, the mix never leaves
// (-1, 1) however many knocks sound at once, and a voice that has died away is freed.
#include "game/sound.h"
#include "test.h"

#include <math.h>   // fabsf
#include <string.h> // memset

#define SOUND_TEST_FRAMES 8192 // 0.19 s at 44.1 kHz

// Peak of |out| over [from, to) (unit: share of full scale).
static float peak(const float *out, int from, int to)
{
    float p = 0.0f;
    for (int i = from; i < to; i++)
        p = fmaxf(p, fabsf(out[i]));
    return p;
}

// Zero crossings of the first `frames` samples: twice the tone's pitch times the duration, about.
static int crossings(const float *out, int frames)
{
    int n = 0;
    for (int i = 1; i < frames; i++)
        n += (out[i - 1] < 0.0f) != (out[i] < 0.0f);
    return n;
}

static int knock_into(float strength, float *out, int frames)
{
    sound s;
    ENSURE(sound_init(&s, false));
    sound_knock(&s, strength);
    memset(out, 0, (size_t)frames * sizeof *out);
    sound_mix(s.voices, SOUND_VOICES, (float)SOUND_RATE, out, frames);
    return 0;
}

static int sound_knock_decays_and_scales(void)
{
    static float soft[SOUND_TEST_FRAMES], hard[SOUND_TEST_FRAMES], later[SOUND_TEST_FRAMES];
    ENSURE(knock_into(2.0f, soft, SOUND_TEST_FRAMES) == 0);
    ENSURE(knock_into(12.0f, hard, SOUND_TEST_FRAMES) == 0);
    float attack = peak(hard, 0, 441), tail = peak(hard, 6615, SOUND_TEST_FRAMES);
    fprintf(stderr, "  knock: peak %.3f in the first 10 ms, %.5f after 150 ms; soft knock's peak %.3f\n",
            (double)attack, (double)tail, (double)peak(soft, 0, 441));
    ENSURE(attack > 0.2f && attack < 1.0f);
    ENSURE(tail < 0.05f * attack); // died away: below -26 dB after 150 ms (the tone decays over 40 ms)
    ENSURE(peak(soft, 0, 441) < 0.5f * attack);
    // The tone of a hard knock is lower: fewer crossings over the same 50 ms (the noise is gone by then).
    ENSURE(crossings(hard + 441, 2205) < crossings(soft + 441, 2205));
    ENSURE(crossings(hard + 441, 2205) > 0);
    // Silent once its length is past, and its voice is free again.
    sound s;
    ENSURE(sound_init(&s, false));
    sound_knock(&s, 5.0f);
    for (int k = 0; k < 3; k++)
    {
        memset(later, 0, sizeof later);
        sound_mix(s.voices, SOUND_VOICES, (float)SOUND_RATE, later, SOUND_TEST_FRAMES);
    }
    ENSURE(peak(later, 0, SOUND_TEST_FRAMES) == 0.0f);
    for (int v = 0; v < SOUND_VOICES; v++)
        ENSURE(s.voices[v].amplitude == 0.0f);
    ENSURE(s.knocks == 1);
    // Off: no knock is made.
    s.on = false;
    sound_knock(&s, 5.0f);
    ENSURE(s.knocks == 1);
    return 0;
}

static int sound_mix_stays_bounded(void)
{
    sound s;
    ENSURE(sound_init(&s, false));
    for (int k = 0; k < 3 * SOUND_VOICES; k++)
        sound_knock(&s, 100.0f); // every voice at full strength, at once
    static float out[SOUND_TEST_FRAMES];
    memset(out, 0, sizeof out);
    sound_mix(s.voices, SOUND_VOICES, (float)SOUND_RATE, out, SOUND_TEST_FRAMES);
    for (int i = 0; i < SOUND_TEST_FRAMES; i++)
        ENSURE(out[i] == out[i] && fabsf(out[i]) < 1.0f);
    ENSURE(peak(out, 0, 441) > 0.5f);
    return 0;
}

const test_case test_render_sound_cases[] = {
    {"render_sound_knock_decays_and_scales", sound_knock_decays_and_scales},
    {"render_sound_mix_stays_bounded", sound_mix_stays_bounded},
    {0},
};
