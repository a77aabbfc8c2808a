# Renders level 0 of an octile .glb lit only by its torch lights (Cycles, CPU), seen from
# above at an angle with the ceilings and the upper levels hidden.
# Usage: python3.11 docs/images/lit-level.py -- LEVEL.glb CENTRE_X CENTRE_Z OUT.jpg
# (centre in glTF metres: x east, z south); the README picture used d.glb 80 158.
import bpy, sys, mathutils
glb, out = sys.argv[-4], sys.argv[-1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=glb)
scene = bpy.context.scene
for o in list(bpy.data.objects):
    lvl = o.get('level')
    if (lvl is not None and lvl != 0) or o.name.endswith('-navmesh'):
        o.hide_render = True
# Ceilings: transparent to camera rays only, so the torchlight still bounces as it would.
ceiling = bpy.data.materials.get('ceiling')
ceiling.use_nodes = True
nt = ceiling.node_tree
nt.nodes.clear()
outn = nt.nodes.new('ShaderNodeOutputMaterial')
lp = nt.nodes.new('ShaderNodeLightPath')
mix = nt.nodes.new('ShaderNodeMixShader')
diff = nt.nodes.new('ShaderNodeBsdfDiffuse')
diff.inputs['Color'].default_value = (0.3, 0.3, 0.32, 1)
tr = nt.nodes.new('ShaderNodeBsdfTransparent')
nt.links.new(lp.outputs['Is Camera Ray'], mix.inputs['Fac'])
nt.links.new(diff.outputs[0], mix.inputs[1])
nt.links.new(tr.outputs[0], mix.inputs[2])
nt.links.new(mix.outputs[0], outn.inputs['Surface'])
world = bpy.data.worlds.new('w'); scene.world = world
world.use_nodes = True
world.node_tree.nodes['Background'].inputs['Strength'].default_value = 0.0
cam_data = bpy.data.cameras.new('cam'); cam_data.lens = 28
cam = bpy.data.objects.new('cam', cam_data); scene.collection.objects.link(cam)
scene.camera = cam
# Blender is Z up: glTF (x, y, z) -> (x, -z, y). Aim at the level's middle.
target = mathutils.Vector((float(sys.argv[-3]), -float(sys.argv[-2]), 0.0))
cam.location = target + mathutils.Vector((0.0, -26.0, 30.0))
cam.rotation_euler = (target - cam.location).to_track_quat('-Z', 'Y').to_euler()
scene.render.engine = 'CYCLES'
scene.cycles.device = 'CPU'
scene.cycles.samples = 32
scene.cycles.use_denoising = True
scene.render.resolution_x, scene.render.resolution_y = 800, 500
scene.view_settings.view_transform = 'AgX'
scene.render.image_settings.file_format = 'JPEG'
scene.render.image_settings.quality = 85
scene.render.filepath = out
bpy.ops.render.render(write_still=True)
