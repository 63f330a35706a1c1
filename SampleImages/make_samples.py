#!/usr/bin/python3
"""Render snap-poem's sample images, each with its exact ground-truth text.

Run through make-samples.sh (which checks the Debian packages), or directly:
    /usr/bin/python3 make_samples.py [OUTPUT_DIR]
OUTPUT_DIR defaults to the folder holding this script.

Needs only Debian's python3-pil, the font packages named in FONTS below, and
ImageMagick 6 at /usr/bin/convert (for the 16-bit PNG and the CMYK JPEG, the
two encodings Pillow cannot write reliably).  Every random choice comes from
random.Random seeded with a fixed number, so re-runs give the same images.
"""

import math
import os
import random
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont, ImageOps

HERE = Path(__file__).resolve().parent
LENORE_SOURCE = Path(__file__).resolve().parent / "poems" / "lenore.txt"  # copy of shared/poems/lenore.txt
CONVERT = "/usr/bin/convert"  # the real ImageMagick 6, never a wrapper on PATH

FONTS = {
    # fonts-ebgaramond (SIL OFL 1.1)
    "garamond": "/usr/share/fonts/opentype/ebgaramond/EBGaramond12-Regular.otf",
    "garamond-bold": "/usr/share/fonts/opentype/ebgaramond/EBGaramond12-Bold.otf",
    # fonts-liberation2 (SIL OFL 1.1)
    "liberation-serif": "/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf",
    # fonts-dejavu-core (Bitstream Vera licence + public-domain changes)
    "dejavu-sans": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
}

# Paul Verlaine, "Chanson d'automne", Poèmes saturniens (1866). Public domain.
CHANSON = """Chanson d'automne

Les sanglots longs
Des violons
De l'automne
Blessent mon cœur
D'une langueur
Monotone.

Tout suffocant
Et blême, quand
Sonne l'heure,
Je me souviens
Des jours anciens
Et je pleure ;

Et je m'en vais
Au vent mauvais
Qui m'emporte
Deçà, delà,
Pareil à la
Feuille morte.
"""

# William Blake, "The Tyger", Songs of Experience (1794). Public domain.
TYGER = """The Tyger

Tyger Tyger, burning bright,
In the forests of the night;
What immortal hand or eye,
Could frame thy fearful symmetry?

In what distant deeps or skies.
Burnt the fire of thine eyes?
On what wings dare he aspire?
What the hand, dare seize the fire?

And what shoulder, & what art,
Could twist the sinews of thy heart?
And when thy heart began to beat,
What dread hand? & what dread feet?

What the hammer? what the chain,
In what furnace was thy brain?
What the anvil? what dread grasp,
Dare its deadly terrors clasp!

When the stars threw down their spears
And water'd heaven with their tears:
Did he smile his work to see?
Did he who made the Lamb make thee?

Tyger Tyger burning bright,
In the forests of the night:
What immortal hand or eye,
Dare frame thy fearful symmetry?
"""

ORIENTATION_TEXT = """EXIF orientation test
This text should read upright,
left to right, top to bottom.
"""

PARCHMENT = (239, 228, 201)
BROWN_INK = (43, 31, 22)


# --------------------------------------------------------------------------
# small helpers


def clamp8(v):
    return max(0, min(255, int(round(v))))


def noise(rng, w, h):
    """Uniform 8-bit noise from a seeded generator (Pillow's own is unseeded)."""
    return Image.frombytes("L", (w, h), rng.randbytes(w * h))


def smooth_field(rng, w, h, cell):
    """Smooth random field 0..255 whose features are about `cell` px wide."""
    sw, sh = w // cell + 3, h // cell + 3
    small = noise(rng, sw, sh).filter(ImageFilter.GaussianBlur(0.9))
    small = ImageOps.autocontrast(small, cutoff=1)
    big = small.resize((sw * cell, sh * cell), Image.BICUBIC)
    return big.crop((cell, cell, cell + w, cell + h))


def multiply_gray(img, field_l, tint=(1.0, 1.0, 1.0)):
    """Darken img by an L field (255 = unchanged), optionally per-channel tinted."""
    if tint == (1.0, 1.0, 1.0):
        return ImageChops.multiply(img, Image.merge("RGB", (field_l,) * 3))
    bands = []
    for k in tint:
        bands.append(field_l.point(lambda v, k=k: clamp8(255 - (255 - v) * k)))
    return ImageChops.multiply(img, Image.merge("RGB", bands))


def add_grain(rng, img, amplitude, chroma=0.0):
    """Add zero-mean noise of roughly +-amplitude levels (triangular pdf)."""
    w, h = img.size

    def one():
        n = Image.blend(noise(rng, w, h), noise(rng, w, h), 0.5)
        return n.point(lambda v: clamp8(128 + (v - 128) * amplitude / 64.0))

    lum = one()
    if chroma:
        bands = []
        for _ in range(3):
            c = one().point(lambda v: clamp8(128 + (v - 128) * chroma))
            bands.append(ImageChops.add(lum, c, 1.0, -128))
        n = Image.merge("RGB", bands)
    else:
        n = Image.merge("RGB", (lum,) * 3)
    return ImageChops.add(img.convert("RGB"), n, 1.0, -128)


