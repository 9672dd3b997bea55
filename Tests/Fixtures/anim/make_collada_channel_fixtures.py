#!/usr/bin/env python3
"""Writes one hand-made Collada file per channel target form into collada_channels/, so each holds the one
thing it is named for (the Collada exporters users have write some of these forms and not others):

- component_targets.dae: `translate.X`, `rotateZ.ANGLE`, `scale.Y`, `rotate.AXIS`-style named members
  (`.Y` of a rotate's axis) and a translate by array index `translate(2)`, each on its own box.
- matrix_targets.dae: one matrix element `matrix(0)(3)` (row 0, column 3: the X translation) and a whole
  `matrix` target (16 numbers a key).
- lookat_skew_targets.dae: a whole `lookat` (9 numbers a key) and a `skew` angle by member `.ANGLE`... as
  `skew(0)`.
- clips.dae: three animations in two `<animation_clip>`s with `start`/`end` narrower than the keys.
- nested.dae: an `<animation>` holding two `<animation>`s, one of them holding a third.
- material_channel.dae: a node channel beside channels on a phong effect's parameters in the forms
  exporters write them: the whole diffuse colour through the technique's sid (`Paint-effect/common/diffuse`),
  one member of the emission (`emission.G`, STEP keys), transparency without the technique's sid
  (`Paint-effect/transparency`), and the specular colour, which the material model has no input for.
- morph_on_morph.dae: a morph controller whose source is another morph controller, under a skin.
Deterministic. Run: python3 Tests/Fixtures/anim/make_collada_channel_fixtures.py"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_collada_anim_fixtures import animation, box_column, document, floats, geometry, rigid_skin, source, translation  # noqa: E402

OUT = os.path.join(HERE, "collada_channels")
BOX = geometry("Box", *box_column(1.0, 1))


def write(name, libraries, nodes):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(document(f"<library_geometries>{BOX}{libraries[0]}</library_geometries>" + libraries[1], nodes))


def box_node(name, transforms):
    return f'<node id="{name}" name="{name}">{transforms}<instance_geometry url="#Box"/></node>'


def component_targets():
    anims = (animation("MoveX", "Slider/location.X", [0, 1, 2], [0, 2, 3], ["X"])
             + animation("Spin", "Spinner/rotationZ.ANGLE", [0, 2], [0, 90], ["ANGLE"])
             + animation("Stretch", "Stretcher/scale.Y", [0, 1], [1, 3], ["Y"])
             + animation("Tilt", "Tilter/turn.Y", [0, 2], [0, 1], ["Y"])
             + animation("Lift", "Lifter/location(2)", [0, 2], [0, -4], ["Z"]))
    nodes = (box_node("Slider", '<translate sid="location">0 0 0</translate>')
             + box_node("Spinner", '<translate sid="location">0 2 0</translate><rotate sid="rotationZ">0 0 1 0</rotate>')
             + box_node("Stretcher", '<translate sid="location">0 4 0</translate><scale sid="scale">1 1 1</scale>')
             + box_node("Tilter", '<translate sid="location">0 6 0</translate><rotate sid="turn">1 0 0 45</rotate>')
             + box_node("Lifter", '<translate sid="location">0 8 0</translate>'))
    write("component_targets.dae", ("", f"<library_animations>{anims}</library_animations>"), nodes)


def matrix_targets():
    keys = [translation(0, 0, 0), translation(0, 3, 0), [0, -1, 0, 0, 1, 0, 0, 3, 0, 0, 1, 0, 0, 0, 0, 1]]
    # A whole-matrix output is one float4x4 param with stride 16, as exporters write it.
    whole = animation("Whole", "Held/transform", [0, 1, 2], [c for m in keys for c in m], [""] * 16)
    whole = whole.replace('stride="16">' + '<param type="float"/>' * 16, 'stride="16"><param name="TRANSFORM" type="float4x4"/>')
    anims = animation("Slide", "Slid/transform(0)(3)", [0, 1, 2], [0, 1, 5], ["X"]) + whole
    nodes = (box_node("Slid", f'<matrix sid="transform">{floats(translation(0, 0, 2))}</matrix>')
             + box_node("Held", f'<matrix sid="transform">{floats(translation(0, 0, 0))}</matrix>'))
    write("matrix_targets.dae", ("", f"<library_animations>{anims}</library_animations>"), nodes)


def lookat_skew_targets():
    aims = [0, 0, 5, 0, 0, 0, 0, 1, 0, 5, 0, 0, 0, 0, 0, 0, 1, 0]
    anims = (animation("Aim", "Aimed/aim", [0, 2], aims, ["X", "Y", "Z"] * 3)
             + animation("Shear", "Sheared/shear(0)", [0, 2], [0, 45], ["ANGLE"]))
    nodes = (box_node("Aimed", '<lookat sid="aim">0 0 5 0 0 0 0 1 0</lookat>')
             + box_node("Sheared", '<translate sid="location">0 3 0</translate><skew sid="shear">0 0 1 0 1 0 0</skew>'))
    write("lookat_skew_targets.dae", ("", f"<library_animations>{anims}</library_animations>"), nodes)


def clips():
    anims = (animation("Walk", "Walker/location.X", [0, 1, 2, 3, 4], [0, 1, 2, 3, 4], ["X"])
             + animation("Bob", "Walker/location.Y", [0, 2, 4], [0, 1, 0], ["Y"])
             + animation("Wave", "Waver/rotationZ.ANGLE", [0, 1, 2, 3, 4], [0, 30, 0, 30, 0], ["ANGLE"]))
    library = ('<library_animation_clips>'
               '<animation_clip id="WalkCycle" name="walk" start="1" end="3"><instance_animation url="#Walk"/><instance_animation url="#Bob"/></animation_clip>'
               '<animation_clip id="WaveOnce" name="wave" start="0" end="2"><instance_animation url="#Wave"/></animation_clip>'
               '</library_animation_clips>')
    nodes = (box_node("Walker", '<translate sid="location">0 0 0</translate>')
             + box_node("Waver", '<translate sid="location">0 3 0</translate><rotate sid="rotationZ">0 0 1 0</rotate>'))
    write("clips.dae", ("", f"<library_animations>{anims}</library_animations>{library}"), nodes)


def nested():
    inner = animation("Rise", "Nested/location.Y", [0, 2], [0, 2], ["Y"])
    deepest = animation("Turn", "Nested/rotationY.ANGLE", [0, 2], [0, 180], ["ANGLE"])
    middle = animation("Slide", "Nested/location.X", [0, 1], [0, 1], ["X"]).replace("</animation>", deepest + "</animation>", 1)
    group = f'<animation id="Group" name="Group">{inner}{middle}</animation>'
    nodes = box_node("Nested", '<translate sid="location">0 0 0</translate><rotate sid="rotationY">0 1 0 0</rotate>')
    write("nested.dae", ("", f"<library_animations>{group}</library_animations>"), nodes)


def material_channel():
    effect = ('<library_effects><effect id="Paint-effect"><profile_COMMON><technique sid="common"><phong>'
              '<emission><color sid="emission">0 0 0 1</color></emission>'
              '<diffuse><color sid="diffuse">0.8 0.1 0.1 1</color></diffuse>'
              '<specular><color sid="specular">0.5 0.5 0.5 1</color></specular>'
              '<shininess><float sid="shininess">20</float></shininess>'
              '<transparent opaque="A_ONE"><color sid="transparent">1 1 1 1</color></transparent>'
              '<transparency><float sid="transparency">1</float></transparency>'
              '</phong></technique></profile_COMMON></effect></library_effects>'
              '<library_materials><material id="Paint" name="Paint"><instance_effect url="#Paint-effect"/></material></library_materials>')
    anims = (animation("Fade", "Paint-effect/common/diffuse", [0, 1], [0.8, 0.1, 0.1, 1, 0.1, 0.1, 0.8, 1], ["R", "G", "B", "A"])
             + animation("Glow", "Paint-effect/common/emission.G", [0, 1, 2], [0, 0.5, 0.25], ["G"], interpolation="STEP")
             + animation("Vanish", "Paint-effect/transparency", [0, 1.5], [1, 0.25], ["TRANSPARENCY"])
             + animation("Shine", "Paint-effect/common/specular", [0, 1], [0.5, 0.5, 0.5, 1, 1, 1, 1, 1], ["R", "G", "B", "A"])
             + animation("Move", "Painted/location.X", [0, 1], [0, 1], ["X"]))
    # The box again, its faces naming the material symbol the instance binds.
    painted_box = geometry("PaintedBox", *box_column(1.0, 1)).replace("<polylist ", '<polylist material="Paint" ')
    nodes = ('<node id="Painted" name="Painted"><translate sid="location">0 0 0</translate><instance_geometry url="#PaintedBox">'
             '<bind_material><technique_common><instance_material symbol="Paint" target="#Paint"/></technique_common></bind_material>'
             '</instance_geometry></node>')
    write("material_channel.dae", (painted_box, effect + f"<library_animations>{anims}</library_animations>"), nodes)


def morph_on_morph():
    grid = 3
    points = [(x - 1.0, y - 1.0, 0) for y in range(grid) for x in range(grid)]
    polys = [[y * grid + x, y * grid + x + 1, (y + 1) * grid + x + 1, (y + 1) * grid + x] for y in range(grid - 1) for x in range(grid - 1)]
    raise_ = [(0, 0, 1 if p[0] > 0.5 else 0) for p in points]
    widen = [(0.5 * p[0], 0, 0) for p in points]
    twist = [(0, 0.5 * p[0], 0) for p in points]

    def morph(id_, base, targets, weights):
        return (f'<controller id="{id_}"><morph source="#{base}" method="RELATIVE">'
                + source(f"{id_}-targets", targets, ["MORPH_TARGET"], kind="name").replace("Name_array", "IDREF_array")
                + source(f"{id_}-weights", weights, ["MORPH_WEIGHT"])
                + f'<targets><input semantic="MORPH_TARGET" source="#{id_}-targets"/><input semantic="MORPH_WEIGHT" source="#{id_}-weights"/>'
                  '</targets></morph></controller>')
    inner = morph("InnerMorph", "Plate", ["Raise", "Widen"], [0, 0])
    outer = morph("OuterMorph", "InnerMorph", ["Twist"], [0])
    skin = rigid_skin("PlateSkin", "OuterMorph", "Pin", len(points))
    anims = (animation("RaiseKeys", "InnerMorph-weights(0)", [0, 1], [0, 1], [""])
             + animation("WidenKeys", "InnerMorph-weights(1)", [0, 2], [0, 1], [""])
             + animation("TwistKeys", "OuterMorph-weights(0)", [1, 2], [0, 1], [""]))
    geometries = "".join(geometry(n, [tuple(o) for o in pts], polys) for n, pts in (("Plate", points), ("Raise", raise_), ("Widen", widen), ("Twist", twist)))
    nodes = ('<node id="Pin" name="Pin" sid="Pin" type="JOINT"><translate sid="location">0 0 0</translate></node>'
             '<node id="Plated" name="Plated"><instance_controller url="#PlateSkin"><skeleton>#Pin</skeleton></instance_controller></node>')
    write("morph_on_morph.dae", (geometries, f'<library_controllers>{inner}{outer}{skin}</library_controllers><library_animations>{anims}</library_animations>'), nodes)


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    component_targets()
    matrix_targets()
    lookat_skew_targets()
    clips()
    nested()
    material_channel()
    morph_on_morph()
