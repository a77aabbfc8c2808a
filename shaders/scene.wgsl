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
        colour = colour * light;
    }
    let fog = clamp((dist - globals.params.x) / max(globals.params.y - globals.params.x, 0.001), 0.0, 1.0);
    if globals.eye.w < 0.5 {
        colour = mix(colour, globals.fog_colour.rgb, fog);
    }
    return vec4<f32>(colour, 1.0);
}
