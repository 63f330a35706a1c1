"""Typesetting for the corpus: faces, and a page of one or two poems as an ink mask with its
exact ground truth (Scripts/corpus/make_corpus.py).

A page is composed as a list of drawing operations (text, face, size, position); the ground
truth is built beside it, line for line, and every operation is logged so that the self-test
can check that every drawn line is in the truth. Nothing is wrapped: the page's width comes
from its longest line plus the margins.
"""

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

GYRE = "/usr/share/texmf/fonts/opentype/public/tex-gyre/"
URW = "/usr/share/fonts/opentype/urw-base35/"
LIB = "/usr/share/fonts/opentype/linux-libertine/"
EBG = "/usr/share/fonts/opentype/ebgaramond/"
FREE = "/usr/share/fonts/truetype/freefont/"
DEJAVU = "/usr/share/fonts/truetype/dejavu/"

# Debian packages: fonts-linuxlibertine fonts-freefont-ttf fonts-urw-base35 fonts-texgyre
# fonts-ebgaramond fonts-dejavu-core fonts-dejavu-extra fonts-dancingscript.
FACES = {
    "roman": {
        "libertine": LIB + "LinLibertine_R.otf", "freeserif": FREE + "FreeSerif.ttf", "c059": URW + "C059-Roman.otf",
        "p052": URW + "P052-Roman.otf", "nimbus-roman": URW + "NimbusRoman-Regular.otf",
        "termes": GYRE + "texgyretermes-regular.otf", "pagella": GYRE + "texgyrepagella-regular.otf",
        "bonum": GYRE + "texgyrebonum-regular.otf", "schola": GYRE + "texgyreschola-regular.otf",
        "garamond": EBG + "EBGaramond12-Regular.otf", "dejavu-serif": DEJAVU + "DejaVuSerif.ttf",
        "bookman": URW + "URWBookman-Light.otf",
    },
    "sans": {
        "nimbus-sans": URW + "NimbusSans-Regular.otf", "freesans": FREE + "FreeSans.ttf",
        "heros": GYRE + "texgyreheros-regular.otf", "dejavu-sans": DEJAVU + "DejaVuSans.ttf",
        "biolinum": LIB + "LinBiolinum_R.otf", "gothic": URW + "URWGothic-Book.otf",
    },
    "italic": {
        "libertine-i": LIB + "LinLibertine_RI.otf", "freeserif-i": FREE + "FreeSerifItalic.ttf",
        "c059-i": URW + "C059-Italic.otf", "p052-i": URW + "P052-Italic.otf",
        "nimbus-roman-i": URW + "NimbusRoman-Italic.otf", "termes-i": GYRE + "texgyretermes-italic.otf",
        "pagella-i": GYRE + "texgyrepagella-italic.otf", "bonum-i": GYRE + "texgyrebonum-italic.otf",
        "schola-i": GYRE + "texgyreschola-italic.otf", "garamond-i": EBG + "EBGaramond12-Italic.otf",
        "dejavu-serif-i": DEJAVU + "DejaVuSerif-Italic.ttf", "bookman-i": URW + "URWBookman-LightItalic.otf",
    },
    "bold": {
        "libertine-b": LIB + "LinLibertine_RB.otf", "freeserif-b": FREE + "FreeSerifBold.ttf",
        "c059-b": URW + "C059-Bold.otf", "p052-b": URW + "P052-Bold.otf", "termes-b": GYRE + "texgyretermes-bold.otf",
        "pagella-b": GYRE + "texgyrepagella-bold.otf", "garamond-b": EBG + "EBGaramond12-Bold.otf",
        "nimbus-sans-b": URW + "NimbusSans-Bold.otf", "bookman-b": URW + "URWBookman-Demi.otf",
    },
    # Calligraphic faces, as on a greeting card: URW's Z003 and TeX Gyre Chorus (Zapf
    # Chancery-like) and Dancing Script.
    "script": {
        "z003": URW + "Z003-MediumItalic.otf", "chorus": GYRE + "texgyrechorus-mediumitalic.otf",
        "dancing": "/usr/share/fonts/opentype/dancingscript/DancingScript-Regular.otf",
        "dancing-b": "/usr/share/fonts/opentype/dancingscript/DancingScript-Bold.otf",
    },
}
PATHS = {key: path for faces in FACES.values() for key, path in faces.items()}
PACKAGES = ("fonts-linuxlibertine fonts-freefont-ttf fonts-urw-base35 fonts-texgyre fonts-ebgaramond "
            "fonts-dejavu-core fonts-dejavu-extra fonts-dancingscript")


def missing_fonts():
    import os

    return sorted(path for path in PATHS.values() if not os.path.exists(path))
