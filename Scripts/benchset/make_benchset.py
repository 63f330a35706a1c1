#!/usr/bin/python3
"""The held-out benchmark set of `make bench` (snap-poem-bench heldout), rendered at bench time.

    /usr/bin/python3 Scripts/benchset/make_benchset.py OUTPUT_DIR

Writes OUTPUT_DIR/NAME.{png,jpg} with OUTPUT_DIR/NAME.txt (the exact ground truth) and
OUTPUT_DIR/index.tsv (name, category, language, a name in the poem to replace or "-").
Nothing here is committed output: the images are made again on every bench run (about 40 s),
from fixed seeds, so they are the same every time.

Held out from SampleImages/: other poems (Scripts/benchset/poems.py), other fonts (Linux
Libertine, FreeSerif, URW C059 and P052, Nimbus Sans; SampleImages uses EB Garamond,
Liberation Serif and DejaVu Sans), other seeds and other layouts (book pages with a curl,
magazine pages in columns). Everything is rendered: there is no camera here. A "photo" is a
render with blur, noise, uneven light, JPEG compression, perspective or a page curl applied
by the functions below, not a photograph. The exception: two real scanned pages
(Scripts/benchset/real/, Tesseract's own test images), copied in as they are.

Debian packages: python3-pil python3-numpy fonts-linuxlibertine fonts-freefont-ttf
fonts-urw-base35 (make bench installs them).
"""

import math
import random
import shutil
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parent))
import poems  # noqa: E402

FONTS = {
    "libertine": "/usr/share/fonts/opentype/linux-libertine/LinLibertine_R.otf",
    "freeserif": "/usr/share/fonts/truetype/freefont/FreeSerif.ttf",
    "c059": "/usr/share/fonts/opentype/urw-base35/C059-Roman.otf",
    "p052": "/usr/share/fonts/opentype/urw-base35/P052-Roman.otf",
    "sans-bold": "/usr/share/fonts/opentype/urw-base35/NimbusSans-Bold.otf",
    "sans": "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf",
}


def lines_of(text):
    return [line.rstrip() for line in text.rstrip("\n").split("\n")]


def truth(lines):
    return "\n".join(lines).strip("\n") + "\n"


# ---- rendering ---------------------------------------------------------------


def render(lines, font, size, *, leading=1.4, margin=1.6, title=True, width=None):
    """An L mask (255 = ink) of the lines: a centred title when `title`, blank lines as
    stanza breaks, the rest left-aligned. Margins are `margin` times the font size."""
    body = ImageFont.truetype(FONTS[font], size)
    head = ImageFont.truetype(FONTS[font], int(size * 1.35))
    pitch = size * leading
    text_width = max((head if title and i == 0 else body).getlength(line) for i, line in enumerate(lines))
    pad = int(size * margin)
    w = int(width or text_width + 2 * pad)
    h = int(pitch * (len(lines) + 0.6) + 2 * pad)
    mask = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(mask)
    y = pad + size
    for i, line in enumerate(lines):
        if title and i == 0:
            draw.text((w / 2, y), line, font=head, fill=255, anchor="ms")
            y += pitch * 1.3
            continue
        if line:
            draw.text((pad, y), line, font=body, fill=255, anchor="ls")
        y += pitch
    return mask


def paper(rng, size, base, mottle=8):
    w, h = size
    img = Image.new("RGB", size, base)
    if mottle:
        small = Image.frombytes("L", (w // 40 + 2, h // 40 + 2), rng.randbytes((w // 40 + 2) * (h // 40 + 2)))
        field = small.resize((w, h), Image.BICUBIC).filter(ImageFilter.GaussianBlur(20))
        field = field.point(lambda v: 255 - int(mottle * v / 255))
        img = ImageChops.multiply(img, Image.merge("RGB", (field,) * 3))
    return img


def ink(page, mask, colour):
    return Image.composite(Image.new("RGB", page.size, colour), page, mask)


def grain(rng, img, amount):
    arr = np.asarray(img, dtype=np.int16)
    noise = np.frombuffer(rng.randbytes(arr.size), dtype=np.uint8).reshape(arr.shape).astype(np.int16)
    noise = ((noise - 128) * amount / 128).astype(np.int16)
    return Image.fromarray(np.clip(arr + noise, 0, 255).astype(np.uint8))


def light(img, fn):
    """Multiplies every pixel by fn(x, y) (arrays in 0..1 of the image's size)."""
    w, h = img.size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    factor = fn(xs / w, ys / h)
    arr = np.asarray(img, dtype=np.float32) * factor[..., None]
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))


