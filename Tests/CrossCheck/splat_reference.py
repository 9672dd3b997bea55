"""An independent 3DGS reference renderer in numpy, written from the published method (Kerbl et al.
2023, and the KHR_gaussian_splatting text): each Gaussian's covariance R S Sᵀ Rᵀ projected through
the perspective Jacobian with a 0.3 px² low-pass, cut at 3 sigma, coloured by its spherical
harmonics along the ray from the eye (+0.5, clamped at 0), blended front to back at pixel centres
(alpha capped at 0.99, below 1/255 skipped, stopped under 1e-4 transmittance). Display-referred:
the blend is in the stored sRGB values. Slow (a Python loop over splats), for a few hundred."""
import numpy as np

C0 = 0.28209479177387814
C1 = 0.4886025119029199
C2 = [1.0925484305920792, -1.0925484305920792, 0.31539156525252005, -1.0925484305920792, 0.5462742152960396]
C3 = [-0.5900435899266435, 2.890611442640554, -0.4570457994644658, 0.3731763325901154, -0.4570457994644658,
      1.445305721320277, -0.5900435899266435]


def sh_basis(d):
    x, y, z = d
    out = [C0, -C1 * y, C1 * z, -C1 * x,
           C2[0] * x * y, C2[1] * y * z, C2[2] * (2 * z * z - x * x - y * y), C2[3] * x * z, C2[4] * (x * x - y * y),
           C3[0] * y * (3 * x * x - y * y), C3[1] * x * y * z, C3[2] * y * (4 * z * z - x * x - y * y),
           C3[3] * z * (2 * z * z - 3 * x * x - 3 * y * y), C3[4] * x * (4 * z * z - x * x - y * y), C3[5] * z * (x * x - y * y),
           C3[6] * x * (x * x - 3 * y * y)]
    return np.array(out)


def quat_matrix(q):
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def look_at(eye, target, up=(0, 1, 0)):
    eye, target, up = map(np.asarray, (eye, target, up))
    f = (target - eye) / np.linalg.norm(target - eye)
    s = np.cross(f, up)
    s /= np.linalg.norm(s)
    u = np.cross(s, f)
    return np.stack([s, u, -f])  # rows: camera x, y, z in world terms


def render(positions, quats_wxyz, scales, opacities, sh, eye, target, fov_degrees, size):
    """An RGBA float image (straight alpha, sRGB) of the splats seen from `eye` looking at `target`."""
    rotation = look_at(eye, target)
    eye = np.asarray(eye, np.float64)
    focal = size / 2 / np.tan(np.radians(fov_degrees) / 2)
    degree = int(round(np.sqrt(sh.shape[1]))) - 1
    colour = np.zeros((size, size, 3))
    transmittance = np.ones((size, size))
    view = (positions - eye) @ rotation.T
    depth = -view[:, 2]
    for i in np.argsort(depth, kind="stable"):
        if depth[i] <= 1e-3 or opacities[i] < 1 / 255:
            continue
        x, y, d = view[i, 0], view[i, 1], depth[i]
        jacobian = np.array([[focal / d, 0, focal * x / d ** 2], [0, -focal / d, -focal * y / d ** 2]])
        m = rotation @ quat_matrix(quats_wxyz[i]) @ np.diag(scales[i])
        cov = jacobian @ m @ m.T @ jacobian.T + 0.3 * np.eye(2)
        det = np.linalg.det(cov)
        if det <= 0:
            continue
        conic = np.linalg.inv(cov)
        radius = 3 * np.sqrt(np.linalg.eigvalsh(cov).max())
        sx, sy = size / 2 + focal * x / d, size / 2 - focal * y / d
        x0, x1 = max(0, int(np.floor(sx - radius))), min(size - 1, int(np.floor(sx + radius)))
        y0, y1 = max(0, int(np.floor(sy - radius))), min(size - 1, int(np.floor(sy + radius)))
        if x0 > x1 or y0 > y1:
            continue
        direction = positions[i] - eye
        direction /= np.linalg.norm(direction)
        basis = sh_basis(direction)[: (degree + 1) ** 2]
        rgb = np.maximum(basis @ sh[i] + 0.5, 0)
        px, py = np.meshgrid(np.arange(x0, x1 + 1) + 0.5 - sx, np.arange(y0, y1 + 1) + 0.5 - sy)
        power = -0.5 * (conic[0, 0] * px * px + conic[1, 1] * py * py) - conic[0, 1] * px * py
        alpha = np.minimum(0.99, opacities[i] * np.exp(power))
        alpha[(power > 0) | (power <= -4.5) | (alpha < 1 / 255)] = 0
        t = transmittance[y0:y1 + 1, x0:x1 + 1]
        alpha[t < 1e-4] = 0
        colour[y0:y1 + 1, x0:x1 + 1] += np.minimum(rgb, 1) * (alpha * t)[..., None]
        transmittance[y0:y1 + 1, x0:x1 + 1] = t * (1 - alpha)
    a = 1 - transmittance
    straight = np.where(a[..., None] > 0, colour / np.maximum(a, 1e-12)[..., None], 0)
    return np.concatenate([np.clip(straight, 0, 1), a[..., None]], axis=2)


def save_png(image, path):
    from PIL import Image
    Image.fromarray((np.clip(image, 0, 1) * 255 + 0.5).astype(np.uint8), "RGBA").save(path)
