#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora into Fuzz/Corpus/ (committed).

Standard library only. Images are tiny hand-built files of every format Leptonica reads,
valid and broken in the ways the code has to survive (a GIF whose header claims 30000 x
30000 pixels, an animated GIF, a TIFF whose directories loop, EXIF blocks with offsets
past the end...), plus two small real files from SampleImages/ (a JPEG with an EXIF turn,
a WebP). Re-running gives the same files.

    python3 Fuzz/make-seeds.py
"""
import json
import os
import shutil
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def write(target, name, data):
    folder = os.path.join(HERE, "Corpus", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


# ---- images -------------------------------------------------------------------------

def png(width, height, color_type=0, depth=8, rows=None, extra=b""):
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    row_bytes = (width * channels * depth + 7) // 8
    raw = rows if rows is not None else b"".join(b"\x00" + bytes((x * 37 + y * 11) % 256 for x in range(row_bytes)) for y in range(height))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def bmp(width, height, top_down=False, depth=24):
    row = ((width * depth + 31) // 32) * 4
    palette = b"".join(bytes((i, i, i, 0)) for i in range(256)) if depth == 8 else b""
    pixels = b"".join(bytes((x * 29 + y * 7) % 256 for x in range(row)) for y in range(height))
    offset = 14 + 40 + len(palette)
    info = struct.pack("<IiiHHIIiiII", 40, width, -height if top_down else height, 1, depth, 0, len(pixels), 2835, 2835, 0, 0)
    return b"BM" + struct.pack("<IHHI", offset + len(pixels), 0, 0, offset) + info + palette + pixels


def gif_lzw(indices, min_code_size=2):
    """A minimal GIF LZW encoder (clear code before every code, so no table growth)."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    size = min_code_size + 1
    bits, count, out = 0, 0, bytearray()

    def emit(code):
        nonlocal bits, count
        bits |= code << count
        count += size
        while count >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            count -= 8

    for index in indices:
        emit(clear)
        emit(index)
    emit(end)
    if count:
        out.append(bits & 0xFF)
    blocks = bytearray()
    for start in range(0, len(out), 255):
        piece = out[start:start + 255]
        blocks += bytes((len(piece),)) + piece
    return bytes((min_code_size,)) + bytes(blocks) + b"\x00"


def gif(width, height, frames=1, screen=None, extensions=True):
    sw, sh = screen or (width, height)
    data = b"GIF89a" + struct.pack("<HHBBB", sw, sh, 0x81, 0, 0) + bytes((0, 0, 0, 255, 255, 255, 128, 128, 128, 64, 64, 64))
    if extensions:
        data += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"  # loop for ever
        data += b"\x21\xfe\x05hello\x00"  # comment
    for frame in range(frames):
        data += b"\x21\xf9\x04\x04\x0a\x00\x00\x00"  # graphic control
        data += b"\x2c" + struct.pack("<HHHHB", 0, 0, width, height, 0)
        data += gif_lzw([(x + y + frame) % 4 for y in range(height) for x in range(width)])
    return data + b"\x3b"


def tiff(width, height, pages=1, big_endian=False, loop=False):
    e = ">" if big_endian else "<"
    data = bytearray((b"MM" if big_endian else b"II") + struct.pack(e + "HI", 42, 8))
    for page in range(pages):
        pixels = bytes((x * 13 + y * 5 + page) % 256 for y in range(height) for x in range(width))
        ifd_offset = len(data)
        entries = [(256, 3, 1, width), (257, 3, 1, height), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
                   (273, 4, 1, 0), (277, 3, 1, 1), (278, 3, 1, height), (279, 4, 1, len(pixels))]
        ifd_size = 2 + 12 * len(entries) + 4
        pixel_offset = ifd_offset + ifd_size
        next_offset = pixel_offset + len(pixels) if page + 1 < pages else (ifd_offset if loop else 0)
        data += struct.pack(e + "H", len(entries))
        for tag, kind, count, value in entries:
            value = pixel_offset if tag == 273 else value
            if kind == 3:
                data += struct.pack(e + "HHIHH", tag, kind, count, value, 0)
            else:
                data += struct.pack(e + "HHII", tag, kind, count, value)
        data += struct.pack(e + "I", next_offset)
        data += pixels
    return bytes(data)


