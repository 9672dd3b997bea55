"""f3d 4.0 (PyPI) rendering a splat file headless, for Scripts/bench-splats: Gaussian point sprites,
sorted blending, a SIZE x SIZE offscreen window, one image written. The whole process is what the
benchmark times, as it does for assetc.

    python3 Benchmarks/f3d_splats.py IN.spz OUT.png SIZE
"""
import sys

import f3d

engine = f3d.Engine.create(True)
engine.options.update({"model.point_sprites.type": "gaussian", "render.effect.blending.mode": "sort"})
size = int(sys.argv[3])
engine.window.size = (size, size)
engine.scene.add(sys.argv[1])
engine.window.render_to_image().save(sys.argv[2])
