"""The layers of hybridjudge, written once as data and checked against every module's imports.

Rules (docs/architecture.md states them for contributors):

1. A package imports only the packages :data:`ALLOWED` lists for it, plus the utility modules
   (:data:`UTILITIES`). ``cli`` is on top; ``grounding``, ``metrics`` and ``model`` import nothing
   of ours but utility modules; the model layer knows no CLI and no prompts.
2. No import cycle between packages.
3. No module imports another package's private module (``hybridjudge.study._models`` from
   ``reports``): it uses the names that package's ``__init__`` exports.
4. No library module imports the top-level package (``from hybridjudge import X``): the top-level
   ``__init__`` is a lazy facade for users, so a stage imports only what it needs.
5. ``import hybridjudge``, ``hybridjudge.grounding`` and ``hybridjudge.metrics.*`` (and the ``check``
   command) load neither the model layer nor openai, matplotlib or rich: checked in a fresh
   interpreter.

Every import counts, also the ones inside functions and under ``TYPE_CHECKING``: a deferred import
is still a dependency.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.fresh import fresh_json

SRC = Path(__file__).resolve().parents[1] / "src"
ROOT = "hybridjudge"

UTILITIES: frozenset[str] = frozenset(
    {
        "_errors",  # the one error tree
        "_version",  # the version, so nothing imports the top-level package for it
        "_anchor",  # the anchor record shared by corpus (stores) and grounding (matches)
        "_params",  # validators of parameters several layers accept (repetitions)
        "_jsonl",  # the one JSONL reader
        "_atomic",  # atomic file writes and the output-directory lock
        "_stats",  # confidence intervals
        "_sync",  # sync entry points that also work inside a running event loop
        "_frames",  # rows -> pandas DataFrame behind the [pandas] extra
        "_redact",  # secrets out of every stored or printed text
        "_versions",  # the one rule for a saved file's format version
        "_lazy",  # a package's names imported on first use (PEP 562)
        "_limits",  # the bounds on bytes read per file, record and field
        "_sinks",  # clean text for the terminal, Markdown and CSV
        "_text",  # the one sentence splitter, fold, word lists (data/words.json), tolerance
    }
)
"""Top-level private modules every package may import; they import only each other."""

_STAGES = frozenset({"corpus", "grounding", "judges", "model", "mutations", "study", "reports"})
_METRICS = frozenset({"metrics.ordinal", "metrics.retrieval"})

ALLOWED: dict[str, frozenset[str]] = {
    # the command line: on top of everything
    "cli": _STAGES | _METRICS | {"dist", "metrics", "peers"},
    # distributed runs (ray): the scorers and the study, never the CLI
    "dist": frozenset({"judges", "grounding", "model", "corpus", "study", "mutations"}),
    # helpers for users' test suites and their pytest plugin: the library, never the CLI
    "testing": _STAGES | _METRICS | {"metrics"},
    "pytest_plugin": _STAGES | _METRICS | {"metrics", "testing"},
    # a study runs the scorers over a corpus and its mutants
    # (and measures with metrics' AUROC how its scores separate labelled answers)
    # (and blames a failed answer with metrics.retrieval's hit@k, recall@k, reciprocal rank)
    "study": frozenset(
        {"judges", "grounding", "mutations", "corpus", "model", "peers", "metrics"}
        | {"metrics.retrieval"}
    ),
    # reports render study results (and the triage/retrieval reports of the metrics)
    "reports": frozenset({"study", "model"}) | _METRICS,
    # judges call the model layer; they share grounding's abstention detector
    "judges": frozenset({"model", "grounding", "corpus"}),
    # the peer scorers (RAGAS, DeepEval) behind a proxy on our model layer
    "peers": frozenset({"model"}),
    # mutants are built from corpus cases and verified with the grounding checks
    "mutations": frozenset({"corpus", "grounding"}),
    # records, their files and importers (which derive candidate anchors with grounding's parser)
    "corpus": frozenset({"grounding"}),
    # the bottom layers: nothing of ours but utility modules
    "model": frozenset(),
    "grounding": frozenset(),
    "metrics": _METRICS,  # the namespace package's docstring may name its two halves
    "metrics.ordinal": frozenset(),
    "metrics.retrieval": frozenset(),
}
"""Package -> the packages it may import (besides itself and :data:`UTILITIES`)."""


@dataclass(frozen=True)
class Import:
    """One ``import`` statement of a module of ours, resolved to an absolute module name."""

    module: str
    target: str
    line: int

    def __str__(self) -> str:
        return f"{self.module}:{self.line} imports {self.target}"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted((SRC / ROOT).rglob("*.py"))}


def _imports(module: str, path: Path) -> Iterator[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if _is_package(path) else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == ROOT or alias.name.startswith(ROOT + "."):
                    yield Import(module, alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            if source != ROOT and not source.startswith(ROOT + "."):
                continue
            known = _modules()
            for alias in node.names:
                # `from hybridjudge.model import _local` imports the module hybridjudge.model._local
                candidate = f"{source}.{alias.name}"
                yield Import(module, candidate if candidate in known else source, node.lineno)


def _layer(module: str) -> str:
    """The package a module belongs to: ``cli``, ``metrics.ordinal``, a utility, or ``<top>``."""
    parts = module.split(".")[1:]
    if not parts:
        return "<top>"
    if parts[0] == "metrics" and len(parts) > 1 and not parts[1].startswith("_"):
        return f"metrics.{parts[1]}"
    return parts[0]


ALL_IMPORTS: list[Import] = sorted(
    {imp for m, p in _modules().items() for imp in _imports(m, p)},
    key=lambda imp: (imp.module, imp.line, imp.target),
)


def test_the_rules_cover_every_package_and_module() -> None:
    layers = {_layer(m) for m in _modules()} - {"<top>", "__main__"}
    unknown = layers - set(ALLOWED) - UTILITIES
    assert not unknown, f"add these to ALLOWED or UTILITIES in {__file__}: {sorted(unknown)}"
    assert (
        len(ALL_IMPORTS) > 200
    )  # the parser sees the imports (a broken walk would pass vacuously)


def test_packages_import_only_the_layers_below_them() -> None:
    wrong = []
    for imp in ALL_IMPORTS:
        source, target = _layer(imp.module), _layer(imp.target)
        if source in {"<top>", "__main__"} or target == source:
            continue
        if source in UTILITIES:
            if target not in UTILITIES:
                wrong.append(f"{imp} (a utility module imports only utility modules)")
            continue
        if target in UTILITIES:
            continue
        if target == "<top>":
            continue  # rule 4, reported by its own test
        if target not in ALLOWED[source]:
            wrong.append(f"{imp} ({source} may import {sorted(ALLOWED[source]) or 'no package'})")
    assert not wrong, "\n".join(wrong)


def test_no_library_module_imports_the_top_level_package() -> None:
    wrong = [
        str(imp)
        for imp in ALL_IMPORTS
        if imp.target == ROOT and _layer(imp.module) not in {"<top>", "__main__"}
    ]
    assert not wrong, "import from the defining module (e.g. hybridjudge._version):\n" + "\n".join(
        wrong
    )


def test_no_module_imports_another_packages_private_module() -> None:
    wrong = []
    for imp in ALL_IMPORTS:
        parts = imp.target.split(".")
        private = [i for i, part in enumerate(parts) if part.startswith("_") and i > 0]
        if not private:
            continue
        owner = ".".join(parts[: private[0]])  # the package the private module belongs to
        if owner == ROOT and parts[private[0]] in UTILITIES:
            continue
        if imp.module == owner or imp.module.startswith(owner + "."):
            continue
        wrong.append(str(imp))
    assert not wrong, (
        "use the names the package's __init__ exports (add them there if missing):\n"
        + "\n".join(wrong)
    )


def test_no_import_cycle_between_packages() -> None:
    graph: dict[str, set[str]] = {}
    for imp in ALL_IMPORTS:
        source, target = _layer(imp.module), _layer(imp.target)
        if source != target and "<top>" not in (source, target) and source != "__main__":
            graph.setdefault(source, set()).add(target)
    # the allowed table itself must be acyclic, and so must the real graph
    for name, edges in (("ALLOWED", {k: set(v) for k, v in ALLOWED.items()}), ("imports", graph)):
        cycle = _find_cycle(edges)
        assert cycle is None, f"cycle in {name}: {' -> '.join(cycle or [])}"


def _find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_cycle_finder_finds_a_cycle() -> None:
    # the check above could pass vacuously if the finder never reported anything
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _find_cycle({"a": {"b"}, "b": {"c"}}) is None


# -- rule 5: what importing loads, in a fresh interpreter ----------------------------------------

HEAVY = ("hybridjudge.model", "openai", "matplotlib", "rich", "httpx", "diskcache")


def _loaded_after(code: str, modules: tuple[str, ...] = HEAVY) -> list[str]:
    """Which of ``modules`` a fresh interpreter has imported after running ``code``."""
    loaded: list[str] = fresh_json(
        f"{code}\nimport sys, json\n"
        f"print(json.dumps(sorted(m for m in {modules!r} if m in sys.modules)))"
    )
    return loaded


@pytest.mark.parametrize(
    "statement",
    [
        "import hybridjudge",
        "import hybridjudge.grounding",
        "import hybridjudge.metrics",
        "import hybridjudge.metrics.retrieval",
        "import hybridjudge.metrics.ordinal",
        "import hybridjudge.corpus",
        "from hybridjudge import check_grounding, Anchor, __version__, InputError",
        "import hybridjudge.cli",
    ],
)
def test_importing_the_free_half_loads_no_model_layer(statement: str) -> None:
    assert _loaded_after(statement) == []


def _check_one_case(tmp_path: Path) -> str:
    """Code that runs ``hybridjudge check --json`` on a one-case file (all grounded)."""
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        json.dumps({"id": "a", "answer": "It costs 12 EUR.", "context": "The price is 12 EUR."})
        + "\n",
        encoding="utf-8",
    )
    return (
        f"from hybridjudge.cli import main\nassert main(['check', {str(cases)!r}, '--json']) == 0\n"
    )


def test_the_check_command_loads_no_model_layer(tmp_path: Path) -> None:
    assert _loaded_after(_check_one_case(tmp_path)) == []


def test_a_command_loads_only_its_own_module(tmp_path: Path) -> None:
    # `hybridjudge check` is the per-answer gate: the other commands' modules (the study's
    # arguments, the dry run) are not imported for it, which keeps a one-case check fast
    from hybridjudge.cli import _COMMAND_MODULES

    modules = (*_COMMAND_MODULES, "hybridjudge.cli._dryrun")
    assert _loaded_after(_check_one_case(tmp_path), modules) == ["hybridjudge.cli._check"]


def test_the_probe_sees_a_heavy_import() -> None:
    # the checks above could pass vacuously if the probe never saw anything
    assert {"hybridjudge.model", "openai"} <= set(
        _loaded_after("from hybridjudge.model import ModelClient")
    )
    import hybridjudge

    assert hybridjudge.ModelClient.__name__ == "ModelClient"  # the lazy name still resolves


# -- the rules live in the repository --------------------------------------------------------------

REPO = SRC.parent
OUTSIDE = ("../" + "shared", "MISSION" + ".md", "STYLE" + ".md")  # spelled apart: not a reference


def test_code_and_docs_point_at_docs_never_outside_the_repository() -> None:
    # code comments, docstrings, messages, benchmarks and docs cite docs/*.md, which ship with
    # the package's repository; a path outside it means nothing to a user of the package
    roots = ("src", "tests", "bench", "scripts", "docs", "examples", "validity", "corpus")
    wrong = []
    for root in roots:
        for path in sorted((REPO / root).rglob("*")):
            if path.suffix not in {".py", ".md", ".toml", ".yml", ".txt"} or not path.is_file():
                continue
            if "data" in path.relative_to(REPO).parts[1:2]:  # upstream copies, kept unmodified
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            wrong += [f"{path.relative_to(REPO)}: {word}" for word in OUTSIDE if word in text]
    assert not wrong, "point at a docs/ page instead:\n" + "\n".join(wrong)


def test_every_docs_page_cited_in_the_code_exists() -> None:
    cited = set()
    for root in ("src", "tests", "bench", "scripts"):
        for path in (REPO / root).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            cited |= set(re.findall(r"docs/[\w/-]+\.md", text))
    assert cited, "no docs page is cited: the scan is broken"
    missing = sorted(page for page in cited if not (REPO / page).is_file())
    assert not missing, missing
