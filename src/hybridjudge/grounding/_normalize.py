"""Unicode normalisation with an offset map back to the original text.

Every text the grounding checks compare (answer, context, anchors, markers) goes through
:func:`normalize`: NFKC, case folding, dash / quote / fraction-slash / micro-sign variants folded
to one form, vulgar fractions spelled out (``"1½"`` -> ``"1 1/2"``) and private-use characters
blanked. Spans found in the normalised text are mapped back to the caller's text with
:meth:`NormalizedText.to_original`, so findings point at what the user wrote.

ASCII runs take a fast path (``str.lower`` is NFKC + casefold for ASCII); non-ASCII runs whose
normalised length equals their own length are mapped one to one; anything else is normalised one
character cluster (base + combining marks) at a time.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass

__all__ = ["NormalizedText", "normalize", "normalize_plain"]

# Folded after NFKC + casefold; every entry maps one character to one character so the fast path
# keeps offsets aligned.
_FOLD = str.maketrans(
    {
        "\u2010": "-",  # hyphen
        "\u2011": "-",  # non-breaking hyphen
        "\u2012": "-",  # figure dash
        "\u2013": "-",  # en dash
        "\u2014": "-",  # em dash
        "\u2015": "-",  # horizontal bar
        "\u2212": "-",  # minus sign
        "\ufe63": "-",  # small hyphen-minus
        "\u2018": "'",
        "\u2019": "'",
        "\u201b": "'",
        "\u02bc": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2044": "/",  # fraction slash
        "\u2215": "/",  # division slash
        "\u00b5": "\u03bc",  # micro sign -> Greek mu (NFKC does this too; kept for clarity)
        "\u200b": " ",  # zero-width space
        "\u2060": " ",  # word joiner
        "\ufeff": " ",  # byte-order mark
    }
)
_PRIVATE_USE = {chr(c): " " for c in range(0xE000, 0xF900)}
_FOLD.update({ord(k): v for k, v in _PRIVATE_USE.items()})

_PRE: dict[str, str] = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u2010": "-",
    "\u2011": "-",
    "\u2012": "-",
    "\u2013": "-",
    "\u2014": "-",
    "\u2212": "-",
    "\u00a0": " ",
    "\u202f": " ",
    "\u2009": " ",
    "\u2002": " ",
    "\u2003": " ",
    "\u2007": " ",
    "\u200a": " ",
}
"""One-to-one folds applied before the ASCII check (each agrees with NFKC + :data:`_FOLD`)."""
_BEYOND_PRE = re.compile("[^\x00-\x7f" + "".join(_PRE) + "]")

_VULGAR = {
    "\u00bc": "1/4",
    "\u00bd": "1/2",
    "\u00be": "3/4",
    "\u2150": "1/7",
    "\u2151": "1/9",
    "\u2152": "1/10",
    "\u2153": "1/3",
    "\u2154": "2/3",
    "\u2155": "1/5",
    "\u2156": "2/5",
    "\u2157": "3/5",
    "\u2158": "4/5",
    "\u2159": "1/6",
    "\u215a": "5/6",
    "\u215b": "1/8",
    "\u215c": "3/8",
    "\u215d": "5/8",
    "\u215e": "7/8",
}
_VULGAR_RE = re.compile("[" + "".join(_VULGAR) + "]")
_RUNS_RE = re.compile(r"[\x00-\x7f]+|[^\x00-\x7f]+")


def _fold_cluster(cluster: str) -> str:
    """Normalise one character cluster (a base character and its combining marks)."""
    frac = _VULGAR.get(cluster)
    if frac is not None:
        return " " + frac
    return unicodedata.normalize("NFKC", cluster).casefold().translate(_FOLD)


@dataclass(slots=True)
class NormalizedText:
    """A normalised text with the breakpoints needed to map its offsets back to the original.

    ``segments`` holds ``(norm_start, orig_start, orig_len)`` triples, sorted; inside a segment
    normalised offsets advance one to one with original offsets, clipped to the segment.

    Not frozen (creation is several times faster); treat it as read-only.
    """

    text: str
    original: str
    segments: tuple[tuple[int, int, int], ...]

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Map a ``[start, end)`` span of :attr:`text` to the original text."""
        if not self.segments:
            return start, end
        o_start = self._point(start)
        o_end = self._point(end - 1) + 1 if end > start else o_start
        return o_start, max(o_end, o_start)

    def _point(self, pos: int) -> int:
        segs = self.segments
        k = bisect_right(segs, (pos, len(self.original) + 1, 0)) - 1
        if k < 0:
            return 0
        n_start, o_start, o_len = segs[k]
        return o_start + min(pos - n_start, max(o_len - 1, 0))