STYLE_OF = {key: style for style, faces in FACES.items() for key in faces}
ITALIC_OF = {"roman": "italic", "sans": "italic", "bold": "italic", "italic": "italic", "script": "italic"}


@lru_cache(maxsize=None)
def font(key, size):
    return ImageFont.truetype(PATHS[key], max(4, int(round(size))))


@lru_cache(maxsize=None)
def x_height_ratio(key):
    box = font(key, 200).getbbox("x", anchor="ls")
    return (box[3] - box[1]) / 200


@lru_cache(maxsize=None)
def _notdef(key):
    mask = font(key, 48).getmask("\U0010fffd")
    return mask.size, bytes(mask)


@lru_cache(maxsize=None)
def has_glyph(key, char):
    if char.isspace():
        return True
    mask = font(key, 48).getmask(char)
    return (mask.size, bytes(mask)) != _notdef(key) and mask.getbbox() is not None


def covers(key, text):
    return all(has_glyph(key, c) for c in set(text))


def pick_face(rng, style, text, avoid=()):
    """A face of `style` that has every character of `text`."""
    keys = [k for k in sorted(FACES[style]) if k not in avoid and covers(k, text)]
    if not keys:
        keys = [k for k in sorted(FACES["roman"]) if covers(k, text)]
    return rng.choice(keys)


# ---- composition ---------------------------------------------------------------


class Column:
    """One column of a page: items placed top to bottom, with the truth beside them.

    Units are pixels at the body size `size`. Each item: text, face, size, align ('l', 'c',
    'r'), indent, the advance to the next baseline, and extras (drop cap, margin number)."""

    def __init__(self, size, leading):
        self.size = size
        self.pitch = size * leading
        self.items = []
        self.truth = []

    def add(self, text, face, size, align="l", advance=None, indent=0.0, truth=None, **extra):
        self.items.append(dict(text=text, face=face, size=size, align=align, indent=indent,
                               advance=self.pitch if advance is None else advance, **extra))
        if truth is not False:
            self.truth.append(text if truth is None else truth)

    def gap(self, lines=1.0, truth_blank=True):
        self.items.append(dict(text="", face=None, size=self.size, align="l", indent=0, advance=self.pitch * lines))
        if truth_blank and self.truth and self.truth[-1] != "":
            self.truth.append("")

    def width(self):
        """Width the column needs (left- and right-aligned items from the column's edges,
        centred ones about its middle)."""
        w = 0.0
        for it in self.items:
            if not it["text"]:
                continue
            w = max(w, it["indent"] + font(it["face"], it["size"]).getlength(it["text"]))
        return w

    def height(self):
        return sum(it["advance"] for it in self.items)


def spaced_caps(text):
    return "   ".join(" ".join(word) for word in text.upper().split())


def compose(spec, size):
    """The columns of the page described by `spec` (see make_corpus.layout_spec) at body size
    `size` (px): a list of Column."""
    columns = []
    for poem_index, poem in enumerate(spec["poems"]):
        col = Column(size, spec["leading"])
        face, italic = spec["face"], spec["italic_face"]
        lines = poem["lines"]
        title, body = lines[0], lines[2:] if len(lines) > 1 and lines[1] == "" else lines[1:]
        if spec.get("running_head") and poem_index == 0:
            col.add(spec["running_head"], spec["small_face"], size * 0.72, "c", advance=col.pitch * 2.2)
        title_align = spec["title_align"]
        if spec["title_style"] == "spaced":
            tsize = size * spec["title_scale"] * 0.8
            col.add(spaced_caps(title), spec["title_face"], tsize, title_align, advance=tsize * 1.9)
        elif spec["title_style"] == "caps":
            tsize = size * spec["title_scale"] * 0.85
            col.add(title.upper(), spec["title_face"], tsize, title_align, advance=tsize * 1.9)
        else:
            tsize = size * spec["title_scale"]
            col.add(title, spec["title_face"], tsize, title_align, advance=tsize * 1.7)
        if poem.get("author"):
            col.add(poem["author"], spec["small_face"], size * 0.8, title_align, advance=col.pitch * 1.5)
        if poem.get("dedication"):
            col.add(poem["dedication"], italic, size * 0.9, spec["dedication_align"], advance=col.pitch * 1.6)
        col.gap(0.3)
        epigraph = poem.get("epigraph")
        if epigraph:
            esize = size * 0.78
            for line in epigraph[0]:
                col.add(line, italic, esize, "r", advance=esize * 1.35)
            col.add(epigraph[1], spec["small_face"], esize * 0.95, "r", advance=esize * 1.35)
            col.gap(1.2)
        number = 0
        drop = spec.get("drop_cap") if poem_index == 0 else None
        first_body = True
        indent_left = 0
        cap_width = 0.0
        for line in body:
            if not line.strip():
                col.gap(1.0)
                continue
            text = line.strip()
            indent = (len(line) - len(line.lstrip(" "))) / 4 * 1.6 * size
            number += 1
            extra = {}
            truth = text
            if first_body and drop and text[0].isalpha():
                cap_face = spec["title_face"] if spec["title_style"] != "spaced" else face
                cap_size = size * (1.0 + (drop - 1) * spec["leading"]) / _cap_ratio(cap_face)
                cap_width = font(cap_face, cap_size).getlength(text[0]) + size * 0.25
                extra = dict(drop_cap=(text[0], cap_face, cap_size))
                text = text[1:]
                indent_left = drop
            first_body = False
            if indent_left > 0:
                indent += cap_width
                indent_left -= 1
            if spec.get("line_numbers") and number % 5 == 0:
                side = spec["line_numbers"]
                extra["margin_number"] = (str(number), side)
                truth = f"{number} {truth}" if side == "left" else f"{truth} {number}"
            col.add(text, face, size, spec["body_align"], indent=indent, truth=truth, **extra)
        footnote = poem.get("footnote")
        if footnote:
            col.gap(1.4)
            fsize = size * 0.7
            col.items.append(dict(text="", face=None, size=fsize, align="l", indent=0, advance=fsize * 1.6, rule=True))
            for line in footnote:
                col.add(line, spec["small_face"], fsize, "l", advance=fsize * 1.4)
        if spec.get("page_number") and poem_index == len(spec["poems"]) - 1:
            col.gap(2.0)
            col.add(spec["page_number"], spec["small_face"], size * 0.8, spec.get("page_number_align", "c"))
        while col.truth and col.truth[-1] == "":
            col.truth.pop()
        columns.append(col)
    return columns


