// Octile viewer: lit, fogged material colours for the dungeon mesh and its overlays.
// Shading must match `viewer::palette::shade` (the render test predicts pixels with it).

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
};

struct Draw {
    // rgb: base colour (linear); a: 1 = lit, 0 = emissive (overlays).
    colour: vec4<f32>,
    // x: world y of the level's floor; y: the level; z: 1 = world-space geometry whose
    // level is found from its height.
    offset: vec4<f32>,
};

@group(0) @binding(0) var<uniform> globals: Globals;
@group(1) @binding(0) var<uniform> draw: Draw;

struct VsIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) uv1: vec2<f32>,
};

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
};

@vertex
fn vs_main(v: VsIn) -> VsOut {
    var out: VsOut;
    var world = v.position + vec3<f32>(0.0, draw.offset.x, 0.0);
    var level = draw.offset.y;
    if draw.offset.z > 0.5 {
        level = floor((world.y + 0.5) / max(globals.params.w, 0.001));
    }
    world.y = world.y + level * globals.params.z;
    out.world = world;
    out.normal = v.normal;
    out.clip = globals.view_proj * vec4<f32>(world, 1.0);
    return out;
}

const AMBIENT: f32 = 0.35;
const SUN: f32 = 0.45;
const FILL: f32 = 0.25;

// Ambient occlusion baked from the height in the room: walls darken towards their foot
// and, less, towards the ceiling; floors and ceilings keep their light.
fn occlusion(n: vec3<f32>, local_y: f32) -> f32 {
    if globals.shade.y < 0.5 || abs(n.y) > 0.5 {
        return 1.0;
    }
    let foot = mix(0.62, 1.0, smoothstep(0.0, 1.4, local_y));
    let top = mix(0.85, 1.0, smoothstep(0.0, 0.7, globals.shade.x - local_y));
    return foot * top;
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
    var to_eye = globals.eye.xyz - in.world;
    if globals.eye.w > 0.5 {
        to_eye = globals.eye.xyz;
    }
    let dist = length(globals.eye.xyz - in.world);
    let n = normalize(in.normal);
    let v = normalize(to_eye);
    var colour = draw.colour.rgb;
    if draw.colour.a > 0.5 {
        let light = AMBIENT + SUN * max(dot(n, globals.light.xyz), 0.0) + FILL * max(dot(n, v), 0.0);
        // The height above the level's floor (the exploded lift leaves it alone).
        let local_y = in.world.y - draw.offset.x - draw.offset.y * globals.params.z;
        colour = colour * light * occlusion(n, local_y);
    }
    let fog = clamp((dist - globals.params.x) / max(globals.params.y - globals.params.x, 0.001), 0.0, 1.0);
    if globals.eye.w < 0.5 {
        colour = mix(colour, globals.fog_colour.rgb, fog);
    }
    // draw.colour.a: 1 lit, 0 emissive overlay, 2 outline (faded, blended).
    var alpha = 1.0;
    if draw.colour.a > 1.5 {
        alpha = outline_alpha(dist);
    }
    if globals.shade.w > 0.5 {
        colour = dither(colour, in.clip.xy);
    }
    return vec4<f32>(colour, alpha);
}
