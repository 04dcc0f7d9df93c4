"""The contract documents live in the repository (docs/rules.md, docs/report.md):
each holds its contract word for word (headings one level down), amended
2026-12-03. Where the shared contract folder is beside the checkout (the
project's workspace), the copies must equal it; everywhere, they must hold the
amendments, and the README must link to them rather than to files a user's
checkout does not have."""
import pathlib
import re

REPO = pathlib.Path(__file__).resolve().parents[2]
SHARED_SPEC = REPO.parent / "shared" / "spec"
DOCS = {"rules.md": "rules-v1.md", "report.md": "cli-and-report-v1.md"}


def _contract_section(doc):
    text = (REPO / "docs" / doc).read_text(encoding="utf-8")
    marker = re.search(r"^## The contract: .*$", text, re.M)
    assert marker, f"docs/{doc} has no '## The contract' section"
    return text[marker.end():].strip("\n")


def _demoted(spec_text):
    lines, fence = [], False
    for line in spec_text.splitlines():
        if line.startswith("```"):
            fence = not fence
        lines.append("#" + line if not fence and line.startswith("#") else line)
    return "\n".join(lines).strip("\n")


def test_docs_hold_the_amended_contracts():
    rules = _contract_section("rules.md")
    report = _contract_section("report.md")
    assert "2026-12-03" in rules and "source.malformed.mostly" in rules.replace("`", "")
    assert "`bad_rows` is\n  `rows`, `quality_score` is 0" in rules
    assert "**per check**" in report and "default 100" in report
    assert "the `malformed` check of rules-v1 comes first" in report


def test_docs_equal_the_shared_contracts_where_present():
    present = [doc for doc, spec in DOCS.items() if (SHARED_SPEC / spec).exists()]
    for doc in present:
        spec = (SHARED_SPEC / DOCS[doc]).read_text(encoding="utf-8")
        assert _contract_section(doc) == _demoted(spec), \
            f"docs/{doc} is out of step with {SHARED_SPEC / DOCS[doc]}: copy it again"
    assert present or not SHARED_SPEC.exists()


def test_readme_links_the_docs_not_the_shared_folder():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "shared/spec" not in readme
    assert "(docs/rules.md)" in readme and "(docs/report.md)" in readme
