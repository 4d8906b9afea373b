"""Write ``src/hybridjudge/grounding/data/marker_triggers.json``: the built-in abstention
markers' triggers, computed once here rather than in every process.

Usage: ``python scripts/marker_triggers.py`` (writes the file) or ``--check`` (exit 1, and say
so, when the file is not what the lexicons and the code give now).

A marker set is searched by groups, a group per *trigger* (a marker's longest letter run, see
``hybridjudge.grounding._abstention.marker_triggers``); finding the triggers of the ~8,400
built-in markers normalises each, about 15 ms of every process's first check. The file holds
them with the SHA-256 of the markers they belong to: a process whose markers differ (a lexicon
edited since, a user's own set) computes its own. Run this after changing a lexicon's
``refusals`` or how markers are normalised; ``tests/grounding/test_marker_triggers.py`` fails
until then.
"""

from __future__ import annotations

import argparse
import json
import sys

from hybridjudge.grounding._abstention import (
    DEFAULT_ABSTAIN_MARKERS,
    TRIGGERS_FILE,
    TRIGGERS_FORMAT,
    marker_triggers,
    phrases_digest,
    split_markers,
)


def render() -> str:
    """The file's text for the markers and the code of this checkout."""
    phrases, _ = split_markers(DEFAULT_ABSTAIN_MARKERS)
    data = {
        "format_version": TRIGGERS_FORMAT,
        "about": "written by scripts/marker_triggers.py; do not edit",
        "markers_sha256": phrases_digest(phrases),
        "triggers": [
            t.decode("ascii") if t is not None else None for t in marker_triggers(phrases)
        ],
    }
    return json.dumps(data, indent=0, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the file, or with ``--check`` compare it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = TRIGGERS_FILE.read_text(encoding="utf-8") if TRIGGERS_FILE.is_file() else ""
        if current != text:
            print(
                f"{TRIGGERS_FILE} is out of date: run python scripts/marker_triggers.py",
                file=sys.stderr,
            )
            return 1
        print(f"{TRIGGERS_FILE} is up to date")
        return 0
    TRIGGERS_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {TRIGGERS_FILE} ({len(text):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