def vignette(w, h, strength):
    """L field: 255 in the centre, 255*(1-strength) in the corners."""
    g = Image.radial_gradient("L").resize((w, h), Image.BICUBIC)
    return g.point(lambda v: clamp8(255 * (1 - strength * (v / 255.0) ** 2 / 2.0)))


def paper(rng, w, h, base=PARCHMENT, blotch=22, spots=30, fibre=10, grain=0.0, edge=0.10):
    """Warm paper: base colour, soft stains, a few foxing spots, mottled fibre.

    Per-pixel grain is off by default: it triples PNG sizes for little realism.
    """
    img = Image.new("RGB", (w, h), base)
    if fibre:
        f = smooth_field(rng, w, h, 8)
        img = multiply_gray(img, f.point(lambda v: clamp8(255 - fibre * v / 255.0)), tint=(0.8, 1.0, 1.3))
    if blotch:
        f = Image.blend(smooth_field(rng, w, h, 220), smooth_field(rng, w, h, 55), 0.35)
        stain = f.point(lambda v: clamp8(255 - blotch * max(0, v - 95) / 160.0))
        img = multiply_gray(img, stain, tint=(0.75, 1.0, 1.6))
    if spots:
        layer = Image.new("L", (w, h), 255)
        d = ImageDraw.Draw(layer)
        for _ in range(spots):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            r = rng.uniform(2, 9) if rng.random() < 0.8 else rng.uniform(12, 30)
            d.ellipse((x - r, y - r * rng.uniform(0.6, 1.2), x + r, y + r), fill=rng.randint(205, 235))
        layer = layer.filter(ImageFilter.GaussianBlur(3))
        img = multiply_gray(img, layer, tint=(0.6, 1.0, 1.7))
    if edge:
        img = multiply_gray(img, vignette(w, h, edge), tint=(0.8, 1.0, 1.3))
    if grain:
        img = add_grain(rng, img, grain)
    return img


def ink_onto(bg, mask, colour, opacity=0.96):
    ink = Image.new("RGB", bg.size, colour)
    m = mask.point(lambda v: clamp8(v * opacity))
    return Image.composite(ink, bg, m)


# --------------------------------------------------------------------------
# text layout


def text_lines(text):
    lines = [l.rstrip() for l in text.rstrip("\n").split("\n")]
    return lines


def ground_truth(lines):
    """Exactly the drawn lines; no trailing spaces; one final newline."""
    body = "\n".join(l.rstrip() for l in lines).strip("\n")
    return body + "\n" if body else ""


def render_text(lines, font_key, size, *, title=True, leading=1.36, title_scale=1.5,
                margin=(0.09, 0.07), rng=None, jitter=0):
    """Render lines as an L coverage mask (255 = ink). Returns (mask, x_height).

    First line is a centred title (larger) when title=True; blank lines are
    stanza breaks of one line height; other lines are left-aligned.
    """
    font = ImageFont.truetype(FONTS[font_key], size)
    tfont = ImageFont.truetype(FONTS[font_key], int(size * title_scale))
    lh = size * leading
    widths = [(tfont if (title and i == 0) else font).getlength(l) for i, l in enumerate(lines)]
    text_w = max(widths)
    mx = int(text_w * margin[0]) + size
    total_h = 0.0
    for i, _ in enumerate(lines):
        total_h += lh * (1.25 if (title and i == 0) else 1.0)
    my = int(total_h * margin[1]) + size
    W = int(text_w + 2 * mx)
    H = int(total_h + 2 * my)
    mask = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(mask)
    y = my + size * 0.95
    for i, line in enumerate(lines):
        if title and i == 0:
            y += lh * 0.25
            d.text((W / 2, y), line, font=tfont, fill=255, anchor="ms")  # centred on the baseline
            y += lh
            continue
        if line:
            dx = rng.randint(-jitter, jitter) if (rng and jitter) else 0
            d.text((mx + dx, y), line, font=font, fill=255, anchor="ls")
        y += lh
    x_height = -font.getbbox("x", anchor="ls")[1]
    return mask, x_height


def render_page(rng, lines, font_key, size, *, title=True, base=PARCHMENT, ink=BROWN_INK,
                pad=None, **paper_kw):
    mask, xh = render_text(lines, font_key, size, title=title, rng=rng, jitter=2)
    if pad:
        w, h = mask.size
        big = Image.new("L", (w + 2 * pad, h + 2 * pad), 0)
        big.paste(mask, (pad, pad))
        mask = big
    bg = paper(rng, *mask.size, base=base, **paper_kw)
    return ink_onto(bg, mask, ink), mask, xh


# --------------------------------------------------------------------------
# geometry