def remap(img, xs, ys, fill):
    """Bilinear resampling: the output pixel (v, u) takes the source at (ys, xs)."""
    src = np.asarray(img, dtype=np.float32)
    h, w = src.shape[:2]
    x0 = np.floor(xs).astype(np.int32)
    y0 = np.floor(ys).astype(np.int32)
    fx = (xs - x0)[..., None]
    fy = (ys - y0)[..., None]
    inside = (x0 >= 0) & (y0 >= 0) & (x0 < w - 1) & (y0 < h - 1)
    x0c = np.clip(x0, 0, w - 2)
    y0c = np.clip(y0, 0, h - 2)
    top = src[y0c, x0c] * (1 - fx) + src[y0c, x0c + 1] * fx
    bottom = src[y0c + 1, x0c] * (1 - fx) + src[y0c + 1, x0c + 1] * fx
    out = top * (1 - fy) + bottom * fy
    out[~inside] = fill
    return Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))


def curl(page, lift_top, lift_bottom, start=0.45, spine="right", squeeze=0.10, shadow=0.55):
    """A page of an open book: from `start` (share of the width) to the spine the lines rise
    quadratically, by `lift_top` px at the top of the page and `lift_bottom` at its bottom,
    the paper is foreshortened (`squeeze`) and darkens into the gutter (`shadow`)."""
    w, h = page.size
    v, u = np.mgrid[0:h, 0:w].astype(np.float32)
    pos = u / w if spine == "right" else 1 - u / w
    s = np.clip((pos - start) / (1 - start), 0, 1)
    lift = lift_top + (lift_bottom - lift_top) * (v / h)
    ys = v + lift * s * s
    shift = squeeze * w * s**3 / 3
    xs = u + shift if spine == "right" else u - shift
    curled = remap(page, xs, ys, fill=(70, 60, 52))
    return light(curled, lambda x, y: 1 - shadow * np.clip(((x if spine == "right" else 1 - x) - 0.82) / 0.18, 0, 1) ** 2)


def perspective(img, corners, size, fill):
    """Places img so that its corners land on `corners` (tl, tr, br, bl) in an image of `size`."""
    w, h = img.size
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    a, b = [], []
    for (x, y), (u, v) in zip(corners, src):
        a.append([x, y, 1, 0, 0, 0, -x * u, -y * u])
        b.append(u)
        a.append([0, 0, 0, x, y, 1, -x * v, -y * v])
        b.append(v)
    coeffs = np.linalg.solve(np.array(a, dtype=np.float64), np.array(b, dtype=np.float64))
    out = img.transform(size, Image.PERSPECTIVE, tuple(coeffs), Image.BICUBIC, fillcolor=fill)
    return out


def on_table(rng, page, frame, corners, table=(64, 50, 42)):
    """The page in perspective on a dark table with a drop shadow."""
    fw, fh = frame
    bg = paper(rng, frame, table, mottle=30)
    mask = perspective(Image.new("L", page.size, 255), corners, frame, 0)
    shadow = ImageChops.offset(mask, 18, 26).filter(ImageFilter.GaussianBlur(16))
    bg = ImageChops.multiply(bg, Image.merge("RGB", (shadow.point(lambda v: 255 - int(v * 0.5)),) * 3))
    placed = perspective(page, corners, frame, table)
    return Image.composite(placed, bg, mask)


# ---- the categories ----------------------------------------------------------


class Writer:
    def __init__(self, out):
        self.out = out
        self.rows = []

    def add(self, name, image, lines, category, language, replace="-", jpeg=None):
        path = self.out / (name + (".jpg" if jpeg else ".png"))
        if jpeg:
            image.convert("RGB").save(path, "JPEG", quality=jpeg, optimize=True)
        else:
            image.save(path, optimize=True)
        (self.out / (name + ".txt")).write_text(truth(lines), encoding="utf-8")
        self.rows.append((path.name, category, language, replace))

    def copy(self, source, category, language, replace="-"):
        """Adds an image file as it is, with the .txt beside it as its ground truth."""
        shutil.copyfile(source, self.out / source.name)
        shutil.copyfile(source.with_suffix(".txt"), self.out / (source.stem + ".txt"))
        self.rows.append((source.name, category, language, replace))


def poem_page(rng, text, font, size, base=(250, 248, 243), colour=(22, 20, 24), mottle=6, **kw):
    lines = lines_of(text)
    mask = render(lines, font, size, **kw)
    return ink(paper(rng, mask.size, base, mottle), mask, colour), lines


