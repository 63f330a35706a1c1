#!/usr/bin/env python3
"""The Debian changelog of the snap-poem package, from CHANGELOG.md (make deb).

    Scripts/debian-changelog.py CHANGELOG.md VERSION "NAME <EMAIL>" "RFC 2822 DATE" [COMMIT]

Prints one entry, for VERSION (the version the binary reports): the changes of CHANGELOG.md's
section for VERSION and, when there are any, those listed under "Unreleased" (they are in the
build too), as Debian changelog lines (two-space indent, "*" bullets, wrapped at 78 columns),
Markdown links reduced to their text. A native package has one entry per release; releases
before VERSION are left to CHANGELOG.md in the repository.
"""
import re
import sys
import textwrap


def sections(markdown):
    """(title, lines) for each "## [title]" section."""
    found, title, lines = [], None, []
    for line in markdown.splitlines():
        heading = re.match(r"^## \[([^\]]+)\]", line)
        if heading:
            if title is not None:
                found.append((title, lines))
            title, lines = heading.group(1), []
        elif title is not None:
            lines.append(line)
    if title is not None:
        found.append((title, lines))
    return found


def plain(text):
    """Markdown's links and emphasis reduced to plain text; backquotes are kept."""
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    return text.replace("**", "")


def entries(lines):
    """Debian changelog lines for the Markdown lines of one section."""
    items, current = [], None
    for line in lines:
        stripped = line.strip()
        if not stripped:
            current = None
            continue
        if stripped.startswith("### "):
            items.append(("heading", stripped[4:]))
            current = None
        elif stripped.startswith("- "):
            current = ["bullet", stripped[2:]]
            items.append(current)
        elif current is not None:
            current[1] += " " + stripped
        else:
            current = ["text", stripped]
            items.append(current)
    out = []
    for kind, text in items:
        text = plain(text)
        if kind == "heading":
            out += ["", f"  [ {text} ]"]
        elif kind == "bullet":
            out += textwrap.wrap(text, 78, initial_indent="  * ", subsequent_indent="    ", break_on_hyphens=False)
        else:
            out += textwrap.wrap(text, 78, initial_indent="  ", subsequent_indent="  ", break_on_hyphens=False)
    while out and not out[0]:
        out.pop(0)
    return out


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    path, version, maintainer, date = sys.argv[1:5]
    commit = sys.argv[5] if len(sys.argv) == 6 else ""
    with open(path, encoding="utf-8") as file:
        found = dict(sections(file.read()))
    if version not in found:
        sys.exit(f"debian-changelog: {path} has no section for {version}")
    built = f" from commit {commit}" if commit else ""
    body = [f"  * snap-poem {version}, packaged by make deb{built}."]
    unreleased = entries(found.get("Unreleased", []))
    if unreleased:
        body += ["", f"  Changes since {version} that this build has (not yet released):", ""] + unreleased
    body += ["", f"  The changes of {version}:", ""] + entries(found[version])
    print(f"snap-poem ({version}) unstable; urgency=medium\n")
    print("\n".join(body))
    print(f"\n -- {maintainer}  {date}")


if __name__ == "__main__":
    main()
