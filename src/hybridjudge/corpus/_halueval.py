"""Sample HaluEval's QA records into a corpus: knowledge as context, right answer as the base.

Source: RUCAIBox/HaluEval @ b7253db3cdaa0ab2c382f92b26b390109174f77e,
``generation/qa/qa_one-turn_data.json`` (MIT; the HotpotQA-derived knowledge is CC BY-SA 4.0),
copied byte for byte under ``tests/data/corpus-source/halueval`` (``docs/corpus.md``).
"""

from __future__ import annotations

import random
from pathlib import Path

from hybridjudge._errors import CaseFileError
from hybridjudge._jsonl import iter_json_lines, read_bytes
from hybridjudge.corpus._io import write_jsonl_models
from hybridjudge.corpus._models import Anchor, Case, Output, Producer

__all__ = [
    "HALUEVAL_COMMIT",
    "HALUEVAL_SAMPLE_SIZE",
    "HALUEVAL_SEED",
    "HALUEVAL_UNCLASSIFIED_DETAIL",
    "build_halueval",
    "sample_halueval",
]

HALUEVAL_COMMIT = "b7253db3cdaa0ab2c382f92b26b390109174f77e"
"""The upstream commit the source file was taken from."""
HALUEVAL_SEED = 2026
"""Seed of ``random.Random`` that picks the sampled records."""
HALUEVAL_SAMPLE_SIZE = 100
"""How many records the shipped corpus holds."""
HALUEVAL_UNCLASSIFIED_DETAIL = "halueval hallucinated answer (natural, unclassified)"
"""``defect_detail`` of every hallucinated answer: HaluEval labels it without a defect class."""

_SOURCE = Path("qa_one-turn_data.json")
_FIELDS = ("knowledge", "question", "right_answer", "hallucinated_answer")
_LABEL_SOURCE = (
    "HaluEval qa_one-turn_data.json @ RUCAIBox/HaluEval "
    f"{HALUEVAL_COMMIT[:12]}: right_answer is HotpotQA's gold answer (used as the anchor); "
    "hallucinated_answer is labelled hallucinated by HaluEval"
)
_GOLD = Producer(system="hotpotqa", model=None, kind="synthetic")
_HALLUCINATOR = Producer(system="halueval", model="chatgpt", kind="synthetic")


def _read_records(path: Path) -> list[dict[str, str]]:
    records: list[dict[str, str]] = []
    hint = (
        "pass the folder of a copy of the upstream files "
        "(the repository ships one: tests/data/corpus-source/halueval)"
    )
    where = str(path)
    for item in iter_json_lines(read_bytes(path, hint=hint).splitlines(), path=where):
        if item.error is not None:
            raise item.error
        data = item.value
        if not isinstance(data, dict):
            raise CaseFileError("expected a JSON object", path=where, line=item.line)
        for field in _FIELDS:
            if not isinstance(data.get(field), str) or not data[field].strip():
                raise CaseFileError(
                    "missing or empty; HaluEval QA records need all four fields",
                    path=where,
                    line=item.line,
                    field=field,
                )
        records.append({field: data[field] for field in _FIELDS})
    return records


def sample_halueval(
    data_dir: str | Path, *, seed: int = HALUEVAL_SEED, size: int = HALUEVAL_SAMPLE_SIZE
) -> tuple[list[Case], list[Output]]:
    """Sample *size* QA records with ``random.Random(seed)`` and return their cases and outputs.

    The sampled record indices (0-based lines of the source file) are sorted, and each becomes
    case ``halueval-qa-NNN`` with two outputs: ``::base`` (the right answer, clean) and
    ``::hallucinated`` (origin ``natural``, ``defect=None``: HaluEval gives no defect class).

    Raises:
        CaseFileError: the source file is missing or malformed, or holds fewer than *size* records.
    """
    path = Path(data_dir) / _SOURCE
    records = _read_records(path)
    if size > len(records):
        raise CaseFileError(
            f"asked for {size} records but the file holds {len(records)}", path=str(path)
        )
    picked = sorted(random.Random(seed).sample(range(len(records)), size))
    width = max(3, len(str(len(records) - 1)))
    cases: list[Case] = []
    outputs: list[Output] = []
    for index in picked:
        record = records[index]
        case_id = f"halueval-qa-{index:0{width}d}"
        cases.append(
            Case(
                id=case_id,
                question=record["question"],
                context=record["knowledge"],
                answerable=True,
                anchors=(Anchor(value=record["right_answer"]),),
                kind="qa",
                label_source=_LABEL_SOURCE,
            )
        )
        base_id = f"{case_id}::base"
        outputs.append(
            Output(
                id=base_id, case_id=case_id, text=record["right_answer"], producer=_GOLD, clean=True
            )
        )
        outputs.append(
            Output(
                id=f"{case_id}::hallucinated",
                case_id=case_id,
                text=record["hallucinated_answer"],
                base_id=base_id,
                defect=None,
                defect_detail=HALUEVAL_UNCLASSIFIED_DETAIL,
                origin="natural",
                producer=_HALLUCINATOR,
            )
        )
    return cases, outputs


_CC_NOTE = """

--------------------------------------------------------------------------------
Note on the data (added by hybridjudge)

The MIT licence above is HaluEval's (RUCAIBox/HaluEval @ {commit}). The
"knowledge" passages and the questions and right answers of the QA records
derive from HotpotQA, whose data is distributed under the Creative Commons
Attribution-ShareAlike 4.0 International licence (CC BY-SA 4.0,
https://creativecommons.org/licenses/by-sa/4.0/). The cases.jsonl and
outputs.jsonl files of this folder are therefore shared under CC BY-SA 4.0,
with attribution to HotpotQA (Yang et al., 2018) and HaluEval (Li et al., 2023).
"""


def build_halueval(data_dir: str | Path, out_dir: str | Path) -> list[Path]:
    """Write ``cases.jsonl``, ``outputs.jsonl`` and ``LICENSE`` to *out_dir*; return the paths.

    ``README.md`` is hand-written and left untouched.
    """
    root = Path(data_dir)
    out = Path(out_dir)
    cases, outputs = sample_halueval(root)
    written = [out / "cases.jsonl", out / "outputs.jsonl", out / "LICENSE"]
    write_jsonl_models(written[0], cases)
    write_jsonl_models(written[1], outputs)
    license_src = root / "LICENSE"
    try:
        licence = license_src.read_text(encoding="utf-8")
    except OSError as exc:
        raise CaseFileError(f"cannot read: {exc.strerror or exc}", path=str(license_src)) from None
    with written[2].open("w", encoding="utf-8", newline="\n") as handle:
        handle.write(licence.rstrip("\n") + _CC_NOTE.format(commit=HALUEVAL_COMMIT))
    return written
