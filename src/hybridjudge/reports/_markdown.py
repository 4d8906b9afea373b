"""``report.md``: the study as Markdown tables, one detection cell per (class, scorer)."""

from __future__ import annotations

from hybridjudge.reports._tables import (
    cell_text,
    corpora,
    detection_grid,
    false_alarm_text,
    scorer_order,
)
from hybridjudge.study._models import StudyAnalysis, StudyResult

__all__ = ["render_markdown"]


def _esc(text: str) -> str:
    return text.replace("|", "\\|")


def detection_markdown(analysis: StudyAnalysis, scorers: list[str]) -> list[str]:
    """The detection table(s), one per corpus."""
    lines: list[str] = []
    grid = detection_grid(analysis)
    for corpus in corpora(grid):
        lines += [f"**{corpus}**", ""]
        lines.append("| defect class | " + " | ".join(_esc(s) for s in scorers) + " |")
        lines.append("|---|" + "---|" * len(scorers))
        for row in (r for r in grid if r.corpus == corpus):
            cells = [_esc(cell_text(row.cells.get(s))) for s in scorers]
            lines.append(f"| {_esc(row.label)} | " + " | ".join(cells) + " |")
        fa = {r.scorer: r for r in analysis.false_alarms if r.corpus == corpus}
        cells = [false_alarm_text(fa.get(s)) for s in scorers]
        lines.append(
            "| *clean bases flagged every repetition (false alarms)* | " + " | ".join(cells) + " |"
        )
        lines.append("")
    return lines


