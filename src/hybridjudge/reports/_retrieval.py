"""The retrieval report card (``hybridjudge retrieval eval``) as tables for the terminal, Markdown
and a self-contained HTML page in the style of every hybridjudge report."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hybridjudge.metrics.retrieval import MetricSummary, RetrievalResult
from hybridjudge.reports._page import facts_html, page, table_block
from hybridjudge.reports._table import Cell, Column, Table

__all__ = ["RetrievalCard", "render_retrieval_html", "render_retrieval_markdown"]


@dataclass(frozen=True, slots=True)
class RetrievalCard:
    """Everything the report card shows, built once for every format."""

    title: str
    facts: tuple[tuple[str, str], ...]
    summary: Table
    notes: tuple[str, ...]
    worst: Table | None

    @staticmethod
    def build(
        result: RetrievalResult,
        summaries: Sequence[MetricSummary],
        sources: Mapping[str, str],
        questions: Mapping[str, str] | None = None,
        worst: int = 5,
    ) -> RetrievalCard:
        """The card of ``result`` with its bootstrap ``summaries``."""
        questions = questions or {}
        first = summaries[0] if summaries else None
        facts = [
            ("queries", str(result.num_queries)),
            *((key, str(value)) for key, value in sources.items()),
            (
                "conventions",
                f"ties: {result.tie_break}; relevant: grade >= {result.relevance_level}"
                + (f"; first {result.max_docs} documents per query" if result.max_docs else ""),
            ),
        ]
        if first is not None:
            facts.append(
                (
                    "intervals",
                    f"{round(first.confidence * 100)}% {first.method}, {first.n_resamples} "
                    f"resamples, bootstrap seed {first.seed}",
                )
            )
        confidence = round(first.confidence * 100) if first is not None else 95
        summary = Table.of(
            [
                Column("metric"),
                Column("mean", "right"),
                Column(f"{confidence}% CI", "right"),
                Column("queries", "right"),
            ],
            [
                [
                    Cell(s.metric, emphasis="strong"),
                    f"{s.mean:.4f}",
                    f"[{s.ci_low:.4f}, {s.ci_high:.4f}]",
                    str(s.n_queries),
                ]
                for s in summaries
            ],
        )
        notes = []
        for qids, text in (
            (result.run_only_queries, "run queries without qrels, ignored (as trec_eval)"),
            (
                result.missing_queries,
                "qrels queries missing from the run, scored 0 (--complete)"
                if result.complete
                else "qrels queries missing from the run, skipped (as trec_eval; --complete "
                "scores them 0)",
            ),
            (result.queries_without_relevant, "queries without a relevant document, scored 0"),
        ):
            if qids:
                shown = ", ".join(qids[:5]) + (", ..." if len(qids) > 5 else "")
                notes.append(f"{len(qids)} {text}: {shown}")
        worst_table = None
        if worst > 0 and result.metrics:
            primary = result.metrics[0]
            columns = [Column("query")]
            if questions:
                columns.append(Column("question"))
            columns += [Column(name, "right") for name in result.metrics]
            rows = []
            for qid, _ in result.worst(primary, worst):
                values = result.query(qid)
                extra = [_short(questions.get(qid, ""))] if questions else []
                rows.append([qid, *extra, *(f"{values[name]:.4f}" for name in result.metrics)])
            worst_table = Table.of(
                columns,
                rows,
                caption=f"Worst {min(worst, result.num_queries)} queries by {primary}",
            )
        return RetrievalCard(
            title="Retrieval report card",
            facts=tuple(facts),
            summary=summary,
            notes=tuple(notes),
            worst=worst_table,
        )


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def render_retrieval_markdown(card: RetrievalCard) -> str:
    """The card as Markdown."""
    lines = [f"# {card.title}", ""]
    lines += [f"- **{key}**: {value}" for key, value in card.facts]
    lines += ["", card.summary.to_markdown(), ""]
    lines += [f"> note: {note}" for note in card.notes]
    if card.worst is not None:
        lines += ["", card.worst.to_markdown()]
    lines.append("")
    return "\n".join(lines)


def render_retrieval_html(card: RetrievalCard) -> str:
    """The card as one self-contained HTML page."""
    body = [
        f"<h1>{html.escape(card.title)}</h1>",
        facts_html(card.facts),
        "<h2>Metrics</h2>",
        table_block(card.summary.to_html()),
        *(f'<p class="note">{html.escape(note)}</p>' for note in card.notes),
    ]
    if card.worst is not None:
        body += ["<h2>Worst queries</h2>", table_block(card.worst.to_html())]
    return page(card.title, body)