def exif_app1(orientation, big_endian=False, bad_offset=False):
    e = ">" if big_endian else "<"
    ifd = struct.pack(e + "H", 1) + struct.pack(e + "HHI", 0x0112, 3, 1) + struct.pack(e + "HH", orientation, 0) + struct.pack(e + "I", 0)
    tiff_header = (b"MM" if big_endian else b"II") + struct.pack(e + "HI", 42, 0xFFFF if bad_offset else 8)
    body = b"Exif\x00\x00" + tiff_header + ifd
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


def jpeg_with_exif(source, orientation, **kwargs):
    assert source[:2] == b"\xff\xd8"
    return source[:2] + exif_app1(orientation, **kwargs) + source[2:]


def images():
    write("image", "png-gray-16x8.png", png(16, 8))
    write("image", "png-rgb-8x8.png", png(8, 8, color_type=2))
    write("image", "png-rgba-8x8.png", png(8, 8, color_type=6))
    write("image", "png-gray16-8x8.png", png(8, 8, depth=16))
    colours = bytes((0, 0, 0, 255, 255, 255, 9, 9, 9, 200, 100, 50))
    plte = struct.pack(">I", len(colours)) + b"PLTE" + colours + struct.pack(">I", zlib.crc32(b"PLTE" + colours) & 0xFFFFFFFF)
    write("image", "png-palette-8x8.png", png(8, 8, color_type=3, depth=2, extra=plte))
    write("image", "png-header-huge.png", png(60000, 60000, rows=b"\x00"))
    write("image", "png-truncated.png", png(32, 32)[:60])
    write("image", "bmp-24-5x3.bmp", bmp(5, 3))
    write("image", "bmp-8-top-down.bmp", bmp(6, 4, top_down=True, depth=8))
    write("image", "bmp-header-huge.bmp", bmp(4, 4)[:18] + struct.pack("<ii", 100000, 100000) + bmp(4, 4)[26:])
    write("image", "gif-8x6.gif", gif(8, 6))
    write("image", "gif-animated-3.gif", gif(6, 4, frames=3))
    write("image", "gif-screen-30000.gif", gif(4, 4, screen=(30000, 30000)))
    huge_frame = b"\x2c" + struct.pack("<HHHHB", 0, 0, 30000, 30000, 0) + b"\x02\x02\x4c\x01\x00"
    write("image", "gif-frame-30000.gif", b"GIF89a" + struct.pack("<HHBBB", 30000, 30000, 0x80, 0, 0) + b"\x00\x00\x00\xff\xff\xff" + huge_frame + b"\x3b")
    write("image", "gif-truncated.gif", gif(8, 6)[:40])
    write("image", "gif87a.gif", b"GIF87a" + gif(5, 5, extensions=False)[6:])
    write("image", "tiff-8x8.tif", tiff(8, 8))
    write("image", "tiff-2-pages-be.tif", tiff(6, 5, pages=2, big_endian=True))
    write("image", "tiff-loop.tif", tiff(4, 4, pages=2, loop=True))
    write("image", "pnm-p5.pgm", b"P5\n8 4\n255\n" + bytes(range(0, 256, 8)))
    write("image", "pnm-p2.pgm", b"P2\n# ascii\n3 2\n255\n0 128 255\n255 128 0\n")
    write("image", "pnm-p4.pbm", b"P4\n16 2\n\xf0\x0f\xaa\x55")
    write("image", "pnm-p6.ppm", b"P6\n2 2\n255\n" + bytes(range(12)))
    write("image", "pnm-huge.pgm", b"P5\n70000 70000\n255\n\x00\x00\x00\x00")
    jpeg = open(os.path.join(ROOT, "SampleImages/orientation/orientation-1.jpg"), "rb").read()
    write("image", "jpeg-exif-6.jpg", jpeg_with_exif(jpeg, 6))
    write("image", "jpeg-exif-8-be.jpg", jpeg_with_exif(jpeg, 8, big_endian=True))
    write("image", "jpeg-exif-bad-offset.jpg", jpeg_with_exif(jpeg, 3, bad_offset=True))
    write("image", "jpeg-exif-only.jpg", b"\xff\xd8" + exif_app1(5) + b"\xff\xd9")
    write("image", "jpeg-truncated.jpg", jpeg[: len(jpeg) // 3])
    shutil.copy(os.path.join(ROOT, "SampleImages/formats/stanza.webp"), os.path.join(HERE, "Corpus/image/stanza.webp"))
    for name in ["stanza.jp2", "hostile-subsampled.jp2"]:
        shutil.copy(os.path.join(ROOT, "SampleImages/formats", name), os.path.join(HERE, "Corpus/image", name))
    still = open(os.path.join(ROOT, "SampleImages/formats/stanza.webp"), "rb").read()
    write("image", "webp-animated-2.webp", animated_webp(still, frames=2))
    write("image", "webp-anmf-overflow.webp", animated_webp(still, frames=1)[:200])
    write("image", "text.png", b"Ah, broken is the golden bowl! the spirit flown forever!\n")
    write("image", "pdf.png", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n")
    write("image", "heic.jpg", b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic")
    write("image", "short.png", b"\x89PNG\r\n")


def webp_chunk(name, payload):
    return name + struct.pack("<I", len(payload)) + payload + (b"\x00" if len(payload) % 2 else b"")


def animated_webp(still, frames):
    """An animated WebP whose every frame is the VP8 bitstream of the still WebP `still`."""
    width = struct.unpack("<H", still[26:28])[0] & 0x3FFF
    height = struct.unpack("<H", still[28:30])[0] & 0x3FFF
    size = struct.pack("<I", width - 1)[:3] + struct.pack("<I", height - 1)[:3]
    vp8 = still[12:]  # the file's one chunk, "VP8 "
    body = webp_chunk(b"VP8X", bytes([0x02, 0, 0, 0]) + size) + webp_chunk(b"ANIM", bytes(6))
    for _ in range(frames):
        body += webp_chunk(b"ANMF", bytes(6) + size + struct.pack("<I", 100)[:3] + b"\x00" + vp8)
    return b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body


# ---- replacements: byte 0 = mode (0 file, 1 --replace, 2 text), byte 1 = matching options ----

def replacements():
    header = "# snap-poem replacements v1\n"
    files = {
        "file-basic": header + "Lenore = Alex\nGuy De Vere = Sam\n",
        "file-escapes": header + "a\\=b = c\n\\#1 = first\nback\\\\slash = x\n# comment\n\n",
        "file-bom-crlf": "\ufeff" + header.replace("\n", "\r\n") + "Lenore=Alex\r\n",
        "file-version-2": "# snap-poem replacements v2\nLenore=Alex\n",
        "file-duplicate": header + "Lenore=Alex\nLenore=Sam\n",
        "file-empty-find": header + "=Alex\n",
        "file-no-equals": header + "Lenore Alex\n",
        "file-unicode": header + "Le\u0301nore=Alex\nLénore=Sam\nPæan=Song\n",
        "file-swap": header + "Alex=Lenore\nLenore=Alex\n",
        "file-remove": header + "rigid =\n",
    }
    for index, (name, text) in enumerate(files.items()):
        write("replacements", name, bytes((0, index * 7 % 256)) + text.encode())
    for index, argument in enumerate(["Lenore=Alex", "Guy De Vere=Sam", "a\\=b=c", "=x", "Lenore", "Len-ore=A=B", "é=e"]):
        write("replacements", f"replace-{index}", bytes((1, index * 5 % 256)) + argument.encode())
    texts = [
        "See! on yon drear and rigid bier low lies thy love, Lenorc!",
        "low lies thy love, Len-\nore! and Guy De\nVere",
        "LENORE lenore L enore Lenora Lenores Elenore ignore",
        "| | | a=b a = b \u00ad\u00ad",
        "",
    ]
    for index, text in enumerate(texts):
        write("replacements", f"text-{index}", bytes((2, index * 3 % 256)) + text.encode())


# ---- arguments: NUL-separated ----

def arguments():
    lines = [
        ["Lenore.png", "--replace", "Lenore=Alex"],
        ["Lenore.png", "-r", "Lenore=Alex", "-o", "for-alex.html"],
        ["Lenore.png", "-rLenore=Alex", "--format=eml", "--to", "Alex <alex@example.org>", "-o", "draft.eml"],
        ["poems/", "--jobs", "2", "--output-dir", "texts/", "--format", "json", "--shard", "3/8"],
        ["-", "--timeout", "0.5", "--psm", "single-block", "--dpi", "300", "--region", "0,0,800,600"],
        ["Lenore.png", "-c", "tessedit_char_whitelist=ABC", "--max-dimension", "auto", "--filter", "adaptive"],
        ["--help"], ["--version"], ["--list-langs", "--tessdata", "tessdata"],
        ["Lenore.png", "--outptu", "x"], ["Lenore.png", "-o", ""], ["", "--mailto", "--subject", "a\nb"],
        ["Lenore.png", "--strictness", "loose", "--exact"], ["a.png", "--", "--not-an-option"],
    ]
    for index, argv in enumerate(lines):
        write("arguments", f"argv-{index}", b"\x00".join(a.encode() for a in argv))


# ---- manifest: byte 0 even = a manifest file, odd = a worker's line ----

def manifest_entry(name, status="ok", **fields):
    entry = {
        "contentHash": "sha256:" + "ab" * 32, "coverage": {"complete": True, "coveredAfterReread": 1,
        "coveredBeforeReread": 0.9, "linesReread": 1, "unreadRegions": 0}, "error": None, "failure": None,
        "finishedAt": "2026-12-01T14:58:30Z", "hasText": True, "input": name, "meanConfidence": 94, "messages": [],
        "optionsHash": "sha256:" + "cd" * 32, "output": name.rsplit(".", 1)[0] + ".txt",
        "outputHash": "sha256:" + "ef" * 32, "path": "/poems/" + name, "schemaVersion": 1, "status": status,
        "timings": {"decodeMs": 16, "personalizeMs": 1, "preprocessMs": 64, "recognizeMs": 661, "totalMs": 793},
        "warnings": [],
    }
    entry.update(fields)
    return json.dumps(entry, sort_keys=True, ensure_ascii=False).encode()


def manifests():
    ok = manifest_entry("a.png")
    failed = manifest_entry("b.jpg", "failed", error="b.jpg: the file is empty (0 bytes), not an image",
                            failure="input", output=None, outputHash=None, coverage=None, hasText=None)
    write("manifest", "one-ok", b"\x00" + ok + b"\n")
    write("manifest", "ok-failed-retried", b"\x00" + ok + b"\n" + failed + b"\n" + manifest_entry("b.jpg") + b"\n")
    write("manifest", "torn-last-line", b"\x00" + ok + b"\n" + failed[:40])
    write("manifest", "timed-out-cancelled", b"\x00" + manifest_entry("c.tif", "timed-out") + b"\n"
          + manifest_entry("d.png", "cancelled", output=None) + b"\n")
    write("manifest", "newer-schema", b"\x00" + manifest_entry("e.png", schemaVersion=2) + b"\n")
    write("manifest", "unicode-names", b"\x00" + manifest_entry("po\u00e8me \u00e9t\u00e9.png") + b"\n")
    write("manifest", "worker-ready", b"\x01" + json.dumps({"type": "ready", "pid": 42}).encode())
    write("manifest", "worker-fatal", b"\x01" + json.dumps({"type": "fatal", "error": "no tessdata", "code": 69}).encode())


# ---- request: NUL-separated target, image file name, then form field name/value pairs ----

def requests():
    seeds = {
        "raw-query": [b"/v1/poems?replace=Lenore%3DAlex&replace=Poe%3DMe&ignoreCase=true&format=json", b"lenore.jpg"],
        "form-names": [b"/v1/poems", b"photo.jpg", b"from", b"Lenore", b"to", b"Alex", b"format", b"html",
                       b"sideBySide", b"on"],
        "bad-values": [b"/v1/poems?dpi=9999&psm=x&lang=eng%2B&timeout=-1", b"../../etc/passwd", b"replace", b"=x",
                       b"filter", b"sepia"],
        "unknown-field": [b"/v1/poems?fromat=json&lang=fra", b"po\nem.png", b"strictness", b"loose", b"exact", b"1"],
        "percent-garbage": [b"/v1/po%ZZems?%E9=%&&=&replace=%00", b"\xff\xfe.png", b"replace",
                            b"\xc3\xa9t\xc3\xa9=summer"],
        "repeated": [b"/v1/poems?lang=eng&lang=fra", b"a.png", b"region", b"0,0,10,10", b"region", b"1,1,2,2"],
        # The whole seed is also the note editor's URL-encoded body.
        "note-edit": [b"text=Lenore%0D%0A%0D%0AAh%2C+broken+is+the+golden+bow%21%21&doubt=3%3A27%3A81%3Abow%21%21"
                      b"&doubt=3%3A1%3A50%3AAh%2C&poemLang=en"],
    }
    for name, pieces in seeds.items():
        write("request", name, b"\x00".join(pieces))


# ---- morphology: byte 0 = function, 1-2 = brick, 3-5 = image size, then the words ----

def morphology():
    seeds = {
        # Tesseract's bricks at 300 dpi on a page-like pattern: closing 5, opening 15, bars of 75.
        "close-5": bytes([3, 5, 5, 200, 0, 40]) + bytes([0x0F, 0xF0, 0x3C, 0xC3] * 64),
        "open-15": bytes([2, 15, 15, 63, 1, 47]) + bytes([0xFF, 0xFF, 0x00, 0xFF] * 80),
        "open-bar-across": bytes([2, 75, 1, 255, 0, 20]) + bytes([0xFF] * 40 + [0x00] * 40),
        "open-bar-down": bytes([2, 1, 75, 31, 0, 47]) + bytes([0x80, 0x00, 0x00, 0x01]),
        "erode-past-image": bytes([0, 255, 3, 9, 0, 5]) + bytes([0xFF] * 8),
        "dilate-word-edges": bytes([1, 33, 2, 32, 0, 6]) + bytes([0x80, 0x00, 0x00, 0x01, 0x00, 0x01, 0x80, 0x00]),
        "dilate-one-pixel": bytes([1, 7, 9, 0, 0, 0]) + bytes([0xFF]),
        "erode-pad-bits-set": bytes([0, 3, 3, 36, 0, 10]) + bytes([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
    }
    for name, data in seeds.items():
        write("morphology", name, data)


if __name__ == "__main__":
    # Seeds made here are made again; a fuzzing finding ("finding-*") is kept for good.
    for target in ("image", "replacements", "arguments", "manifest", "request", "morphology"):
        folder = os.path.join(HERE, "Corpus", target)
        for name in os.listdir(folder) if os.path.isdir(folder) else []:
            if not name.startswith("finding-"):
                os.remove(os.path.join(folder, name))
    images()
    replacements()
    arguments()
    manifests()
    requests()
    morphology()
