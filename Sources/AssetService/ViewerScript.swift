/// The asset page's 3D view, on three.js r111's globals (`THREE`, `THREE.GLTFLoader`,
/// `THREE.OrbitControls`). It frames the model as the thumbnails do (the bounding sphere in a 60°
/// view from the iso direction, near and far planes around the sphere) so the first frame matches
/// the iso thumbnail, and offers reset, wireframe, normals, play/pause and a clip list for
/// animated assets, and a material-variant picker where the glTF has variants. Gaussian splats are
/// drawn by `SplatViewScript` (`window.AssetcSplatView`), the view turning until it is touched. It is lit as the
/// thumbnails are: the service's environment (`/static/environment.hdr`) through r111's
/// `RGBELoader`, `PMREMGenerator` and `PMREMCubeUVPacker`, or the headlight. `window.assetcViewer` reports its state for the page tests.
enum ViewerScript {
    static let source = #"""
(function () {
  "use strict";
  var section = document.getElementById("viewer");
  if (!section || !window.THREE || !THREE.GLTFLoader || !THREE.OrbitControls) return;
  var state = window.assetcViewer = { ready: false, error: null, clips: [], playing: false, time: 0, meshes: 0, variants: [], variant: null,
                                      splats: 0, splatSorts: 0 };
  var status = section.querySelector("[data-status]");
  var canvas = section.querySelector("canvas");
  section.hidden = false;
  var renderer;
  try {
    renderer = new THREE.WebGLRenderer({ canvas: canvas, antialias: true, preserveDrawingBuffer: true });
  } catch (error) {
    // No WebGL here: the thumbnails (and a splat asset's turntable) show the model instead.
    state.error = "no WebGL: " + String(error && error.message || error);
    canvas.hidden = true;
    status.textContent = "This browser has no WebGL, so there is no 3D view; the pictures above show the model.";
    return;
  }
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.setClearColor(0xf4f4f4);
  renderer.gammaOutput = true;
  renderer.gammaFactor = 2.2;
  var scene = new THREE.Scene();
  var camera = new THREE.PerspectiveCamera(60, canvas.width / canvas.height, 0.01, 1000);
  // Lit as the thumbnails are (the section's data attributes say how): by the service's
  // environment through r111's RGBELoader and PMREMGenerator, or SceneKit's default lighting.
  var lighting = section.getAttribute("data-lighting") || "headlight";
  var environmentMap = null;
  state.environment = null;
  state.litMeshes = 0;
  renderer.toneMappingExposure = Math.pow(2, Number(section.getAttribute("data-exposure") || 0));
  var toneMapping = section.getAttribute("data-tone-mapping") || "none";
  renderer.toneMapping = toneMapping === "aces" ? THREE.ACESFilmicToneMapping : THREE.LinearToneMapping;
  // r111 has no Khronos PBR Neutral, the thumbnails' default: its shader chunk's Uncharted 2 curve,
  // which nothing here uses, is replaced by Neutral (as the specification writes it) and chosen.
  var chunk = THREE.ShaderChunk.tonemapping_pars_fragment, start = chunk.indexOf("vec3 Uncharted2ToneMapping(");
  if (toneMapping === "neutral" && start >= 0) {
    THREE.ShaderChunk.tonemapping_pars_fragment = chunk.slice(0, start) + [
      "vec3 Uncharted2ToneMapping( vec3 color ) {",
      "  color *= toneMappingExposure;",
      "  const float startCompression = 0.8 - 0.04;",
      "  const float desaturation = 0.15;",
      "  float x = min( color.r, min( color.g, color.b ) );",
      "  float offset = x < 0.08 ? x - 6.25 * x * x : 0.04;",
      "  color -= offset;",
      "  float peak = max( color.r, max( color.g, color.b ) );",
      "  if ( peak < startCompression ) return color;",
      "  const float d = 1.0 - startCompression;",
      "  float newPeak = 1.0 - d * d / ( peak + d - startCompression );",
      "  color *= newPeak / peak;",
      "  float g = 1.0 - 1.0 / ( desaturation * ( peak - newPeak ) + 1.0 );",
      "  return mix( color, vec3( newPeak ), g );",
      "}"].join("\n") + chunk.slice(chunk.indexOf("}", start) + 1);
    renderer.toneMapping = THREE.Uncharted2ToneMapping;
    state.toneMapping = "neutral";
  } else {
    state.toneMapping = toneMapping === "aces" ? "aces" : "linear";
  }
  if (lighting === "headlight" || !THREE.RGBELoader || !THREE.PMREMGenerator || !THREE.PMREMCubeUVPacker) {
    scene.add(new THREE.AmbientLight(0xffffff, 0.35));
    camera.add(new THREE.DirectionalLight(0xffffff, 0.9));
  } else {
    new THREE.RGBELoader().setDataType(THREE.UnsignedByteType).load(section.getAttribute("data-environment"), function (texture) {
      var cube = new THREE.WebGLRenderTargetCube(256, 256, { minFilter: THREE.LinearFilter, magFilter: THREE.LinearFilter })
        .fromEquirectangularTexture(renderer, texture);
      var generator = new THREE.PMREMGenerator(cube.texture);
      generator.update(renderer);
      var packer = new THREE.PMREMCubeUVPacker(generator.cubeLods);
      packer.update(renderer);
      environmentMap = packer.CubeUVRenderTarget.texture;
      generator.dispose();
      packer.dispose();
      texture.dispose();
      if (model) lightWithEnvironment(model);
      state.environment = "loaded";
    }, undefined, function (error) {
      // Without its environment the view still shows the model, under SceneKit's lighting.
      state.environment = "failed: " + String(error && error.message || error);
      scene.add(new THREE.AmbientLight(0xffffff, 0.35));
      camera.add(new THREE.DirectionalLight(0xffffff, 0.9));
    });
  }
  scene.add(camera);

  function lightWithEnvironment(root) {
    if (!environmentMap) return;
    root.traverse(function (node) {
      if (!node.isMesh || node.userData.splats) return;
      (Array.isArray(node.material) ? node.material : [node.material]).forEach(function (m) {
        if (m.envMap !== environmentMap) { m.envMap = environmentMap; m.needsUpdate = true; }
      });
    });
    // Meshes of the model whose every material is lit by the environment, for the page tests.
    var lit = 0;
    if (model) model.traverse(function (node) {
      if (node.isMesh && !node.userData.splats && (Array.isArray(node.material) ? node.material : [node.material]).every(function (m) { return m.envMap === environmentMap; })) lit += 1;
    });
    state.litMeshes = lit;
  }
  var controls = new THREE.OrbitControls(camera, canvas);
  // Where the camera is and looks, for the page tests to compare with the thumbnails' framing.
  state.camera = function () {
    return { position: camera.position.toArray(), target: controls.target.toArray(), fov: camera.fov, aspect: camera.aspect,
             near: camera.near, far: camera.far, radius: home ? home.radius : null };
  };
  var clock = new THREE.Clock();
  var mixer = null, actions = [], current = null, home = null, model = null, normals = [], splatSets = [];
  // The order of the splats on screen against the view it was sorted for (0 when back to front).
  state.splatOrderError = function () {
    return splatSets.reduce(function (worst, set) { var e = set.orderError(); return e === null ? worst : Math.max(worst, e); }, 0);
  };

  function frame() {
    // The thumbnails' sphere: centred on the box of the vertices in the world, out to the
    // farthest of them. (r111's Box3.setFromObject turns each mesh's local box instead, which is
    // larger than the model once a node rotates it; a box's half-diagonal would also frame a
    // rounder model smaller than its thumbnail.)
    model.updateMatrixWorld(true);
    var box = new THREE.Box3(), point = new THREE.Vector3();
    function eachVertex(visit) {
      model.traverse(function (object) {
        var positions = object.isMesh && !object.userData.splats && object.geometry && object.geometry.attributes.position;
        if (!positions) return;
        for (var i = 0; i < positions.count; i++) visit(point.fromBufferAttribute(positions, i).applyMatrix4(object.matrixWorld), 0);
      });
      // Splats as the thumbnails bound them: each centre with its 3-sigma reach.
      splatSets.forEach(function (set) {
        var reach = set.points.getWorldScale(new THREE.Vector3()), widest = Math.max(reach.x, reach.y, reach.z);
        for (var i = 0; i < set.count; i++) {
          visit(point.fromArray(set.position, 3 * i).applyMatrix4(set.points.matrixWorld), set.extent[i] * widest);
        }
      });
    }
    var extra = new THREE.Vector3();
    eachVertex(function (p, r) { box.expandByPoint(extra.copy(p).subScalar(r)); box.expandByPoint(extra.copy(p).addScalar(r)); });
    var center = box.isEmpty() ? new THREE.Vector3() : box.getCenter(new THREE.Vector3());
    var farthest = 0;
    eachVertex(function (p, r) { farthest = Math.max(farthest, p.distanceTo(center) + r); });
    var sphere = new THREE.Sphere(center, farthest);
    var radius = Math.max(sphere.radius, 1e-6);
    // The sphere fits the narrower of the two fields of view, as the thumbnails' framing does.
    var halfVertical = THREE.Math.degToRad(camera.fov / 2);
    var halfHorizontal = Math.atan(Math.tan(halfVertical) * camera.aspect);
    var distance = radius / Math.sin(Math.min(halfVertical, halfHorizontal)) * 1.04;
    // And, as the thumbnails keep, at least two pixels (and one for antialiasing) clear of every
    // edge of the canvas, however small it is.
    var pixels = Math.min(renderer.domElement.width, renderer.domElement.height);
    if (pixels > 0) {
      var clear = Math.max(1 - 6 / pixels, 0.05);
      distance = Math.max(distance, radius / Math.sin(Math.atan(Math.tan(Math.min(halfVertical, halfHorizontal)) * clear)));
    }
    var direction = new THREE.Vector3(1, 0.75, 1.1).normalize();
    distance = holdShadow(box, center, radius, direction, halfVertical, halfHorizontal, distance, pixels);
    home = { position: sphere.center.clone().addScaledVector(direction, distance), target: sphere.center.clone(), radius: radius,
             near: Math.max(distance - radius * 1.5, distance * 0.001), far: distance + radius * 1.5 };
    reset();
  }

  // The served thumbnails hold their ground shadow in the frame where it can be seen
  // (GroundShadow.footprint, in the renderer): the same 128-texel contact map made here from the
  // same vertices (each triangle low enough to cast, as dark as its lowest corner is close to the
  // ground, three box blurs), and the view backs away as they do, so its first frame is the
  // thumbnail's. Corners of the visible rectangle on the ground, or none.
  function shadowFootprint(box, radius) {
    var n = 128;
    var ground = box.min.y, height = Math.max(box.max.y - ground, radius * 1e-3);
    var reach = Math.max(height * 0.5, radius * 0.25);
    var half = Math.max(box.max.x - box.min.x, box.max.z - box.min.z) * 0.5 + radius * 0.35;
    var originA = (box.min.x + box.max.x) / 2 - half, originB = (box.min.z + box.max.z) / 2 - half;
    var scale = n / (2 * half);
    var map = new Float32Array(n * n);
    function keep(x, y, value) { if (x >= 0 && y >= 0 && x < n && y < n) map[y * n + x] = Math.max(map[y * n + x], value); }
    function fill(p0, p1, p2, value) {
      [p0, p1, p2].forEach(function (p) { keep(Math.floor(p[0]), Math.floor(p[1]), value); });
      var area = (p1[0] - p0[0]) * (p2[1] - p0[1]) - (p1[1] - p0[1]) * (p2[0] - p0[0]);
      if (area === 0 || !isFinite(area)) return;
      var sign = area > 0 ? 1 : -1;
      var minX = Math.max(Math.floor(Math.min(p0[0], p1[0], p2[0])), 0), maxX = Math.min(Math.ceil(Math.max(p0[0], p1[0], p2[0])), n - 1);
      var minY = Math.max(Math.floor(Math.min(p0[1], p1[1], p2[1])), 0), maxY = Math.min(Math.ceil(Math.max(p0[1], p1[1], p2[1])), n - 1);
      for (var y = minY; y <= maxY; y++) {
        for (var x = minX; x <= maxX; x++) {
          var px = x + 0.5, py = y + 0.5;
          var w0 = ((p2[0] - p1[0]) * (py - p1[1]) - (p2[1] - p1[1]) * (px - p1[0])) * sign;
          var w1 = ((p0[0] - p2[0]) * (py - p2[1]) - (p0[1] - p2[1]) * (px - p2[0])) * sign;
          var w2 = ((p1[0] - p0[0]) * (py - p0[1]) - (p1[1] - p0[1]) * (px - p0[0])) * sign;
          if (w0 >= 0 && w1 >= 0 && w2 >= 0) map[y * n + x] = Math.max(map[y * n + x], value);
        }
      }
    }
    var corners = [new THREE.Vector3(), new THREE.Vector3(), new THREE.Vector3()];
    model.traverse(function (object) {
      var geometry = object.isMesh && !object.userData.splats && object.geometry;
      var positions = geometry && geometry.attributes.position;
      if (!positions) return;
      var index = geometry.index, count = index ? index.count : positions.count;
      for (var t = 0; t + 2 < count; t += 3) {
        for (var k = 0; k < 3; k++) corners[k].fromBufferAttribute(positions, index ? index.getX(t + k) : t + k).applyMatrix4(object.matrixWorld);
        var low = Math.min(corners[0].y, corners[1].y, corners[2].y) - ground;
        if (!(low < reach)) continue;
        var shade = 1 - Math.max(low, 0) / reach;
        var flat = corners.map(function (p) { return [(p.x - originA) * scale, (p.z - originB) * scale]; });
        fill(flat[0], flat[1], flat[2], shade * shade);
      }
    });
    var blur = Math.max(Math.round(radius * 0.12 * scale), 1), width = 2 * blur + 1;
    var a = map, b = new Float32Array(n * n);
    for (var pass = 0; pass < 3; pass++) {
      for (var y = 0; y < n; y++) for (var x = 0; x < n; x++) {
        var sum = 0;
        for (var k = -blur; k <= blur; k++) { var xx = x + k; if (xx >= 0 && xx < n) sum += a[y * n + xx]; }
        b[y * n + x] = sum / width;
      }
      var next = new Float32Array(n * n);
      for (var y2 = 0; y2 < n; y2++) for (var x2 = 0; x2 < n; x2++) {
        var sum2 = 0;
        for (var k2 = -blur; k2 <= blur; k2++) { var yy = y2 + k2; if (yy >= 0 && yy < n) sum2 += b[yy * n + x2]; }
        next[y2 * n + x2] = sum2 / width;
      }
      a = next;
    }
    var visible = 0.5 / 255 / 0.45, lo = [n, n], hi = [-1, -1];
    for (var y3 = 0; y3 < n; y3++) for (var x3 = 0; x3 < n; x3++) {
      if (a[y3 * n + x3] > visible) { lo = [Math.min(lo[0], x3), Math.min(lo[1], y3)]; hi = [Math.max(hi[0], x3), Math.max(hi[1], y3)]; }
    }
    if (hi[0] < lo[0]) return [];
    var u0 = originA + (lo[0] - 1) / scale, u1 = originA + (hi[0] + 2) / scale;
    var v0 = originB + (lo[1] - 1) / scale, v1 = originB + (hi[1] + 2) / scale;
    return [[u0, v0], [u1, v0], [u0, v1], [u1, v1]].map(function (c) { return new THREE.Vector3(c[0], ground, c[1]); });
  }

  function holdShadow(box, center, radius, direction, halfVertical, halfHorizontal, distance, pixels) {
    if (box.isEmpty()) return distance;
    var points = shadowFootprint(box, radius);
    if (!points.length) return distance;
    var inside = 1 / 1.04;
    if (pixels > 0) inside = Math.min(inside, Math.max(1 - 6 / pixels, 0.05));
    var forward = direction.clone().negate();
    var right = new THREE.Vector3().crossVectors(forward, new THREE.Vector3(0, 1, 0)).normalize();
    var up = new THREE.Vector3().crossVectors(right, forward);
    // Both across and up within the narrower field, as the sphere is: the square in the middle of
    // the canvas is the square thumbnail.
    var tan = Math.tan(Math.min(halfVertical, halfHorizontal)) * inside;
    points.forEach(function (p) {
      var q = p.clone().sub(center);
      var along = q.dot(forward);
      distance = Math.max(distance, Math.abs(q.dot(right)) / tan - along, Math.abs(q.dot(up)) / tan - along);
    });
    return distance;
  }

  function reset() {
    camera.position.copy(home.position);
    camera.near = home.near;
    camera.far = home.far * 4;  // room to zoom out
    camera.updateProjectionMatrix();
    controls.target.copy(home.target);
    controls.update();
  }

  function setWireframe(on) {
    model.traverse(function (node) {
      if (!node.isMesh || node.userData.splats) return;
      (Array.isArray(node.material) ? node.material : [node.material]).forEach(function (m) { m.wireframe = on; });
    });
  }

  function setNormals(on) {
    if (on && normals.length === 0) {
      var length = new THREE.Box3().setFromObject(model).getSize(new THREE.Vector3()).length() * 0.02;
      model.traverse(function (node) {
        var g = node.isMesh && node.geometry;
        if (!g || !g.attributes.normal) return;
        // A fiftieth of the model's size in the world, whatever the mesh's own scale.
        var local = length / Math.max(node.getWorldScale(new THREE.Vector3()).x, 1e-9);
        var p = g.attributes.position, n = g.attributes.normal, lines = new Float32Array(p.count * 6);
        for (var i = 0; i < p.count; i++) {
          lines.set([p.getX(i), p.getY(i), p.getZ(i),
                     p.getX(i) + n.getX(i) * local, p.getY(i) + n.getY(i) * local, p.getZ(i) + n.getZ(i) * local], i * 6);
        }
        var geometry = new THREE.BufferGeometry();
        geometry.setAttribute("position", new THREE.BufferAttribute(lines, 3));
        var segments = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: 0x2266cc }));
        node.add(segments);
        normals.push(segments);
      });
    }
    normals.forEach(function (s) { s.visible = on; });
  }

  // KHR_materials_variants: r111's loader does not apply them. Each glTF mesh it made (one
  // three.js mesh per primitive, in a group when there are several) is in its cache, and the
  // meshes placed in the scene are those or clones sharing their geometry: so the mappings find
  // them by geometry. The base materials come back with no variant.
  function setUpVariants(gltf) {
    var json = gltf.parser.json, ext = json.extensions && json.extensions.KHR_materials_variants;
    if (!ext || !ext.variants || ext.variants.length === 0) return Promise.resolve();
    state.variants = ext.variants.map(function (v, i) { return v.name || "variant " + (i + 1); });
    return Promise.all((json.meshes || []).map(function (_, m) { return gltf.parser.getDependency("mesh", m); })).then(function (objects) {
      var byGeometry = new Map();
      objects.forEach(function (object, m) {
        (object.isGroup ? object.children : [object]).forEach(function (mesh, i) {
          var primitive = json.meshes[m].primitives[i];
          var mappings = primitive && primitive.extensions && primitive.extensions.KHR_materials_variants &&
                         primitive.extensions.KHR_materials_variants.mappings;
          if (mappings && mesh.geometry) byGeometry.set(mesh.geometry, mappings);
        });
      });
      var targets = [];
      model.traverse(function (node) {
        if (node.isMesh && byGeometry.has(node.geometry)) targets.push({ mesh: node, base: node.material, mappings: byGeometry.get(node.geometry) });
      });
      var select = document.createElement("select");
      select.setAttribute("data-action", "variant");
      select.setAttribute("aria-label", "material variant");
      ["(as authored)"].concat(state.variants).forEach(function (name, i) {
        var option = document.createElement("option");
        option.value = String(i - 1);
        option.textContent = name;
        select.appendChild(option);
      });
      section.querySelector(".controls").insertBefore(select, status);
      select.addEventListener("change", function () {
        var v = Number(select.value);
        Promise.all(targets.map(function (t) {
          var mapping = t.mappings.filter(function (m) { return m.variants.indexOf(v) >= 0; })[0];
          if (!mapping) { t.mesh.material = t.base; return null; }
          return gltf.parser.getDependency("material", mapping.material).then(function (material) { t.mesh.material = material; lightWithEnvironment(t.mesh); });
        })).then(function () { state.variant = v >= 0 ? state.variants[v] : null; });
      });
    });
  }

  function play(index) {
    if (current) current.stop();
    current = actions[index];
    if (current) { current.reset().play(); state.playing = true; }
  }

  section.addEventListener("click", function (event) {
    var action = event.target.getAttribute("data-action");
    if (action === "reset") reset();
    if (action === "play" && current) {
      state.playing = !state.playing;
      current.paused = !state.playing;
      event.target.textContent = state.playing ? "Pause" : "Play";
    }
  });
  section.addEventListener("change", function (event) {
    var action = event.target.getAttribute("data-action");
    if (action === "wireframe") setWireframe(event.target.checked);
    if (action === "normals") setNormals(event.target.checked);
    if (action === "turn") controls.autoRotate = event.target.checked;
    if (action === "clip") play(Number(event.target.value));
  });

  new THREE.GLTFLoader().load(section.getAttribute("data-glb"), function (gltf) {
    model = gltf.scene;
    scene.add(model);
    if (window.AssetcSplatView) splatSets = AssetcSplatView.attach(model, function () { state.splatSorts += 1; });
    state.splats = splatSets.reduce(function (sum, set) { return sum + set.count; }, 0);
    lightWithEnvironment(model);
    model.traverse(function (node) { if (node.isMesh && !node.userData.splats) state.meshes += 1; });
    frame();
    // A capture is shown turning until the viewer takes hold of it.
    var turn = section.querySelector("[data-action=turn]");
    controls.autoRotate = splatSets.length > 0 && (!turn || turn.checked);
    controls.addEventListener("start", function () { controls.autoRotate = false; if (turn) turn.checked = false; });
    if (gltf.animations.length > 0) {
      mixer = new THREE.AnimationMixer(model);
      actions = gltf.animations.map(function (clip) { return mixer.clipAction(clip); });
      state.clips = gltf.animations.map(function (clip, i) { return clip.name || "clip " + (i + 1); });
      var select = section.querySelector("[data-action=clip]");
      if (select) {
        state.clips.forEach(function (name, i) {
          var option = document.createElement("option");
          option.value = String(i);
          option.textContent = name + " (" + gltf.animations[i].duration.toFixed(2) + " s)";
          select.appendChild(option);
        });
      }
      play(0);
    }
    setUpVariants(gltf).then(function () {
      status.textContent = "";
      state.ready = true;
    });
  }, undefined, function (error) {
    state.error = String(error && error.message || error);
    status.textContent = "The 3D view could not load the model (" + state.error + "); the thumbnails show it.";
  });

  (function loop() {
    requestAnimationFrame(loop);
    var delta = clock.getDelta();
    if (mixer && state.playing) { mixer.update(delta); state.time = current ? current.time : 0; }
    controls.update();
    if (splatSets.length > 0) {
      var size = renderer.getDrawingBufferSize(new THREE.Vector2());
      camera.updateMatrixWorld();
      camera.matrixWorldInverse.getInverse(camera.matrixWorld);
      splatSets.forEach(function (set) { set.update(camera, size.x, size.y); });
    }
    renderer.render(scene, camera);
  })();
})();
"""#
}
