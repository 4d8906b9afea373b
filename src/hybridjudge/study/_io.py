"""Reading and writing ``study.json`` with its format version checked."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from hybridjudge._errors import InputError
from hybridjudge._versions import version_problem
from hybridjudge.study._models import (
    READABLE_STUDY_FORMAT_VERSIONS,
    STUDY_FORMAT,
    STUDY_FORMAT_VERSION,
    StudyResult,
)

__all__ = ["load_study", "save_study"]


def save_study(result: StudyResult, path: str | Path) -> Path:
    """Write ``result`` as indented JSON (atomically: a unique temp file in the same folder,
    fsync, then a rename; see :mod:`hybridjudge._atomic`)."""
    from hybridjudge._atomic import atomic_write_text

    return atomic_write_text(path, result.model_dump_json(indent=1) + "\n")


def load_study(path: str | Path) -> StudyResult:
    """Read a ``study.json`` (or a results directory containing one).

    Reads every version in :data:`READABLE_STUDY_FORMAT_VERSIONS`; an older file comes back as
    the current version with the fields it lacks empty (no named judges, no separation rows).
    """
    p = Path(path)
    if p.is_dir():
        p = p / "study.json"
    try:
        data = json.loads(p.read_text(encoding="utf-8-sig"))
    except OSError as exc:
        raise InputError(
            f"{p}: cannot read the study ({exc.strerror or exc}); run `hybridjudge study run` first"
        ) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{p}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{p}: not valid JSON (line {exc.lineno}): {exc.msg}") from None
    except RecursionError:
        raise InputError(f"{p}: not a study file (JSON nested too deeply to read)") from None
    except ValueError as exc:  # an integer too long to read
        raise InputError(f"{p}: not valid JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != STUDY_FORMAT:
        raise InputError(f"{p}: not a hybridjudge study file (format should be {STUDY_FORMAT!r})")
    version = data.get("format_version")
    problem = version_problem(version, READABLE_STUDY_FORMAT_VERSIONS, "study format")
    if problem is not None:
        raise InputError(f"{p}: {problem}")
    # an older file reads as the current version: the fields it lacks are empty
    data["format_version"] = STUDY_FORMAT_VERSION
    try:
        return StudyResult.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(x) for x in first.get("loc", ()))
        raise InputError(f"{p}: invalid study file at {loc}: {first.get('msg')}") from None
