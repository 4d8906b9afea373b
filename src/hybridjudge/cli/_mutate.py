"""``hybridjudge mutate CORPUS_DIR --mutation-seed N --out FILE``: freeze seeded mutants of a corpus.

Writes a ``hybridjudge.mutations`` file (version 2 when it holds context classes, else 1) (header with the corpus sha256, seed and mutator
versions, then one mutant per line) and prints, per defect class, how many mutants were made and
which bases were refused and why.
"""

from __future__ import annotations

import argparse
from collections import defaultdict

from hybridjudge.cli._common import ListAction

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``mutate`` subcommand."""
    parser = subparsers.add_parser(
        "mutate",
        help="freeze seeded one-defect mutants of a corpus's base outputs",
        description=(
            "Run the mutators (omission, fabricated_number, non_abstention, contradiction, "
            "inversion) on every base output of CORPUS_DIR. Each mutant is verified by the "
            "deterministic checks to carry its defect and only it; bases a mutator cannot "
            "mutate honestly are refused and listed with the reason. Same seed and corpus: "
            "byte-identical file."
        ),
    )
    parser.add_argument(
        "corpus", metavar="CORPUS_DIR", help="folder with cases.jsonl, outputs.jsonl"
    )
    parser.add_argument(
        "--mutation-seed",
        type=int,
        required=True,
        metavar="N",
        help="seed of every mutator (same seed and corpus: byte-identical file)",
    )
    parser.add_argument("--out", required=True, metavar="FILE", help="mutation file to write")
    parser.add_argument(
        "--classes",
        nargs="+",
        action=ListAction,
        metavar="CLASS",
        help=(
            "classes to make, comma- or space-separated (default: the five answer classes); "
            "the context classes evidence_dropped, distractor, stale_passage, truncated and the "
            "controls passages_shuffled, passage_duplicated keep the answer and change its "
            "context; 'retrieval' names those six"
        ),
    )
    from hybridjudge.cli._check import add_limit_arguments

    add_limit_arguments(parser)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from hybridjudge._errors import ConfigError
    from hybridjudge._sinks import escape_controls
    from hybridjudge.corpus import (
        ALL_CLASSES,
        CONTEXT_DEFECT_CLASSES,
        CONTROL_CLASSES,
        DEFECT_CLASSES,
        DefectClass,
        load_corpus,
    )
    from hybridjudge.mutations import generate_mutations, write_mutations

    names: list[str] | None = args.classes
    classes: list[DefectClass] = list(DEFECT_CLASSES)
    if names is not None:
        if "retrieval" in names:
            names = [n for n in names if n != "retrieval"]
            names += [*CONTEXT_DEFECT_CLASSES, *CONTROL_CLASSES]
        unknown = [n for n in names if n not in ALL_CLASSES]
        if unknown or not names:
            raise ConfigError(
                f"--classes: unknown class {', '.join(unknown) or '(none given)'}; "
                f"choose from {', '.join(ALL_CLASSES)} (or 'retrieval' for the context classes)"
            )
        classes = [c for c in ALL_CLASSES if c in names]
    from hybridjudge.cli._check import read_limits

    corpus = load_corpus(args.corpus, limits=read_limits(args))
    mutations = generate_mutations(corpus, seed=args.mutation_seed, classes=classes)
    write_mutations(mutations, args.out)

    # refusals grouped by class and reason, with up to three base ids each
    refusals: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for refusal in mutations.refused:
        refusals[refusal.defect][refusal.reason].append(refusal.base_id)
    bases = len(corpus.bases())
    print(f"corpus {corpus.name!r}: {bases} base outputs, mutation seed {args.mutation_seed}")
    for cls, (made, refused) in mutations.counts().items():
        print(f"  {cls:<18} {made:>4} made, {refused:>4} refused")
        for reason, ids in refusals[cls].items():
            # one line per reason: an id with a line break or a control character is escaped
            shown = ", ".join(escape_controls(i, one_line=True) for i in ids[:3])
            shown += f", ... (+{len(ids) - 3})" if len(ids) > 3 else ""
            print(f"      {len(ids):>4} x {reason} [{shown}]")
    print(f"wrote {len(mutations.outputs)} mutants to {args.out}")
    return 0
