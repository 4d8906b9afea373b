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
        if "GroundingChecker(" in b
    ]
    exec(block, {})
    printed = capsys.readouterr().out.splitlines()
    documented = [line[2:] for line in block.splitlines() if line.startswith("# ")]
    assert printed == documented
    assert printed[1] == "True ['$3,215.4 million = 3,676.2 - 460.8'] []"
    assert printed[3] == "False [] ['$17.2 billion']"
