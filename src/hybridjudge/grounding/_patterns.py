"""Regular expressions compiled on first use.

Most of the grounding checks' expressions serve texts of some kind only: a refusal's hedges, a
table's scale heading, a German date, a figure glued to a word. Compiled at import, each costs
every process (a one-case ``hybridjudge check`` included) whether or not a text needs it; kept
as a source string and compiled by :func:`compiled` where it is used, it costs only the
processes that meet such a text. Expressions on the paths every text takes stay compiled at
import.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from hybridjudge.grounding._stored import compile_stored

__all__ = ["compiled", "lazy"]


@functools.cache
def compiled(source: str, flags: int = 0) -> re.Pattern[str]:
    """``source`` compiled with ``flags``, on the first call, and kept for the process (flags
    are written inline, ``(?x)``, ``(?i)``, or given: ``re.VERBOSE``).

    Not ``re``'s own cache (``re.match(source, text)``): that holds 512 expressions of the whole
    process and may drop ours under a user's load; these are constants of the package, a few
    dozen, never evicted. The key is the source string itself (its hash is kept by the string),
    so a call costs a dictionary lookup. A long source's code is kept between processes
    (:func:`hybridjudge.grounding._stored.compile_stored`)."""
    return compile_stored(source, flags)


def lazy(source: str | Callable[[], str], flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """A function that returns ``source`` compiled with ``flags`` (by :func:`compiled`, on its
    first call): ``_FILLER = lazy(r"...")`` at module level, ``_FILLER().match(text)`` where it
    is used.

    ``source`` may be a function that writes the source (``lazy(lambda: trie_alternation(...))``):
    called on the first call too, for a source that takes time to write (a trie of a lexicon's
    words: about 1 ms each for the largest, paid at import by every process otherwise)."""
    if callable(source):
        write = source

        @functools.cache
        def built() -> re.Pattern[str]:
            return compiled(write(), flags)

        return built
    if flags:
        return functools.partial(compiled, source, flags)
    return functools.partial(compiled, source)
