#!/usr/bin/python3
"""A corpus of poem photos and scans with randomised conditions, split into a tuning part and
a held-out part, each image with its exact ground truth.

    make_corpus.py OUT_DIR [--count N] [--seed S] [--jobs 2] [--only CLASS[,CLASS]]
    make_corpus.py --self-test

Writes OUT_DIR/ID.{jpg,png,tif}, OUT_DIR/ID.txt (exactly the text drawn, lines as drawn,
stanza breaks as blank lines) and OUT_DIR/index.tsv and index.json (per image: its class, its
part, language, the muse's name in the text and how often it occurs there, the poem, the
faces, the x-height, and every condition with the values drawn for it).

An image's id is CLASS-NNN. Its part ('tune' or 'holdout', 40 % of every class held out) is
decided by a stable hash of the id alone (`part_of`), so the split never changes when
parameters, counts or seeds change; so is its language (a third French, `language_of`). Its
parameters come from a generator seeded with (seed, id), so image CLASS-007 is the same
whatever --count is. The held-out images also use only held-out poems (texts.poem_part).
Tune the pipeline on the 'tune' part; quote figures from the 'holdout' part. See README.md.

Debian packages: python3-pil python3-numpy fonts-linuxlibertine fonts-freefont-ttf
fonts-urw-base35 fonts-texgyre fonts-ebgaramond fonts-dejavu-core fonts-dejavu-extra
fonts-dancingscript (and tesseract-ocr for the self-test's sanity check).
"""

import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

from PIL import Image, ImageFilter

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import camera  # noqa: E402
import layout  # noqa: E402
import texts  # noqa: E402

# The classes and their share of the corpus (images of each at --count 300).
CLASSES = [
    ("clean", 16), ("degraded", 16), ("typeface", 22), ("layout", 26),
    ("shadow", 14), ("glare", 14), ("low-light", 14), ("motion-blur", 14), ("screen", 14), ("keystone", 14),
    ("fold", 11), ("crumpled", 11), ("uneven-light", 11), ("border", 11), ("rotation", 11), ("turned", 11),
    ("phone-4032", 11), ("low-res", 11), ("book", 22), ("combo", 26),
]
PHOTO_CONDITIONS = ["shadow", "glare", "low-light", "motion-blur", "keystone", "fold", "crumpled", "uneven-light",
                    "border", "rotation", "turned", "low-res", "phone-4032", "book", "screen"]
EXCLUDES = {
    "screen": {"fold", "crumpled", "book", "border", "low-light"},
    "book": {"fold", "crumpled", "screen"},
    "low-res": {"phone-4032"},
}
LAYOUT_FEATURES = ["drop-cap", "centred", "line-numbers", "two-poems", "spaced-title", "epigraph", "footnote"]
REF = 40.0  # the body size at which a page is composed first, to size it

PAPERS = {
    "white": (248, 247, 243), "ivory": (250, 245, 230), "cream": (244, 234, 206), "yellowed": (236, 222, 182),
    "grey": (218, 215, 208), "blue": (226, 234, 244), "pink": (246, 226, 226), "green": (229, 240, 223),
}
INKS = {
    "black": (22, 20, 24), "brown": (52, 36, 26), "blue-black": (22, 26, 62), "grey": (58, 58, 62),
    "red": (112, 22, 32), "blue": (24, 44, 116), "green": (22, 72, 42),
}
TABLES = {"dark-wood": (64, 50, 42), "walnut": (46, 34, 28), "grey-desk": (92, 92, 98), "black": (26, 26, 28),
          "oak": (150, 118, 86), "white-desk": (206, 204, 200), "green-felt": (40, 70, 52)}


def part_of(image_id):
    """'holdout' or 'tune', from the id alone. A class's images are taken in blocks of five by
    index, and a hash of (class, block) picks the two of each block that are held out: 40 %
    in every class (a hash of each id alone left some classes with 2 of 16 held out), and
    image CLASS-NNN's part never depends on parameters, counts or the seed."""
    return "holdout" if _picked(image_id, 5, 2, "part") else "tune"


def language_of(image_id):
    """'fr' for one image in every three of a class (a hash of (class, block) picks which)."""
    return "fr" if _picked(image_id, 3, 1, "language") else "en"


def _picked(image_id, block_size, picks, what):
    cls, number = image_id.rsplit("-", 1)
    block, position = divmod(int(number), block_size)
    order = sorted(range(block_size), key=lambda k: texts.stable_share(f"{what}/{cls}/{block}/{k}"))
    return position in order[:picks]


def allocate(count):
    """Images per class for `count` in all (largest remainders over the shares above)."""
    total = sum(w for _, w in CLASSES)
    raw = [(name, w * count / total) for name, w in CLASSES]
    got = {name: int(r) for name, r in raw}
    for name, r in sorted(raw, key=lambda x: x[1] - int(x[1]), reverse=True)[: count - sum(got.values())]:
        got[name] += 1
    return got