@lru_cache(maxsize=None)
def _cap_ratio(key):
    box = font(key, 200).getbbox("H", anchor="ls")
    return (box[3] - box[1]) / 200


def page_geometry(columns, spec, size):
    """Width, height and column origins of the page (margins included)."""
    widths = [c.width() for c in columns]
    gutter = spec.get("gutter", 3.0) * size
    number_room = 2.2 * size if spec.get("line_numbers") else 0.0
    left = spec["margins"][0] * size + (number_room if spec.get("line_numbers") == "left" else 0)
    right = spec["margins"][1] * size + (number_room if spec.get("line_numbers") == "right" else 0)
    top, bottom = spec["margins"][2] * size, spec["margins"][3] * size
    xs = []
    x = left
    for w in widths:
        xs.append(x)
        x += w + gutter
    width = x - gutter + right
    height = top + max(c.height() for c in columns) + bottom
    return int(width), int(height), xs, widths, top


def render(spec, size):
    """The page as an L mask (255 = ink), its truth lines, the log of drawn strings (each
    with the truth line it belongs to) and the composed columns."""
    columns = compose(spec, size)
    width, height, xs, widths, top = page_geometry(columns, spec, size)
    mask = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(mask)
    log = []
    for col, x0, cw in zip(columns, xs, widths):
        y = top + col.pitch * 0.8
        for it in col.items:
            if it.get("rule"):
                draw.line((x0, y - it["size"] * 0.9, x0 + min(cw, 12 * size) * 0.35, y - it["size"] * 0.9),
                          fill=255, width=max(1, int(size * 0.05)))
            if it["text"]:
                f = font(it["face"], it["size"])
                if it["align"] == "l":
                    pos, anchor = (x0 + it["indent"], y), "ls"
                elif it["align"] == "c":
                    pos, anchor = (x0 + cw / 2, y), "ms"
                else:
                    pos, anchor = (x0 + cw, y), "rs"
                draw.text(pos, it["text"], font=f, fill=255, anchor=anchor)
                drawn = it["text"]
                if "drop_cap" in it:
                    letter, cap_face, cap_size = it["drop_cap"]
                    draw.text((x0, y), letter, font=font(cap_face, cap_size), fill=255, anchor="ls")
                    drawn = letter + drawn
                if "margin_number" in it:
                    number, side = it["margin_number"]
                    nf = font(spec["small_face"], size * 0.75)
                    if side == "left":
                        draw.text((x0 - 1.0 * size, y), number, font=nf, fill=255, anchor="rs")
                        drawn = f"{number} {drawn}"
                    else:
                        draw.text((x0 + cw + 1.0 * size, y), number, font=nf, fill=255, anchor="ls")
                        drawn = f"{drawn} {number}"
                log.append(drawn)
            y += it["advance"]
    truth = []
    for i, col in enumerate(columns):
        if i:
            truth.append("")
        truth.extend(col.truth)
    return mask, truth, log, columns
