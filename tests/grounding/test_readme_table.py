"""The README's table example (issue 9) runs and prints what its comment lines say.

By hand: 16,525 million = 16.525 billion, which is 16.5 at the answer's precision (0.1 billion);
3,676.2 - 460.8 = 3,215.4; (16,525 - 14,020) / 14,020 = 0.17867 -> 17.9%;
(3,676.2 - 460.8) / 460.8 = 6.97786 -> 697.8%; 17.2 billion is no figure of the table.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def test_table_example_prints_its_documented_output(capsys: pytest.CaptureFixture[str]) -> None:
    (block,) = [
        b
        for b in re.findall(r"```python\n(.*?)```", README, flags=re.S)
        if "GroundingChecker(table)" in b
    ]
    exec(block, {})
    printed = capsys.readouterr().out.splitlines()
    documented = [line[2:] for line in block.splitlines() if line.startswith("# ")]
    assert printed == documented
    assert printed[1] == "True ['$3,215.4 million = 3,676.2 - 460.8'] []"
    assert printed[3] == "False [] ['$17.2 billion']"


def test_layouts_example_reads_markdown_html_and_a_pdf_page_alike(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 33: a table in Markdown, an HTML table and a PDF page each have a runnable example.

    By hand, as above: $16.5 billion is Products' 16,525 (in millions) at the answer's precision,
    3,215.4 = 3,676.2 - 460.8; $16.5 million is 1,000 times too small under the heading's
    "(in millions)" (in the PDF text a line of its own); 17.2 billion is no figure of the table,
    whichever layout carries it.
    """
    (block,) = [
        b for b in re.findall(r"```python\n(.*?)```", README, flags=re.S) if "pdf_page" in b
    ]
    exec(block, {})
    printed = capsys.readouterr().out.splitlines()
    documented = [line[2:] for line in block.splitlines() if line.startswith("# ")]
    assert printed == documented
    assert [line.split(" ", 1)[0] for line in printed] == ["markdown", "html", "pdf"]
    assert all(
        line.endswith("[True, True, False, False] ['$16.5 million', '$17.2 billion']")
        for line in printed
    )
