"""f3d 4.0 (PyPI, its own offscreen OpenGL context on Mesa's CPU driver) rendering a model headless,
for Scripts/bench-thumbnail: a SIZE x SIZE image at f3d's defaults, or lit by an equirectangular HDR
(image-based ambient light and tone mapping, which f3d prefilters once and keeps in its own cache
folder between runs, as assetc keeps its prefiltered environments). The whole process is what the
benchmark times, as it does for assetc. The f3d command Debian packages is 1.3, without PBR
lighting from an HDR; issue 63's figures and DESIGN.md's were taken with this one.

    python3 Benchmarks/f3d_render.py IN OUT.png SIZE [ENVIRONMENT.hdr]
"""
import sys

import f3d

engine = f3d.Engine.create(True)
if len(sys.argv) > 4:
    engine.options.update({"render.hdri.file": sys.argv[4], "render.hdri.ambient": True, "render.effect.tone_mapping": True})
size = int(sys.argv[3])
engine.window.size = (size, size)
engine.scene.add(sys.argv[1])
engine.window.render_to_image().save(sys.argv[2])
