// Octile viewer HUD: screen rectangles, either solid (panels) or one glyph of the bitmap
// font (src/viewer/hud/font.rs), alpha blended over the frame.

struct Screen {
    // xy: target size in pixels; zw: unused.
    size: vec4<f32>,
};

@group(0) @binding(0) var<uniform> screen: Screen;
// Glyph atlas: printable ASCII from 32, 5 x 7 pixels each, side by side; r = lit.
@group(0) @binding(1) var atlas: texture_2d<f32>;

struct QuadIn {
    @location(0) rect: vec4<f32>,
    @location(1) colour: vec4<u32>,
    @location(2) glyph: u32,
};

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) local: vec2<f32>,
    @location(1) @interpolate(flat) colour: vec4<f32>,
    @location(2) @interpolate(flat) glyph: u32,
};

fn srgb_to_linear(c: vec3<f32>) -> vec3<f32> {
    let low = c / 12.92;
    let high = pow((c + 0.055) / 1.055, vec3<f32>(2.4));
    return select(high, low, c <= vec3<f32>(0.04045));
}

@vertex
fn vs_main(@builtin(vertex_index) i: u32, q: QuadIn) -> VsOut {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 0.0), vec2<f32>(0.0, 1.0),
        vec2<f32>(0.0, 1.0), vec2<f32>(1.0, 0.0), vec2<f32>(1.0, 1.0),
    );
    let corner = corners[i];
    let px = q.rect.xy + corner * q.rect.zw;
    var out: VsOut;
    out.clip = vec4<f32>(px.x / screen.size.x * 2.0 - 1.0, 1.0 - px.y / screen.size.y * 2.0, 0.0, 1.0);
    out.local = corner;
    let c = vec4<f32>(q.colour) / 255.0;
    out.colour = vec4<f32>(srgb_to_linear(c.rgb), c.a);
    out.glyph = q.glyph;
    return out;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    let alpha = in.colour.a;
    if in.glyph != 0xffffffffu {
        let px = min(vec2<u32>(in.local * vec2<f32>(5.0, 7.0)), vec2<u32>(4u, 6u));
        let lit = textureLoad(atlas, vec2<u32>((in.glyph - 32u) * 5u + px.x, px.y), 0).r;
        if lit < 0.5 {
            discard;
        }
    }
    return vec4<f32>(in.colour.rgb, alpha);
}
