// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Impact sounds (issue 21, impact feedback): a short synthesized knock for each impact impacts.c sees, as
// loud as the impact is strong, mixed on SDL's audio thread. The synthesis (sound_mix) is plain C, apart from
// SDL, so it can be tested. Off in recordings and headless runs; scripted runs (--frames) count the knocks
// without opening an audio device unless --sound asks for one.
#pragma once

#include <SDL.h>
#include <stdbool.h> // bool
#include <stdint.h>  // uint32_t

// Knocks sounding at once; a new one takes the place of the oldest.
#define SOUND_VOICES 16
// Most knocks started by one physics step (the strongest first): a collapsing pile is a rumble, not a
// hundred clicks at once.
#define SOUND_MAX_PER_STEP 4
// The output rate asked of the device (unit: Hz).
#define SOUND_RATE 44100

typedef struct sound_voice
{
    float amplitude; // peak, in [0, 1]; 0: silent
    float pitch;     // of the knock's tone (unit: Hz)
    float age;       // since it started (unit: s)
    uint32_t noise;  // the state of its noise generator
} sound_voice;

typedef struct sound
{
    bool on;                  // knocks are made (K toggles)
    SDL_AudioDeviceID device; // 0: no device open (silent, knocks still counted)
    float rate;               // the device's rate (unit: Hz)
    sound_voice voices[SOUND_VOICES];
    int next;
    long knocks; // started since the start (for --report)
} sound;

// Starts silent and on; with open_device, opens the default audio device (false, with a message on stderr,
// when there is none: the game goes on silent).
bool sound_init(sound *s, bool open_device);
void sound_close(sound *s);
// A knock for an impact whose strength (the speed change of impacts.h, m/s) is given.
void sound_knock(sound *s, float strength);
// Adds the voices' next `frames` samples at `rate` into out (mono) and ages them; voices that have died away
// are silenced. Bounded: the sum of the voices is soft-clipped to (-1, 1).
void sound_mix(sound_voice *voices, int count, float rate, float *out, int frames);
