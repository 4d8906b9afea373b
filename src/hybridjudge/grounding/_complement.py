"""A percentage stated as the rest of a whole (the trace rule ``complement``).

An answer that names one share of a whole often states the rest as its own figure: ``North
America made up 40% of revenue; the remaining 60% came from other regions``, ``die übrigen 60
%``, ``les 60 % restants``. The context states the 40%; the 60% is 100% less it. Such a figure
is traced to the share it completes when a word of the rest stands beside it: without one, 100%
less a context percentage would explain almost any percentage by chance.

The words are the lexicons' (``figure_context.complement_before``: ``the remaining``, ``die
übrigen``; ``figure_context.complement_after``: ``remaining``, ``restants``, ``restante``);
at most three words may stand between them and the figure, in its clause (no figure, no stop
between).
"""

from __future__ import annotations

from hybridjudge.grounding._lexicon import alternation, grouped
from hybridjudge.grounding._patterns import lazy

__all__ = ["COMPLEMENT_GAP_WORDS", "states_rest"]

COMPLEMENT_GAP_WORDS = 3
"""The most words between a word of the rest and its percentage (``the other regions made up
60%``)."""

_WORD = r"(?:[^\W\d_]|['’-])+"
"""A word between them: letters, apostrophes and hyphens (no figure, no stop)."""

_BLANKS = r"[ \t]+"


def _before() -> str:
    words = alternation(grouped("figure_context", "complement_before"), space=_BLANKS)
    gap = rf"(?:[ \t]*[,:(]?[ \t]+{_WORD}){{0,{COMPLEMENT_GAP_WORDS}}}"
    return rf"(?<![\w])(?:{words}){gap}[ \t]*[,:(]?[ \t]*\Z"


def _after() -> str:
    words = alternation(grouped("figure_context", "complement_after"), space=_BLANKS)
    gap = rf"(?:[ \t]+{_WORD}){{0,{COMPLEMENT_GAP_WORDS}}}?"
    return rf"[ \t]*[,)]?{gap}[ \t]+(?:{words})(?![\w])"


_BEFORE = lazy(_before)
"""A word of the rest before the figure, then at most three words, in the figure's clause."""
_AFTER = lazy(_after)
"""At most three words after the figure, then a word of the rest."""

_REACH = 90
"""How far before the figure a word of the rest is looked for (characters)."""


def states_rest(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]``, a percentage of the normalised (lower-case) ``text``, is
    stated as the rest of a whole: a word of ``complement_before`` before it or of
    ``complement_after`` after it, at most :data:`COMPLEMENT_GAP_WORDS` words apart."""
    if _BEFORE().search(text, max(0, start - _REACH), start) is not None:
        return True
    return _AFTER().match(text, end, min(len(text), end + _REACH)) is not None
