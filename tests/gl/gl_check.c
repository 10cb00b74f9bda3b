// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Checks a sandbox screenshot against the sandbox's --report (body positions at the start and as drawn
// in the last frame, with their projected pixels). Commands:
//   gl_check cube SHOT.png REPORT      the "box" body's pixel differs clearly from the sky's
//   gl_check picture SHOT.png REPORT   the picture has the window's size and is not blank
//   gl_check placement SHOT.png REPORT every visible tower body's pixel has the tower's red hue, and
//                                      the point above the tower's highest box does not
//   gl_check aim REPORT TAG            prints the projected pixel of the middle body with TAG ("x y")
//   gl_check fallen REPORT TAG MIN     at least MIN percent of TAG bodies moved more than FALL_DISTANCE
//   gl_check above REPORT TAG Y        every TAG body ends higher than Y (unit: m)
//   gl_check standing REPORT TAG       no TAG body moved more than STAND_DISTANCE
//   gl_check pixels SHOT.png REPORT COLOUR MIN
//                                      at least MIN pixels of COLOUR (green: the spawn preview's lines;
//                                      yellow: the throw's trajectory; white: the crosshair)
// Every command also requires gl_errors 0 in the report. Prints what it compared; exits 1 on failure.

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <math.h>      // sqrt, tan
#include <stb_image.h> // stbi_load: PNG decoding (Debian's libstb-dev)
#include <stdbool.h>   // bool
#include <stdio.h>     // printf, fprintf, fopen, fgets, sscanf
#include <stdlib.h>    // atoi, atof
#include <string.h>    // strcmp

// Most bodies read from a report.
#define MAX_BODIES 20000
// A body "fell" when it moved farther than this, and "stands" when it moved less (unit: m).
#define FALL_DISTANCE 0.5
#define STAND_DISTANCE 0.05
// Smallest RGB distance (0..441) between the cube and the sky for them to count as different.
#define MIN_CUBE_SKY_DISTANCE 60.0
// The tower's red: red exceeds green and blue by at least this much (0..255).
#define MIN_RED_MARGIN 25
// Bodies projecting closer than this to the image border are not sampled (unit: px).
#define BORDER_PX 3
// Bodies farther than this from the eye are not sampled: the renderer's haze blends far things into
// the sky's colour, and a far 1 m box covers only a few pixels (unit: m).
#define MAX_SAMPLE_DISTANCE 25.0
// The negative control samples the picture this far above the highest tower box, where there is no
// tower (unit: m).
#define CONTROL_HEIGHT 2.0
#define PI 3.14159265358979
// Fewest distinct colours in a picture that is not blank.
#define MIN_DISTINCT_COLOURS 16

typedef struct body
{
    unsigned slot;
    char tag[32];
    double start[3], end[3];
    double px, py;
} body;

typedef struct report
{
    int width, height, gl_errors;
    double eye[3];
    double fov; // vertical field of view (unit: degrees)
    int count;
    body bodies[MAX_BODIES];
} report;

static report rep;
// Where diagnostics go: stdout, except for aim, whose stdout is the answer alone.
static FILE *diag;

static int fail(const char *msg)
{
    fprintf(diag, "FAIL: %s\n", msg);
    return 1;
}

static int read_report(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return fail("cannot open the report");
    char line[512];
    rep.gl_errors = -1;
    while (fgets(line, sizeof line, f))
    {
        body b;
        if (sscanf(line, "size %d %d", &rep.width, &rep.height) == 2)
            continue;
        if (sscanf(line, "gl_errors %d", &rep.gl_errors) == 1)
            continue;
        if (sscanf(line, "fov %lf", &rep.fov) == 1)
            continue;
        if (sscanf(line, "eye %lf %lf %lf", &rep.eye[0], &rep.eye[1], &rep.eye[2]) == 3)
            continue;
        if (sscanf(line, "body %u %31s %lf %lf %lf %lf %lf %lf %lf %lf", &b.slot, b.tag, &b.start[0],
                   &b.start[1], &b.start[2], &b.end[0], &b.end[1], &b.end[2], &b.px, &b.py) == 10 &&
            rep.count < MAX_BODIES)
            rep.bodies[rep.count++] = b;
    }
    fclose(f);
    fprintf(diag, "report: %dx%d, %d bodies, %d GL errors\n", rep.width, rep.height, rep.count,
            rep.gl_errors);
    if (rep.gl_errors != 0)
        return fail("the run reported OpenGL errors (or none were counted)");
    return 0;
}

