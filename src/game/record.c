// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The recorder. ffmpeg is started with posix_spawnp rather than popen: no shell parses the output path
// (spaces and quotes in it need no escaping), a missing program is reported at once (ENOENT) instead of
// by a shell's exit status 127 after the first frame, and the exit status comes back through waitpid.
// SIGPIPE is ignored while recording, so an ffmpeg that dies makes write() fail with EPIPE, which is
// reported, instead of killing the game.
#define _POSIX_C_SOURCE 200809L // posix_spawnp, pipe, waitpid, sigaction, mkdir

#include "game/record.h"

#include "render/image.h"

#include <errno.h>     // errno, EEXIST, EINTR, ENOENT
#include <signal.h>    // sigaction, SIGPIPE
#include <spawn.h>     // posix_spawnp, file actions, attributes
#include <stdio.h>     // snprintf
#include <stdlib.h>    // calloc, free
#include <string.h>    // strlen, strerror
#include <sys/stat.h>  // mkdir
#include <sys/types.h> // pid_t
#include <sys/wait.h>  // waitpid, WIFEXITED
#include <unistd.h>    // pipe, write, close

extern char **environ; // the child's environment (POSIX declares it for posix_spawn)

// Bytes per pixel of the frames (RGB).
#define RECORD_RGB_BYTES 3
// Largest frame side (unit: px), as the renderer's readback.
#define RECORD_MAX_SIDE 16384
// x264's quality (constant rate factor: 0 lossless .. 51 worst; 18 is visually lossless for most
// content) and speed preset. At a constant quality the preset trades encoding time for file size:
// measured on the 2-core development machine on 600 frames of the reel at 1280x720, veryfast encodes in
// less than half of medium's CPU time (0.9 against 2.1 CPU seconds per second of video) and the file is
// no larger (3.2 MB against 3.5 MB), which matters when the encoder shares the cores with the software
// rasteriser.
#define RECORD_X264_CRF "18"
#define RECORD_X264_PRESET "veryfast"
// Bytes of the numbers and of one frame's file name built here.
#define RECORD_NUMBER_SIZE 32
#define RECORD_PATH_SIZE 1200
// Permissions of a folder made for PNG frames (the umask applies).
#define RECORD_FOLDER_MODE 0777

struct record
{
    char path[RECORD_PATH_SIZE];
    int width, height, fps;
    int frames;
    bool folder;               // PNG frames into path, else a video through ffmpeg
    pid_t ffmpeg;              // the encoder process
    int pipe_fd;               // its standard input, -1 when closed
    struct sigaction old_pipe; // SIGPIPE's disposition before the recording
};

bool record_is_folder(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n > 0 && path[n - 1] == '/';
}