def render_markdown(study: StudyResult) -> str:
    """The whole study report as Markdown."""
    a = study.analysis
    scorers = list(study.config.scorers)
    cfg = study.config
    lines = [
        "# hybridjudge mutation study",
        "",
        f"- written by hybridjudge {study.hybridjudge_version} at {study.created_at}",
        f"- scorers: {', '.join(scorers)}; repetitions: {cfg.repetitions}; judge mode: {cfg.judge_mode}",
    ]
    if cfg.thresholds:
        lines.append(
            "- judge thresholds (flag when score is below): "
            + ", ".join(f"{k} {v:g}" for k, v in cfg.thresholds.items())
        )
    if cfg.model:
        shown = {k: v for k, v in cfg.model.items() if v is not None}
        lines.append("- model: " + ", ".join(f"{k}={v}" for k, v in shown.items()))
    if study.sampling is not None:
        lines += ["", f"> **Sampled.** {study.sampling.note}"]
    lines += [
        "",
        "## Detection per defect class",
        "",
        "Each cell: mutants detected (reacted in **every** repetition) / mutants, rate, Wilson 95% "
        "interval. *Reacted*: deterministic, the mutant raises an issue its base does not; judges, "
        "the mutant scores below the threshold and strictly below its base in the same repetition. "
        "† marks a class the scorer cannot see by construction. Classes are never summed: there is "
        "no overall figure, because the deterministic layer cannot see meaning inversions and the "
        "judges cannot see omissions, so any single number would be rigged either way.",
        "",
    ]
    lines += detection_markdown(a, scorers)
    lines += [
        "## Raw flags and partial reactions",
        "",
        "| corpus | defect class | scorer | n | detected | reacted sometimes | flagged every repetition | unscored |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in a.detection:
        lines.append(
            f"| {r.corpus} | {r.defect_class} [{r.origin}] | {_esc(r.scorer)} | {r.n} | {r.detected} | "
            f"{r.reacted_sometimes} | {r.raw_flags} | {r.unscored} |"
        )
    lines += [
        "",
        "## Stability across repetitions",
        "",
        "| scorer | outputs | verdict flips | outputs whose score moved | max range | mean range | identical every repetition |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in a.stability:
        lines.append(
            f"| {_esc(s.scorer)} | {s.outputs} | {s.verdict_flips} | {s.outputs_with_movement} | "
            f"{s.max_range:.3f} | {s.mean_range:.3f} | {'yes' if s.identical_across_repetitions else 'no'} |"
        )
    if cfg.repetitions == 1:
        lines += [
            "",
            "With one repetition, stability is not measured (every figure above is trivially 0).",
        ]
    lines += [
        "",
        "## Unscored evaluations",
        "",
        "| scorer | evaluations | unscored by reason |",
        "|---|---|---|",
    ]
    for u in a.unscored:
        reasons = ", ".join(f"{k}: {v}" for k, v in u.by_reason.items()) or "none"
        lines.append(f"| {_esc(u.scorer)} | {u.evaluations} | {reasons} |")
    lines += [
        "",
        "## Cost and latency",
        "",
        "| scorer | evaluations | model calls | prompt tokens | completion tokens | $ per 1,000 evaluations | wall s per repetition | median ms | p95 ms | cache hits | saved $ | saved s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in a.cost:
        usd = "unknown price" if c.usd_per_1000 is None else f"{c.usd_per_1000:.4f}"
        wall = f"{c.wall_s_per_repetition:.3f}" + (
            " (shared by the judges)" if c.shared_wall else ""
        )
        lines.append(
            f"| {_esc(c.scorer)} | {c.evaluations} | {c.calls} | {c.prompt_tokens} | {c.completion_tokens} | "
            f"{usd} | {wall} | {c.median_ms:.3f} | {c.p95_ms:.3f} | {c.cache_hits} | "
            f"{c.saved_usd:.4f} | {c.saved_s:.1f} |"
        )
    if study.judge_usage is not None:
        ju = study.judge_usage
        lines += [
            "",
            f"The judges' model client, each call counted once: {ju.calls} calls "
            f"({ju.retries} retries, {ju.repairs} repairs), {ju.prompt_tokens} prompt + "
            f"{ju.completion_tokens} completion tokens, ${ju.cost_usd:.4f}, {ju.latency_s:.1f} s "
            f"waiting on the endpoint; {ju.cache_hits} cache hits saved ${ju.saved_cost_usd:.4f} "
            f"and {ju.saved_latency_s:.1f} s.",
        ]
    if any(c.includes_shared_claims for c in a.cost):
        lines += [
            "",
            "Judge rows include the claim extraction both judges share, so they must not be added "
            "up. Latency of a cache hit is counted at the latency it had when first made.",
        ]
    if study.reference is not None:
        ref_scorers = scorer_order(study.reference)
        lines += ["", "## Reference: the OpenGATE paper with the same rules", ""]
        if study.reference_note:
            lines += [study.reference_note, ""]
        lines += detection_markdown(study.reference, ref_scorers)
        if study.reference_differences:
            lines += [
                "Where our deterministic scorer and the paper's disagree on a paper mutant, and why "
                "(issues raised on the mutant and not on its base):",
                "",
                "| output | defect class | ours | paper | our new issues | paper's new issues |",
                "|---|---|---|---|---|---|",
            ]
            for d in study.reference_differences:
                lines.append(
                    f"| `{d.output_id}` | {d.defect_class} | {'reacted' if d.ours_reacted else 'no reaction'} | "
                    f"{'reacted' if d.paper_reacted else 'no reaction'} | {_esc('; '.join(d.ours_new_issues)) or '—'} | "
                    f"{_esc('; '.join(d.paper_new_issues)) or '—'} |"
                )
            lines.append("")
        lines += ["| scorer | verdict flips | outputs whose score moved |", "|---|---|---|"]
        for s in study.reference.stability:
            lines.append(
                f"| {_esc(s.scorer)} | {s.verdict_flips}/{s.outputs} | {s.outputs_with_movement} |"
            )
    lines += ["", "## Inputs", ""]
    for corpus in study.corpora:
        lines.append(f"- corpus **{corpus.name}** from `{corpus.path}`")
        for name, sha in sorted(corpus.files_sha256.items()):
            lines.append(f"  - `{name}` sha256 `{sha}`")
    for m in study.mutation_sets:
        lines.append(
            f"- mutants `{m.path}` ({m.outputs}, seed {m.seed}, corpus {m.corpus}) sha256 `{m.sha256}`"
        )
    lines.append("")
    return "\n".join(lines)
