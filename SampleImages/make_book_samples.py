#!/usr/bin/python3
"""Samples for issue 20's tests: a page-curl sweep and French poems, with exact ground truth.

Run by make-samples.sh after make_samples.py (own seeds: every other sample stays
byte-identical):
    /usr/bin/python3 make_book_samples.py [OUTPUT_DIR]

* curl/: two upright renders, each with lines lifted toward the spine by 0, 20, 40, 60, 80
  and 100 px (a page photographed in an open book: the lines rise quadratically over the
  half of the page next to the spine, the paper is foreshortened there and darkens into
  the gutter), made by the same `curl` function as the held-out benchmark set
  (Scripts/benchset/make_benchset.py), but with SampleImages' own fonts and poems.
* french/: Verlaine's "Chanson d'automne", Hugo's "Demain, dès l'aube" and Baudelaire's
  "Harmonie du soir", each clean and photo-like (blur, uneven light, noise, JPEG); and an
  English poem quoting a French stanza (Poe's "Lenore", stanza 1, then Verlaine's first).

Needs python3-pil and python3-numpy and the fonts of make_samples.py (EB Garamond, DejaVu
Sans, Liberation Serif).
"""

import random
import sys
from pathlib import Path

from PIL import Image, ImageFilter

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "Scripts" / "benchset"))
import make_benchset as bench  # noqa: E402
import make_samples as samples  # noqa: E402

bench.FONTS.update({
    "garamond": samples.FONTS["garamond"],
    "dejavu-sans": samples.FONTS["dejavu-sans"],
    "liberation-serif": samples.FONTS["liberation-serif"],
})

# Victor Hugo, "Demain, dès l'aube…", Les Contemplations (1856). Public domain.
DEMAIN = """Demain, dès l'aube

Demain, dès l'aube, à l'heure où blanchit la campagne,
Je partirai. Vois-tu, je sais que tu m'attends.
J'irai par la forêt, j'irai par la montagne.
Je ne puis demeurer loin de toi plus longtemps.

Je marcherai les yeux fixés sur mes pensées,
Sans rien voir au dehors, sans entendre aucun bruit,
Seul, inconnu, le dos courbé, les mains croisées,
Triste, et le jour pour moi sera comme la nuit.

Je ne regarderai ni l'or du soir qui tombe,
Ni les voiles au loin descendant vers Harfleur,
Et quand j'arriverai, je mettrai sur ta tombe
Un bouquet de houx vert et de bruyère en fleur.
"""

# Charles Baudelaire, "Harmonie du soir", Les Fleurs du mal (1857), stanzas 1-3. Public domain.
HARMONIE = """Harmonie du soir

Voici venir les temps où vibrant sur sa tige
Chaque fleur s'évapore ainsi qu'un encensoir ;
Les sons et les parfums tournent dans l'air du soir ;
Valse mélancolique et langoureux vertige !

Chaque fleur s'évapore ainsi qu'un encensoir ;
Le violon frémit comme un cœur qu'on afflige ;
Valse mélancolique et langoureux vertige !
Le ciel est triste et beau comme un grand reposoir.

Le violon frémit comme un cœur qu'on afflige,
Un cœur tendre, qui hait le néant vaste et noir !
Le ciel est triste et beau comme un grand reposoir ;
Le soleil s'est noyé dans son sang qui se fige.
"""


def save(image, lines, path):
    image.save(path, optimize=True) if path.suffix == ".png" else image.convert("RGB").save(path, "JPEG", quality=88)
    path.with_suffix(".txt").write_text(bench.truth(lines), encoding="utf-8")


def curl_sweep(out):
    folder = out / "curl"
    folder.mkdir(exist_ok=True)
    rng = random.Random(20)
    lenore = bench.lines_of((HERE / "poems" / "lenore.txt").read_text(encoding="utf-8"))
    renders = [
        ("lenore", lenore[16:31], "garamond", 40, False),
        ("tyger", bench.lines_of(samples.TYGER)[:15], "dejavu-sans", 32, True),
    ]
    for name, lines, font, size, title in renders:
        mask = bench.render(lines, font, size, margin=1.8, title=title)
        page = bench.ink(bench.paper(rng, mask.size, (246, 242, 232), 6), mask, (24, 22, 22))
        for lift in range(0, 101, 20):
            curled = bench.curl(page, lift * 1.2, lift * 0.8, spine="right" if name == "lenore" else "left")
            save(curled.convert("L"), lines, folder / f"{name}-lift-{lift:03d}.png")


def french(out):
    folder = out / "french"
    folder.mkdir(exist_ok=True)
    rng = random.Random(2020_1866)
    for name, text, font, size in [
        ("verlaine-chanson", samples.CHANSON, "liberation-serif", 44),
        ("hugo-demain", DEMAIN, "garamond", 44),
        ("baudelaire-harmonie", HARMONIE, "dejavu-sans", 36),
    ]:
        page, lines = bench.poem_page(rng, text, font, size)
        save(page.convert("L"), lines, folder / f"{name}-clean.png")
        lit = bench.light(page, lambda x, y: 0.6 + 0.4 * (1.2 - x).clip(0, 1))
        photo = bench.grain(rng, lit.filter(ImageFilter.GaussianBlur(1.1)), 9)
        save(photo, lines, folder / f"{name}-photo.jpg")
    # An English poem with a French stanza in it: Lenore's title and first stanza, then the
    # first stanza of Verlaine's "Chanson d'automne", as a poem quoting another might.
    lenore = bench.lines_of((HERE / "poems" / "lenore.txt").read_text(encoding="utf-8"))
    mixed = lenore[:9] + [""] + bench.lines_of(samples.CHANSON)[2:8]
    page, lines = bench.poem_page(rng, "\n".join(mixed), "garamond", 42)
    save(page.convert("L"), lines, folder / "mixed-lenore-verlaine.png")


def main():
    out = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else HERE
    curl_sweep(out)
    french(out)


if __name__ == "__main__":
    main()