def u(rng, a, b, nd=3):
    return round(rng.uniform(a, b), nd)


# ---- texts and typography -------------------------------------------------------------


def poem_entry(rng, key, language, muse=None, with_extras=True):
    text, lang, author, name = texts.POEMS[key]
    lines = texts.lines_of(text)
    if rng.random() < (0.5 if lang == "fr" else 0.3):
        lines = texts.typographic(lines, lang)
    entry = {"key": key, "lines": lines, "author": author if with_extras and rng.random() < 0.35 else None}
    if name:
        entry["muse"] = name
    elif muse is not False:
        entry["muse"] = rng.choice(texts.MUSES[lang])
        entry["dedication"] = rng.choice(texts.DEDICATIONS[lang]).format(entry["muse"])
    return entry


def layout_spec(rng, poems, style, features, book=False):
    alltext = "".join("".join(p["lines"]) + (p.get("dedication") or "") for p in poems)
    face = layout.pick_face(rng, style, alltext)
    italic = layout.pick_face(rng, "italic", alltext + "«»“”’—…") if style != "italic" else face
    small = face if style in ("roman", "sans") else layout.pick_face(rng, "roman", alltext)
    spec = {
        "style": style, "face": face, "italic_face": italic, "small_face": small,
        "title_face": layout.pick_face(rng, "bold", alltext) if style in ("roman", "sans") and rng.random() < 0.3 else face,
        "title_style": "spaced" if "spaced-title" in features else ("caps" if rng.random() < 0.15 else "plain"),
        "title_scale": u(rng, 1.15, 1.8), "title_align": "c" if rng.random() < 0.75 else "l",
        "dedication_align": rng.choice(["c", "r", "l"]),
        "body_align": "c" if "centred" in features or (style == "script" and rng.random() < 0.6) else "l",
        "leading": u(rng, 1.15, 1.75),
        "margins": [u(rng, 1.0, 4.0), u(rng, 1.0, 4.0), u(rng, 1.0, 4.0), u(rng, 1.0, 4.0)],
        "gutter": u(rng, 2.5, 5.0),
        "drop_cap": rng.choice([2, 3]) if "drop-cap" in features else None,
        "line_numbers": rng.choice(["left", "right"]) if "line-numbers" in features else None,
        "poems": poems,
    }
    for poem in poems:
        # A name only in the title would be lost to a spaced or capitalised title: a
        # dedication carries it too (no draw, so no other image changes).
        name = texts.POEMS[poem["key"]][3]
        if name and spec["title_style"] != "plain" and not poem.get("dedication") and not any(
                texts.count_name(line, name) for line in poem["lines"][1:]):
            poem["dedication"] = texts.DEDICATIONS[texts.POEMS[poem["key"]][1]][0].format(name)
    if spec["drop_cap"] and spec["body_align"] == "c":
        spec["body_align"] = "l"
    language = "fr" if texts.POEMS[poems[0]["key"]][1] == "fr" else "en"
    if "epigraph" in features:
        poems[0]["epigraph"] = rng.choice(texts.EPIGRAPHS[language])
    if "footnote" in features:
        poems[-1]["footnote"] = [line.format(year=rng.randint(1820, 1899)) for line in rng.choice(texts.FOOTNOTES[language])]
    if book:
        spec["margins"] = [u(rng, 2.0, 3.5), u(rng, 2.0, 3.5), u(rng, 3.0, 4.5), u(rng, 2.5, 4.5)]
        if rng.random() < 0.4:
            spec["running_head"] = rng.choice(texts.RUNNING_HEADS[language])
        if rng.random() < 0.7:
            spec["page_number"] = str(rng.randint(9, 287))
    return spec


def choose_text(rng, part, language, features):
    two = "two-poems" in features
    key = rng.choice(texts.pool(part, language, short_lines=two))
    poems = [poem_entry(rng, key, language)]
    if two:
        others = [k for k in texts.pool(part, language, short_lines=True) if k != key and not texts.POEMS[k][3]]
        poems.append(poem_entry(rng, rng.choice(others), language, muse=False))
    return poems


def draw_features(rng, cls):
    if cls == "layout":
        k = rng.choice([1, 1, 2, 2, 3])
        return sorted(rng.sample(LAYOUT_FEATURES, k))
    if cls in ("screen", "book"):
        pool = [f for f in LAYOUT_FEATURES if f != "two-poems"]
    else:
        pool = LAYOUT_FEATURES
    return [rng.choice(pool)] if rng.random() < 0.15 else []


def draw_style(rng, cls):
    if cls == "typeface":
        return rng.choices(["italic", "script", "bold", "sans"], [35, 25, 25, 15])[0]
    return rng.choices(["roman", "sans", "italic", "bold"], [78, 10, 8, 4])[0]


