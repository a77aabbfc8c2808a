//! The shading the renderer draws solid geometry with: the pipeline variant of the frame's
//! features, and the texture set it binds when textured.

use super::{Renderer, Shading};

impl Renderer {
    /// Draws the solid geometry of the next pass with `shading` (compiled on first use;
    /// the texture set generated and uploaded on first use).
    pub(super) fn use_shading(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, shading: Shading) {
        if shading.textures && self.textures.is_none() {
            let set = crate::viewer::textures::TextureSet::generate();
            self.textures =
                Some(crate::viewer::textures::bind_group(device, queue, &self.texture_layout, &set));
        }
        self.solids.prepare(device, shading);
        self.shading = shading;
    }

    /// Binds the texture set (group 2) when the shading in use is textured.
    pub(super) fn bind_textures(&self, pass: &mut wgpu::RenderPass<'_>) {
        if let (true, Some(group)) = (self.shading.textures, &self.textures) {
            pass.set_bind_group(2, group, &[]);
        }
    }

    /// The solid pipeline of the shading in use.
    pub(super) fn solid(&self) -> &wgpu::RenderPipeline {
        self.solids.get(self.shading).expect("invariant: prepared by use_shading")
    }
}
