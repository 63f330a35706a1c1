#!/usr/bin/python3
"""Render the HEIC and AVIF samples and the three-page TIFF of three poems (issue 43).

Run through make-samples.sh after make_samples.py (it reads formats/stanza-rgb8.png,
formats/stanza-alpha.png and Lenore.png), or directly:
    /usr/bin/python3 make_format_samples.py [OUTPUT_DIR]

Needs Debian's python3-pil, fonts-liberation2 and libheif-examples (heif-enc: x265 for
HEIC, aom for AVIF, both built into Debian 12's libheif 1.15). heif-enc 1.15 writes no
rotation or mirroring boxes, so the turned and mirrored HEIC files are made here: their
pixels are stored turned (or mirrored), and an `irot` (or `imir`) property is added to the
primary item, as a phone does (add_transform below). x265 and aom are deterministic at a
given quality, so re-runs give the same files.
"""

import struct
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

import make_samples as samples

HERE = Path(__file__).resolve().parent
HEIF_ENC = "/usr/bin/heif-enc"

# Emily Dickinson, "Hope is the thing with feathers" (1891). Public domain. Dashes as ASCII
# hyphens, as in many printings.
HOPE = """Hope

Hope is the thing with feathers
That perches in the soul,
And sings the tune without the words,
And never stops at all,

And sweetest in the gale is heard;
And sore must be the storm
That could abash the little bird
That kept so many warm.

I've heard it in the chillest land,
And on the strangest sea;
Yet, never, in extremity,
It asked a crumb of me.
"""


def heif_enc(source, target, *args):
    subprocess.run([HEIF_ENC, *args, "-o", str(target), str(source)], check=True, stdout=subprocess.DEVNULL)


# ---- HEIF boxes ------------------------------------------------------------------------

