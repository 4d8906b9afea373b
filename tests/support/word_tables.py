"""The scan for word tables of a language written in code (issue 33, point 2), shared by the
structure test of ``grounding/`` (``tests/grounding/test_structure.py``) and the one of the rest
of the package (``tests/test_word_tables.py``).

A *word table* is a collection literal (tuple, list, set, the keys of a dict) of at least
:data:`MIN_WORDS` words, or a string with an alternation of at least :data:`MIN_WORDS` words
(``but|however|although|though|yet``), outside docstrings.
"""

from __future__ import annotations

import ast
import re

MIN_WORDS = 5
"""The fewest words that make a table."""
_WORD = re.compile(r"[^\W\d_]{2,}(?:[ '-][^\W\d_]+)*\.?")
_ALTERNATION = re.compile(
    r"(?<![\w\\])[^\W\d_]{2,}(?:\|[^\W\d_]{2,}){" + str(MIN_WORDS - 1) + r",}(?!\w)"
)


def _owner(stack: list[ast.AST]) -> str:
    """The name a finding belongs to: the innermost function or class, else the module-level
    assignment it stands in."""
    for node in reversed(stack):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return node.name
    for node in stack:
        target = None
        if isinstance(node, ast.Assign):
            target = node.targets[0]
        elif isinstance(node, ast.AnnAssign):
            target = node.target
        if isinstance(target, ast.Subscript):
            target = target.value
        if isinstance(target, ast.Name):
            return target.id
    return "<module>"


def is_table(node: ast.AST) -> bool:
    """Whether ``node`` is a word table: a collection literal of at least :data:`MIN_WORDS`
    words or a string holding an alternation of as many."""
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        elements: list[ast.expr | None] = list(node.elts)
    elif isinstance(node, ast.Dict):
        elements = list(node.keys)
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _ALTERNATION.search(node.value) is not None
    else:
        return False
    words = [
        e
        for e in elements
        if isinstance(e, ast.Constant) and isinstance(e.value, str) and _WORD.fullmatch(e.value)
    ]
    return len(words) >= MIN_WORDS


def word_tables(source: str, module: str) -> set[str]:
    """``module.name`` of every word table in ``source`` (docstrings left out)."""
    tree = ast.parse(source)
    docstrings = {
        id(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
    }
    found: set[str] = set()

    def visit(node: ast.AST, stack: list[ast.AST]) -> None:
        if id(node) not in docstrings and is_table(node):
            found.add(f"{module}.{_owner(stack)}")
        for child in ast.iter_child_nodes(node):
            visit(child, [*stack, child])

    for top in tree.body:
        visit(top, [top])
    return found
