
// Appended to scene.wgsl for the textured pipelines (the renderer also prepends
// `const DETAIL_GAIN: f32`): the texture set (`viewer::textures`) as group 2, sampled with
// the mesh's UV0 (the exported texture coordinates) in the draw's layer, modulating the
// material colour before it is lit. The plain pipelines never see this code.

@group(2) @binding(0) var surfaces: texture_2d_array<f32>;
@group(2) @binding(1) var surface_sampler: sampler;

struct TexturedOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec4<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
};

@vertex
fn vs_textured(v: VsIn) -> TexturedOut {
    let out = place(v.position, v.normal, v.uv1.x);
    return TexturedOut(out.clip, out.world, out.normal, v.uv);
}

@fragment
fn fs_textured(in: TexturedOut) -> @location(0) vec4<f32> {
    let texel = textureSample(surfaces, surface_sampler, in.uv, i32(draw.material.x)).rgb;
    // A texel stores its detail factor over DETAIL_GAIN; plain draws keep their colour.
    let detail = mix(vec3<f32>(1.0), texel * DETAIL_GAIN, draw.material.y);
    return shade_fragment(VsOut(in.clip, in.world, in.normal), draw.colour.rgb * detail);
}
