"""Reads images with RapidOCR 3.10 (PP-OCRv6-small, onnxruntime), warm, one process.

    .build/rapidocr-venv/bin/python Scripts/benchset/rapidocr_read.py IMAGE...

Prints one JSON object per image: {"file", "text", "seconds"}. The classifier (use_cls) is
off: it turns wide upright lines upside down. Images are decoded to RGB first (RapidOCR reads
1-bit palette PNGs as black). RapidOCR gives boxes in no reading order beyond top-left, so
boxes are joined into line segments (overlapping vertically, close horizontally), segments
into columns (by their left edge), and read column by column, top to bottom.
"""

import json
import sys
import time

import numpy as np
from PIL import Image
from rapidocr import RapidOCR


def reading_order(boxes, texts):
    items = []
    for box, text in zip(boxes, texts):
        xs = [p[0] for p in box]
        ys = [p[1] for p in box]
        items.append([min(xs), min(ys), max(xs), max(ys), text])
    items.sort(key=lambda b: (b[1], b[0]))
    segments = []
    for left, top, right, bottom, text in items:
        height = bottom - top
        for seg in segments:
            overlap = min(bottom, seg[3]) - max(top, seg[1])
            if overlap > 0.5 * min(height, seg[3] - seg[1]) and -height < left - seg[2] < 1.5 * height:
                seg[2] = max(seg[2], right)
                seg[1] = min(seg[1], top)
                seg[3] = max(seg[3], bottom)
                seg[4] += " " + text
                break
        else:
            segments.append([left, top, right, bottom, text])
    if not segments:
        return ""
    width = max(s[2] for s in segments) - min(s[0] for s in segments)
    # Columns: segments narrower than 60 % of the text width, grouped by left edge.
    lefts = sorted(s[0] for s in segments if s[2] - s[0] < 0.6 * width)
    starts = []
    for x in lefts:
        if not starts or x - starts[-1] > 0.15 * width:
            starts.append(x)

    def column(seg):
        if seg[2] - seg[0] >= 0.6 * width or len(starts) < 2:
            return -1
        return max(i for i, x in enumerate(starts) if seg[0] >= x - 0.05 * width) if seg[0] >= starts[0] - 0.05 * width else 0

    wide_bottom = max([s[3] for s in segments if column(s) == -1] or [0])
    ordered = sorted(segments, key=lambda s: (0 if column(s) == -1 and s[1] < wide_bottom + 1 else 1, column(s), s[1]))
    return "\n".join(s[4] for s in ordered) + "\n"


def main():
    engine = RapidOCR(params={"Global.use_cls": False})
    paths = sys.argv[1:]
    if paths:
        engine(np.asarray(Image.open(paths[0]).convert("RGB")))  # warm-up
    for path in paths:
        start = time.monotonic()
        image = np.asarray(Image.open(path).convert("RGB"))
        out = engine(image)
        boxes = out.boxes if out.boxes is not None else []
        texts = out.txts or []
        text = reading_order(boxes, texts)
        print(json.dumps({"file": path, "text": text, "seconds": time.monotonic() - start}), flush=True)


if __name__ == "__main__":
    main()