typedef struct image
{
    int w, h;
    unsigned char *rgb;
} image;

// The decoded pictures, freed at exit whatever path main takes.
static unsigned char *loaded;

static void free_loaded(void)
{
    stbi_image_free(loaded);
}

static int read_image(const char *path, image *img)
{
    int n = 0;
    img->rgb = stbi_load(path, &img->w, &img->h, &n, 3);
    if (!loaded && img->rgb)
    {
        loaded = img->rgb;
        atexit(free_loaded);
    }
    if (!img->rgb)
        return fail("cannot decode the screenshot");
    printf("screenshot: %dx%d\n", img->w, img->h);
    if (img->w != rep.width || img->h != rep.height)
        return fail("the screenshot's size differs from the window's drawable size");
    // Not blank: a lit scene has many colours; a cleared or broken frame has one or two. Colours are
    // counted on a 16-level grid per channel (4096 cells, one bit each).
    unsigned char seen[4096 / 8] = {0};
    int distinct = 0;
    for (int i = 0; i < img->w * img->h; i++)
    {
        const unsigned char *p = img->rgb + 3 * i;
        unsigned key = (unsigned)(p[0] >> 4) << 8 | (unsigned)(p[1] >> 4) << 4 | (unsigned)(p[2] >> 4);
        if (!(seen[key >> 3] & (1u << (key & 7))))
        {
            seen[key >> 3] |= (unsigned char)(1u << (key & 7));
            distinct++;
        }
    }
    printf("distinct colours on a 16-level grid: %d (need >= %d)\n", distinct, MIN_DISTINCT_COLOURS);
    if (distinct < MIN_DISTINCT_COLOURS)
        return fail("the screenshot is (nearly) blank");
    return 0;
}

// Median of a 3x3 neighbourhood per channel, so one anti-aliased edge pixel does not decide.
static void sample(const image *img, double x, double y, int out[3])
{
    int cx = (int)x, cy = (int)y;
    for (int c = 0; c < 3; c++)
    {
        int v[9], n = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
            {
                int sx = cx + dx < 0 ? 0 : (cx + dx >= img->w ? img->w - 1 : cx + dx);
                int sy = cy + dy < 0 ? 0 : (cy + dy >= img->h ? img->h - 1 : cy + dy);
                v[n++] = img->rgb[3 * (sy * img->w + sx) + c];
            }
        for (int i = 1; i < 9; i++)
            for (int j = i; j > 0 && v[j - 1] > v[j]; j--)
            {
                int t = v[j];
                v[j] = v[j - 1];
                v[j - 1] = t;
            }
        out[c] = v[4];
    }
}

static bool inside(const image *img, double x, double y)
{
    return x >= BORDER_PX && y >= BORDER_PX && x < img->w - BORDER_PX && y < img->h - BORDER_PX;
}

static bool is_red(const int c[3])
{
    return c[0] - c[1] >= MIN_RED_MARGIN && c[0] - c[2] >= MIN_RED_MARGIN;
}