# ---- conditions ----------------------------------------------------------------------------


def draw_conditions(rng, cls):
    """The photo conditions of an image: its class's own, strong; for 'combo' 2-3 of them."""
    if cls == "combo":
        chosen = []
        for _ in range(rng.choice([2, 2, 3])):
            options = [c for c in PHOTO_CONDITIONS if c not in chosen and not any(
                c in EXCLUDES.get(x, ()) or x in EXCLUDES.get(c, ()) for x in chosen)]
            chosen.append(rng.choice(options))
        return sorted(chosen)
    return [cls] if cls in PHOTO_CONDITIONS else []


def geometry(rng, conds):
    g = {"rotation": 0.0, "keystone": 0.0, "far_edge": rng.choice(["top", "top", "bottom", "left", "right"]),
         "jitter": [u(rng, -0.008, 0.008, 4) for _ in range(8)], "aspect": None, "offset": [u(rng, -1, 1), u(rng, -1, 1)]}
    g["rotation"] = (rng.choice([-1, 1]) * u(rng, 0.8, 4.0)) if "rotation" in conds else (u(rng, -1.2, 1.2) if rng.random() < 0.7 else 0.0)
    g["keystone"] = u(rng, 0.25, 0.40) if "keystone" in conds else (u(rng, 0.0, 0.10) if rng.random() < 0.6 else 0.0)
    if "border" in conds:
        g.update(mode="table", coverage=u(rng, 0.40, 0.62), table=rng.choice(["dark-wood", "walnut", "black", "green-felt", "grey-desk"]))
    elif "keystone" in conds or rng.random() < 0.6:
        g.update(mode="table", coverage=u(rng, 0.70, 0.93), table=rng.choice(sorted(TABLES)))
    else:
        g.update(mode="fill", margin=u(rng, 0.03, 0.14), table=rng.choice(sorted(TABLES)))
    r = rng.random()
    g["aspect_kind"] = "4:3" if r < 0.6 else ("16:9" if r < 0.75 else "crop")
    return g


def camera_base(rng, conds):
    c = {"blur": u(rng, 0.3, 0.9), "luma": u(rng, 1.5, 4.5), "chroma": u(rng, 0.5, 2.0), "quality": rng.randint(72, 93),
         "exposure": u(rng, 0.88, 1.05), "white_balance": [u(rng, 0.95, 1.05), 1.0, u(rng, 0.92, 1.05)]}
    if "low-light" in conds:
        c.update(exposure=u(rng, 0.28, 0.55), luma=u(rng, 8, 18), chroma=u(rng, 4, 10), quality=rng.randint(40, 60),
                 white_balance=[u(rng, 1.02, 1.12), 1.0, u(rng, 0.78, 0.92)])
    if "motion-blur" in conds:
        c["motion"] = {"length": u(rng, 3, 6, 2), "angle": u(rng, 0, 180, 1)}
    return c


def condition_params(rng, name, size):
    """Parameters of one frame- or page-level condition (size: the body size in px)."""
    if name == "shadow":
        return {"corner": rng.choice(["tl", "tr", "bl", "br"]), "reach": [u(rng, 0.3, 0.6), u(rng, 0.3, 0.6)],
                "phone": u(rng, 0.3, 0.55), "phone_width": u(rng, 0.08, 0.15), "phone_angle": u(rng, -20, 20, 1),
                "darkness": u(rng, 0.35, 0.65), "softness": u(rng, 0.015, 0.05)}
    if name == "glare":
        return {"at": [u(rng, 0.15, 0.85), u(rng, 0.15, 0.85)], "radii": [u(rng, 0.05, 0.14), u(rng, 0.04, 0.10)],
                "angle": u(rng, 0, 180, 1), "peak": u(rng, 140, 215, 1), "flat": u(rng, 2.0, 4.0, 2),
                "tint": [1.0, u(rng, 0.97, 1.0), u(rng, 0.9, 1.0)]}
    if name == "uneven-light":
        return {"angle": u(rng, 0, 360, 1), "gradient": u(rng, 0.3, 0.6), "vignette": u(rng, 0.25, 0.6),
                "centre": [u(rng, 0.3, 0.7), u(rng, 0.3, 0.7)]}
    if name == "fold":
        horizontal = rng.random() < 0.65
        s = size / REF
        return {"axis": "horizontal" if horizontal else "vertical", "position": u(rng, 0.3, 0.7) if horizontal else u(rng, 0.4, 0.6),
                "angle": u(rng, -8, 8, 2), "shift_across": u(rng, 1, 4) * s, "shift_along": u(rng, -3, 3) * s,
                "step": rng.choice([-1, 1]) * u(rng, 0.05, 0.18), "ridge": u(rng, -0.15, 0.12), "width": u(rng, 2, 8) * s}
    if name == "crumpled":
        xh = size * 0.47
        return {"cells": u(rng, 4, 9, 2), "amplitude": u(rng, 0.1, 0.35) * xh, "shade": u(rng, 0.08, 0.22),
                "light_angle": u(rng, 0, 360, 1),
                "creases": [[u(rng, 0, 1), u(rng, 0, 1), u(rng, 0, 1), u(rng, 0, 1), u(rng, -0.15, 0.1)] for _ in range(rng.randint(3, 8))]}
    raise ValueError(name)


