/// The asset page's Gaussian splat drawing, on three.js r111, which has none: `window.AssetcSplatView`.
/// `attach(model)` finds the POINTS primitives r111's GLTFLoader made from `KHR_gaussian_splatting`
/// (their attributes keep the extension's names, lower-cased), hides their points and gives each a
/// mesh of camera-facing quads, one instance per splat, drawn after the opaque meshes and tested
/// against their depth. Each quad is the splat's 3-sigma ellipse: the vertex shader projects the
/// splat's 3D covariance (R S S^T R^T, made here from the rotations and scales) to the screen
/// through the perspective Jacobian (EWA, plus 0.3 px of low-pass as the thumbnails do), and the
/// fragments blend premultiplied from back to front. The colour is the base one (the degree-0
/// harmonic + 0.5, display-referred as the extension says); the view does not evaluate the higher
/// bands, which the service's GLB for the view leaves out.
///
/// Splat data lives in float textures (WebGL 1's OES_texture_float, which r111 enables) read by
/// each instance's index, so a new order is one small attribute upload. The order is made off the
/// main thread: a worker (from a Blob of this file's own source, nothing fetched) keeps the
/// centres and answers each view with the splats sorted by depth in one 16-bit counting sort.
enum SplatViewScript {
    static let source = #"""
(function () {
  "use strict";
  if (!window.THREE) return;
  var PREFIX = "khr_gaussian_splatting:";
  var SH_C0 = 0.28209479177387814;
  var TEXTURE_WIDTH = 2048;

  // The sorting worker's source: centres once, then a depth row per request; back to front.
  var SORTER = [
    "var centres = null, count = 0;",
    "onmessage = function (event) {",
    "  if (event.data.centres) { centres = event.data.centres; count = centres.length / 3; return; }",
    "  var r = event.data.row, depth = new Float64Array(count), lo = Infinity, hi = -Infinity, i;",
    "  for (i = 0; i < count; i++) {",
    "    var z = r[0] * centres[3 * i] + r[1] * centres[3 * i + 1] + r[2] * centres[3 * i + 2] + r[3];",
    "    depth[i] = z; if (z < lo) lo = z; if (z > hi) hi = z;",
    "  }",
    "  var bins = 65536, scale = (bins - 1) / Math.max(hi - lo, 1e-20), counts = new Uint32Array(bins), keys = new Uint16Array(count);",
    // Camera space looks down -z: the most negative depth is the farthest, drawn first.
    // Clamped: a key one past either end would wrap in 16 bits.
    "  for (i = 0; i < count; i++) { keys[i] = Math.min(bins - 1, Math.max(0, Math.floor((depth[i] - lo) * scale))); counts[keys[i]]++; }",
    "  for (var b = 1; b < bins; b++) counts[b] += counts[b - 1];",
    "  var order = new Float32Array(count);",
    "  for (i = count - 1; i >= 0; i--) order[--counts[keys[i]]] = i;",
    "  postMessage({ order: order, row: r }, [order.buffer]);",
    "};"].join("\n");

  var VERTEX = [
    "precision highp float;",
    "uniform mat4 modelViewMatrix, projectionMatrix;",
    "uniform sampler2D centres, covarianceA, covarianceB, colours;",
    "uniform vec2 textureSize, viewport;",
    "attribute vec3 position;",
    "attribute float splatIndex;",
    "varying vec4 vColour;",
    "varying vec2 vSigma;",
    "void main() {",
    "  float row = floor((splatIndex + 0.5) / textureSize.x);",
    "  vec2 uv = vec2(splatIndex - row * textureSize.x + 0.5, row + 0.5) / textureSize;",
    "  vec4 c = texture2D(centres, uv);",
    "  vec4 view = modelViewMatrix * vec4(c.xyz, 1.0);",
    "  vec4 clip = projectionMatrix * view;",
    "  float d = -view.z;",
    "  if (d <= 0.0 || abs(clip.x) > 1.3 * clip.w || abs(clip.y) > 1.3 * clip.w) { gl_Position = vec4(0.0, 0.0, 2.0, 1.0); return; }",
    "  vec4 a = texture2D(covarianceA, uv), b = texture2D(covarianceB, uv);",
    "  mat3 V = mat3(a.x, a.y, a.z, a.y, a.w, b.x, a.z, b.x, b.y);",
    "  mat3 W = mat3(modelViewMatrix);",
    "  float fx = projectionMatrix[0][0] * 0.5 * viewport.x, fy = projectionMatrix[1][1] * 0.5 * viewport.y;",
    // Rows of the perspective Jacobian (pixels per camera-space unit), taken back through W: W^T j.
    "  vec3 g1 = vec3(fx / d, 0.0, fx * view.x / (d * d)) * W;",
    "  vec3 g2 = vec3(0.0, fy / d, fy * view.y / (d * d)) * W;",
    "  float s11 = dot(g1, V * g1) + 0.3, s12 = dot(g1, V * g2), s22 = dot(g2, V * g2) + 0.3;",
    "  float mid = 0.5 * (s11 + s22), spread = length(vec2(0.5 * (s11 - s22), s12));",
    "  float l1 = mid + spread, l2 = max(mid - spread, 0.01);",
    "  vec2 e1 = abs(s12) > 1e-9 ? normalize(vec2(s12, l1 - s11)) : (s11 >= s22 ? vec2(1.0, 0.0) : vec2(0.0, 1.0));",
    "  vec2 e2 = vec2(-e1.y, e1.x);",
    "  vec2 pixels = position.x * 3.0 * sqrt(l1) * e1 + position.y * 3.0 * sqrt(l2) * e2;",
    "  gl_Position = vec4(clip.xy / clip.w + pixels * 2.0 / viewport, clip.z / clip.w, 1.0);",
    "  vSigma = position.xy * 3.0;",
    "  vColour = vec4(texture2D(colours, uv).rgb, c.w);",
    "}"].join("\n");

  var FRAGMENT = [
    "precision mediump float;",
    "varying vec4 vColour;",
    "varying vec2 vSigma;",
    "void main() {",
    "  float r2 = dot(vSigma, vSigma);",
    "  if (r2 > 9.0) discard;",
    "  float alpha = vColour.a * exp(-0.5 * r2);",
    "  if (alpha < 1.0 / 255.0) discard;",
    "  gl_FragColor = vec4(vColour.rgb * alpha, alpha);",
    "}"].join("\n");

  function texture(data, height, type) {
    var t = new THREE.DataTexture(data, TEXTURE_WIDTH, height, THREE.RGBAFormat, type);
    t.minFilter = t.magFilter = THREE.NearestFilter;
    t.generateMipmaps = false;
    t.flipY = false;
    t.needsUpdate = true;
    return t;
  }

  // One splat set: its textures, its instanced quads and its sorter. The GLB for the view is
  // assetc's own (float attributes), so the arrays are read as they are.
  function SplatSet(points, onSorted) {
    var g = points.geometry, n = g.attributes.position.count;
    var position = g.attributes.position.array, rotation = g.attributes[PREFIX + "rotation"].array;
    var scale = g.attributes[PREFIX + "scale"].array, opacity = g.attributes[PREFIX + "opacity"].array;
    var dc = g.attributes[PREFIX + "sh_degree_0_coef_0"].array;
    var height = Math.max(1, Math.ceil(n / TEXTURE_WIDTH)), texels = TEXTURE_WIDTH * height;
    var centres = new Float32Array(texels * 4), covA = new Float32Array(texels * 4), covB = new Float32Array(texels * 4);
    var colours = new Uint8Array(texels * 4);
    this.extent = new Float32Array(n);  // 3 sigma along the widest axis, for framing
    for (var i = 0; i < n; i++) {
      var x = rotation[4 * i], y = rotation[4 * i + 1], z = rotation[4 * i + 2], w = rotation[4 * i + 3];
      var norm = Math.sqrt(x * x + y * y + z * z + w * w) || 1;
      x /= norm; y /= norm; z /= norm; w /= norm;
      // Rows of R, each column scaled by its axis' scale: M = R S, and the covariance M M^T.
      var sx = scale[3 * i], sy = scale[3 * i + 1], sz = scale[3 * i + 2];
      var m00 = (1 - 2 * (y * y + z * z)) * sx, m01 = 2 * (x * y - w * z) * sy, m02 = 2 * (x * z + w * y) * sz;
      var m10 = 2 * (x * y + w * z) * sx, m11 = (1 - 2 * (x * x + z * z)) * sy, m12 = 2 * (y * z - w * x) * sz;
      var m20 = 2 * (x * z - w * y) * sx, m21 = 2 * (y * z + w * x) * sy, m22 = (1 - 2 * (x * x + y * y)) * sz;
      var xx = m00 * m00 + m01 * m01 + m02 * m02, xy = m00 * m10 + m01 * m11 + m02 * m12, xz = m00 * m20 + m01 * m21 + m02 * m22;
      var yy = m10 * m10 + m11 * m11 + m12 * m12, yz = m10 * m20 + m11 * m21 + m12 * m22, zz = m20 * m20 + m21 * m21 + m22 * m22;
      centres.set([position[3 * i], position[3 * i + 1], position[3 * i + 2], opacity[i]], 4 * i);
      covA.set([xx, xy, xz, yy], 4 * i);
      covB[4 * i] = yz; covB[4 * i + 1] = zz;
      for (var k = 0; k < 3; k++) colours[4 * i + k] = Math.max(0, Math.min(255, Math.round((SH_C0 * dc[3 * i + k] + 0.5) * 255)));
      colours[4 * i + 3] = 255;
      this.extent[i] = 3 * Math.sqrt(Math.max(xx, yy, zz));
    }
    var quad = new THREE.InstancedBufferGeometry();
    quad.setIndex([0, 1, 2, 0, 2, 3]);
    quad.setAttribute("position", new THREE.BufferAttribute(new Float32Array([-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0]), 3));
    var order = new Float32Array(n);
    for (i = 0; i < n; i++) order[i] = i;
    this.index = new THREE.InstancedBufferAttribute(order, 1);
    this.index.setUsage(THREE.DynamicDrawUsage);
    quad.setAttribute("splatIndex", this.index);
    quad.maxInstancedCount = n;
    this.uniforms = {
      centres: { value: texture(centres, height, THREE.FloatType) }, covarianceA: { value: texture(covA, height, THREE.FloatType) },
      covarianceB: { value: texture(covB, height, THREE.FloatType) }, colours: { value: texture(colours, height, THREE.UnsignedByteType) },
      textureSize: { value: new THREE.Vector2(TEXTURE_WIDTH, height) }, viewport: { value: new THREE.Vector2(1, 1) }
    };
    var material = new THREE.RawShaderMaterial({
      uniforms: this.uniforms, vertexShader: VERTEX, fragmentShader: FRAGMENT, transparent: true, depthWrite: false, depthTest: true,
      blending: THREE.CustomBlending, blendSrc: THREE.OneFactor, blendDst: THREE.OneMinusSrcAlphaFactor,
      blendSrcAlpha: THREE.OneFactor, blendDstAlpha: THREE.OneMinusSrcAlphaFactor
    });
    this.mesh = new THREE.Mesh(quad, material);
    this.mesh.frustumCulled = false;
    this.mesh.renderOrder = 1;
    this.mesh.userData.splats = true;
    points.material.visible = false;  // its children (the quads) are still drawn
    points.add(this.mesh);
    this.points = points;
    this.count = n;
    this.position = position;
    this.row = null;       // the depth row of the order on screen
    this.pending = null;   // the row being sorted
    this.sorts = 0;
    var self = this;
    this.worker = new Worker(URL.createObjectURL(new Blob([SORTER], { type: "text/javascript" })));
    this.worker.postMessage({ centres: new Float32Array(position) });
    this.worker.onmessage = function (event) {
      self.index.array.set(event.data.order);
      self.index.needsUpdate = true;
      self.row = event.data.row;
      self.pending = null;
      self.sorts += 1;
      onSorted();
    };
  }

  // Camera-space depth of a centre is row . (x, y, z, 1): the third row of the model-view matrix.
  SplatSet.prototype.depthRow = function (camera) {
    var m = new THREE.Matrix4().multiplyMatrices(camera.matrixWorldInverse, this.points.matrixWorld).elements;
    return [m[2], m[6], m[10], m[14]];
  };

  SplatSet.prototype.update = function (camera, width, height) {
    this.uniforms.viewport.value.set(width, height);
    if (this.pending) return;
    var row = this.depthRow(camera), last = this.row, moved = !last;
    for (var k = 0; k < 4 && !moved; k++) moved = Math.abs(row[k] - last[k]) > 1e-4 * (1 + Math.abs(last[k]));
    if (!moved) return;
    this.pending = row;
    this.worker.postMessage({ row: row });
  };

  // How far the order on screen is from back to front for the view it was made for: the largest
  // step toward the far side between neighbours, as a fraction of the depth range (0 when sorted;
  // the counting sort's bins allow 1/65535).
  SplatSet.prototype.orderError = function () {
    if (!this.row) return null;
    var r = this.row, p = this.position, order = this.index.array, lo = Infinity, hi = -Infinity, worst = 0, previous = -Infinity;
    for (var i = 0; i < this.count; i++) {
      var j = order[i], z = r[0] * p[3 * j] + r[1] * p[3 * j + 1] + r[2] * p[3 * j + 2] + r[3];
      lo = Math.min(lo, z); hi = Math.max(hi, z);
      worst = Math.max(worst, previous - z);
      previous = Math.max(previous, z);
    }
    return worst / Math.max(hi - lo, 1e-20);
  };

  window.AssetcSplatView = {
    // The splat sets under `root`, each drawn by its quads; `onSorted` after every new order.
    attach: function (root, onSorted) {
      var sets = [];
      root.traverse(function (node) {
        var a = node.isPoints && node.geometry && node.geometry.attributes;
        if (a && a[PREFIX + "rotation"] && a[PREFIX + "scale"] && a[PREFIX + "opacity"] && a[PREFIX + "sh_degree_0_coef_0"]) sets.push(node);
      });
      return sets.map(function (points) { return new SplatSet(points, onSorted || function () {}); });
    }
  };
})();
"""#
}