_GROUPED = re.compile(r"\d,\d{3}(?!\d)")


def _csv_cells(text: str) -> str:
    """``text`` with the commas that separate the cells of a CSV row (``Segment,2019,2018``)
    written as ``|``, the cell separator the checks read (one character for one: offsets do
    not move). A row is a line with no comma followed by a space (running text has those) and
    no other cell separator, with two commas or more that do not group the thousands of a
    figure (``1,234`` stays)."""
    out: list[str] | None = None
    pos = 0
    for line in text.split("\n"):
        if line.count(",") >= 2 and ", " not in line and "|" not in line and "\t" not in line:
            separators = [k for k, ch in enumerate(line) if ch == "," and not _groups(line, k)]
            if len(separators) >= 2:
                if out is None:
                    out = list(text)
                for k in separators:
                    out[pos + k] = "|"
        pos += len(line) + 1
    return text if out is None else "".join(out)


def _groups(line: str, k: int) -> bool:
    """Whether the comma at ``k`` groups the thousands of a figure (``1,234``, not
    ``194.3,172.5`` nor ``2018,2019``)."""
    if k == 0 or _GROUPED.match(line, k - 1) is None:
        return False
    j = k - 1
    while j >= 0 and line[j].isdigit():
        j -= 1
    return not (j >= 0 and line[j] == ".")  # "3.5,100": a decimal ends the figure before


def normalize(text: str) -> NormalizedText:
    """Normalise ``text`` for matching and keep the map back to the original offsets (commas
    separating CSV cells become ``|``, one for one)."""
    if "," in text:
        if text.isascii():
            return NormalizedText(_csv_cells(text.lower()), text, ())
        norm = _normalize(text)
        return NormalizedText(_csv_cells(norm.text), text, norm.segments)
    return _normalize(text)


def _normalize(text: str) -> NormalizedText:
    if text.isascii():
        return NormalizedText(text.lower(), text, ())
    # Common typographic characters (curly quotes, dashes, no-break spaces) fold one to one;
    # a text that is ASCII afterwards keeps the identity offset map.
    if _BEYOND_PRE.search(text) is None:
        pre = text
        for ch, rep in _PRE.items():
            if ch in pre:
                pre = pre.replace(ch, rep)
        return NormalizedText(pre.lower(), text, ())
    parts: list[str] = []
    segments: list[tuple[int, int, int]] = []
    npos = 0
    for run in _RUNS_RE.finditer(text):
        chunk = run.group()
        ostart = run.start()
        if chunk[0] < "\x80":
            parts.append(chunk.lower())
            segments.append((npos, ostart, len(chunk)))
            npos += len(chunk)
            continue
        if _VULGAR_RE.search(chunk) is None:
            folded = unicodedata.normalize("NFKC", chunk).casefold().translate(_FOLD)
            if len(folded) == len(chunk):
                parts.append(folded)
                segments.append((npos, ostart, len(chunk)))
                npos += len(chunk)
                continue
        npos = _fold_slow(chunk, ostart, npos, parts, segments)
    return NormalizedText("".join(parts), text, tuple(segments))


def _fold_slow(
    chunk: str,
    ostart: int,
    npos: int,
    parts: list[str],
    segments: list[tuple[int, int, int]],
) -> int:
    """Normalise a non-ASCII run one cluster at a time, recording one segment per cluster."""
    i = 0
    n = len(chunk)
    while i < n:
        j = i + 1
        while j < n and unicodedata.combining(chunk[j]):
            j += 1
        folded = _fold_cluster(chunk[i:j])
        parts.append(folded)
        segments.append((npos, ostart + i, j - i))
        npos += len(folded)
        i = j
    return npos


def normalize_plain(text: str) -> str:
    """The normalised form of ``text`` without the offset map (for anchors and markers)."""
    return normalize(text).text
