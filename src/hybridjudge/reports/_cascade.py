"""The hybrid scorer against its parts run together: lost, gained and saved, for every report."""

from __future__ import annotations

from hybridjudge.reports._format import fmt_count
from hybridjudge.reports._table import Cell, Column, Row, Table
from hybridjudge.reports._tables import class_label
from hybridjudge.study import (
    JUDGE_SCORERS,
    CascadeRow,
    CostRow,
    StudyAnalysis,
    StudyResult,
    split_scorer,
)

__all__ = ["CASCADE_EXPLAINED", "CASCADE_TITLE", "cascade_savings", "cascade_table"]

CASCADE_TITLE = "The hybrid scorer against its parts run together"

CASCADE_EXPLAINED = (
    "The hybrid scorer (the cascade) runs the grounding checks first and decides an output "
    "they fail without a model call; it supports without a call each claim the context states "
    "as written, and sends only the remaining claims to its judges. Its parts run together "
    "means every part on every output: an output is flagged when the checks or any of its "
    "judges flags it. Per defect class (never summed): mutants detected in every repetition by "
    "the cascade and by its parts together; *lost*: detected by the parts together, not by the "
    "cascade; *gained*: the other way round. The clean row counts false alarms on the bases "
    "labelled correct (*lost* there is a false alarm the cascade avoided). In a study that "
    "also runs its judges, the cascade keeps a reply cache of its own, so its calls are what "
    "it costs alone."
)


def _label(row: CascadeRow) -> str:
    if row.defect_class == "clean":
        return "clean bases flagged (false alarms)"
    return class_label(row.defect_class, row.origin)


def cascade_table(analysis: StudyAnalysis) -> Table:
    """One row per (cascade, corpus, defect class, origin), and the clean rows."""
    columns = (
        Column("cascade"),
        Column("corpus"),
        Column("defect class"),
        Column("outputs", align="right"),
        Column("cascade", align="right"),
        Column("parts together", align="right"),
        Column("lost", align="right"),
        Column("gained", align="right"),
        Column("unscored", align="right"),
    )
    rows = [
        Row(
            (
                Cell(f"{r.cascade} ({' + '.join(r.parts)})"),
                Cell(r.corpus),
                Cell(_label(r)),
                *(
                    Cell(fmt_count(v), align="right")
                    for v in (r.n, r.cascade_count, r.parts_count, r.lost, r.gained, r.unscored)
                ),
            )
        )
        for r in analysis.cascade
    ]
    return Table(columns, tuple(rows))


def _share(a: int, b: int) -> str:
    return f"{a / b:.2f}x" if b else "n/a"


def _against(mine: CostRow, theirs: list[CostRow], who: str) -> str:
    """The cascade's calls and tokens beside those of ``theirs`` together."""
    calls = sum(c.calls for c in theirs)
    requests = sum(c.calls + c.cache_hits for c in theirs)
    tokens = sum(c.prompt_tokens + c.completion_tokens for c in theirs)
    my_tokens = mine.prompt_tokens + mine.completion_tokens
    my_requests = mine.calls + mine.cache_hits
    return (
        f"against {fmt_count(calls)} calls and {fmt_count(tokens)} tokens "
        f"({fmt_count(requests)} requests) for {who}: {_share(mine.calls, calls)} the calls, "
        f"{_share(my_tokens, tokens)} the tokens, {_share(my_requests, requests)} the requests; "
        f"saved {fmt_count(calls - mine.calls)} calls and {fmt_count(tokens - my_tokens)} tokens"
    )


def _on_shared_outputs(
    study: StudyResult, mine: CostRow, parts: tuple[str, ...]
) -> tuple[CostRow, str]:
    """The cascade's cost on the outputs its parts scored too, when it scored more (it ran on
    every output, ``--hybrid-all-outputs``), and the words that say so; else as it is."""
    scored: dict[str, set[str]] = {}
    for obs in study.observations:
        scored.setdefault(obs.scorer, set()).add(obs.output_id)
    shared = set.intersection(*(scored.get(p, set()) for p in parts)) if parts else set()
    everything = scored.get(mine.scorer, set())
    if not shared or shared >= everything:
        return mine, ""
    usage = [
        o.usage for o in study.observations if o.scorer == mine.scorer and o.output_id in shared
    ]
    row = mine.model_copy(
        update={
            "evaluations": len(usage),
            "calls": sum(u.calls for u in usage),
            "cache_hits": sum(u.cache_hits for u in usage),
            "prompt_tokens": sum(u.prompt_tokens for u in usage),
            "completion_tokens": sum(u.completion_tokens for u in usage),
        }
    )
    return row, (
        f" on the {fmt_count(len(shared & everything))} outputs its parts scored too (on all "
        f"{fmt_count(len(everything))} it made {fmt_count(mine.calls)} calls and "
        f"{fmt_count(mine.prompt_tokens + mine.completion_tokens)} tokens)"
    )


def cascade_savings(analysis: StudyAnalysis, study: StudyResult | None = None) -> list[str]:
    """One sentence per cascade: its calls and tokens beside its parts' together and, when the
    study ran other judges too, beside every judge of the study together (each judge on every
    output, as a team running them all would); requests are calls + cache hits (as if nothing
    were cached). Given the ``study``, a cascade that scored more outputs than its parts
    (``--hybrid-all-outputs``) is counted on the outputs they scored too."""
    cost = {c.scorer: c for c in analysis.cost}
    lines: list[str] = []
    seen: dict[str, tuple[str, ...]] = {}
    for row in analysis.cascade:
        seen.setdefault(row.cascade, row.parts)
    for cascade, parts in seen.items():
        mine = cost.get(cascade)
        theirs = [cost[p] for p in parts if p in cost]
        if mine is None or len(theirs) != len(parts):
            continue
        where = ""
        if study is not None:
            mine, where = _on_shared_outputs(study, mine, parts)
        judge, _ = split_scorer(cascade)
        judges = [
            c
            for c in analysis.cost
            if split_scorer(c.scorer)[0] == judge and split_scorer(c.scorer)[1] in JUDGE_SCORERS
        ]
        my_tokens = mine.prompt_tokens + mine.completion_tokens
        line = (
            f"{cascade}{where}: {fmt_count(mine.calls)} model calls and {fmt_count(my_tokens)} "
            f"tokens ({fmt_count(mine.calls + mine.cache_hits)} requests with cache hits) "
            + _against(mine, theirs, " + ".join(parts) + " together")
        )
        if {c.scorer for c in judges} - set(parts):
            line += "; " + _against(mine, judges, " + ".join(c.scorer for c in judges))
        lines.append(line + ".")
    return lines