def solve(a, b):
    """Gaussian elimination with partial pivoting (8x8 is all we need)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def perspective_coeffs(dst, src):
    """Coefficients for Image.transform(PERSPECTIVE): output point dst_i <- input src_i."""
    a, b = [], []
    for (x, y), (u, v) in zip(dst, src):
        a.append([x, y, 1, 0, 0, 0, -x * u, -y * u]); b.append(u)
        a.append([0, 0, 0, x, y, 1, -x * v, -y * v]); b.append(v)
    return solve(a, b)


# --------------------------------------------------------------------------
# writers


def save_gt(path, lines_or_text):
    text = lines_or_text if isinstance(lines_or_text, str) else ground_truth(lines_or_text)
    path.write_text(text, encoding="utf-8")


def save_jpeg(img, path, quality, **kw):
    img.convert("RGB").save(path, "JPEG", quality=quality, optimize=True, **kw)


def exif_orientation(value):
    ex = Image.Exif()
    ex[0x0112] = value
    return ex.tobytes()


def im(*args):
    subprocess.run([CONVERT, *map(str, args)], check=True)


# --------------------------------------------------------------------------
# the samples


def make_lenore(out, lenore_lines):
    rng = random.Random(1845)
    page, _, xh = render_page(rng, lenore_lines, "garamond", 52)
    page.save(out / "Lenore.png")
    save_gt(out / "Lenore.txt", lenore_lines)
    return xh


def make_photos(out, excerpt):
    info = {}
    rng = random.Random(1843)
    # Shared base: the excerpt on parchment, EB Garamond 54 px (x-height ~22 px).
    base, mask, xh = render_page(rng, excerpt, "garamond", 54)
    W, H = base.size
    info["base"] = (W, H, xh)

    def gt(name):
        save_gt(out / (Path(name).stem + ".txt"), excerpt)

    # clean: near-white paper, black ink, like a flatbed scan
    clean_bg = paper(rng, W, H, base=(249, 248, 244), blotch=0, spots=0, fibre=4, edge=0)
    ink_onto(clean_bg, mask, (18, 18, 20), 1.0).save(out / "photo-clean.png")
    gt("photo-clean.png")

    # rotated 3 degrees counter-clockwise: only the printing is turned, so the
    # paper texture fills the corners as it would on a page photographed askew
    rmask = mask.rotate(3, resample=Image.BICUBIC, expand=True)
    rbg = paper(rng, *rmask.size)
    save_jpeg(add_grain(rng, ink_onto(rbg, rmask, BROWN_INK), 2.0), out / "photo-rotated-3deg.jpg", 90)
    gt("photo-rotated-3deg.jpg")

    # pixels turned, no EXIF
    base.transpose(Image.ROTATE_270).save(out / "photo-rotated-90.png")  # 90° clockwise
    gt("photo-rotated-90.png")
    base.transpose(Image.ROTATE_180).save(out / "photo-rotated-180.png")
    gt("photo-rotated-180.png")

    # stored sideways (90° counter-clockwise) + EXIF Orientation 6 (viewer turns it 90° CW)
    save_jpeg(base.transpose(Image.ROTATE_90), out / "photo-exif-rotated.jpg", 90,
              exif=exif_orientation(6))
    gt("photo-exif-rotated.jpg")

    # gaussian blur, sigma 1.5
    save_jpeg(base.filter(ImageFilter.GaussianBlur(1.5)), out / "photo-blurred.jpg", 92)
    gt("photo-blurred.jpg")

    # low resolution: x-height ~8 px
    f = 8.0 / xh
    low = base.resize((round(W * f), round(H * f)), Image.LANCZOS)
    low.save(out / "photo-low-resolution.png")
    gt("photo-low-resolution.png")
    info["low"] = (low.size, 8.0)

    # uneven light: strong fall-off to the right plus a soft shadow (a hand /
    # phone) over the lower left, noise stronger where it is dark
    grad = Image.linear_gradient("L").rotate(90).transpose(Image.FLIP_LEFT_RIGHT)  # dark right
    grad = grad.resize((W, H), Image.BICUBIC)
    light = grad.point(lambda v: clamp8(255 * (0.34 + 0.66 * (v / 255.0) ** 0.7)))
    shadow = Image.new("L", (W, H), 255)
    ImageDraw.Draw(shadow).polygon(
        [(-50, H * 0.45), (W * 0.42, H * 0.62), (W * 0.55, H + 50), (-50, H + 50)], fill=150)
    shadow = shadow.filter(ImageFilter.GaussianBlur(W * 0.04))
    lit = multiply_gray(base, ImageChops.multiply(light, shadow), tint=(0.95, 1.0, 1.1))
    lit = add_grain(rng, lit, 4.0, chroma=0.3)
    save_jpeg(lit, out / "photo-uneven-light.jpg", 90)
    gt("photo-uneven-light.jpg")

    # coloured paper (pale blue) and dark red ink, Liberation Serif
    cmask, _ = render_text(excerpt, "liberation-serif", 48, rng=rng, jitter=2)
    cbg = paper(rng, *cmask.size, base=(196, 218, 238), blotch=12, spots=8, edge=0.08)
    col = add_grain(rng, ink_onto(cbg, cmask, (128, 22, 34)), 2.5, chroma=0.3)
    save_jpeg(col, out / "photo-coloured.jpg", 90)
    gt("photo-coloured.jpg")

    # inverted: light cream text on a dark slate card, DejaVu Sans
    imask, _ = render_text(excerpt, "dejavu-sans", 40, rng=rng, jitter=0)
    ibg = paper(rng, *imask.size, base=(38, 44, 58), blotch=10, spots=0, fibre=6, edge=0.15)
    ink_onto(ibg, imask, (236, 228, 205), 0.97).save(out / "photo-inverted.png")
    gt("photo-inverted.png")

    # heavy JPEG compression
    save_jpeg(base, out / "photo-jpeg-artefacts.jpg", 18, subsampling=2)
    gt("photo-jpeg-artefacts.jpg")

    # low contrast: mid-grey text on light grey
    lbg = paper(rng, W, H, base=(206, 206, 202), blotch=8, spots=0, fibre=6, edge=0.05)
    ink_onto(lbg, mask, (148, 148, 146), 1.0).convert("L").save(
        out / "photo-low-contrast.png")
    gt("photo-low-contrast.png")

    info["phone"] = make_phone(out, excerpt, rng)
    make_more_photos(out, excerpt)
    return info


def make_more_photos(out, excerpt):
    """Added for issue 6 (image pipeline): harder cases, with their own seed so the
    samples above stay byte-identical."""
    rng = random.Random(6)

    def gt(name, lines=excerpt):
        save_gt(out / (Path(name).stem + ".txt"), lines)

    # tilted 5 degrees clockwise (the 3-degree sample turns the other way); q90, light noise
    mask, _ = render_text(excerpt, "garamond", 54, rng=rng, jitter=2)
    rmask = mask.rotate(-5, resample=Image.BICUBIC, expand=True)
    save_jpeg(add_grain(rng, ink_onto(paper(rng, *rmask.size), rmask, BROWN_INK), 2.0),
              out / "photo-rotated-5deg.jpg", 90)
    gt("photo-rotated-5deg.jpg")

    # pixels turned 90 degrees counter-clockwise (a 270-degree page), no EXIF
    page = ink_onto(paper(rng, *mask.size), mask, BROWN_INK)
    page.transpose(Image.ROTATE_90).save(out / "photo-rotated-270.png")
    gt("photo-rotated-270.png")

    # vignette plus a hard-edged diagonal shadow (a phone held over the page), cool tint
    W, H = page.size
    shade = Image.new("L", (W, H), 255)
    ImageDraw.Draw(shade).polygon([(W * 0.55, -10), (W + 10, -10), (W + 10, H * 0.7)], fill=105)
    shade = shade.filter(ImageFilter.GaussianBlur(6))
    lit = multiply_gray(page, ImageChops.multiply(shade, vignette(W, H, 0.75)), tint=(1.05, 1.0, 0.9))
    save_jpeg(add_grain(rng, lit, 3.0, chroma=0.3), out / "photo-vignette-shadow.jpg", 88)
    gt("photo-vignette-shadow.jpg")

    # light on dark that reads badly: chalk on a blackboard under a lamp at the right, so
    # the left edge gets a fifth of the light; smudges of wiped chalk; uneven strokes
    cmask, _ = render_text(excerpt, "dejavu-sans", 40, rng=rng, jitter=1)
    W, H = cmask.size
    board = Image.new("RGB", (W, H), (40, 52, 46))
    smudge = smooth_field(rng, W, H, 90).point(lambda v: clamp8(max(0, v - 120) * 0.55))
    board = Image.composite(Image.new("RGB", (W, H), (150, 160, 155)), board, smudge)
    texture = smooth_field(rng, W, H, 3).point(lambda v: clamp8(150 + v * 0.42))
    chalk = ImageChops.multiply(cmask, texture)
    lit = ink_onto(board, chalk, (232, 232, 222), 0.95)
    fall = Image.linear_gradient("L").rotate(90).resize((W, H), Image.BICUBIC)  # bright right
    lit = multiply_gray(lit, fall.point(lambda v: clamp8(255 * (0.22 + 0.78 * (v / 255.0) ** 1.5))))
    save_jpeg(add_grain(rng, lit, 5.0, chroma=0.2), out / "photo-inverted-noisy.jpg", 85)
    gt("photo-inverted-noisy.jpg")

    # a phone screenshot with accessibility-size text: Verlaine's short lines, DejaVu Sans
    # 150 px (x-height about 82 px) on a 1290-wide white screen, dark grey text
    lines = text_lines(CHANSON)[:8]
    smask, _ = render_text(lines, "dejavu-sans", 150, margin=(0.02, 0.02), title_scale=1.0)
    sw, sh = smask.size
    screen = Image.new("RGB", (max(1290, sw), sh), (255, 255, 255))
    screen.paste(Image.new("RGB", (sw, sh), (33, 33, 33)), (0, 0), smask)
    screen.convert("L").save(out / "photo-screenshot.png", optimize=True)
    gt("photo-screenshot.png", lines)


def make_never_lose_a_line(out, lenore_lines):
    """Added for issue 9 (never lose a line), with its own seed (9) so that the samples
    above stay byte-identical: text tilted inside a straight page edge, the upright renders
    the tilt-sweep test turns itself, a two-column page and an illustration."""
    rng = random.Random(9)

    # A sheet photographed on a dark table: the sheet's edges are straight, the printing on
    # it is tilted clockwise (negative angles in Pillow), as when a page was printed askew.
    # The long straight edges outvote the text in a skew search over all the ink.
    def page_on_table(lines, size, angle, name):
        mask, _ = render_text(lines, "garamond", size, rng=rng, jitter=2)
        tilted = mask.rotate(angle, resample=Image.BICUBIC, expand=True)
        pw, ph = tilted.size
        sheet = paper(rng, pw, ph, base=(242, 236, 218), blotch=10, spots=6, edge=0.04)
        sheet = ink_onto(sheet, tilted, (30, 26, 24))
        fw, fh = pw + 260, ph + 300
        streaks = noise(rng, 24, 500).resize((fw, fh), Image.BICUBIC)
        streaks = ImageOps.autocontrast(streaks.filter(ImageFilter.GaussianBlur(0.6)), cutoff=1)
        table = Image.new("RGB", (fw, fh), (58, 44, 36))
        table = multiply_gray(table, streaks.point(lambda v: clamp8(170 + v * 0.33)))
        x0, y0 = 120, 140
        shadow = Image.new("L", (fw, fh), 0)
        shadow.paste(255, (x0 + 12, y0 + 16, x0 + pw + 12, y0 + ph + 16))
        shadow = shadow.filter(ImageFilter.GaussianBlur(14))
        table = multiply_gray(table, shadow.point(lambda v: clamp8(255 - v * 0.5)))
        table.paste(sheet, (x0, y0))
        frame = add_grain(rng, multiply_gray(table, vignette(fw, fh, 0.25)), 3.0, chroma=0.3)
        save_jpeg(frame, out / name, 85)
        save_gt(out / (Path(name).stem + ".txt"), lines)

    page_on_table(lenore_lines, 52, -2.5, "photo-page-edge-2.5deg.jpg")
    page_on_table(lenore_lines[:15], 44, -3.5, "photo-page-edge-3.5deg.jpg")

    # Upright renders on white for the tilt sweep (Tests/SnapPoemTests/Pipeline): the test
    # turns them from -5 to +5 degrees and sets them on white and inside a page edge on a
    # dark ground itself. Small, so 84 recognitions stay cheap.
    d = out / "tilt"
    d.mkdir(exist_ok=True)
    tyger = text_lines(TYGER)
    renders = [
        ("lenore-stanzas-3-4.png", lenore_lines[16:23] + [""] + lenore_lines[24:31], "garamond", 44, False),
        ("the-tyger.png", tyger[:15], "dejavu-sans", 34, True),
    ]
    for name, lines, font, size, title in renders:
        mask, _ = render_text(lines, font, size, title=title, title_scale=1.3, margin=(0.04, 0.04))
        page = Image.new("L", mask.size, 255)
        page.paste(0, (0, 0), mask)
        page.save(d / name, optimize=True)
        save_gt(d / (Path(name).stem + ".txt"), lines)

    # Two columns: the whole of "The Tyger", stanzas 1-3 on the left and 4-6 on the right,
    # under one centred title. Read column by column, it is the poem in order.
    font = ImageFont.truetype(FONTS["liberation-serif"], 38)
    tfont = ImageFont.truetype(FONTS["liberation-serif"], 54)
    body = tyger[2:]
    left, right = body[:14], body[15:]
    column_width = max(font.getlength(line) for line in body)
    gutter, margin, pitch = 110, 90, 52
    width = int(2 * column_width + gutter + 2 * margin)
    height = int(margin * 2 + 110 + pitch * max(len(left), len(right)))
    columns = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(columns)
    draw.text((width / 2, margin + 50), tyger[0], font=tfont, fill=255, anchor="ms")
    for index, (column, x) in enumerate([(left, margin), (right, margin + column_width + gutter)]):
        y = margin + 130
        for line in column:
            if line:
                draw.text((x, y), line, font=font, fill=255, anchor="ls")
            y += pitch
    sheet = paper(rng, width, height, base=(248, 246, 240), blotch=0, spots=0, fibre=4, edge=0)
    ink_onto(sheet, columns, (20, 20, 24), 1.0).convert("L").save(out / "columns.png", optimize=True)
    save_gt(out / "columns.txt", [tyger[0], ""] + left + [""] + right)

    # An illustration without a single letter, as a poetry book might have: hills, a house
    # with a window and a door, a tree whose crown is 140 letter-sized rings, a sun with rays,
    # birds. (A regular row of strokes, such as grass blades or hatching, is read as text by
    # Tesseract itself: "lllll", "WLLVAVA…"; that is not drawn here.)
    w, h = 1400, 1000
    art = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(art)
    draw.line([(0, 700), (300, 600), (600, 660), (900, 560), (1400, 640)], fill=255, width=5)
    draw.line([(0, 820), (400, 760), (800, 800), (1400, 740)], fill=255, width=4)
    draw.rectangle((820, 430, 1080, 640), outline=255, width=5)
    draw.polygon([(800, 440), (950, 320), (1100, 440)], outline=255, width=5)
    draw.rectangle((920, 540, 980, 640), outline=255, width=4)
    draw.rectangle((850, 470, 900, 520), outline=255, width=3)
    draw.line([(260, 640), (260, 420)], fill=255, width=14)
    for _ in range(140):
        x, y = rng.gauss(260, 80), rng.gauss(340, 60)
        r = rng.uniform(8, 18)
        draw.ellipse((x - r, y - r * 0.6, x + r, y + r * 0.6), outline=255, width=3)
    draw.ellipse((1140, 90, 1260, 210), outline=255, width=5)
    for k in range(12):
        a = k * math.pi / 6
        draw.line([(1200 + 80 * math.cos(a), 150 + 80 * math.sin(a)),
                   (1200 + 120 * math.cos(a), 150 + 120 * math.sin(a))], fill=255, width=4)
    for x, y in [(520, 160), (600, 200), (680, 150), (450, 230)]:
        draw.arc((x - 24, y - 10, x, y + 14), 200, 340, fill=255, width=3)
        draw.arc((x, y - 10, x + 24, y + 14), 200, 340, fill=255, width=3)
    sheet = paper(rng, w, h, base=(246, 242, 232), blotch=8, spots=4, fibre=5, edge=0.05)
    ink_onto(sheet, art, (35, 30, 28), 0.95).save(out / "illustration.png", optimize=True)
    save_gt(out / "illustration.txt", "")


def make_phone(out, excerpt, rng):
    """12-MP landscape phone photo: page on a dark wooden table, in perspective."""
    FW, FH = 4032, 3024
    page, _, xh = render_page(rng, excerpt, "garamond", 100, blotch=16, spots=12, edge=0.05)
    pw, ph = page.size
    # table: dark wood, grain running horizontally
    streaks = noise(rng, 24, 700).resize((FW, FH), Image.BICUBIC)
    streaks = ImageOps.autocontrast(streaks.filter(ImageFilter.GaussianBlur(0.6)), cutoff=1)
    table = Image.new("RGB", (FW, FH), (92, 62, 40))
    table = multiply_gray(table, streaks.point(lambda v: clamp8(150 + v * 0.42)), tint=(0.9, 1.0, 1.1))
    table = multiply_gray(table, smooth_field(rng, FW, FH, 400).point(lambda v: clamp8(200 + v * 0.2)))
    # where the page lands (slightly rotated, a touch of keystone)
    s = min(FW * 0.86 / pw, FH * 0.86 / ph)
    cx, cy = FW / 2 + 30, FH / 2 + 10
    hw, hh = pw * s / 2, ph * s / 2
    dst = [(cx - hw * 0.97 + 40, cy - hh - 25), (cx + hw * 0.97 + 55, cy - hh + 30),
           (cx + hw * 1.02 - 30, cy + hh + 20), (cx - hw * 1.02 - 45, cy + hh - 35)]
    src = [(0, 0), (pw, 0), (pw, ph), (0, ph)]
    coeffs = perspective_coeffs(dst, src)
    warped = page.transform((FW, FH), Image.PERSPECTIVE, coeffs, Image.BICUBIC)
    pmask = Image.new("L", (pw, ph), 255).transform((FW, FH), Image.PERSPECTIVE, coeffs, Image.BILINEAR)
    shadow = ImageChops.offset(pmask, 28, 40).filter(ImageFilter.GaussianBlur(30))
    table = multiply_gray(table, shadow.point(lambda v: clamp8(255 - v * 0.55)))
    frame = Image.composite(warped, table, pmask)
    # light from the upper left, warm indoor tint, vignette, sensor noise
    grad = Image.linear_gradient("L").rotate(45, resample=Image.BICUBIC, expand=False, fillcolor=128)
    grad = grad.crop((40, 40, 216, 216)).resize((FW, FH), Image.BICUBIC)
    frame = multiply_gray(frame, grad.point(lambda v: clamp8(255 - v * 0.22)), tint=(0.8, 1.0, 1.3))
    frame = multiply_gray(frame, vignette(FW, FH, 0.35))
    frame = add_grain(rng, frame, 5.0, chroma=0.4)
    frame = frame.filter(ImageFilter.UnsharpMask(radius=2, percent=40, threshold=2))
    save_jpeg(frame, out / "photo-phone-size.jpg", 85)
    save_gt(out / "photo-phone-size.txt", excerpt)
    return (FW, FH, round(xh * s, 1))


def make_keystone(out, excerpt):
    """The excerpt photographed from one side on a dark table: strong keystone perspective,
    the far (right) edge of the sheet 18 % shorter than the near one, so that the lines fan
    out instead of lying parallel (no single deskew angle levels them)."""
    rng = random.Random(1849)
    FW, FH = 2000, 2400
    page, _, xh = render_page(rng, excerpt, "garamond", 64, blotch=12, spots=8, edge=0.05)
    pw, ph = page.size
    table = Image.new("RGB", (FW, FH), (58, 44, 36))
    table = multiply_gray(table, smooth_field(rng, FW, FH, 300).point(lambda v: clamp8(190 + v * 0.25)))
    s = min(FW * 0.84 / pw, FH * 0.8 / ph)
    cx, cy = FW / 2, FH / 2
    hw, hh = pw * s / 2, ph * s / 2
    dst = [(cx - hw, cy - hh), (cx + hw * 0.9, cy - hh * 0.82 + 20),
           (cx + hw * 0.9, cy + hh * 0.82 + 20), (cx - hw, cy + hh)]
    coeffs = perspective_coeffs(dst, [(0, 0), (pw, 0), (pw, ph), (0, ph)])
    warped = page.transform((FW, FH), Image.PERSPECTIVE, coeffs, Image.BICUBIC)
    pmask = Image.new("L", (pw, ph), 255).transform((FW, FH), Image.PERSPECTIVE, coeffs, Image.BILINEAR)
    shadow = ImageChops.offset(pmask, 22, 30).filter(ImageFilter.GaussianBlur(20))
    table = multiply_gray(table, shadow.point(lambda v: clamp8(255 - v * 0.5)))
    frame = Image.composite(warped, table, pmask)
    frame = multiply_gray(frame, vignette(FW, FH, 0.25))
    frame = add_grain(rng, frame, 4.0, chroma=0.3)
    save_jpeg(frame, out / "photo-keystone.jpg", 85)
    save_gt(out / "photo-keystone.txt", excerpt)


def make_large_heading(out, lenore_lines):
    """Poster-like pages for issue 20's "large type": a title in EB Garamond Bold capitals
    over the first four lines of "Lenore" in 48 px print, black on white, 8-bit grey.

    large-heading.png: "LENORE" 600 px tall (about twenty x-heights of the text), on a page
    1800 px tall; its line is large type but under a quarter of the page. Tesseract, handed
    the whole page and asked for that one line, reads it as nothing.
    large-heading-tall.png: the same on a page 1400 px tall, so that the title's line is
    taller than a quarter of the page (such lines were dropped unread).
    heading-over-four-lines.png: the magazine headline of the issue, "SHE MOPED.", 450 px;
    the four short lines fill a narrow band of the wide page, and a line shape fitted to
    them and extrapolated to the heading bent it off the page."""
    body = lenore_lines[2:6]
    body_font = ImageFont.truetype(FONTS["garamond"], 48)
    for name, heading, size, height in (
        ("large-heading", "LENORE", 600, 1800),
        ("large-heading-tall", "LENORE", 600, 1400),
        ("heading-over-four-lines", "SHE MOPED.", 450, 1650),
    ):
        title_font = ImageFont.truetype(FONTS["garamond-bold"], size)
        width = max(2400, int(title_font.getlength(heading)) + 200)
        page = Image.new("L", (width, height), 255)
        draw = ImageDraw.Draw(page)
        draw.text((100, 40), heading, font=title_font, fill=0)
        y = 120 + size
        for line in body:
            draw.text((100, y), line, font=body_font, fill=0)
            y += 70
        page.save(out / f"{name}.png", optimize=True)
        save_gt(out / f"{name}.txt", [heading, ""] + body)


def make_chanson(out):
    rng = random.Random(1866)
    lines = text_lines(CHANSON)
    page, _, xh = render_page(rng, lines, "garamond", 60, base=(244, 238, 222), blotch=8, spots=6)
    page.save(out / "chanson-d-automne.png")
    save_gt(out / "chanson-d-automne.txt", lines)
    return xh


def make_blank(out):
    rng = random.Random(7)
    paper(rng, 1400, 1800).save(out / "blank.png")
    save_gt(out / "blank.txt", "")


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def make_huge_header(out):
    """A 40000x40000 RGB PNG header (4.8 GB decoded) with only 8 rows of data.

    Chunks and CRCs are valid; IDAT stops after 8 scanlines, then IEND. A
    reader that checks the header's dimensions first refuses it at once.
    """
    w = h = 40000
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\xff" * (w * 3) for _ in range(8))
    data = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + \
        png_chunk(b"IDAT", zlib.compress(rows, 9)) + png_chunk(b"IEND", b"")
    (out / "huge-header.png").write_bytes(data)


def subsampled_jp2(rgb, path):
    """A JPEG 2000 whose second and third components are halved both ways (4:2:0), written
    by OpenJPEG's own encoder (Debian's libopenjp2-tools), since Pillow cannot subsample.
    Leptonica 1.82 reads them as if they were full size, past their end."""
    w, h = rgb.size
    red = rgb.getchannel("R").tobytes()
    green = rgb.getchannel("G").resize(((w + 1) // 2, (h + 1) // 2), Image.NEAREST).tobytes()
    with tempfile.TemporaryDirectory() as folder:
        raw = os.path.join(folder, "planes.raw")
        with open(raw, "wb") as planes:
            planes.write(red + green + green)
        subprocess.run(["opj_compress", "-i", raw, "-o", str(path), "-F", f"{w},{h},3,8,u@1x1:2x2:2x2", "-r", "20"],
                       check=True, stdout=subprocess.DEVNULL)


def make_formats(out, lenore_lines):
    d = out / "formats"
    d.mkdir(exist_ok=True)
    stanza1, stanza2 = lenore_lines[2:9], lenore_lines[10:15]

    def page_for(lines):
        mask, _ = render_text(lines, "liberation-serif", 32, title=False, margin=(0.06, 0.10))
        bg = Image.new("RGB", mask.size, (250, 246, 236))
        return ink_onto(bg, mask, (34, 26, 20), 1.0), mask

    rgb, mask = page_for(stanza1)
    page2, _ = page_for(stanza2)
    save_gt(d / "stanza.txt", stanza1)
    save_gt(d / "stanza-multipage-page2.txt", stanza2)

    rgb.save(d / "stanza-rgb8.png")
    im(d / "stanza-rgb8.png", "-depth", "16", "-define", "png:exclude-chunks=date,time",
       "PNG48:" + str(d / "stanza-rgb16.png"))
    gray = rgb.convert("L")
    gray.save(d / "stanza-gray.png")
    rgb.quantize(colors=16, method=Image.MEDIANCUT, dither=Image.NONE).save(d / "stanza-palette.png")
    # transparent background, black text: RGB is black everywhere, only alpha
    # carries the text, so a reader that drops alpha sees an all-black image
    alpha = Image.new("RGBA", mask.size, (0, 0, 0, 0))
    alpha.putalpha(mask)
    alpha.save(d / "stanza-alpha.png")
    save_jpeg(rgb, d / "stanza-baseline.jpg", 92)
    save_jpeg(rgb, d / "stanza-progressive.jpg", 92, progressive=True)
    gray.save(d / "stanza-gray.jpg", "JPEG", quality=92)
    im(d / "stanza-rgb8.png", "-colorspace", "CMYK", "-quality", "92", d / "stanza-cmyk.jpg")
    bw = gray.point(lambda v: 255 if v > 150 else 0).convert("1", dither=Image.NONE)
    bw.save(d / "stanza-1bit.tif", compression="group4")
    rgb.save(d / "stanza-rgb.tif", compression="tiff_lzw")
    rgb.save(d / "stanza-multipage.tif", compression="tiff_lzw", save_all=True, append_images=[page2])
    rgb.save(d / "stanza.webp", quality=90, method=6)
    rgb.save(d / "stanza.jp2", "JPEG2000", irreversible=True, quality_mode="rates", quality_layers=[20])
    subsampled_jp2(rgb, d / "hostile-subsampled.jp2")
    animated_webp(rgb, page2, d / "stanza-animated.webp")
    rgb.save(d / "stanza.bmp")
    rgb.quantize(colors=32, method=Image.MEDIANCUT, dither=Image.NONE).save(d / "stanza.gif")
    rgb.save(d / "stanza.pnm", format="PPM")  # binary P6
    # corrupt inputs
    (d / "not-an-image.png").write_text(
        "This is a plain text file that only pretends to be a PNG.\n", encoding="utf-8")
    (d / "empty.png").write_bytes(b"")
    data = (d / "stanza-rgb8.png").read_bytes()
    (d / "truncated.png").write_bytes(data[: len(data) // 2])
    data = (d / "stanza-baseline.jpg").read_bytes()
    (d / "truncated.jpg").write_bytes(data[: len(data) // 2])


def animated_webp(first, second, path):
    """A two-frame animated WebP (lossy q90): stanza 1 on paper three quarters opaque, so
    that its frame holds an ALPH chunk beside its VP8 one, then stanza 2 on a canvas of the
    first's size (frames share one canvas)."""
    framed = first.convert("RGBA")
    framed.putalpha(first.convert("L").point(lambda v: 255 if v < 128 else 192))
    later = Image.new("RGBA", framed.size, (250, 246, 236, 255))
    later.paste(second.convert("RGBA").crop((0, 0, framed.width, framed.height)), (0, 0))
    framed.save(path, save_all=True, append_images=[later], duration=1000, loop=0, quality=90, method=6)


