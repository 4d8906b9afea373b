"""Import OpenGATE's frozen exp-2 corpus (27 outputs) and its six gold cases.

Source: nickjlamb/opengate @ 9ebdf911a5e47f7f17d1d0efa2bf7746981f4ccc (MIT), as copied byte for
byte under ``tests/data/corpus-source/opengate`` (``docs/corpus.md``). The mapping is documented in ``corpus/opengate/README.md``.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any, Literal

from hybridjudge._errors import CaseFileError
from hybridjudge.corpus._io import write_jsonl_models
from hybridjudge.corpus._models import Anchor, Case, DefectClass, Output, Producer

__all__ = [
    "OPENGATE_COMMIT",
    "OPENGATE_DEFECT_MAP",
    "build_opengate",
    "load_opengate_source",
]

OPENGATE_COMMIT = "9ebdf911a5e47f7f17d1d0efa2bf7746981f4ccc"
"""The upstream commit the source files were taken from."""

OPENGATE_DEFECT_MAP: dict[str, DefectClass] = {
    "dropped_anchor": "omission",
    "fabricated_number": "fabricated_number",
    "non_abstention": "non_abstention",
    "contradiction": "contradiction",
    "inversion": "inversion",
}
"""The paper's ``injectedDefect.class`` names mapped to our defect classes."""

_FROZEN = Path("paper/exp2/corpus/frozen-corpus.json")
_CASES = Path("datasets/cases")
_RESULTS = Path("paper/exp2/results")
_PAPER_PRODUCER = Producer(system="opengate.paper.exp2", model=None, kind="synthetic")

_ProducerKind = Literal["real", "production", "synthetic"]
_PRODUCER_KINDS: dict[str, _ProducerKind] = {
    "production": "production",
    # OpenGATE's "reference implementation" is a gpt-4o-mini answerer built for the study.
    "reference implementation": "synthetic",
}


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes())
    except OSError as exc:
        raise CaseFileError(
            f"cannot read: {exc.strerror or exc}; pass the folder of a copy of the upstream "
            "files (the repository ships one: tests/data/corpus-source/opengate)",
            path=str(path),
        ) from None
    except json.JSONDecodeError as exc:
        raise CaseFileError(f"invalid JSON: {exc.msg}", path=str(path), line=exc.lineno) from None


def _case_from_file(path: Path, expected_sha256: str) -> Case:
    raw = path.read_bytes() if path.is_file() else None
    if raw is None:
        raise CaseFileError(
            "gold case file missing; the copy of the upstream files is incomplete", path=str(path)
        )
    digest = hashlib.sha256(raw).hexdigest()
    if digest != expected_sha256:
        raise CaseFileError(
            f"sha256 {digest} differs from the caseSha256 {expected_sha256} the paper recorded; "
            "use the unmodified upstream file",
            path=str(path),
        )
    data = json.loads(raw)
    kind = data.get("kind", "grounding")
    if kind == "simplification":
        context = data["text"]
        question = None
        raw_anchors = data.get("anchors", [])
    else:
        context = data["context"]
        question = data.get("question")
        raw_anchors = data.get("answerAnchors", [])
    anchors = tuple(
        Anchor(value=a["value"], aliases=tuple(a.get("aliases", ()))) for a in raw_anchors
    )
    return Case(
        id=data["id"],
        question=question,
        context=context,
        answerable=data.get("answerable", True),
        anchors=anchors,
        allowed_numbers=tuple(str(n) for n in data.get("allowedNewNumbers", ())),
        kind=kind,
        label_source=(
            f"opengate datasets/cases/{path.name} (hand-written gold case) "
            f"@ nickjlamb/opengate {OPENGATE_COMMIT[:12]}"
        ),
    )


def _output_from_item(item: dict[str, Any]) -> Output:
    output_id = item["outputId"]
    defect_info = item.get("injectedDefect")
    if defect_info is None:
        source = item["producer"]
        kind = _PRODUCER_KINDS.get(source["kind"])
        if kind is None:
            raise CaseFileError(
                f"unknown producer kind {source['kind']!r}; extend _PRODUCER_KINDS",
                case_id=output_id,
                field="producer.kind",
            )
        model = source.get("model")
        expected = item["expected"]
        # The paper's clean set is the bases labelled defectClass "none" (4 of 6, see
        # summary.json falsePositives.n); "observed-in-production" bases fail the gate as
        # captured, so they are not clean even where expected.faithful is true.
        clean = bool(expected["faithful"]) and expected["defectClass"] == "none"
        return Output(
            id=output_id,
            case_id=item["caseId"],
            text=item["text"],
            producer=Producer(
                system=source["system"],
                model=None if model in (None, "unspecified") else model,
                kind=kind,
            ),
            clean=clean,
        )
    theirs = defect_info["class"]
    ours = OPENGATE_DEFECT_MAP.get(theirs)
    if ours is None:
        raise CaseFileError(
            f"unknown defect class {theirs!r}; extend OPENGATE_DEFECT_MAP",
            case_id=output_id,
            field="injectedDefect.class",
        )
    base_id = f"{item['caseId']}::base"
    return Output(
        id=output_id,
        case_id=item["caseId"],
        text=item["text"],
        base_id=base_id,
        defect=ours,
        defect_detail=f"{defect_info['detail']} (paper: {item['producer'].get('mutated')})",
        origin="paper",
        producer=_PAPER_PRODUCER,
    )


def load_opengate_source(data_dir: str | Path) -> tuple[list[Case], list[Output]]:
    """Read a copy of the upstream OpenGATE files and return its cases and its 27 outputs, in paper order.

    Args:
        data_dir: a copy of the upstream OpenGATE files (``tests/data/corpus-source/opengate``).

    Raises:
        CaseFileError: a source file is missing, malformed, or differs from what the paper
            recorded (each case file's sha256 is checked against the corpus's ``caseSha256``).
    """
    root = Path(data_dir)
    frozen = _read_json(root / _FROZEN)
    items: list[dict[str, Any]] = frozen["items"]
    cases: dict[str, Case] = {}
    outputs: list[Output] = []
    for item in items:
        case_id = item["caseId"]
        if case_id not in cases:
            cases[case_id] = _case_from_file(root / _CASES / f"{case_id}.json", item["caseSha256"])
        outputs.append(_output_from_item(item))
    return list(cases.values()), outputs


def build_opengate(data_dir: str | Path, out_dir: str | Path) -> list[Path]:
    """Write ``cases.jsonl``, ``outputs.jsonl``, ``LICENSE`` and ``paper-results/`` to *out_dir*.

    Returns the written paths. ``README.md`` is hand-written and left untouched.
    """
    root = Path(data_dir)
    out = Path(out_dir)
    cases, outputs = load_opengate_source(root)
    written = [out / "cases.jsonl", out / "outputs.jsonl", out / "LICENSE"]
    write_jsonl_models(written[0], cases)
    write_jsonl_models(written[1], outputs)
    license_src = root / "LICENSE"
    if not license_src.is_file():
        raise CaseFileError(
            "licence file missing from the copy of the upstream files", path=str(license_src)
        )
    shutil.copyfile(license_src, written[2])
    results_dir = out / "paper-results"
    results_dir.mkdir(parents=True, exist_ok=True)
    sources = sorted((root / _RESULTS).glob("*.json"))
    if not sources:
        raise CaseFileError("no per-repetition results found", path=str(root / _RESULTS))
    for src in sources:
        dst = results_dir / src.name
        shutil.copyfile(src, dst)
        written.append(dst)
    return written
