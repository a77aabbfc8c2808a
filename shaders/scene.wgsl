// Octile viewer: lit, fogged material colours for the dungeon mesh and its overlays.
// Shading must match `viewer::palette::shade` (the render test predicts pixels with it).
// The renderer prepends `const OCCLUSION`, `TORCHES`, `DITHER` and `OUTLINE` (bools) and compiles a
// pipeline per combination in use: CPU renderers run every branch of a shader, taken or
// not, so a feature that is off must not be in the code at all. The textured pipelines
// append `textured.wgsl` (their own entry points and group 2) and use its entry points.

struct Globals {
    view_proj: mat4x4<f32>,
    // xyz: camera position (world metres); w: 1 for an orthographic camera.
    eye: vec4<f32>,
    // xyz: unit direction toward the light; w: unused.
    light: vec4<f32>,
    // rgb: fog colour (linear); a: unused.
    fog_colour: vec4<f32>,
    // x: fog start, y: fog end (metres), z: extra height per level (exploded view),
    // w: level height (metres).
    params: vec4<f32>,
    // x: room height (metres); y: 1 = ambient occlusion on; z: pixels per metre of an
    // orthographic camera (0: perspective), for the outlines' fade; w: 1 = dither.
    shade: vec4<f32>,
    // x: 1 = torch light on; y: factor on the sun, ambient and fill light while torches
    // light the scene; z: a torch's strength at its own position (on the baked light);
    // w: unused (`viewer::torchlight::LIT`).
    torch: vec4<f32>,
};

struct Draw {
    // rgb: base colour (linear); a: 1 = lit, 0 = emissive (overlays).
    colour: vec4<f32>,
    // x: world y of the level's floor; y: the level; z: 1 = world-space geometry whose
    // level is found from its height; w: 1 = a stair (treads shaded by height).
    offset: vec4<f32>,
    // x: the texture layer of the draw's surface; y: 1 = textured (a level's roles), 0 =
    // plain (read by the textured pipelines only).
    material: vec4<f32>,
};

@group(0) @binding(0) var<uniform> globals: Globals;
@group(1) @binding(0) var<uniform> draw: Draw;

struct VsIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    // x: the torches' light, baked on the CPU (`viewer::torchlight`, the one owner of its
    // falloff); the viewer has no lightmap, so UV1 carries it.
    @location(3) uv1: vec2<f32>,
};

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    // xyz: world position (metres); w: the torches' light (per vertex).
    @location(0) world: vec4<f32>,
    // The unit normal times the occlusion and a stair's height shading (per vertex): the
    // fragment shader gets both from one normalisation.
    @location(1) normal: vec3<f32>,
};

const AMBIENT: f32 = 0.35;
const SUN: f32 = 0.45;
const FILL: f32 = 0.25;

// Ambient occlusion per vertex from the height in the room: walls darken towards their
// foot (a wall's vertices are at its foot and top, so the light rises across it); floors
// and ceilings keep their light.
fn occlusion(n: vec3<f32>, local_y: f32) -> f32 {
    let foot = mix(0.7, 1.0, smoothstep(0.0, max(globals.shade.x, 0.1), local_y));
    return select(foot, 1.0, abs(n.y) > 0.5);
}

// Colour of a torch's light (linear RGB), `rooms::TORCH_COLOUR`.
const TORCH: vec3<f32> = vec3<f32>(1.0, 0.62, 0.32);

@vertex
fn vs_main(v: VsIn) -> VsOut {
    return place(v.position, v.normal, v.uv1.x);
}

// A vertex's world position (xyz, the exploded view's lift included) and its height above
// its level's floor (w, before the lift).
fn lift(position: vec3<f32>) -> vec4<f32> {
    var world = position + vec3<f32>(0.0, draw.offset.x, 0.0);
    var level = draw.offset.y;
    if draw.offset.z > 0.5 {
        level = floor((world.y + 0.5) / max(globals.params.w, 0.001));
    }
    let local_y = world.y - draw.offset.x;
    world.y = world.y + level * globals.params.z;
    return vec4<f32>(world, local_y);
}

// The sun, ambient and fill light on a surface facing unit `n` seen along unit `v`.
fn light(n: vec3<f32>, v: vec3<f32>) -> f32 {
    return AMBIENT + SUN * max(dot(n, globals.light.xyz), 0.0) + FILL * max(dot(n, v), 0.0);
}