# EXIF Orientation value -> transform that turns the UPRIGHT image into the
# STORED pixels, i.e. the inverse of what a viewer applies for that value.
#   1 normal               stored = upright
#   2 mirror horizontal    stored = mirror left-right (self-inverse)
#   3 rotate 180           stored = rotate 180 (self-inverse)
#   4 mirror vertical      stored = mirror top-bottom (self-inverse)
#   5 transpose            stored = transpose (self-inverse)
#   6 viewer rotates 90 CW stored = rotated 90 CCW (Pillow ROTATE_90)
#   7 transverse           stored = transverse (self-inverse)
#   8 viewer rotates 90 CCW stored = rotated 90 CW (Pillow ROTATE_270)
STORED_FROM_UPRIGHT = {
    1: None,
    2: Image.FLIP_LEFT_RIGHT,
    3: Image.ROTATE_180,
    4: Image.FLIP_TOP_BOTTOM,
    5: Image.TRANSPOSE,
    6: Image.ROTATE_90,
    7: Image.TRANSVERSE,
    8: Image.ROTATE_270,
}


def make_orientation(out):
    d = out / "orientation"
    d.mkdir(exist_ok=True)
    rng = random.Random(274)
    lines = text_lines(ORIENTATION_TEXT)
    mask, _ = render_text(lines, "dejavu-sans", 42, title=False, margin=(0.08, 0.12))
    bg = paper(rng, *mask.size, base=(246, 242, 232), blotch=6, spots=0, fibre=4, edge=0.03)
    upright = ink_onto(bg, mask, (20, 20, 24), 1.0)
    for value, op in STORED_FROM_UPRIGHT.items():
        stored = upright if op is None else upright.transpose(op)
        save_jpeg(stored, d / f"orientation-{value}.jpg", 92, exif=exif_orientation(value))
        # self-check with Pillow's own reader
        back = ImageOps.exif_transpose(Image.open(d / f"orientation-{value}.jpg"))
        assert back.size == upright.size, (value, back.size)
    save_gt(d / "orientation.txt", lines)


def main():
    out = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else HERE
    out.mkdir(parents=True, exist_ok=True)
    lenore_lines = text_lines(LENORE_SOURCE.read_text(encoding="utf-8"))
    assert lenore_lines[0] == "Lenore" and sum(l.count("Lenore") for l in lenore_lines) == 3
    excerpt = lenore_lines[:15]  # title + the first two stanzas
    assert excerpt[-1] and excerpt[1] == "" and excerpt[9] == ""
    xh = make_lenore(out, lenore_lines)
    print(f"Lenore.png: EB Garamond 52 px, x-height {xh} px")
    info = make_photos(out, excerpt)
    print(f"photo base {info['base'][:2]} x-height {info['base'][2]} px; "
          f"low-res {info['low'][0]}; phone {info['phone'][:2]} x-height ~{info['phone'][2]} px")
    xh = make_chanson(out)
    print(f"chanson-d-automne.png: EB Garamond 60 px, x-height {xh} px")
    make_blank(out)
    make_huge_header(out)
    make_formats(out, lenore_lines)
    make_orientation(out)
    make_never_lose_a_line(out, lenore_lines)
    make_keystone(out, excerpt)
    make_large_heading(out, lenore_lines)


if __name__ == "__main__":
    main()
