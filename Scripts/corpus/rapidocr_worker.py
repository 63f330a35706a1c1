"""RapidOCR 3.10 on corpus images, warm, one onnxruntime thread (Scripts/corpus/score.py runs
it with the virtualenv of `make deps-bench`, two at a time at most).

    .build/rapidocr-venv/bin/python Scripts/corpus/rapidocr_worker.py IMAGE...

Prints one JSON object per image: {"file", "text", "seconds"}. As in
Scripts/benchset/rapidocr_read.py, the classifier is off and images are decoded to RGB first.
The reading order is not rapidocr_read.reading_order's: that one takes a centred title or
short lines, whose left edges differ from the body's, for columns and reads them last (on the
corpus's clean poems: bag-of-words F1 1.000, CER 17 %). Here columns are only where a band of
the page's width crosses no box; a column of few boxes (margin numbers) joins its neighbour;
lines are boxes whose vertical centres are close, read left to right.
"""

import json
import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image
from rapidocr import RapidOCR



def poem_order(boxes, texts):
    items = []
    for box, text in zip(boxes, texts):
        xs, ys = [p[0] for p in box], [p[1] for p in box]
        items.append((min(xs), min(ys), max(xs), max(ys), text))
    if not items:
        return ""
    height = sorted(b[3] - b[1] for b in items)[len(items) // 2]
    # Columns from the wide boxes only: margin numbers would bridge a gutter.
    wide = [i for i in items if i[2] - i[0] >= 2.5 * height] or items
    columns = []
    for item in sorted(wide):
        if columns and item[0] <= columns[-1]["right"] + 1.5 * height:
            columns[-1]["items"].append(item)
            columns[-1]["right"] = max(columns[-1]["right"], item[2])
        else:
            columns.append({"items": [item], "right": item[2]})
    big = [c for c in columns if len(c["items"]) >= 0.25 * len(wide) / len(columns) and len(c["items"]) >= 3] or columns
    for item in items:  # the rest (margin numbers, small columns) to the nearest big column
        if any(item in c["items"] for c in big):
            continue
        nearest = min(big, key=lambda c: max(0, min(i[0] for i in c["items"]) - item[2], item[0] - c["right"]))
        nearest["items"].append(item)
    out = []
    for c in big:
        lines = []
        for item in sorted(c["items"], key=lambda b: (b[1] + b[3]) / 2):
            centre = (item[1] + item[3]) / 2
            if lines and abs(centre - lines[-1][0]) < 0.5 * height:
                lines[-1][1].append(item)
            else:
                lines.append([centre, [item]])
        out.extend(" ".join(i[4] for i in sorted(line, key=lambda b: b[0])) for _, line in lines)
        out.append("")
    return "\n".join(out).strip("\n") + "\n"


def main():
    engine = RapidOCR(params={"Global.use_cls": False, "Global.log_level": "error",
                              "EngineConfig.onnxruntime.intra_op_num_threads": 1,
                              "EngineConfig.onnxruntime.inter_op_num_threads": 1})
    paths = sys.argv[1:]
    if paths:
        engine(np.asarray(Image.open(paths[0]).convert("RGB")))  # warm-up
    for path in paths:
        start = time.monotonic()
        try:
            out = engine(np.asarray(Image.open(path).convert("RGB")))
            text = poem_order(out.boxes if out.boxes is not None else [], out.txts or [])
            error = None
        except Exception as e:  # an image RapidOCR cannot read is reported, not fatal
            text, error = "", repr(e)
        print(json.dumps({"file": path, "text": text, "seconds": time.monotonic() - start, "error": error}), flush=True)


if __name__ == "__main__":
    main()