def mild_light(rng):
    return {"angle": u(rng, 0, 360, 1), "gradient": u(rng, 0.0, 0.2), "vignette": u(rng, 0.0, 0.2),
            "centre": [u(rng, 0.3, 0.7), u(rng, 0.3, 0.7)]}


# ---- the images -------------------------------------------------------------------------------


class Built:
    """What a pipeline made: the image, its truth, the drawn log, format and parameters."""

    def __init__(self, image, truth, log, fmt, quality, params, x_height):
        self.image, self.truth, self.log, self.fmt, self.quality = image, truth, log, fmt, quality
        self.params, self.x_height = params, x_height


def render_page(rng, spec, size, paper, ink, mottle, density):
    mask, truth, log, _ = layout.render(spec, size)
    page = camera.page_image(rng, mask, PAPERS[paper], INKS[ink], mottle, density)
    return page, mask, truth, log


def scan(rng, spec, cls, small):
    """A flatbed scan (or a flat, evenly lit capture): clean, or plainly degraded."""
    nrng = camera.nprng(rng)
    ratio = layout.x_height_ratio(spec["face"])
    xh = u(rng, 12, 32, 1) if not small else u(rng, 9, 12, 1)
    size = xh / ratio
    card = spec["style"] == "script"
    paper = rng.choice(["ivory", "cream", "pink", "blue", "green"]) if card else rng.choice(["white", "white", "white", "ivory", "grey"])
    ink = rng.choice(["black", "red", "blue", "green", "brown"]) if card else rng.choice(["black", "black", "blue-black", "grey"])
    page, mask, truth, log = render_page(rng, spec, size, paper, ink, rng.randint(0, 8), u(rng, 0.85, 1.0))
    params = {"pipeline": "scan", "paper": paper, "ink": ink, "size": round(size, 2)}
    rot = u(rng, -0.4, 0.4, 2) if rng.random() < 0.3 else 0.0
    if rot:
        page = page.rotate(rot, resample=Image.BICUBIC, expand=True, fillcolor=PAPERS[paper])
    params["rotation"] = rot
    conditions = []
    fmt, quality = ("tif" if rng.random() < 0.3 else "png"), None
    if cls == "degraded":
        ops = sorted(rng.sample(["blur", "noise", "jpeg"], rng.choice([1, 2, 2, 3])))
        if "blur" in ops:
            conditions.append({"name": "blur", "sigma": u(rng, 0.6, 1.6, 2)})
            page = page.filter(ImageFilter.GaussianBlur(conditions[-1]["sigma"]))
        if "noise" in ops:
            conditions.append({"name": "noise", "sigma": u(rng, 4, 14, 1), "chroma": u(rng, 0, 4, 1)})
            page = camera.sensor(page, nrng, 1.0, conditions[-1]["sigma"], conditions[-1]["chroma"], [1, 1, 1])
        if "jpeg" in ops:
            fmt, quality = "jpg", rng.randint(25, 70)
            conditions.append({"name": "jpeg", "quality": quality})
    elif rng.random() < 0.3:
        page = camera.sensor(page, nrng, 1.0, u(rng, 0.5, 2.0), 0, [1, 1, 1])
    if fmt != "jpg" and rng.random() < 0.5 and not card:
        page = page.convert("L")
        params["grey"] = True
    params["conditions"] = conditions
    return Built(page, truth, log, fmt, quality, params, xh)


def sizing_for(rng, conds, small):
    if "low-res" in conds:
        return {"mode": "xh", "xh": u(rng, 6.5, 10, 2), "xh_range": [6.0, 10.5], "max_long": 1600}
    if "phone-4032" in conds:
        return {"mode": "forced", "forced": [1008, 1344] if small else [3024, 4032], "xh_range": [6.0, 60.0]}
    r = rng.random()
    long_side = u(rng, 2000, 3200, 0) if r < 0.5 else (u(rng, 3200, 4032, 0) if r < 0.8 else u(rng, 1500, 2000, 0))
    if small:
        long_side = min(long_side, 1300)
    return {"mode": "long", "long": long_side, "xh_range": [6.0 if small else 9.0, 42.0], "max_long": 1300 if small else 4032}


