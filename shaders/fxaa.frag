// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Anti-aliasing as a post-process, for renderers without multisampling (Mesa's llvmpipe reports none), after
// the fast approximate anti-aliasing of T. Lottes (NVIDIA, 2009): a pixel whose neighbourhood has little
// contrast in luma is kept; on an edge, the direction along the edge is the luma gradient turned by 90
// degrees, and the pixel is replaced by the mean of samples taken along that direction (bilinear taps between
// pixels), over a short span and a longer one; the longer span is taken unless its mean falls outside the
// neighbourhood's luma range (it crossed into another edge), which keeps thin features. The contrast test
// reads the pixel and its four neighbours unfiltered, the cheapest reads a software rasteriser has: most
// pixels end there (on llvmpipe the pass's diagonal, filtered reads had cost as much as the whole scene).
//
// With UPSCALE defined the pass enlarges a scene drawn at a lower resolution (render_options.render_scale)
// to the target instead: each pixel is the bilinear tap of the source at the pixel's centre. The scene is
// anti-aliased before, at its own size, where the filter costs the square of the scale.
#version 330 core

uniform sampler2D u_source;
// One pixel of the target in texture coordinates, 1 / its size (the source's size too; unused by the upscale).
uniform vec2 u_texel;

noperspective in vec2 v_uv; // the pixel's centre in the source's texture coordinates (fxaa.vert)

out vec4 frag_color;

// Contrast below which a pixel is not on an edge: absolute (dark areas) and relative to the brightest luma.
const float EDGE_MIN = 1.0 / 24.0;
const float EDGE_RELATIVE = 1.0 / 8.0;
// The gradient's smaller component is divided by no less than this (a share of the local luma, at least
// REDUCE_MIN), so that a near-axis edge still gets a long direction; the direction is capped at SPAN pixels.
const float REDUCE_SHARE = 1.0 / 8.0;
const float REDUCE_MIN = 1.0 / 128.0;
const float SPAN = 8.0;

float luma(vec3 c)
{
    return dot(c, vec3(0.299, 0.587, 0.114));
}

vec3 at(vec2 uv)
{
    return texture(u_source, uv).rgb;
}

void main()
{
#ifdef UPSCALE
    frag_color = vec4(at(v_uv), 1.0);
#else
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 last = textureSize(u_source, 0) - 1;
    vec3 centre = texelFetch(u_source, p, 0).rgb;
    float lc = luma(centre);
    float n = luma(texelFetch(u_source, min(p + ivec2(0, 1), last), 0).rgb);
    float s = luma(texelFetch(u_source, max(p - ivec2(0, 1), ivec2(0)), 0).rgb);
    float e = luma(texelFetch(u_source, min(p + ivec2(1, 0), last), 0).rgb);
    float w = luma(texelFetch(u_source, max(p - ivec2(1, 0), ivec2(0)), 0).rgb);
    float lo = min(lc, min(min(n, s), min(e, w)));
    float hi = max(lc, max(max(n, s), max(e, w)));
    if (hi - lo < max(EDGE_MIN, hi * EDGE_RELATIVE))
    {
        frag_color = vec4(centre, 1.0);
        return;
    }
    // Across the edge the luma changes most; along it least: the gradient turned by 90 degrees.
    vec2 dir = vec2(s - n, e - w);
    float reduce = max((n + s + e + w) * 0.25 * REDUCE_SHARE, REDUCE_MIN);
    float scale = 1.0 / (min(abs(dir.x), abs(dir.y)) + reduce);
    dir = clamp(dir * scale, vec2(-SPAN), vec2(SPAN)) * u_texel;
    vec2 uv = v_uv;
    vec3 near = 0.5 * (at(uv + dir * (1.0 / 3.0 - 0.5)) + at(uv + dir * (2.0 / 3.0 - 0.5)));
    vec3 far = 0.5 * near + 0.25 * (at(uv - dir * 0.5) + at(uv + dir * 0.5));
    float lf = luma(far);
    frag_color = vec4((lf < lo || lf > hi) ? near : far, 1.0);
#endif
}