static double moved(const body *b)
{
    double d[3] = {b->end[0] - b->start[0], b->end[1] - b->start[1], b->end[2] - b->start[2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

static int check_cube(const char *png)
{
    image img;
    if (read_image(png, &img))
        return 1;
    const body *cube = NULL;
    for (int i = 0; i < rep.count && !cube; i++)
        if (strcmp(rep.bodies[i].tag, "box") == 0)
            cube = &rep.bodies[i];
    if (!cube)
        return fail("no body tagged box in the report");
    if (!inside(&img, cube->px, cube->py))
        return fail("the cube does not project inside the picture");
    int c[3], s[3];
    sample(&img, cube->px, cube->py, c);
    sample(&img, img.w / 2.0, BORDER_PX, s); // top centre: sky above the horizon
    double d = sqrt((double)((c[0] - s[0]) * (c[0] - s[0]) + (c[1] - s[1]) * (c[1] - s[1]) +
                             (c[2] - s[2]) * (c[2] - s[2])));
    printf("cube at (%.1f, %.1f) rgb %d %d %d; sky rgb %d %d %d; distance %.1f (need > %.1f)\n", cube->px,
           cube->py, c[0], c[1], c[2], s[0], s[1], s[2], d, MIN_CUBE_SKY_DISTANCE);
    return d > MIN_CUBE_SKY_DISTANCE ? 0 : fail("the cube's pixels look like the sky's");
}

static int check_placement(const char *png)
{
    image img;
    if (read_image(png, &img))
        return 1;
    int checked = 0, bad = 0;
    const body *top = NULL; // the highest tower body
    for (int i = 0; i < rep.count; i++)
    {
        const body *b = &rep.bodies[i];
        if (strcmp(b->tag, "tower") != 0)
            continue;
        if (!top || b->end[1] > top->end[1])
            top = b;
        double d[3] = {b->end[0] - rep.eye[0], b->end[1] - rep.eye[1], b->end[2] - rep.eye[2]};
        if (!inside(&img, b->px, b->py) ||
            sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) > MAX_SAMPLE_DISTANCE)
            continue;
        int c[3];
        sample(&img, b->px, b->py, c);
        checked++;
        if (!is_red(c))
        {
            bad++;
            printf("tower body %u at (%.2f %.2f %.2f) projects to (%.1f, %.1f): rgb %d %d %d is not the "
                   "tower's red\n",
                   b->slot, b->end[0], b->end[1], b->end[2], b->px, b->py, c[0], c[1], c[2]);
        }
    }
    printf("tower bodies sampled (inside the picture, within %.0f m of the eye): %d, wrong colour: %d\n",
           MAX_SAMPLE_DISTANCE, checked, bad);
    if (checked == 0)
        return fail("no tower body inside the picture");
    if (bad > 0)
        return fail("tower bodies are not drawn where the physics says");
    // Negative control: the sampling must be able to say "not the tower". Above the highest box, at the
    // projected size of CONTROL_HEIGHT at its distance (focal length h / (2 tan(fov / 2)) in pixels).
    double d[3] = {top->end[0] - rep.eye[0], top->end[1] - rep.eye[1], top->end[2] - rep.eye[2]};
    double dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double focal = img.h / (2.0 * tan(0.5 * rep.fov * PI / 180.0));
    double cy = top->py - focal * CONTROL_HEIGHT / (dist > 1e-6 ? dist : 1e-6);
    if (rep.fov > 0.0 && inside(&img, top->px, cy))
    {
        int c[3];
        sample(&img, top->px, cy, c);
        printf("control %.1f m above the highest tower box at (%.1f, %.1f): rgb %d %d %d (must not be the "
               "red)\n",
               CONTROL_HEIGHT, top->px, cy, c[0], c[1], c[2]);
        if (is_red(c))
            return fail("the pixel above the tower is red too: the samples prove nothing");
    }
    return 0;
}

static int check_fallen(const char *tag, double min_percent)
{
    int n = 0, fell = 0;
    for (int i = 0; i < rep.count; i++)
        if (strcmp(rep.bodies[i].tag, tag) == 0)
        {
            n++;
            fell += moved(&rep.bodies[i]) > FALL_DISTANCE;
        }
    printf("%s bodies: %d, moved more than %.2f m: %d (need %.0f%%)\n", tag, n, FALL_DISTANCE, fell,
           min_percent);
    if (n == 0)
        return fail("no such bodies");
    return 100.0 * fell >= min_percent * n ? 0 : fail("too few bodies fell");
}

static int check_standing(const char *tag)
{
    int n = 0;
    double worst = 0.0;
    for (int i = 0; i < rep.count; i++)
        if (strcmp(rep.bodies[i].tag, tag) == 0)
        {
            n++;
            double m = moved(&rep.bodies[i]);
            worst = m > worst ? m : worst;
        }
    printf("%s bodies: %d, largest displacement %.4f m (need < %.2f)\n", tag, n, worst, STAND_DISTANCE);
    if (n == 0)
        return fail("no such bodies");
    return worst < STAND_DISTANCE ? 0 : fail("the bodies did not stay where they were");
}

static int check_above(const char *tag, double y)
{
    int n = 0, below = 0;
    for (int i = 0; i < rep.count; i++)
        if (strcmp(rep.bodies[i].tag, tag) == 0)
        {
            n++;
            printf("%s body %u ends at height %.3f m (need > %.3f)\n", tag, rep.bodies[i].slot,
                   rep.bodies[i].end[1], y);
            below += !(rep.bodies[i].end[1] > y);
        }
    if (n == 0)
        return fail("no such bodies");
    return below == 0 ? 0 : fail("a body is not as high as it should be");
}

// Pixels whose colour is clearly of the named kind: green and yellow are lines the sandbox draws in
// saturated colours that nothing in its scenes has; white is near (255, 255, 255).
static bool is_colour(const char *name, const unsigned char *p)
{
    int r = p[0], g = p[1], b = p[2];
    if (strcmp(name, "green") == 0)
        return g - r > 80 && g - b > 80;
    if (strcmp(name, "yellow") == 0)
        return r > 200 && g > 160 && r - b > 120 && g - b > 100;
    if (strcmp(name, "white") == 0)
        return r > 245 && g > 245 && b > 245;
    return false;
}

static int check_pixels(const char *png, const char *colour, long min_count)
{
    image img;
    if (read_image(png, &img))
        return 1;
    long n = 0;
    for (long i = 0; i < (long)img.w * img.h; i++)
        n += is_colour(colour, img.rgb + 3 * i);
    printf("%s pixels: %ld (need at least %ld)\n", colour, n, min_count);
    return n >= min_count ? 0 : fail("too few pixels of that colour");
}

// Prints (last) the mean brightness ((r + g + b) / 3, 0 .. 255) of the square of half side r about pixel (x,
// y).
static int brightness(const char *png, int x, int y, int r)
{
    image img;
    if (read_image(png, &img))
        return 1;
    double sum = 0.0;
    long n = 0;
    for (int j = y - r; j <= y + r; j++)
        for (int i = x - r; i <= x + r; i++)
            if (i >= 0 && j >= 0 && i < img.w && j < img.h)
            {
                const unsigned char *p = img.rgb + 3 * ((long)j * img.w + i);
                sum += (p[0] + p[1] + p[2]) / 3.0;
                n++;
            }
    if (n == 0)
        return fail("the square is outside the picture");
    printf("%.1f\n", sum / (double)n);
    return 0;
}

static int aim(const char *tag)
{
    int idx[MAX_BODIES], n = 0;
    for (int i = 0; i < rep.count; i++)
        if (strcmp(rep.bodies[i].tag, tag) == 0 && rep.bodies[i].px >= 0.0)
            idx[n++] = i;
    if (n == 0)
        return fail("no visible body with that tag");
    // The middle one by height: a throw at it hits the stack near its centre.
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && rep.bodies[idx[j - 1]].end[1] > rep.bodies[idx[j]].end[1]; j--)
        {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    const body *b = &rep.bodies[idx[n / 2]];
    printf("%d %d\n", (int)b->px, (int)b->py);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3)
    {
        fprintf(stderr, "usage: gl_check cube|picture|placement SHOT.png REPORT | aim REPORT TAG | above "
                        "REPORT TAG Y | fallen REPORT TAG "
                        "PERCENT | standing REPORT TAG | pixels SHOT.png REPORT COLOUR N | brightness "
                        "SHOT.png REPORT X Y R\n");
        return 2;
    }
    const char *cmd = argv[1];
    diag = strcmp(cmd, "aim") == 0 ? stderr : stdout;
    if ((strcmp(cmd, "cube") == 0 || strcmp(cmd, "placement") == 0 || strcmp(cmd, "picture") == 0) &&
        argc == 4)
    {
        if (read_report(argv[3]))
            return 1;
        if (strcmp(cmd, "picture") == 0)
        {
            image img;
            return read_image(argv[2], &img);
        }
        return strcmp(cmd, "cube") == 0 ? check_cube(argv[2]) : check_placement(argv[2]);
    }
    if (strcmp(cmd, "brightness") == 0 && argc == 7)
        return read_report(argv[3]) || brightness(argv[2], atoi(argv[4]), atoi(argv[5]), atoi(argv[6]));
    if (strcmp(cmd, "pixels") == 0 && argc == 6)
        return read_report(argv[3]) || check_pixels(argv[2], argv[4], atol(argv[5]));
    if (read_report(argv[2]))
        return 1;
    if (strcmp(cmd, "fallen") == 0 && argc == 5)
        return check_fallen(argv[3], atof(argv[4]));
    if (strcmp(cmd, "above") == 0 && argc == 5)
        return check_above(argv[3], atof(argv[4]));
    if (strcmp(cmd, "aim") == 0 && argc == 4)
        return aim(argv[3]);
    if (strcmp(cmd, "standing") == 0 && argc == 4)
        return check_standing(argv[3]);
    fprintf(stderr, "gl_check: bad arguments\n");
    return 2;
}