def photo(rng, spec, cls, conds, small):
    """A photo of a sheet (or of an open book): page-level deformations, the table and the
    perspective, light, shadow and glare, the lens, the sensor, JPEG."""
    nrng = camera.nprng(rng)
    book = "book" in conds
    geo = geometry(rng, conds)
    cam = camera_base(rng, conds)
    sizing = sizing_for(rng, conds, small)
    paper = rng.choice(["cream", "yellowed", "ivory"]) if book else (
        rng.choice(sorted(PAPERS)) if "uneven-light" in conds or rng.random() < 0.3 else rng.choice(["white", "ivory"]))
    ink = rng.choice(["black", "black", "brown", "blue-black", "grey"])
    ratio = layout.x_height_ratio(spec["face"])
    # 1. Size: compose at REF, see what frame that needs, scale to the target.
    mask0, _, _, _ = layout.render(spec, REF)
    frame_kind = geo["aspect_kind"]
    page_w, page_h = mask0.size
    if book:
        page_w = int(page_w * 1.25)
    portrait = page_h >= page_w
    geo["aspect"] = None if frame_kind == "crop" else ((3 / 4 if portrait else 4 / 3) if frame_kind == "4:3" else (9 / 16 if portrait else 16 / 9))
    if sizing["mode"] == "forced":
        geo["aspect"] = None
        sizing["forced"] = sizing["forced"] if portrait else sizing["forced"][::-1]
    _, frame0, _, fscale0 = camera.layout_frame((page_w, page_h), mask0.getbbox(), geo)
    if sizing["mode"] == "long":
        s = sizing["long"] / max(frame0)
    elif sizing["mode"] == "xh":
        s = sizing["xh"] / (ratio * REF)
    else:
        s = min(sizing["forced"][0] / frame0[0], sizing["forced"][1] / frame0[1])
    lo, hi = sizing["xh_range"]
    s = min(max(s, lo / (ratio * REF)), hi / (ratio * REF))
    if sizing.get("max_long"):
        s = min(s, sizing["max_long"] / max(frame0))
    size = REF * s
    # 2. The page.
    page, mask, truth, log = render_page(rng, spec, size, paper, ink, rng.randint(3, 14), u(rng, 0.85, 1.0))
    text_box = mask.getbbox()
    conditions = []
    for name in ("fold", "crumpled"):
        if name in conds:
            p = condition_params(rng, name, size)
            page = camera.fold(page, p) if name == "fold" else camera.crumple(page, p, nrng)
            conditions.append({"name": name, **p})
    if book:
        w, h = page.size
        top_room = text_box[1]
        lift = min(u(rng, 0.02, 0.06) * h, top_room / 1.3)
        p = {"spine": rng.choice(["left", "right"]), "lift_top": round(lift, 1), "lift_bottom": round(lift * u(rng, 0.5, 0.9), 1),
             "lift_share": round(lift / h, 4), "start": u(rng, 0.35, 0.6), "squeeze": u(rng, 0.06, 0.16),
             "shadow": u(rng, 0.35, 0.7), "facing": u(rng, 0.08, 0.3), "paper": PAPERS[paper]}
        page, offset = camera.book_spread(rng, page, p)
        text_box = (text_box[0] + offset, max(0, text_box[1] - int(lift)), text_box[2] + offset, text_box[3])
        conditions.append({"name": "book", **{k: v for k, v in p.items() if k != "paper"}})
    # 3. On the table, through the lens.
    forced = sizing.get("forced") if sizing["mode"] == "forced" else None
    corners, frame, text_quad, fscale = camera.layout_frame(page.size, text_box, geo, forced)
    if (text_quad.min() < 0) or (text_quad[:, 0].max() > frame[0]) or (text_quad[:, 1].max() > frame[1]):
        raise RuntimeError(f"text outside the frame: {text_quad.tolist()} in {frame}")
    shadow_px = max(3, int(max(frame) * 0.006)) if geo["mode"] == "table" else 0
    img = camera.on_table(rng, page, corners, frame, TABLES[geo["table"]], shadow_px)
    geo["corners"] = [[round(x, 1), round(y, 1)] for x, y in corners.tolist()]
    conditions.append({"name": "placement", **{k: v for k, v in geo.items() if k != "jitter"}})
    # 4. Light.
    light = condition_params(rng, "uneven-light", size) if "uneven-light" in conds else mild_light(rng)
    img = camera.uneven(img, light)
    conditions.append({"name": "uneven-light" if "uneven-light" in conds else "light", **light})
    if "shadow" in conds:
        p = condition_params(rng, "shadow", size)
        img = camera.hand_shadow(img, p)
        conditions.append({"name": "shadow", **p})
    if "glare" in conds:
        p = condition_params(rng, "glare", size)
        x0, y0 = text_quad.min(0)
        x1, y1 = text_quad.max(0)
        p["centre"] = [round((x0 + p["at"][0] * (x1 - x0)) / frame[0], 4), round((y0 + p["at"][1] * (y1 - y0)) / frame[1], 4)]
        img = camera.glare(img, p)
        conditions.append({"name": "glare", **p})
    # 5. The lens and the sensor.
    if "motion" in cam:
        img = camera.motion_blur(img, cam["motion"]["length"], cam["motion"]["angle"])
        conditions.append({"name": "motion-blur", **cam["motion"]})
    img = img.filter(ImageFilter.GaussianBlur(cam["blur"]))
    img = camera.sensor(img, nrng, cam["exposure"], cam["luma"], cam["chroma"], cam["white_balance"])
    conditions.append({"name": "low-light" if "low-light" in conds else "sensor", **{k: v for k, v in cam.items() if k != "motion"}})
    turns = 0
    if "turned" in conds:
        turns = rng.choice([1, 2, 3])
        img = camera.turn(img, turns)
        conditions.append({"name": "turned", "degrees": 90 * turns})
    for name in ("low-res", "phone-4032"):
        if name in conds:
            conditions.append({"name": name})
    x_height = round(ratio * size * fscale, 2)
    params = {"pipeline": "book" if book else "photo", "paper": paper, "ink": ink, "size": round(size, 2),
              "sizing": sizing, "conditions": conditions}
    fmt = "png" if "low-res" in conds and rng.random() < 0.3 else "jpg"
    return Built(img, truth, log, fmt, cam["quality"] if fmt == "jpg" else None, params, x_height)


