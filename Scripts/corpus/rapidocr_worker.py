"""RapidOCR 3.10 on corpus images, warm, one onnxruntime thread (Scripts/corpus/score.py runs
it with the virtualenv of `make deps-bench`, two at a time at most).

    .build/rapidocr-venv/bin/python Scripts/corpus/rapidocr_worker.py IMAGE...

Prints one JSON object per image: {"file", "text", "seconds"}. As in
Scripts/benchset/rapidocr_read.py (whose reading order it uses): the classifier is off, images
are decoded to RGB first, boxes are grouped into lines and columns.
"""

import json
import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image
from rapidocr import RapidOCR

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchset"))
from rapidocr_read import reading_order  # noqa: E402


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
            text = reading_order(out.boxes if out.boxes is not None else [], out.txts or [])
            error = None
        except Exception as e:  # an image RapidOCR cannot read is reported, not fatal
            text, error = "", repr(e)
        print(json.dumps({"file": path, "text": text, "seconds": time.monotonic() - start, "error": error}), flush=True)


if __name__ == "__main__":
    main()
