// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Impact sounds (see sound.h). A knock is a sine tone and a burst of noise under exponential decays: the tone
// gives it a pitch (a higher one for a lighter knock), the noise its attack. Loudness follows the impact's
// strength up to SOUND_FULL_STRENGTH, where knocks of every strength up to a hard throw stay distinct.

#include "game/sound.h"

#include <math.h>   // expf, sinf, fabsf
#include <stdio.h>  // fprintf
#include <string.h> // memset

// Decay times of the tone and of the noise (unit: s); a voice is silent after SOUND_LENGTH.
#define SOUND_TONE_DECAY 0.04f
#define SOUND_NOISE_DECAY 0.006f
#define SOUND_LENGTH 0.25f
// The strength that gives the loudest knock, and the quietest a knock may be (unit: m/s, share of full).
#define SOUND_FULL_STRENGTH 12.0f
#define SOUND_MIN_AMPLITUDE 0.08f
// The loudest knock's peak before the mix's soft clip, and the tone's share of it.
#define SOUND_PEAK 0.45f
#define SOUND_TONE_SHARE 0.6f
// The tone's pitch: from SOUND_LOW_PITCH at full strength to SOUND_HIGH_PITCH for the lightest (unit: Hz).
#define SOUND_LOW_PITCH 140.0f
#define SOUND_HIGH_PITCH 520.0f
#define SOUND_TWO_PI 6.2831853f

void sound_mix(sound_voice *voices, int count, float rate, float *out, int frames)
{
    float dt = 1.0f / rate;
    for (int v = 0; v < count; v++)
    {
        sound_voice *k = &voices[v];
        if (!(k->amplitude > 0.0f))
            continue;
        for (int i = 0; i < frames && k->age < SOUND_LENGTH; i++)
        {
            k->noise = k->noise * 1664525u + 1013904223u; // a linear congruential generator's top bits
            float noise = (float)(k->noise >> 8) * (2.0f / 16777216.0f) - 1.0f;
            float tone = sinf(SOUND_TWO_PI * k->pitch * k->age);
            float body = SOUND_TONE_SHARE * tone * expf(-k->age / SOUND_TONE_DECAY) +
                         (1.0f - SOUND_TONE_SHARE) * noise * expf(-k->age / SOUND_NOISE_DECAY);
            out[i] += k->amplitude * body;
            k->age += dt;
        }
        if (!(k->age < SOUND_LENGTH))
            k->amplitude = 0.0f;
    }
    // x / (1 + |x|): louder sums bend towards +-1 instead of wrapping or clipping hard.
    for (int i = 0; i < frames; i++)
        out[i] = out[i] / (1.0f + fabsf(out[i]));
}

static void SDLCALL fill(void *userdata, Uint8 *stream, int bytes)
{
    sound *s = userdata;
    float *out = (float *)stream;
    int frames = bytes / (int)sizeof(float);
    memset(out, 0, (size_t)bytes);
    sound_mix(s->voices, SOUND_VOICES, s->rate, out, frames);
}

bool sound_init(sound *s, bool open_device)
{
    memset(s, 0, sizeof *s);
    s->on = true;
    s->rate = (float)SOUND_RATE;
    if (!open_device)
        return true;
    if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0)
    {
        fprintf(stderr, "sandbox: no sound (%s)\n", SDL_GetError());
        return false;
    }
    SDL_AudioSpec want, have;
    memset(&want, 0, sizeof want);
    want.freq = SOUND_RATE;
    want.format = AUDIO_F32SYS;
    want.channels = 1;
    want.samples = 512; // about 12 ms: a knock sounds with the flash
    want.callback = fill;
    want.userdata = s;
    s->device = SDL_OpenAudioDevice(NULL, 0, &want, &have, SDL_AUDIO_ALLOW_FREQUENCY_CHANGE);
    if (s->device == 0)
    {
        fprintf(stderr, "sandbox: no sound (%s)\n", SDL_GetError());
        SDL_QuitSubSystem(SDL_INIT_AUDIO);
        return false;
    }
    s->rate = (float)have.freq;
    SDL_PauseAudioDevice(s->device, 0);
    return true;
}

void sound_close(sound *s)
{
    if (s->device)
    {
        SDL_CloseAudioDevice(s->device);
        SDL_QuitSubSystem(SDL_INIT_AUDIO);
        s->device = 0;
    }
}

void sound_knock(sound *s, float strength)
{
    if (!s->on || !(strength > 0.0f))
        return;
    float share = strength / SOUND_FULL_STRENGTH;
    share = share > 1.0f ? 1.0f : share < SOUND_MIN_AMPLITUDE ? SOUND_MIN_AMPLITUDE : share;
    sound_voice k = {SOUND_PEAK * share, SOUND_HIGH_PITCH + (SOUND_LOW_PITCH - SOUND_HIGH_PITCH) * share,
                     0.0f, 0x9e3779b9u * (uint32_t)(s->knocks + 1)};
    if (s->device)
        SDL_LockAudioDevice(s->device);
    s->voices[s->next] = k;
    if (s->device)
        SDL_UnlockAudioDevice(s->device);
    s->next = (s->next + 1) % SOUND_VOICES;
    s->knocks++;
}