// Starts `ffmpeg ... -i - ... path` reading raw frames from a pipe.
static bool start_ffmpeg(record *rec, char *err, size_t err_size)
{
    char size[RECORD_NUMBER_SIZE], rate[RECORD_NUMBER_SIZE];
    snprintf(size, sizeof size, "%dx%d", rec->width, rec->height);
    snprintf(rate, sizeof rate, "%d", rec->fps);
    // Raw RGB in; H.264 out in yuv420p: x264 would keep the input's 4:4:4 chroma otherwise, which many
    // players refuse. faststart puts the index first so that the file plays while it downloads.
    char *const argv[] = {"ffmpeg",     "-hide_banner",  "-loglevel", "error",   "-y",
                          "-f",         "rawvideo",      "-pix_fmt",  "rgb24",   "-video_size",
                          size,         "-framerate",    rate,        "-i",      "-",
                          "-an",        "-c:v",          "libx264",   "-preset", RECORD_X264_PRESET,
                          "-crf",       RECORD_X264_CRF, "-pix_fmt",  "yuv420p", "-movflags",
                          "+faststart", rec->path,       NULL};
    int fds[2];
    if (pipe(fds) != 0)
    {
        snprintf(err, err_size, "--record %s: cannot make a pipe for ffmpeg: %s", rec->path, strerror(errno));
        return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_addclose(&actions, fds[1]);
    // The child gets SIGPIPE's default back (an ignored signal stays ignored across exec).
    posix_spawnattr_init(&attr);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
    int status = posix_spawnp(&rec->ffmpeg, "ffmpeg", &actions, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    close(fds[0]);
    if (status != 0)
    {
        close(fds[1]);
        if (status == ENOENT)
            snprintf(err, err_size,
                     "--record %s: the ffmpeg program was not found on PATH: install Debian's ffmpeg package "
                     "(sudo apt-get install ffmpeg), or record PNG frames with --record FOLDER/",
                     rec->path);
        else
            snprintf(err, err_size, "--record %s: cannot start ffmpeg: %s", rec->path, strerror(status));
        return false;
    }
    rec->pipe_fd = fds[1];
    return true;
}

record *record_begin(const char *path, int width, int height, int fps, char *err, size_t err_size)
{
    if (!path || !*path || width <= 0 || height <= 0 || width > RECORD_MAX_SIDE || height > RECORD_MAX_SIDE ||
        fps <= 0 || fps > RECORD_MAX_FPS)
    {
        snprintf(err, err_size, "--record: needs a path, a size in 1..%d and a frame rate in 1..%d",
                 RECORD_MAX_SIDE, RECORD_MAX_FPS);
        return NULL;
    }
    if (strlen(path) + RECORD_NUMBER_SIZE >= RECORD_PATH_SIZE)
    {
        snprintf(err, err_size, "--record: the path is too long (at most %d bytes)",
                 RECORD_PATH_SIZE - RECORD_NUMBER_SIZE - 1);
        return NULL;
    }
    bool folder = record_is_folder(path);
    if (!folder && (width % 2 != 0 || height % 2 != 0))
    {
        snprintf(err, err_size,
                 "--record %s: H.264 in yuv420p needs an even width and height, got %dx%d (use --size, or "
                 "record PNG frames with --record FOLDER/)",
                 path, width, height);
        return NULL;
    }
    record *rec = calloc(1, sizeof *rec);
    if (!rec)
    {
        snprintf(err, err_size, "--record: out of memory");
        return NULL;
    }
    snprintf(rec->path, sizeof rec->path, "%s", path);
    rec->width = width;
    rec->height = height;
    rec->fps = fps;
    rec->folder = folder;
    rec->pipe_fd = -1;
    if (folder)
    {
        if (mkdir(path, RECORD_FOLDER_MODE) != 0 && errno != EEXIST)
        {
            snprintf(err, err_size, "--record %s: cannot make the folder: %s", path, strerror(errno));
            free(rec);
            return NULL;
        }
        return rec;
    }
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &rec->old_pipe);
    if (!start_ffmpeg(rec, err, err_size))
    {
        sigaction(SIGPIPE, &rec->old_pipe, NULL);
        free(rec);
        return NULL;
    }
    return rec;
}

bool record_frame(record *rec, const uint8_t *rgb, char *err, size_t err_size)
{
    if (!rec || !rgb)
    {
        snprintf(err, err_size, "record_frame: no recording or no pixels");
        return false;
    }
    if (rec->folder)
    {
        // record_begin left room for the name after the folder (the result is checked for the compiler).
        char file[RECORD_PATH_SIZE + RECORD_NUMBER_SIZE];
        if (snprintf(file, sizeof file, "%sframe_%06d.png", rec->path, rec->frames) < 0)
        {
            snprintf(err, err_size, "--record %s: cannot name frame %d", rec->path, rec->frames);
            return false;
        }
        if (!image_write_png(file, rec->width, rec->height, rgb, err, err_size))
            return false;
        rec->frames++;
        return true;
    }
    size_t left = (size_t)rec->width * (size_t)rec->height * RECORD_RGB_BYTES;
    const uint8_t *at = rgb;
    // A pipe takes at most its buffer per write: loop until the whole frame is in (bounded: every pass
    // writes at least one byte or fails).
    while (left > 0)
    {
        ssize_t n = write(rec->pipe_fd, at, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
        {
            snprintf(err, err_size,
                     "--record %s: ffmpeg stopped taking frames at frame %d (%s); see its message above",
                     rec->path, rec->frames, n < 0 ? strerror(errno) : "nothing written");
            return false;
        }
        at += n;
        left -= (size_t)n;
    }
    rec->frames++;
    return true;
}

bool record_end(record *rec, char *err, size_t err_size)
{
    if (!rec)
        return true;
    bool ok = true;
    if (!rec->folder)
    {
        if (rec->pipe_fd >= 0)
            close(rec->pipe_fd);
        int status = 0;
        pid_t got;
        do
            got = waitpid(rec->ffmpeg, &status, 0);
        while (got < 0 && errno == EINTR);
        if (got < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        {
            snprintf(err, err_size, "--record %s: ffmpeg failed (%s %d); see its message above", rec->path,
                     got >= 0 && WIFEXITED(status) ? "exit status" : "signal",
                     got >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : (got >= 0 ? WTERMSIG(status) : 0));
            ok = false;
        }
        sigaction(SIGPIPE, &rec->old_pipe, NULL);
    }
    free(rec);
    return ok;
}

int record_frame_count(const record *rec)
{
    return rec ? rec->frames : 0;
}
