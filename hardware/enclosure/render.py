"""Pictures of the enclosure for docs/: each solid tessellated (OpenCascade's mesher, as for the
STL files), projected orthographically and drawn with a depth buffer and flat shading.

A small rasteriser in numpy instead of a renderer with a GUI stack: the views are made on a
machine without a display, the same way each time.
"""
from __future__ import annotations

import numpy as np
from PIL import Image

BACKGROUND = (245, 245, 242)


def _view_matrix(direction: tuple[float, float, float]) -> np.ndarray:
    """Rows: screen right, screen up, towards the viewer, for a viewer looking along -direction."""
    back = np.asarray(direction, float)
    back /= np.linalg.norm(back)
    right = np.cross((0.0, 0.0, 1.0), back)
    if np.linalg.norm(right) < 1e-6:
        right = np.array([1.0, 0.0, 0.0])
    right /= np.linalg.norm(right)
    up = np.cross(back, right)
    return np.stack([right, up, back])


def _triangles(mesh: list[tuple[np.ndarray, np.ndarray, tuple[float, float, float]]]):
    tris, colours = [], []
    for vertices, faces, colour in mesh:
        if len(faces):
            tris.append(vertices[faces])
            colours.append(np.repeat(np.asarray([colour], float), len(faces), axis=0))
    return np.concatenate(tris), np.concatenate(colours)


def draw(mesh: list[tuple[np.ndarray, np.ndarray, tuple[float, float, float]]],
         direction: tuple[float, float, float], width: int = 1000, height: int = 760) -> Image.Image:
    """`mesh`: (vertices N x 3, triangles M x 3 indices, RGB 0..1) per solid."""
    tris, colours = _triangles(mesh)
    m = _view_matrix(direction)
    p = tris @ m.T                                        # (T, 3, 3): screen x, y, depth
    lo, hi = p.reshape(-1, 3).min(axis=0), p.reshape(-1, 3).max(axis=0)
    scale = 0.92 * min(width / (hi[0] - lo[0]), height / (hi[1] - lo[1]))
    cx, cy = (lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2
    sx = (p[:, :, 0] - cx) * scale + width / 2
    sy = height / 2 - (p[:, :, 1] - cy) * scale
    depth = p[:, :, 2]
    normals = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    length = np.linalg.norm(normals, axis=1)
    keep = length > 1e-12
    normals[keep] /= length[keep, None]
    facing = normals @ m[2]
    normals[facing < 0] *= -1                            # two-sided: a face seen from behind is lit too
    # a light from over the viewer's shoulder: every face the viewer sees is lit from the front
    light = m[2] + 0.6 * m[1] - 0.3 * m[0]
    light /= np.linalg.norm(light)
    shade = 0.35 + 0.65 * np.clip(normals @ light, 0.0, 1.0)
    rgb = np.clip(colours * shade[:, None], 0, 1)

    zbuf = np.full((height, width), -np.inf)
    image = np.empty((height, width, 3))
    image[:] = np.asarray(BACKGROUND) / 255.0
    for t in np.nonzero(keep)[0]:
        x, y, z = sx[t], sy[t], depth[t]
        x0, x1 = max(int(np.floor(x.min())), 0), min(int(np.ceil(x.max())), width - 1)
        y0, y1 = max(int(np.floor(y.min())), 0), min(int(np.ceil(y.max())), height - 1)
        if x0 > x1 or y0 > y1:
            continue
        gx, gy = np.meshgrid(np.arange(x0, x1 + 1) + 0.5, np.arange(y0, y1 + 1) + 0.5)
        det = (y[1] - y[2]) * (x[0] - x[2]) + (x[2] - x[1]) * (y[0] - y[2])
        if abs(det) < 1e-12:
            continue
        a = ((y[1] - y[2]) * (gx - x[2]) + (x[2] - x[1]) * (gy - y[2])) / det
        b = ((y[2] - y[0]) * (gx - x[2]) + (x[0] - x[2]) * (gy - y[2])) / det
        c = 1.0 - a - b
        inside = (a >= -1e-6) & (b >= -1e-6) & (c >= -1e-6)
        zz = a * z[0] + b * z[1] + c * z[2]
        region = zbuf[y0:y1 + 1, x0:x1 + 1]
        win = inside & (zz > region)
        region[win] = zz[win]
        image[y0:y1 + 1, x0:x1 + 1][win] = rgb[t]
    return Image.fromarray((image * 255).astype(np.uint8))