def boxes(data, start, end):
    """(type, header_start, payload_start, end) of each box between start and end."""
    found = []
    position = start
    while position + 8 <= end:
        size, kind = struct.unpack(">I4s", data[position:position + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[position + 8:position + 16])[0]
            header = 16
        elif size == 0:
            size = end - position
        found.append((kind.decode("latin1"), position, position + header, position + size))
        position += size
    return found


def box(kind, payload):
    return struct.pack(">I4s", 8 + len(payload), kind.encode("latin1")) + payload


def add_transform(data, properties):
    """The HEIF file `data` with `properties` (each a (type, payload) pair, e.g.
    ("irot", b"\\x03")) added to its primary item's properties, after the ones it has, as
    essential; every box around them and the item locations (`iloc`) in the file are
    adjusted for the bytes added."""
    top = boxes(data, 0, len(data))
    meta = next(b for b in top if b[0] == "meta")
    children = boxes(data, meta[2] + 4, meta[3])
    pitm = next(b for b in children if b[0] == "pitm")
    primary = (struct.unpack(">H", data[pitm[2] + 4:pitm[2] + 6])[0] if data[pitm[2]] == 0
               else struct.unpack(">I", data[pitm[2] + 4:pitm[2] + 8])[0])
    iprp = next(b for b in children if b[0] == "iprp")
    ipco, ipma = [next(b for b in boxes(data, iprp[2], iprp[3]) if b[0] == kind) for kind in ("ipco", "ipma")]
    count = len(boxes(data, ipco[2], ipco[3]))
    new_ipco = box("ipco", data[ipco[2]:ipco[3]] + b"".join(box(kind, payload) for kind, payload in properties))
    # ipma: version, flags, entries; each entry's indices, 7 or 15 bits with the essential bit.
    version, flags = data[ipma[2]], data[ipma[2] + 3]
    position = ipma[2] + 8
    entries = []
    for _ in range(struct.unpack(">I", data[ipma[2] + 4:ipma[2] + 8])[0]):
        item = (struct.unpack(">H", data[position:position + 2])[0] if version < 1
                else struct.unpack(">I", data[position:position + 4])[0])
        position += 2 if version < 1 else 4
        n = data[position]
        position += 1
        width = 2 if flags & 1 else 1
        values = [int.from_bytes(data[position + k * width:position + (k + 1) * width], "big") for k in range(n)]
        position += n * width
        if item == primary:
            values += [(0x8000 if width == 2 else 0x80) | (count + 1 + k) for k in range(len(properties))]
        entries.append((item, values, width))
    body = data[ipma[2]:ipma[2] + 4] + struct.pack(">I", len(entries))
    for item, values, width in entries:
        body += struct.pack(">H" if version < 1 else ">I", item) + bytes([len(values)])
        body += b"".join(v.to_bytes(width, "big") for v in values)
    new_ipma = box("ipma", body)
    new_iprp_payload = b""
    for kind, start, _, end in boxes(data, iprp[2], iprp[3]):
        new_iprp_payload += new_ipco if kind == "ipco" else new_ipma if kind == "ipma" else data[start:end]
    new_meta_payload = data[meta[2]:meta[2] + 4]
    for kind, start, _, end in children:
        new_meta_payload += box("iprp", new_iprp_payload) if kind == "iprp" else data[start:end]
    new_meta = box("meta", new_meta_payload)
    delta = len(new_meta) - (meta[3] - meta[1])
    out = bytearray(data[:meta[1]] + new_meta + data[meta[3]:])
    shift_iloc(out, meta[1], delta)
    return bytes(out)


def shift_iloc(data, meta_start, delta):
    """Moves every file offset in the `iloc` box of the meta box at meta_start by delta."""
    meta = boxes(data, meta_start, len(data))[0]
    iloc = next(b for b in boxes(data, meta[2] + 4, meta[3]) if b[0] == "iloc")
    p = iloc[2]
    version = data[p]
    offset_size, length_size = data[p + 4] >> 4, data[p + 4] & 15
    base_size, index_size = data[p + 5] >> 4, (data[p + 5] & 15 if version in (1, 2) else 0)
    p += 6
    count = struct.unpack(">H" if version < 2 else ">I", data[p:p + (2 if version < 2 else 4)])[0]
    p += 2 if version < 2 else 4

    def shift(at, size):
        if size:
            value = int.from_bytes(data[at:at + size], "big") + delta
            data[at:at + size] = value.to_bytes(size, "big")

    for _ in range(count):
        p += 2 if version < 2 else 4
        method = 0
        if version in (1, 2):
            method = struct.unpack(">H", data[p:p + 2])[0] & 15
            p += 2
        p += 2  # data reference index
        base_at = p
        p += base_size
        extents = struct.unpack(">H", data[p:p + 2])[0]
        p += 2
        if method == 0 and base_size:
            shift(base_at, base_size)
        for _ in range(extents):
            p += index_size
            if method == 0 and not base_size:
                shift(p, offset_size)
            p += offset_size + length_size


def make_heif(out):
    d = out / "formats"
    rgb = Image.open(d / "stanza-rgb8.png").convert("RGB")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        heif_enc(d / "stanza-rgb8.png", d / "stanza.heic", "-q", "60")
        heif_enc(d / "stanza-rgb8.png", d / "stanza.avif", "-A", "-q", "60")
        # alpha only carries the text (every pixel black): libheif keeps it as an alpha plane
        heif_enc(d / "stanza-alpha.png", d / "stanza-alpha.heic", "-q", "60")
        # 10 bits a sample, which snap-poem takes down to 8
        heif_enc(d / "stanza-rgb16.png", d / "stanza-10bit.heic", "-q", "60", "-b", "10")
        # stored turned 90 degrees counter-clockwise (as a phone held sideways stores it), with
        # irot 3 (three quarter turns counter-clockwise = one clockwise) to show it upright
        rgb.transpose(Image.ROTATE_90).save(tmp / "turned.png")
        heif_enc(tmp / "turned.png", tmp / "turned.heic", "-q", "60")
        (d / "stanza-irot.heic").write_bytes(add_transform((tmp / "turned.heic").read_bytes(), [("irot", b"\x03")]))
        # stored mirrored left-right, with imir axis 1 to mirror it back: libheif (1.15, and
        # its heif_transform_mirror_direction since) swaps left and right for axis 1, top and
        # bottom for axis 0 (checked by decoding with heif-convert)
        rgb.transpose(Image.FLIP_LEFT_RIGHT).save(tmp / "mirrored.png")
        heif_enc(tmp / "mirrored.png", tmp / "mirrored.heic", "-q", "60")
        (d / "stanza-imir.heic").write_bytes(add_transform((tmp / "mirrored.heic").read_bytes(), [("imir", b"\x01")]))
    # the whole of Lenore, for the end-to-end test that every "Lenore" is replaced
    heif_enc(out / "Lenore.png", d / "Lenore.heic", "-q", "40")
    heif_enc(out / "Lenore.png", d / "Lenore.avif", "-A", "-q", "40")


def make_fuzz_seeds(out):
    """Small HEIF files for the libFuzzer target 'heif' (Fuzz/Targets/heif.swift), written to
    Fuzz/Corpus/heif/ beside this folder: a corner of the stanza as HEIC (8-bit, 10-bit,
    with alpha, turned, mirrored) and as AVIF, each under 8 KB."""
    seeds = out.parent / "Fuzz" / "Corpus" / "heif"
    seeds.mkdir(parents=True, exist_ok=True)
    d = out / "formats"
    corner = Image.open(d / "stanza-rgb8.png").convert("RGB").crop((40, 30, 168, 94))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        corner.save(tmp / "corner.png")
        corner.convert("RGBA").save(tmp / "corner-alpha.png")
        corner.transpose(Image.ROTATE_90).save(tmp / "turned.png")
        heif_enc(tmp / "corner.png", seeds / "corner.heic", "-q", "30")
        heif_enc(tmp / "corner.png", seeds / "corner-10bit.heic", "-q", "30", "-b", "10")
        heif_enc(tmp / "corner-alpha.png", seeds / "corner-alpha.heic", "-q", "30")
        heif_enc(tmp / "corner.png", seeds / "corner.avif", "-A", "-q", "30")
        # two top-level images (as a burst holds several): the first is the primary one
        subprocess.run([HEIF_ENC, "-q", "30", "-o", str(seeds / "corner-two-images.heic"), str(tmp / "corner.png"),
                        str(tmp / "turned.png")], check=True, stdout=subprocess.DEVNULL)
        heif_enc(tmp / "turned.png", tmp / "turned.heic", "-q", "30")
        turned = (tmp / "turned.heic").read_bytes()
        (seeds / "corner-irot.heic").write_bytes(add_transform(turned, [("irot", b"\x03")]))
        (seeds / "corner-irot-imir.heic").write_bytes(add_transform(turned, [("irot", b"\x01"), ("imir", b"\x00")]))


def make_tiff_seeds(out):
    """Small multi-page TIFFs for the libFuzzer target 'tiffpages' (Fuzz/Targets/tiffpages.swift),
    written to Fuzz/Corpus/tiffpages/: three pages of a corner of the stanza (RGB, grey, black
    and white; LZW, and big-endian uncompressed), one page G4, a chain that loops back to its
    first directory, and one whose second directory claims 30000 x 30000 pixels."""
    seeds = out.parent / "Fuzz" / "Corpus" / "tiffpages"
    seeds.mkdir(parents=True, exist_ok=True)
    corner = Image.open(out / "formats" / "stanza-rgb8.png").convert("RGB").crop((40, 30, 104, 62))
    grey = corner.convert("L")
    bw = grey.point(lambda v: 255 if v > 150 else 0).convert("1", dither=Image.NONE)
    corner.save(seeds / "three-lzw.tif", compression="tiff_lzw", save_all=True, append_images=[grey, bw])
    corner.save(seeds / "three-raw-be.tif", save_all=True, append_images=[grey, bw], big_endian=True)
    bw.save(seeds / "one-g4.tif", compression="group4")
    two = bytearray((seeds / "three-lzw.tif").read_bytes())
    # the chain: header -> first directory -> ...; point the second directory's "next" at the first
    first = struct.unpack("<I", two[4:8])[0]
    count = struct.unpack("<H", two[first:first + 2])[0]
    second = struct.unpack("<I", two[first + 2 + 12 * count:first + 6 + 12 * count])[0]
    count2 = struct.unpack("<H", two[second:second + 2])[0]
    looped = bytearray(two)
    looped[second + 2 + 12 * count2:second + 6 + 12 * count2] = struct.pack("<I", first)
    (seeds / "loop.tif").write_bytes(bytes(looped))
    huge = bytearray(two)
    for index in range(count2):
        entry = second + 2 + 12 * index
        tag, kind = struct.unpack("<HH", huge[entry:entry + 4])
        if tag in (256, 257):
            huge[entry + 2:entry + 4] = struct.pack("<H", 4)
            huge[entry + 8:entry + 12] = struct.pack("<I", 30000)
    (seeds / "claims-huge.tif").write_bytes(bytes(huge))


def make_three_poems(out):
    """poems-3page.tif: three poems, one a page (Lenore's first two stanzas in RGB, The
    Tyger's first two in grey, Hope in black and white), LZW; a ground truth for each page
    and one for the three joined in page order."""
    d = out / "formats"
    lenore = samples.text_lines(samples.LENORE_SOURCE.read_text(encoding="utf-8"))[:15]
    tyger = samples.text_lines(samples.TYGER)[:11]
    hope = samples.text_lines(HOPE)
    pages = []
    for lines in (lenore, tyger, hope):
        mask, _ = samples.render_text(lines, "liberation-serif", 34, margin=(0.08, 0.08))
        bg = Image.new("RGB", mask.size, (250, 247, 240))
        pages.append(samples.ink_onto(bg, mask, (28, 24, 22), 1.0))
    first = pages[0]
    second = pages[1].convert("L")
    third = pages[2].convert("L").point(lambda v: 255 if v > 150 else 0).convert("1", dither=Image.NONE)
    first.save(d / "poems-3page.tif", compression="tiff_lzw", save_all=True, append_images=[second, third])
    texts = [samples.ground_truth(lines) for lines in (lenore, tyger, hope)]
    for number, text in enumerate(texts, start=1):
        (d / f"poems-3page-{number}.txt").write_text(text, encoding="utf-8")
    (d / "poems-3page.txt").write_text("\n".join(texts), encoding="utf-8")


def main():
    out = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else HERE
    make_heif(out)
    make_three_poems(out)
    make_fuzz_seeds(out)
    make_tiff_seeds(out)


if __name__ == "__main__":
    main()
