"""Print how many tests were skipped and why, from pytest's JUnit XML report (used by .ci/test)."""

import sys
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree


def main(path: str) -> None:
    if not Path(path).exists() or Path(path).stat().st_size == 0:
        print("== skipped: unknown (pytest wrote no report)")
        return
    reasons = Counter()
    for case in ElementTree.parse(path).iter("testcase"):
        skipped = case.find("skipped")
        if skipped is not None:
            reason = skipped.get("message") or "no reason given"
            reasons[reason.removeprefix("Skipped: ")] += 1
    total = sum(reasons.values())
    if not total:
        print("== skipped: none")
        return
    print(f"== skipped: {total} test{'s' if total != 1 else ''}")
    for reason, count in reasons.most_common():
        print(f"   {count:4d}  {reason}")


if __name__ == "__main__":
    main(sys.argv[1])
