"""What happens to a page between the printer and the OCR: paper, folds and crumples, the
book's curl, the table, the perspective of the camera, light, shadow, glare, motion, the
sensor, a screen's pixels, JPEG (Scripts/corpus/make_corpus.py).

Every function takes its parameters explicitly (make_corpus.py draws them and writes them to
the index). Images are Pillow images; fields are numpy float32 arrays computed on a coarse
grid and enlarged, so that a 12-megapixel photo takes seconds. The page curl, the paper
mottle and the perspective solve come from Scripts/benchset/make_benchset.py.
"""

import math
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFilter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchset"))
import make_benchset as bench  # noqa: E402


def nprng(rng):
    return np.random.default_rng(rng.getrandbits(64))


def coarse(w, h, fn, step=8):
    """fn(xs, ys) on a grid of about (w/step) x (h/step) points in 0..1, enlarged to w x h."""
    sw, sh = max(2, w // step), max(2, h // step)
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    small = np.asarray(fn((xs + 0.5) / sw, (ys + 0.5) / sh), dtype=np.float32)
    return np.asarray(Image.fromarray(small, "F").resize((w, h), Image.BILINEAR))


def smooth_noise(nrng, w, h, cells):
    """A smooth random field in about -1..1 with `cells` features across the longer side."""
    sw = max(2, int(cells * w / max(w, h)) + 2)
    sh = max(2, int(cells * h / max(w, h)) + 2)
    small = nrng.standard_normal((sh, sw)).astype(np.float32)
    return np.asarray(Image.fromarray(small, "F").resize((w, h), Image.BICUBIC))


def gain(img, field):
    """Multiplies every pixel by field (h x w, or h x w x 3)."""
    if field.ndim == 2 and float(field.max()) <= 1.0:  # Pillow's multiply: much faster
        layer = Image.fromarray((np.clip(field, 0, 1) * 255 + 0.5).astype(np.uint8), "L")
        return ImageChops.multiply(img, layer if img.mode == "L" else Image.merge("RGB", (layer,) * 3))
    arr = np.asarray(img, dtype=np.float32)
    if field.ndim == 2 and arr.ndim == 3:
        field = field[..., None]
    return Image.fromarray(np.clip(arr * field, 0, 255).astype(np.uint8))


# ---- paper and ink ---------------------------------------------------------------


def page_image(rng, mask, paper_rgb, ink_rgb, mottle, ink_density):
    page = bench.paper(rng, mask.size, tuple(paper_rgb), mottle)
    if ink_density < 1:
        mask = mask.point(lambda v: int(v * ink_density))
    return bench.ink(page, mask, tuple(ink_rgb))


def warp_mesh(img, dx, dy, cell, fill):
    """Resamples img so that the output pixel p takes the source at p + (dx, dy)(p), with dx and
    dy given on a grid of `cell`-pixel squares ((ny+1) x (nx+1) arrays); Pillow's MESH does
    the work."""
    w, h = img.size
    xs = [min(i * cell, w) for i in range(dx.shape[1])]
    ys = [min(j * cell, h) for j in range(dx.shape[0])]
    mesh = []
    for j in range(len(ys) - 1):
        for i in range(len(xs) - 1):
            if xs[i] == xs[i + 1] or ys[j] == ys[j + 1]:
                continue

            def src(a, b):
                return xs[a] + float(dx[b, a]), ys[b] + float(dy[b, a])

            quad = (*src(i, j), *src(i, j + 1), *src(i + 1, j + 1), *src(i + 1, j))
            mesh.append(((xs[i], ys[j], xs[i + 1], ys[j + 1]), quad))
    return img.transform((w, h), Image.MESH, mesh, Image.BICUBIC, fillcolor=fill)


def grid_for(w, h, cell):
    nx, ny = -(-w // cell) + 1, -(-h // cell) + 1
    gy, gx = np.mgrid[0:ny, 0:nx].astype(np.float32)
    return gx * cell, gy * cell


def fold(page, p):
    """A crease across the page: the far side is displaced a little and lit differently
    (a shading step), with a thin ridge along the crease. p: angle (degrees from horizontal),
    position (0..1 along the page's shorter axis of the crease), shift (px, across and along),
    step (brightness change of the far side), ridge (brightness of the ridge line), width (px)."""
    w, h = page.size
    a = math.radians(p["angle"])
    nx, ny = -math.sin(a), math.cos(a)  # normal of the crease line
    cx, cy = (w / 2, h * p["position"]) if p["axis"] == "horizontal" else (w * p["position"], h / 2)
    if p["axis"] == "vertical":
        nx, ny = math.cos(a), math.sin(a)

    def side(xs, ys):
        d = (xs - cx) * nx + (ys - cy) * ny
        return d

    cell = 16
    gx, gy = grid_for(w, h, cell)
    t = 0.5 * (1 + np.tanh(side(gx, gy) / (2 * p["width"])))
    dx = -(p["shift_across"] * nx + p["shift_along"] * ny) * t
    dy = -(p["shift_across"] * ny - p["shift_along"] * nx) * t
    warped = warp_mesh(page, dx, dy, cell, fill=page.getpixel((0, 0)))

    def light(x, y):
        d = side(x * w, y * h)
        step = 1 + p["step"] * 0.5 * (1 + np.tanh(d / (2 * p["width"])))
        ridge = 1 + p["ridge"] * np.exp(-((d / (p["width"] * 0.8)) ** 2))
        return step * ridge

    return gain(warped, coarse(w, h, light, step=2))


def crumple(page, p, nrng):
    """Crumpled paper: a random low-frequency height field displaces the paper (amplitude px)
    and shades it by its slope (shade), with a few sharp creases (creases)."""
    w, h = page.size
    height = smooth_noise(nrng, w, h, p["cells"]) + 0.5 * smooth_noise(nrng, w, h, p["cells"] * 2.2)
    gy, gx = np.gradient(height)
    norm = max(1e-6, float(np.percentile(np.hypot(gx, gy), 99)))
    gx, gy = gx / norm, gy / norm
    cell = 16
    sub = (slice(None, None, cell), slice(None, None, cell))
    dxg = np.zeros((-(-h // cell) + 1, -(-w // cell) + 1), np.float32)
    dyg = np.zeros_like(dxg)
    dxg[: gx[sub].shape[0], : gx[sub].shape[1]] = gx[sub] * p["amplitude"]
    dyg[: gy[sub].shape[0], : gy[sub].shape[1]] = gy[sub] * p["amplitude"]
    warped = warp_mesh(page, dxg, dyg, cell, fill=page.getpixel((0, 0)))
    lx, ly = math.cos(math.radians(p["light_angle"])), math.sin(math.radians(p["light_angle"]))
    shade = 1 + p["shade"] * np.clip(gx * lx + gy * ly, -1.5, 1.5)
    creases = Image.new("L", (w, h), 128)  # 128 = no crease; strength x 400 around it
    draw = ImageDraw.Draw(creases)
    for x0, y0, x1, y1, strength in p["creases"]:
        draw.line((x0 * w, y0 * h, x1 * w, y1 * h), fill=int(128 + strength * 400), width=max(1, int(min(w, h) * 0.003)))
    creases = creases.filter(ImageFilter.GaussianBlur(max(1.0, min(w, h) * 0.002)))
    creases = (np.asarray(creases, np.float32) - 128) / 400
    return gain(warped, (shade * (1 + creases)).astype(np.float32))


def book_spread(rng, page, p):
    """An open book's page curling toward the spine (bench.curl: lines rise by up to `lift`
    px near the gutter, letters squeezed, shading), with a strip of the facing page beyond the
    gutter (blank: its text would not be in the truth)."""
    # Paper beyond the spine-side edge, so that the squeeze pulls in paper, not the curl's fill.
    w0, h0 = page.size
    pad = int(p["squeeze"] * w0 / 3) + 4
    padded = Image.new("RGB", (w0 + pad, h0), tuple(p["paper"]))
    padded.paste(page, (0 if p["spine"] == "right" else pad, 0))
    curled = bench.curl(padded, p["lift_top"], p["lift_bottom"], start=p["start"], spine=p["spine"],
                        squeeze=p["squeeze"], shadow=p["shadow"])
    curled = curled.crop((0, 0, w0, h0) if p["spine"] == "right" else (pad, 0, w0 + pad, h0))
    w, h = curled.size
    strip_w = int(w * p["facing"])
    strip = bench.paper(rng, (strip_w, h), tuple(p["paper"]), 8)
    toward = "left" if p["spine"] == "right" else "right"  # the strip's own spine side

    # The facing page darkens into the gutter too.
    strip = gain(strip, coarse(strip_w, h, lambda x, y: 1 - p["shadow"] * 0.8 * np.clip(1 - (x if toward == "left" else 1 - x) / 0.5, 0, 1) ** 2 + 0 * y))
    spread = Image.new("RGB", (w + strip_w, h))
    if p["spine"] == "right":
        spread.paste(curled, (0, 0))
        spread.paste(strip, (w, 0))
        offset = 0
    else:
        spread.paste(strip, (0, 0))
        spread.paste(curled, (strip_w, 0))
        offset = strip_w
    return spread, offset


# ---- the photo ------------------------------------------------------------------


def homography(src, dst):
    """3x3 matrix mapping the four points src onto dst."""
    a, b = [], []
    for (x, y), (u, v) in zip(src, dst):
        a.append([x, y, 1, 0, 0, 0, -x * u, -y * u])
        b.append(u)
        a.append([0, 0, 0, x, y, 1, -x * v, -y * v])
        b.append(v)
    m = np.linalg.solve(np.array(a, np.float64), np.array(b, np.float64))
    return np.append(m, 1).reshape(3, 3)


def apply_h(m, pts):
    pts = np.asarray(pts, np.float64)
    q = np.c_[pts, np.ones(len(pts))] @ m.T
    return q[:, :2] / q[:, 2:3]


def page_quad(w, h, p):
    """The page's corners (tl, tr, br, bl) as the camera sees them, centred on 0: keystone
    (the far edge shorter by `keystone`, the page foreshortened), rotation, corner jitter."""
    k, far = p["keystone"], p["far_edge"]
    hw, hh = w / 2, h / 2
    pts = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]], np.float64)
    if k:
        fore = 1 - 0.35 * k
        if far in ("top", "bottom"):
            pts[:, 1] *= fore
            idx = [0, 1] if far == "top" else [2, 3]
            pts[idx, 0] *= 1 - k
        else:
            pts[:, 0] *= fore
            idx = [0, 3] if far == "left" else [1, 2]
            pts[idx, 1] *= 1 - k
    pts += np.asarray(p["jitter"], np.float64).reshape(4, 2) * [w, h]
    a = math.radians(p["rotation"])
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return pts @ rot.T


def layout_frame(page_size, text_box, p, forced=None):
    """Where the page lands in the photo: corners (tl, tr, br, bl) and the frame size.
    p: rotation, keystone, far_edge, jitter, mode ('table': the whole sheet on a table with
    `coverage` of the frame's limiting side; 'fill': the photo framed on the text, `margin`
    (share of the text's size) around it), aspect (None or w/h), offset (-1..1, -1..1)."""
    w, h = page_size
    quad = page_quad(w, h, p)
    m = homography([(0, 0), (w, 0), (w, h), (0, h)], quad)
    x0, y0, x1, y1 = text_box
    text = apply_h(m, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    if p["mode"] == "table":
        lo, hi = quad.min(0), quad.max(0)
        need = (hi - lo) / p["coverage"]
    else:
        lo, hi = text.min(0), text.max(0)
        need = (hi - lo) * (1 + 2 * p["margin"])
    fw, fh = need
    if p.get("aspect"):
        if fw / fh < p["aspect"]:
            fw = fh * p["aspect"]
        else:
            fh = fw / p["aspect"]
    scale = 1.0
    if forced:
        scale = min(forced[0] / fw, forced[1] / fh)
        fw, fh = forced
    quad, text, lo, hi = quad * scale, text * scale, lo * scale, hi * scale
    free = np.array([fw, fh]) - (hi - lo)
    centre = np.array([fw, fh]) / 2 - (lo + hi) / 2 + np.asarray(p["offset"]) * np.maximum(free, 0) / 2 * 0.8
    return quad + centre, (int(round(fw)), int(round(fh))), text + centre, scale


def on_table(rng, page, corners, frame, table_rgb, shadow_px):
    bg = bench.paper(rng, frame, tuple(table_rgb), mottle=30)
    grain = 0.95 + np.clip(smooth_noise(nprng(rng), frame[0], frame[1], 60), -1, 1) * 0.04
    bg = gain(bg, grain.astype(np.float32))
    mask = bench.perspective(Image.new("L", page.size, 255), [tuple(c) for c in corners], frame, 0)
    if shadow_px > 0:
        shadow = ImageChops.offset(mask, int(shadow_px * 0.7), int(shadow_px)).filter(ImageFilter.GaussianBlur(shadow_px))
        bg = ImageChops.multiply(bg, Image.merge("RGB", (shadow.point(lambda v: 255 - int(v * 0.45)),) * 3))
    placed = bench.perspective(page, [tuple(c) for c in corners], frame, tuple(table_rgb))
    return Image.composite(placed, bg, mask)


# ---- light --------------------------------------------------------------------------


def uneven(img, p):
    """A brightness gradient (strength `gradient` along `angle`) and a vignette (`vignette`,
    centred at `centre`)."""
    w, h = img.size
    a = math.radians(p["angle"])

    def fn(x, y):
        t = (x - 0.5) * math.cos(a) + (y - 0.5) * math.sin(a) + 0.5
        r2 = ((x - p["centre"][0]) ** 2 + (y - p["centre"][1]) ** 2) / 0.5
        return (1 - p["gradient"] * np.clip(t, 0, 1)) * (1 - p["vignette"] * r2)

    return gain(img, coarse(w, h, fn))


def hand_shadow(img, p):
    """The soft shadow of a hand holding a phone over a corner: an arm-like ellipse and a
    phone-like rectangle entering from `corner`, darkened by `darkness`, edges blurred by
    `softness` (share of the diagonal)."""
    w, h = img.size
    step = 8
    sw, sh = max(2, w // step), max(2, h // step)
    layer = Image.new("L", (sw, sh), 0)
    draw = ImageDraw.Draw(layer)
    cx = 0 if "l" in p["corner"] else sw
    cy = 0 if "t" in p["corner"] else sh
    rx, ry = p["reach"][0] * sw, p["reach"][1] * sh
    draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=255)
    # The phone: a rotated rectangle whose far end reaches `phone` further along the diagonal.
    ang = math.atan2((sh / 2 - cy), (sw / 2 - cx)) + math.radians(p["phone_angle"])
    length, width = p["phone"] * math.hypot(sw, sh), p["phone_width"] * math.hypot(sw, sh)
    ux, uy = math.cos(ang), math.sin(ang)
    px, py = -uy, ux
    pts = [(cx + px * width / 2, cy + py * width / 2), (cx + ux * length + px * width / 2, cy + uy * length + py * width / 2),
           (cx + ux * length - px * width / 2, cy + uy * length - py * width / 2), (cx - px * width / 2, cy - py * width / 2)]
    draw.polygon(pts, fill=255)
    blur = p["softness"] * math.hypot(sw, sh)
    layer = layer.filter(ImageFilter.GaussianBlur(blur))
    field = np.asarray(layer.resize((w, h), Image.BILINEAR), np.float32) / 255
    tint = np.array([1.0, 1.0, 1.0 + 0.25 * p["darkness"]], np.float32)  # shade is a little blue
    g = 1 - p["darkness"] * field[..., None] * np.array([1, 1, 1], np.float32)
    g = g * (1 + (tint - 1) * field[..., None])
    return gain(img, g.astype(np.float32))


def glare(img, p):
    """A specular glare: light added in an ellipse (radii `radii`, share of the longer side;
    `peak` levels at the centre, `flat` > 2 gives a blown-out core) plus a faint halo."""
    w, h = img.size
    a = math.radians(p["angle"])
    aspect = h / w

    def fn(x, y):
        dx, dy = x - p["centre"][0], (y - p["centre"][1]) * aspect
        u = (dx * math.cos(a) + dy * math.sin(a)) / p["radii"][0]
        v = (-dx * math.sin(a) + dy * math.cos(a)) / p["radii"][1]
        r2 = u * u + v * v
        return p["peak"] * np.exp(-(r2 ** (p["flat"] / 2))) + p["peak"] * 0.18 * np.exp(-r2 / 6)

    add = coarse(w, h, fn, step=4)
    arr = np.asarray(img, np.float32) + add[..., None] * np.array(p.get("tint", [1, 1, 1]), np.float32)
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))


# ---- the camera -----------------------------------------------------------------------


def motion_blur(img, length, angle):
    """Camera shake: the mean of copies shifted along a `length`-px line at `angle` degrees."""
    n = max(3, int(math.ceil(length)) + 1)
    a = math.radians(angle)
    acc = None
    for i in range(n):
        t = (i / (n - 1) - 0.5) * length
        shifted = img.transform(img.size, Image.AFFINE, (1, 0, t * math.cos(a), 0, 1, t * math.sin(a)), Image.BILINEAR)
        arr = np.asarray(shifted, np.float32)
        acc = arr if acc is None else acc + arr
    return Image.fromarray(np.clip(acc / n, 0, 255).astype(np.uint8))


def sensor(img, nrng, exposure, luma, chroma, white_balance):
    """Exposure (and the phone's gain after it), white balance, luminance noise of `luma`
    levels (a 1024-px tile of Gaussian noise repeated: the same to any reader, much cheaper)
    and blotchy colour noise of `chroma` levels."""
    arr = np.asarray(img.convert("RGB"), np.float32) * (np.asarray(white_balance, np.float32) * exposure)
    h, w = arr.shape[:2]
    if luma:
        tile = nrng.standard_normal((min(h, 1024), min(w, 1024)), dtype=np.float32) * luma
        arr += np.tile(tile, (-(-h // tile.shape[0]), -(-w // tile.shape[1])))[:h, :w, None]
    if chroma:
        small = nrng.standard_normal((max(1, h // 3), max(1, w // 3), 3), dtype=np.float32) * chroma
        for c in range(3):
            arr[..., c] += np.asarray(Image.fromarray(small[..., c], "F").resize((w, h), Image.BILINEAR))
    np.clip(arr, 0, 255, out=arr)
    return Image.fromarray(arr.astype(np.uint8))


def screen_photo(content, p, nrng, frame):
    """A photo of a screen showing `content` (RGB, one pixel per screen pixel): each output
    pixel samples the screen through the camera's homography, keeps the colour of the
    sub-pixel stripe it falls on (R, G, B columns, `leak` of the other two) and darkens in the
    gaps between pixel rows, so that the pixel grid beats against the camera's: moiré.
    Then the bezel, the optics' blur, a reflection."""
    fw, fh = frame
    sw, sh = content.size
    m = homography([tuple(c) for c in p["corners"]], [(0, 0), (sw, 0), (sw, sh), (0, sh)])  # frame -> screen
    ys, xs = np.mgrid[0:fh, 0:fw].astype(np.float32)
    src = np.asarray(content, np.float32)
    out = np.zeros((fh, fw, 3), np.float32)
    offsets = [(0.0, 0.0)] if p["samples"] == 1 else [(-0.25, -0.25), (0.25, 0.25)]
    order = [0, 1, 2] if p["order"] == "RGB" else [2, 1, 0]
    for ox, oy in offsets:
        X, Y = xs + ox, ys + oy
        d = m[2, 0] * X + m[2, 1] * Y + m[2, 2]
        u = (m[0, 0] * X + m[0, 1] * Y + m[0, 2]) / d
        v = (m[1, 0] * X + m[1, 1] * Y + m[1, 2]) / d
        inside = (u >= 0) & (v >= 0) & (u < sw) & (v < sh)
        ui = np.clip(u.astype(np.int32), 0, sw - 1)
        vi = np.clip(v.astype(np.int32), 0, sh - 1)
        texel = src[vi, ui]
        stripe = np.clip(((u - np.floor(u)) * 3).astype(np.int32), 0, 2)
        mask = np.full((fh, fw, 3), p["leak"], np.float32)
        for c in range(3):
            mask[..., order[c]][stripe == c] = 1.0
        row = (v - np.floor(v)) > (1 - p["gap"])
        mask[row] *= 0.3
        lit = texel * mask * (3 / (1 + 2 * p["leak"]) / (1 - 0.7 * p["gap"])) * p["brightness"]
        lit[~inside] = p["bezel"]
        out += lit
        del X, Y, d, u, v, texel, mask
    out /= len(offsets)
    img = Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))
    return img.filter(ImageFilter.GaussianBlur(p["blur"]))


def turn(img, quarter_turns):
    return {0: img, 1: img.transpose(Image.ROTATE_90), 2: img.transpose(Image.ROTATE_180),
            3: img.transpose(Image.ROTATE_270)}[quarter_turns % 4]
