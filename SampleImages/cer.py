#!/usr/bin/python3
"""Character error rate of an OCR result against a ground-truth text.

    cer.py GROUND_TRUTH.txt OCR_OUTPUT.txt [--diff]
    tesseract img.png - | cer.py img.txt -

CER = Levenshtein distance (insertions + deletions + substitutions, on
Unicode code points) / number of characters in the ground truth, after both
texts are normalised: Unicode NFC, form feeds dropped, every run of whitespace
(spaces, tabs, newlines, blank lines) turned into one space, ends stripped.
So layout (line breaks, blank lines between stanzas) is not scored, but every
letter, accent, quote and dash is.  An empty ground truth scores the length
of the OCR output (0 when both are empty).

--fold also reports a CER with typographic quotes, apostrophes and dashes
folded to ASCII, to tell punctuation from real reading errors.
--diff prints the aligned differences.
Exit status 0; the figure is printed as "CER 0.0123 (12 edits / 975 chars)".
"""

import re
import sys
import unicodedata

FOLD = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'",
                      "—": "-", "–": "-", "‐": "-", "‑": "-", "\u00a0": " "})


def normalise(text, fold=False):
    text = unicodedata.normalize("NFC", text).replace("\f", "")
    if fold:
        text = text.translate(FOLD)
    return re.sub(r"\s+", " ", text).strip()


def levenshtein(a, b):
    """Edit distance with the operations, two-row DP plus a trace for --diff."""
    if len(a) < len(b):
        a, b = b, a
        swapped = True
    else:
        swapped = False
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
        prev = cur
    return prev[len(b)], swapped


def alignment(a, b):
    """Full-matrix alignment (only used for --diff)."""
    n, m = len(a), len(b)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(m + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    i, j, ops = n, m, []
    while i or j:
        if i and j and d[i][j] == d[i - 1][j - 1] + (a[i - 1] != b[j - 1]):
            if a[i - 1] != b[j - 1]:
                ops.append((i - 1, f"{a[i - 1]!r} -> {b[j - 1]!r}"))
            i, j = i - 1, j - 1
        elif i and d[i][j] == d[i - 1][j] + 1:
            ops.append((i - 1, f"{a[i - 1]!r} deleted"))
            i -= 1
        else:
            ops.append((i, f"{b[j - 1]!r} inserted"))
            j -= 1
    return list(reversed(ops))


def cer(reference, hypothesis, fold=False):
    ref, hyp = normalise(reference, fold), normalise(hypothesis, fold)
    dist, _ = levenshtein(ref, hyp)
    return (dist / len(ref) if ref else float(len(hyp) > 0)), dist, len(ref)


def read(path):
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as f:
        return f.read()


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    reference, hypothesis = read(args[0]), read(args[1])
    rate, dist, n = cer(reference, hypothesis)
    line = f"CER {rate:.4f} ({dist} edits / {n} chars)"
    if "--fold" in argv:
        frate, fdist, _ = cer(reference, hypothesis, fold=True)
        line += f"; folded CER {frate:.4f} ({fdist} edits)"
    print(line)
    if "--diff" in argv:
        ref = normalise(reference)
        for pos, what in alignment(ref, normalise(hypothesis)):
            print(f"  at {pos:5d} ...{ref[max(0, pos - 12):pos + 12]!r}: {what}")


if __name__ == "__main__":
    main(sys.argv[1:])