def screen(rng, spec, cls, conds, small):
    """A phone photo of a screen showing the poem (a laptop or another phone)."""
    nrng = camera.nprng(rng)
    ratio = layout.x_height_ratio(spec["face"])
    xh_screen = u(rng, 6, 12, 2)
    size = xh_screen / ratio
    bg = rng.choice([(255, 255, 255), (246, 246, 246), (250, 244, 228), (236, 240, 246)])
    fg = rng.choice([(0, 0, 0), (28, 28, 30), (60, 60, 64)])
    mask, truth, log, _ = layout.render(spec, size)
    content = camera.bench.ink(Image.new("RGB", mask.size, bg), mask, fg)
    per_px = u(rng, 1.6, 3.2, 3)  # camera pixels per screen pixel
    geo = geometry(rng, [c for c in conds if c in ("rotation", "keystone")])
    geo["rotation"] = geo["rotation"] if "rotation" in conds else u(rng, -3, 3, 2)
    geo["aspect"] = None
    sw, sh = mask.size
    box = [int(v * per_px) for v in mask.getbbox()]
    corners, frame, text_quad, fscale = camera.layout_frame((int(sw * per_px), int(sh * per_px)), box, geo)
    limit = 1300 if small else 2600
    if max(frame) > limit:
        k = limit / max(frame)
        corners, text_quad, frame = corners * k, text_quad * k, (int(frame[0] * k), int(frame[1] * k))
        per_px *= k
    p = {"corners": corners.tolist(), "samples": rng.choice([1, 2]), "order": rng.choice(["RGB", "BGR"]),
         "leak": u(rng, 0.08, 0.3), "gap": u(rng, 0.08, 0.25), "brightness": u(rng, 0.85, 1.05),
         "bezel": rng.randint(8, 40), "blur": u(rng, 0.5, 1.4, 2)}
    img = camera.screen_photo(content, p, nrng, frame)
    conditions = [{"name": "screen", "per_screen_px": round(per_px, 3), "x_height_screen_px": xh_screen, "background": bg,
                   **{k: v for k, v in p.items() if k != "corners"}, "corners": [[round(x, 1), round(y, 1)] for x, y in corners.tolist()]},
                  {"name": "placement", **{k: v for k, v in geo.items() if k not in ("jitter", "corners")}}]
    reflection = {"centre": [u(rng, 0.2, 0.8), u(rng, 0.2, 0.8)], "radii": [u(rng, 0.3, 0.6), u(rng, 0.2, 0.5)],
                  "angle": u(rng, 0, 180, 1), "peak": u(rng, 8, 40, 1), "flat": 2.0}
    img = camera.glare(img, reflection)
    conditions.append({"name": "reflection", **reflection})
    others = [c for c in conds if c in ("shadow", "glare", "uneven-light", "motion-blur", "turned")]
    cam = camera_base(rng, conds)
    if "uneven-light" in others:
        p2 = condition_params(rng, "uneven-light", size)
        img = camera.uneven(img, p2)
        conditions.append({"name": "uneven-light", **p2})
    if "shadow" in others:
        p2 = condition_params(rng, "shadow", size)
        img = camera.hand_shadow(img, p2)
        conditions.append({"name": "shadow", **p2})
    if "glare" in others:
        p2 = condition_params(rng, "glare", size)
        x0, y0 = text_quad.min(0)
        x1, y1 = text_quad.max(0)
        p2["centre"] = [round((x0 + p2["at"][0] * (x1 - x0)) / frame[0], 4), round((y0 + p2["at"][1] * (y1 - y0)) / frame[1], 4)]
        img = camera.glare(img, p2)
        conditions.append({"name": "glare", **p2})
    if "motion" in cam:
        img = camera.motion_blur(img, cam["motion"]["length"], cam["motion"]["angle"])
        conditions.append({"name": "motion-blur", **cam["motion"]})
    img = camera.sensor(img, nrng, cam["exposure"], cam["luma"], cam["chroma"], cam["white_balance"])
    conditions.append({"name": "sensor", **{k: v for k, v in cam.items() if k != "motion"}})
    if "turned" in others:
        turns = rng.choice([1, 2, 3])
        img = camera.turn(img, turns)
        conditions.append({"name": "turned", "degrees": 90 * turns})
    params = {"pipeline": "screen", "size": round(size, 2), "conditions": conditions}
    return Built(img, truth, log, "jpg", cam["quality"], params, round(xh_screen * per_px, 2))