// A vertex at `position` (level-local metres) with unit `normal` and the torches' baked
// light `torchlight`, placed in the world and on screen, lit by the per-vertex terms.
fn place(position: vec3<f32>, normal: vec3<f32>, torchlight: f32) -> VsOut {
    var out: VsOut;
    let lifted = lift(position);
    let world = lifted.xyz;
    let local_y = lifted.w;
    var torches = 0.0;
    if TORCHES {
        torches = torchlight * globals.torch.z;
    }
    out.world = vec4<f32>(world, torches);
    var shade = 1.0;
    if OCCLUSION {
        shade = occlusion(normal, local_y);
    }
    // Stair treads darken the lower they are, so from above the steps read as steps.
    if draw.offset.w > 0.5 {
        shade = shade * mix(0.45, 1.0, clamp(local_y / max(globals.params.w, 0.001), 0.0, 1.0));
    }
    out.normal = normal * shade;
    out.clip = globals.view_proj * vec4<f32>(world, 1.0);
    return out;
}

// Ordered noise of +-half an 8-bit step (in sRGB) against banding on smooth gradients.
fn dither(colour: vec3<f32>, pixel: vec2<f32>) -> vec3<f32> {
    let noise = fract(52.9829189 * fract(dot(pixel, vec2<f32>(0.06711056, 0.00583715)))) - 0.5;
    // One sRGB step is 2.2 * c^0.545 / 255 in linear terms (d/ds of s^2.2); c^0.545 is
    // within 0.1 of 0.25 + 0.9 c over the colours drawn (0.05..0.7).
    return colour + (vec3<f32>(0.25) + 0.9 * colour) * (noise * 2.2 / 255.0);
}

// Outlines fade with distance (perspective) or when cells get small on screen
// (orthographic), so they never alias into moire.
fn outline_alpha(dist: f32) -> f32 {
    if globals.shade.z > 0.0 {
        return smoothstep(0.6, 2.0, globals.shade.z);
    }
    return 1.0 - smoothstep(30.0, 110.0, dist);
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    return shade_fragment(in, draw.colour.rgb);
}

// The fragment `in` of a surface of colour `base` (linear), lit (unless the draw is
// emissive), fogged and faded as the draw says.
fn shade_fragment(in: VsOut, base: vec3<f32>) -> vec4<f32> {
    var to_eye = globals.eye.xyz - in.world.xyz;
    if globals.eye.w > 0.5 {
        to_eye = globals.eye.xyz;
    }
    let dist = length(globals.eye.xyz - in.world.xyz);
    let n2 = dot(in.normal, in.normal);
    let inverse = inverseSqrt(n2);
    let n = in.normal * inverse;
    let v = normalize(to_eye);
    var colour = base;
    if draw.colour.a > 0.5 {
        colour = colour * light(n, v);
        // The normal's length: the occlusion and the stair's height shading.
        colour = colour * (n2 * inverse);
        if TORCHES {
            colour = colour * globals.torch.y + base * TORCH * in.world.w;
        }
    }
    let fog = clamp((dist - globals.params.x) / max(globals.params.y - globals.params.x, 0.001), 0.0, 1.0);
    if globals.eye.w < 0.5 {
        colour = mix(colour, globals.fog_colour.rgb, fog);
    }
    // draw.colour.a: 1 lit, 0 emissive overlay, 2 outline (faded, blended).
    var alpha = 1.0;
    if OUTLINE && draw.colour.a > 1.5 {
        alpha = outline_alpha(dist);
    }
    if DITHER {
        colour = dither(colour, in.clip.xy);
    }
    return vec4<f32>(colour, alpha);
}

// Flat geometry facing straight up (the rock caps, the floor outlines) seen by an
// orthographic camera: there the light is the same all over (no fog, no torches, no
// occlusion on an upward face), so these entry points give the colour fs_main gives,
// with no varyings and a few instructions per fragment (a CPU renderer pays for every
// varying of every triangle and every instruction of every fragment). Not dithered: a
// flat colour has no gradient to band.
@vertex
fn vs_flat(@location(0) position: vec3<f32>) -> @builtin(position) vec4<f32> {
    return globals.view_proj * vec4<f32>(lift(position).xyz, 1.0);
}

@fragment
fn fs_flat() -> @location(0) vec4<f32> {
    var colour = draw.colour.rgb;
    if draw.colour.a > 0.5 {
        colour = colour * light(vec3<f32>(0.0, 1.0, 0.0), normalize(globals.eye.xyz));
    }
    return vec4<f32>(colour, 1.0);
}