def clean(writer):
    rng = random.Random(2020)
    for name, text, font, size in [
        ("clean-raven", poems.RAVEN, "libertine", 40),
        ("clean-london", poems.LONDON, "c059", 44),
        ("clean-sonnet", poems.SONNET18, "p052", 42),
        ("clean-lamb", poems.LAMB, "freeserif", 46),
        ("clean-remember", poems.REMEMBER, "libertine", 46),
    ]:
        page, lines = poem_page(rng, text, font, size)
        writer.add(name, page.convert("L"), lines, "clean poem render", "en")


def degraded(writer):
    rng = random.Random(2021)
    page, lines = poem_page(rng, poems.DREAM, "c059", 44, base=(238, 230, 210), colour=(40, 30, 26), mottle=14)
    writer.add("photo-blur-dream", grain(rng, page.filter(ImageFilter.GaussianBlur(1.6)), 10), lines, "degraded photo", "en", jpeg=88)
    page, lines = poem_page(rng, poems.OZYMANDIAS, "p052", 44, base=(236, 232, 220), mottle=12)
    shaded = light(page, lambda x, y: 0.42 + 0.58 * np.clip(1.2 - x, 0, 1) ** 0.6)
    writer.add("photo-shadow-ozymandias", grain(rng, shaded, 12), lines, "degraded photo", "en", "Ozymandias", jpeg=85)
    page, lines = poem_page(rng, poems.DAFFODILS, "libertine", 46, base=(214, 210, 200), colour=(120, 112, 104))
    writer.add("photo-lowcontrast-daffodils", grain(rng, page, 8), lines, "degraded photo", "en", jpeg=80)
    page, lines = poem_page(rng, poems.BEAUTY, "freeserif", 44, base=(242, 238, 226), mottle=10)
    tilted = page.rotate(-3.2, resample=Image.BICUBIC, expand=True, fillcolor=(242, 238, 226))
    writer.add("photo-tilt-beauty", grain(rng, tilted, 9), lines, "degraded photo", "en", jpeg=85)
    page, lines = poem_page(rng, poems.AUTUMN, "c059", 42, base=(246, 244, 236), mottle=8)
    writer.add("photo-jpeg-autumn", page, lines, "degraded photo", "en", jpeg=22)


def french(writer):
    rng = random.Random(2022)
    for name, text, font, size in [
        ("fr-clean-lac", poems.LE_LAC, "libertine", 44),
        ("fr-clean-il-pleure", poems.IL_PLEURE, "c059", 46),
        ("fr-clean-albatros", poems.ALBATROS, "p052", 42),
    ]:
        page, lines = poem_page(rng, text, font, size)
        writer.add(name, page.convert("L"), lines, "French, clean", "fr")
    page, lines = poem_page(rng, poems.MON_REVE, "freeserif", 44, base=(236, 226, 204), colour=(42, 32, 28), mottle=14)
    lit = light(page, lambda x, y: 0.55 + 0.45 * np.clip(1.3 - y, 0, 1))
    writer.add("fr-photo-mon-reve", grain(rng, lit.filter(ImageFilter.GaussianBlur(1.0)), 10), lines, "French, photo-like", "fr", jpeg=85)
    page, lines = poem_page(rng, poems.DORMEUR, "libertine", 44, base=(240, 236, 224), mottle=10)
    tilted = page.rotate(2.4, resample=Image.BICUBIC, expand=True, fillcolor=(240, 236, 224))
    writer.add("fr-photo-dormeur", grain(rng, tilted, 10), lines, "French, photo-like", "fr", jpeg=82)
    page, lines = poem_page(rng, poems.SEMAILLES, "c059", 46, base=(230, 232, 236), colour=(30, 30, 60), mottle=10)
    writer.add("fr-photo-semailles", grain(rng, light(page, lambda x, y: 0.6 + 0.4 * (1 - (2 * x - 1) ** 2 * (2 * y - 1) ** 2)), 11), lines, "French, photo-like", "fr", jpeg=80)


def book_page(rng, text, font, size, lift, spine, frame_it, name, category, language, replace, writer):
    lines = lines_of(text)
    mask = render(lines, font, size, margin=2.2)
    page = ink(paper(rng, mask.size, (244, 238, 222), 10), mask, (28, 24, 22))
    curled = curl(page, lift * 1.25, lift * 0.8, spine=spine)
    if frame_it:
        w, h = curled.size
        fw, fh = int(w * 1.18), int(h * 1.14)
        dx, dy = (fw - w) / 2, (fh - h) / 2
        k = 0.035 * w
        corners = [(dx + k, dy), (dx + w - k * 0.4, dy + k * 0.5), (dx + w + k * 0.3, dy + h), (dx - k * 0.5, dy + h - k * 0.3)]
        curled = on_table(rng, curled, (fw, fh), corners)
    writer.add(name, grain(rng, curled, 9), lines, category, language, replace, jpeg=86)