def make_image(seed, cls, index, out, small=False):
    image_id = f"{cls}-{index:03d}"
    rng = random.Random(f"{seed}/{image_id}")
    part = part_of(image_id)
    features = draw_features(rng, cls)
    style = draw_style(rng, cls)
    conds = draw_conditions(rng, cls)
    language = language_of(image_id)
    poems = choose_text(rng, part, language, features)
    spec = layout_spec(rng, poems, style, features, book="book" in conds)
    if "screen" in conds:
        built = screen(rng, spec, cls, conds, small)
    elif conds or (cls in ("typeface", "layout") and rng.random() < 0.4):
        built = photo(rng, spec, cls, conds, small)
    else:
        built = scan(rng, spec, cls, small)
    name = f"{image_id}.{built.fmt}"
    path = out / name
    img = built.image
    if built.fmt == "jpg":
        img.convert("RGB").save(path, "JPEG", quality=built.quality)
    elif built.fmt == "tif":
        img.save(path, "TIFF", compression="tiff_lzw", dpi=(300, 300))
    else:
        img.save(path, "PNG", compress_level=6)
    truth = texts_truth(built.truth)
    (out / f"{image_id}.txt").write_text(truth, encoding="utf-8")
    muse = poems[0].get("muse")
    record = {
        "id": image_id, "name": name, "class": cls, "part": part, "language": language, "muse": muse,
        "muse_count": texts.count_name(truth, muse) if muse else 0, "poems": [p["key"] for p in poems],
        "features": features, "style": style, "face": spec["face"], "conditions": [c for c in conds],
        "x_height": built.x_height, "width": img.size[0], "height": img.size[1], "format": built.fmt,
        "quality": built.quality, "seed": seed,
        "layout": {k: v for k, v in spec.items() if k != "poems"},
        "params": built.params,
        "drawn": built.log,
    }
    return record


def texts_truth(lines):
    return "\n".join(lines).strip("\n") + "\n"


def _work(args):
    seed, cls, index, out, small = args
    start = time.monotonic()
    record = make_image(seed, cls, index, Path(out), small)
    record["render_seconds"] = round(time.monotonic() - start, 2)
    return record


def conditions_text(record):
    parts = []
    for c in record["params"].get("conditions", []):
        keys = {k: v for k, v in c.items() if k != "name" and not isinstance(v, (list, dict))}
        parts.append(c["name"] + "{" + ",".join(f"{k}={v}" for k, v in keys.items()) + "}")
    return "; ".join(parts) or "-"


def write_index(out, records):
    records = sorted(records, key=lambda r: r["id"])
    slim = [{k: v for k, v in r.items() if k != "drawn"} for r in records]
    (out / "index.json").write_text(json.dumps(slim, ensure_ascii=False, indent=1), encoding="utf-8")
    columns = ["name", "id", "class", "part", "language", "muse", "muse_count", "poems", "features", "style", "face",
               "x_height", "width", "height", "format", "quality", "conditions", "details"]
    with open(out / "index.tsv", "w", encoding="utf-8") as f:
        f.write("\t".join(columns) + "\n")
        for r in records:
            row = [r["name"], r["id"], r["class"], r["part"], r["language"], r["muse"] or "-", r["muse_count"],
                   "+".join(r["poems"]), "+".join(r["features"]) or "-", r["style"], r["face"], r["x_height"],
                   r["width"], r["height"], r["format"], r["quality"] or "-", "+".join(r["conditions"]) or "-",
                   conditions_text(r)]
            f.write("\t".join(str(v) for v in row) + "\n")


