"""docs/rules.md stands on its own: what it points at is in the repository (docs/rules-spec/), every
relative link of the docs resolves, and the README links docs/upgrades.md."""

import re

from tests.support import ROOT

LINK = re.compile(r"\]\(([^)#]+)(?:#[^)]*)?\)")


def test_docs_point_at_nothing_outside_the_repository():
    for path in [*(ROOT / "docs").glob("*.md"), *(ROOT / "docs" / "rules-spec").glob("*.md")]:
        text = path.read_text()
        assert "../shared" not in text, path
        for target in LINK.findall(text):
            if "://" in target:
                continue
            assert (path.parent / target).resolve().is_relative_to(ROOT), (path, target)
            assert (path.parent / target).exists(), (path, target)


def test_the_rules_document_links_its_specification():
    text = (ROOT / "docs" / "rules.md").read_text()
    for name in ("hand-family.md", "hand-and-foot.md", "scoring-examples.md"):
        assert f"(rules-spec/{name})" in text
        assert (ROOT / "docs" / "rules-spec" / name).is_file()


def test_the_readme_links_the_upgrade_notes_with_a_changelog():
    assert "(docs/upgrades.md)" in (ROOT / "README.md").read_text()
    assert "## Changelog" in (ROOT / "docs" / "upgrades.md").read_text()