def book(writer):
    rng = random.Random(2023)
    book_page(rng, poems.ANNABEL, "libertine", 42, 62, "right", False, "book-annabel", "book photo", "en", "Annabel", writer)
    book_page(rng, poems.RAVEN, "p052", 38, 88, "left", True, "book-raven", "book photo", "en", "Lenore", writer)
    book_page(rng, poems.OZYMANDIAS, "c059", 42, 75, "right", True, "book-ozymandias", "book photo", "en", "Ozymandias", writer)
    book_page(rng, poems.SEMAILLES, "freeserif", 42, 55, "left", False, "book-fr-semailles", "book photo", "fr", "-", writer)
    book_page(rng, poems.DORMEUR, "libertine", 42, 80, "right", True, "book-fr-dormeur", "book photo", "fr", "-", writer)
    book_page(rng, poems.LE_LAC, "c059", 40, 70, "left", True, "book-fr-lac", "book photo", "fr", "-", writer)


def magazine(writer):
    """300-dpi scans of magazine pages: a large headline across the page, a byline, body
    text in two or three columns (prose set in paragraphs, then a poem)."""
    rng = random.Random(2024)
    pages = [
        ("scan-magazine-heart", "THE TELL-TALE HEART", "A tale by Edgar Allan Poe", [poems.PROSE_TELL_TALE, poems.PROSE_OVAL], 2),
        ("scan-magazine-veil", "SUNDAY IN MILFORD", "From a story by Nathaniel Hawthorne", [poems.PROSE_VEIL, poems.PROSE_OVAL, poems.PROSE_TELL_TALE], 3),
        ("scan-magazine-poems", "TWO POEMS", "Selected verse", [lines_of(poems.LONDON), lines_of(poems.DAFFODILS)], 2),
    ]
    for name, headline, byline, parts, columns in pages:
        W, H = 2550, 3300
        mask = Image.new("L", (W, H), 0)
        draw = ImageDraw.Draw(mask)
        head = ImageFont.truetype(FONTS["sans-bold"], 150)
        sub = ImageFont.truetype(FONTS["sans"], 56)
        body = ImageFont.truetype(FONTS["freeserif" if columns == 3 else "c059"], 40)
        margin, gutter = 190, 90
        draw.text((margin, 360), headline, font=head, fill=255, anchor="ls")
        draw.text((margin, 470), byline, font=sub, fill=255, anchor="ls")
        out = [headline, byline, ""]
        col_w = (W - 2 * margin - gutter * (columns - 1)) / columns
        # Every part is broken into lines that fit a column, then poured column by column.
        flow = []
        for part in parts:
            if isinstance(part, str):
                words, line = part.split(), ""
                for word in words:
                    trial = (line + " " + word).strip()
                    if body.getlength(trial) > col_w and line:
                        flow.append(line)
                        line = word
                    else:
                        line = trial
                flow.append(line)
            else:
                flow.extend(part)
            flow.append("")
        pitch = 54
        top = 600
        per_column = int((H - top - 200) / pitch)
        # Columns are filled in turn, breaking inside a paragraph where they must.
        while flow and flow[-1] == "":
            flow.pop()
        target = min(per_column, math.ceil(len(flow) / columns))
        column_lines = [[] for _ in range(columns)]
        c = 0
        for line in flow:
            if c < columns - 1 and len(column_lines[c]) >= target:
                c += 1
            if line == "" and not column_lines[c]:
                continue
            column_lines[c].append(line)
        for c, column in enumerate(column_lines):
            x = margin + c * (col_w + gutter)
            y = top
            for line in column:
                if line:
                    draw.text((x, y), line, font=body, fill=255, anchor="ls")
                y += pitch
            out.extend(column)
            out.append("")
        scan = ink(paper(rng, (W, H), (250, 250, 247), 4), mask, (16, 16, 18)).convert("L")
        scan = scan.rotate(0.4, resample=Image.BICUBIC, fillcolor=250)
        writer.add(name, grain(rng, scan.convert("RGB"), 5).convert("L"), [l for l in out], "scanned page (300 dpi, columns)", "en")


