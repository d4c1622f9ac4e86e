"""Compares two captures of bench/render_capture.py answer by answer, modulo whitespace (not a test): runs of
whitespace read as one space, whitespace between two tags as none. Prints the answers that differ (the
first difference of each, with some context) and a count per game:

    .venv/bin/python bench/render_compare.py var/render_before var/render_after
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

LABEL = re.compile(r"\n<!-- (.*?) -->\n")
BETWEEN_TAGS = re.compile(r">\s+<")
SPACES = re.compile(r"\s+")


def normal(html: str) -> str:
    return SPACES.sub(" ", BETWEEN_TAGS.sub("><", html)).strip()


def answers(path: Path) -> list[tuple[str, str]]:
    parts = LABEL.split(path.read_text())
    return list(zip(parts[1::2], parts[2::2], strict=True))


def main() -> int:
    before, after = Path(sys.argv[1]), Path(sys.argv[2])
    differ = 0
    for old_file in sorted(before.glob("*.html")):
        old, new = answers(old_file), answers(after / old_file.name)
        assert [label for label, _ in old] == [label for label, _ in new], old_file.name
        bad = 0
        for (label, a), (_label, b) in zip(old, new, strict=True):
            a, b = normal(a), normal(b)
            if a != b:
                bad += 1
                if bad <= 3:
                    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
                    print(f"{old_file.stem} {label}:")
                    print(f"  before …{a[at - 150 : at + 150]}…")
                    print(f"  after  …{b[at - 150 : at + 150]}…")
        differ += bad
        print(f"{old_file.stem}: {len(old)} answers, {len(old) - bad} equal modulo whitespace")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