def generate(out, count, seed, jobs, only=None, small=False, per_class=None):
    out.mkdir(parents=True, exist_ok=True)
    counts = allocate(count) if per_class is None else {c: per_class for c, _ in CLASSES}
    tasks = [(seed, cls, i, str(out), small) for cls, _ in CLASSES if not only or cls in only for i in range(counts[cls])]
    # The costliest classes first, so that two workers finish together.
    tasks.sort(key=lambda t: t[1] not in ("phone-4032", "screen", "book", "crumpled", "combo"))
    records = []
    with Pool(jobs) as pool:
        for n, record in enumerate(pool.imap_unordered(_work, tasks), 1):
            records.append(record)
            if n % 20 == 0 or n == len(tasks):
                print(f"  {n}/{len(tasks)} images", file=sys.stderr, flush=True)
    if only and (out / "index.json").exists():  # regenerating some classes: keep the others
        kept = json.loads((out / "index.json").read_text(encoding="utf-8"))
        fresh = {r["id"] for r in records}
        records += [r for r in kept if r["id"] not in fresh and r["class"] not in only]
    write_index(out, records)
    return records


# ---- self-test -------------------------------------------------------------------------------


def check(records, out):
    """Ground-truth consistency: what the self-test asserts of every image."""
    problems = []
    for r in records:
        truth = (out / f"{r['id']}.txt").read_text(encoding="utf-8")
        lines = truth.rstrip("\n").split("\n")
        if [l for l in lines if l] != r["drawn"]:
            problems.append(f"{r['id']}: drawn lines differ from the truth")
        if not truth.endswith("\n") or any(l != l.rstrip() for l in lines) or "\n\n\n" in truth:
            problems.append(f"{r['id']}: truth badly formed")
        if not r["muse"] or r["muse_count"] < 1 or texts.count_name(truth, r["muse"]) != r["muse_count"]:
            problems.append(f"{r['id']}: muse {r['muse']!r} not in the truth")
        if r["part"] != part_of(r["id"]):
            problems.append(f"{r['id']}: part is not the id's")
        for key in r["poems"]:
            if texts.poem_part(key) != r["part"]:
                problems.append(f"{r['id']}: poem {key} belongs to the other part")
        with Image.open(out / r["name"]) as img:
            img.load()
            if img.size != (r["width"], r["height"]):
                problems.append(f"{r['id']}: size differs from the index")
    return problems


def self_test():
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        records = generate(out, 0, 7, 2, small=True, per_class=2)
        problems = check(records, out)
        classes = {r["class"] for r in records}
        if classes != {c for c, _ in CLASSES}:
            problems.append(f"classes missing: {sorted({c for c, _ in CLASSES} - classes)}")
        # Determinism: the same id renders to the same bytes.
        again = out / "again"
        again.mkdir()
        first = records[0]
        make_image(7, first["class"], int(first["id"].rsplit("-", 1)[1]), again, small=True)
        if (again / first["name"]).read_bytes() != (out / first["name"]).read_bytes():
            problems.append(f"{first['id']}: not deterministic")
        # The split: the id alone decides; about 40 % of many ids are held out.
        ids = [f"{c}-{i:03d}" for c, _ in CLASSES for i in range(100)]
        share = sum(part_of(i) == "holdout" for i in ids) / len(ids)
        if not 0.35 < share < 0.45:
            problems.append(f"held-out share {share:.2f}")
        # The truth matches the picture: the tesseract CLI reads a clean render almost exactly.
        if shutil.which("tesseract"):
            sys.path.insert(0, str(HERE.parent.parent / "SampleImages"))
            from cer import cer

            clean = next(r for r in records if r["class"] == "clean" and r["language"] == "en" or r["class"] == "clean")
            tessdata = HERE.parent.parent / "tessdata"
            cmd = ["tesseract", str(out / clean["name"]), "-", "-l", "eng+fra"] + (["--tessdata-dir", str(tessdata)] if tessdata.is_dir() else [])
            read = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, OMP_THREAD_LIMIT="1")).stdout
            rate = cer((out / f"{clean['id']}.txt").read_text(encoding="utf-8"), read)[0]
            if rate > 0.05:
                problems.append(f"{clean['id']}: tesseract CER {rate:.3f} on a clean render (truth and image disagree?)")
    seconds = time.monotonic() - start
    for p in problems:
        print("FAIL", p)
    print(f"self-test: {len(records)} images of {len(classes)} classes, {len(problems)} problems, {seconds:.0f} s")
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", help="comma-separated classes")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    missing = layout.missing_fonts()
    if missing:
        sys.exit(f"missing fonts: {', '.join(missing)}\ninstall the Debian packages {layout.PACKAGES}")
    if args.self_test:
        sys.exit(self_test())
    if not args.out:
        parser.error("OUT_DIR is required")
    start = time.monotonic()
    only = set(args.only.split(",")) if args.only else None
    records = generate(Path(args.out), args.count, args.seed, args.jobs, only)
    held = sum(r["part"] == "holdout" for r in records)
    print(f"{len(records)} images in {args.out} ({held} held out, {len(records) - held} to tune on), "
          f"{time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