def turned(writer):
    rng = random.Random(2025)
    for name, text, font, turn in [("turned-90-lamb", poems.LAMB, "p052", Image.ROTATE_270),
                                   ("turned-180-sonnet", poems.SONNET18, "libertine", Image.ROTATE_180),
                                   ("turned-270-fr-albatros", poems.ALBATROS, "freeserif", Image.ROTATE_90)]:
        page, lines = poem_page(rng, text, font, 44, base=(240, 236, 226), mottle=10)
        writer.add(name, grain(rng, page, 6).transpose(turn), lines, "turned page", "fr" if "-fr-" in name else "en", jpeg=88)


def low_resolution(writer):
    rng = random.Random(2026)
    for name, text, font, factor in [("lowres-beauty", poems.BEAUTY, "c059", 0.36), ("lowres-fr-dormeur", poems.DORMEUR, "libertine", 0.42)]:
        page, lines = poem_page(rng, text, font, 44, base=(244, 240, 230), mottle=8)
        w, h = page.size
        small = page.resize((int(w * factor), int(h * factor)), Image.LANCZOS)
        writer.add(name, small, lines, "low-resolution photo", "fr" if "-fr-" in name else "en", jpeg=90)


def phone(writer):
    rng = random.Random(2027)
    for name, text, font, language, replace in [("phone-annabel", poems.ANNABEL, "freeserif", "en", "Annabel"),
                                                ("phone-fr-il-pleure", poems.IL_PLEURE, "p052", "fr", "-")]:
        page, lines = poem_page(rng, text, font, 92, base=(246, 242, 232), mottle=12)
        w, h = page.size
        fw, fh = 3024, 4032
        scale = min(fw * 0.84 / w, fh * 0.84 / h)
        pw, ph = w * scale, h * scale
        cx, cy = fw / 2 + 20, fh / 2 - 15
        corners = [(cx - pw / 2 + 60, cy - ph / 2 + 20), (cx + pw / 2 - 30, cy - ph / 2 - 15),
                   (cx + pw / 2 + 25, cy + ph / 2 + 10), (cx - pw / 2 - 20, cy + ph / 2 - 25)]
        frame = on_table(rng, page, (fw, fh), corners)
        frame = light(frame, lambda x, y: 1 - 0.3 * ((x - 0.4) ** 2 + (y - 0.45) ** 2))
        writer.add(name, grain(rng, frame, 10), lines, "phone-size photo", language, replace, jpeg=85)


def angled(writer):
    """A sheet on a table photographed at an angle: strong keystone perspective, the far edge
    of the sheet 20–25 % shorter than the near one, so that its lines fan out."""
    rng = random.Random(2031)
    for name, text, font, language, replace, far in [
        ("angled-remember", poems.REMEMBER, "c059", "en", "-", "right"),
        ("angled-fr-mon-reve", poems.MON_REVE, "libertine", "fr", "-", "left"),
    ]:
        page, lines = poem_page(rng, text, font, 58, base=(247, 244, 236), mottle=10)
        w, h = page.size
        fw, fh = 2200, 2800
        scale = min(fw * 0.8 / w, fh * 0.78 / h)
        pw, ph = w * scale, h * scale
        cx, cy = fw / 2, fh / 2
        near, far_top, far_bottom = ph / 2, ph / 2 * 0.78, ph / 2 * 0.8
        if far == "right":
            corners = [(cx - pw / 2, cy - near), (cx + pw * 0.42, cy - far_top + 30),
                       (cx + pw * 0.42, cy + far_bottom + 30), (cx - pw / 2, cy + near)]
        else:
            corners = [(cx - pw * 0.42, cy - far_top - 20), (cx + pw / 2, cy - near),
                       (cx + pw / 2, cy + near), (cx - pw * 0.42, cy + far_bottom - 20)]
        frame = on_table(rng, page, (fw, fh), corners)
        frame = light(frame, lambda x, y: 1 - 0.25 * ((x - 0.45) ** 2 + (y - 0.4) ** 2))
        writer.add(name, grain(rng, frame, 8), lines, "angled photo", language, replace, jpeg=86)


def real_scans(writer):
    """The two real scanned pages of Scripts/benchset/real/ (Tesseract's test images,
    Apache 2.0; see the README there), copied as they are."""
    folder = Path(__file__).resolve().parent / "real"
    for name, language in [("phototest.tif", "en"), ("eurotext.tif", "multi")]:
        writer.copy(folder / name, "real scanned page", language)


def main():
    out = Path(sys.argv[1]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    writer = Writer(out)
    for make in (clean, degraded, french, book, magazine, turned, low_resolution, phone, angled, real_scans):
        make(writer)
    with open(out / "index.tsv", "w", encoding="utf-8") as index:
        for row in writer.rows:
            index.write("\t".join(row) + "\n")
    print(f"{len(writer.rows)} images in {out}")


if __name__ == "__main__":
    main()
