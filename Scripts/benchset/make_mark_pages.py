#!/usr/bin/env python3
"""Renders the pages that calibrate snap-poem's bound on layout analysis (--max-marks).

Usage: make_mark_pages.py OUT_DIR

A4 pages at 300 dpi (2480x3508, grey PNG): honest prose, dense as print gets (10-point
type in two columns, 8-point and 7-point in three, words drawn from SampleImages/poems/
lenore.txt), and the costliest hostile page found, 5-pixel specks scattered at random, at
5 000, 10 000 and 20 000 specks. Needs Pillow and FreeSerif (Debian: python3-pil,
fonts-freefont-ttf; `make deps-bench` installs both). The bytes are the same on every run.
"""
import pathlib
import random
import sys

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 2480, 3508
FONT = "/usr/share/fonts/truetype/freefont/FreeSerif.ttf"
POEM = pathlib.Path(__file__).resolve().parents[2] / "SampleImages" / "poems" / "lenore.txt"


def prose(path, points, columns):
    """A page filled with lines of words in `columns` columns of `points`-point type."""
    size = round(points * 300 / 72)
    font = ImageFont.truetype(FONT, size)
    words = POEM.read_text(encoding="utf-8").split()
    page = Image.new("L", (WIDTH, HEIGHT), 255)
    draw = ImageDraw.Draw(page)
    margin, gap = 150, 80
    column_width = (WIDTH - 2 * margin - (columns - 1) * gap) // columns
    line_height = round(size * 1.25)
    chooser = random.Random(2)
    for column in range(columns):
        left = margin + column * (column_width + gap)
        top = margin
        while top < HEIGHT - margin - line_height:
            line = ""
            while True:
                longer = (line + " " + chooser.choice(words)).strip()
                if draw.textlength(longer, font=font) > column_width:
                    break
                line = longer
            draw.text((left, top), line, font=font, fill=0)
            top += line_height
    page.save(path)


def specks(path, count, side=5):
    """A white page with `count` black squares of `side` pixels at random places."""
    page = Image.new("L", (WIDTH, HEIGHT), 255)
    draw = ImageDraw.Draw(page)
    chooser = random.Random(count)
    for _ in range(count):
        x = chooser.randrange(0, WIDTH - side)
        y = chooser.randrange(0, HEIGHT - side)
        draw.rectangle([x, y, x + side - 1, y + side - 1], fill=0)
    page.save(path)


def main():
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    prose(out / "prose-10pt-2-columns.png", 10, 2)
    prose(out / "prose-8pt-3-columns.png", 8, 3)
    prose(out / "prose-7pt-3-columns.png", 7, 3)
    for count in (5000, 10000, 20000):
        specks(out / f"specks-{count}.png", count)


if __name__ == "__main__":
    main()
