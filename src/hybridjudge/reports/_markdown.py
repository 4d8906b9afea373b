"""``report.md``: the study as Markdown tables, one detection cell per (class, scorer).

Built from the same tables and labels as ``report.html`` (:mod:`hybridjudge.reports._tables`).
"""

from __future__ import annotations

from hybridjudge.reports._format import fmt_count, fmt_duration_s, fmt_usd
from hybridjudge.reports._tables import (
    OUT_OF_SCOPE,
    class_label,
    clean_base_notes,
    cost_table,
    detection_table,
    raw_flags_table,
    reference_differences_table,
    scorer_order,
    stability_table,
    unscored_table,
)
from hybridjudge.study import StudyResult

__all__ = ["DETECTION_EXPLAINED", "render_markdown", "study_facts"]

DETECTION_EXPLAINED = (
    "Each cell: mutants detected (reacted in **every** repetition) / mutants, the rate and its "
    "Wilson 95% interval. *Reacted*: deterministic, the mutant raises an issue its base does not; "
    "judges, the mutant scores below the threshold and strictly below its base in the same "
    f"repetition. {OUT_OF_SCOPE} marks a class the scorer cannot see by construction. Classes "
    "are never summed: there is no overall figure, because the deterministic layer cannot see "
    "meaning inversions and the judges cannot see omissions, so any single number would be "
    "rigged either way."
)


def study_facts(study: StudyResult) -> list[tuple[str, str]]:
    """What a reader needs first: who judged, on what, how often, and on what sample."""
    cfg = study.config
    model = cfg.model or {}
    facts: list[tuple[str, str]] = []
    if model:
        facts.append(("judge model", str(model.get("model") or "unknown")))
        facts.append(("endpoint", str(model.get("endpoint") or model.get("backend") or "unknown")))
        settings = [
            f"{key} {model[key]}"
            for key in ("temperature", "seed", "max_tokens")
            if model.get(key) is not None
        ]
        if settings:
            facts.append(("sampling settings", ", ".join(settings)))
    else:
        facts.append(("judge model", "none (no judge among the scorers)"))
    facts.append(("scorers", ", ".join(cfg.scorers)))
    facts.append(("repetitions", str(cfg.repetitions)))
    facts.append(("judge mode", cfg.judge_mode))
    if cfg.thresholds:
        facts.append(
            (
                "judge thresholds",
                "flag a score below " + ", ".join(f"{k} {v:g}" for k, v in cfg.thresholds.items()),
            )
        )
    if study.sampling is not None:
        s = study.sampling
        facts.append(
            (
                "sample",
                f"judges scored {fmt_count(s.judged_outputs)} of {fmt_count(s.total_outputs)} "
                f"outputs (seed {s.seed}); the deterministic checks scored all",
            )
        )
    else:
        facts.append(("sample", "none: every scorer scored every output"))
    facts.append(("corpora", ", ".join(f"{c.name} ({c.path})" for c in study.corpora) or "none"))
    facts.append(("written", f"hybridjudge {study.hybridjudge_version}, {study.created_at}"))
    return facts


def _judge_usage_sentence(study: StudyResult) -> str | None:
    ju = study.judge_usage
    if ju is None:
        return None
    peers = any(s in ("ragas", "deepeval") for s in study.config.scorers)
    who = (
        "The model client of the judges and the peer scorers"
        if peers
        else "The judges' model client"
    )
    return (
        f"{who}, each call counted once: {fmt_count(ju.calls)} calls "
        f"({ju.retries} retries, {ju.repairs} repairs), {fmt_count(ju.prompt_tokens)} prompt + "
        f"{fmt_count(ju.completion_tokens)} completion tokens, {fmt_usd(ju.cost_usd)}, "
        f"{fmt_duration_s(ju.latency_s)} waiting on the endpoint; {ju.cache_hits} cache hits "
        f"saved {fmt_usd(ju.saved_cost_usd)} and {fmt_duration_s(ju.saved_latency_s)}."
    )


NO_ANCHORS = "the case has no anchors"
"""The omission mutator's refusal on a case without required facts."""


def _refusal_notes(study: StudyResult) -> list[str]:
    """Per mutation file and class, the bases refused and why; what omission cannot measure."""
    notes = []
    for m in study.mutation_sets:
        for cls, reasons in m.refused.items():
            for reason, count in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])):
                # people's labels, never internal keys (the reason may name finding kinds)
                readable = reason.replace("_", " ")
                note = f"{m.corpus} / {class_label(cls)}: {count} base(s) refused: {readable}"
                if cls == "omission" and reason == NO_ANCHORS:
                    note += (
                        ". Omission detection is measured only on the cases with required facts "
                        "(anchors) and says nothing about these; add anchors, or import with "
                        "`corpus import --derive-anchors` (candidates from the reference answer)"
                    )
                notes.append(note)
    return notes


def render_markdown(study: StudyResult) -> str:
    """The whole study report as Markdown."""
    a = study.analysis
    scorers = list(study.config.scorers)
    lines = ["# hybridjudge mutation study", ""]
    lines += [f"- **{key}**: {value}" for key, value in study_facts(study)]
    if study.sampling is not None:
        lines += ["", f"> **Sampled.** {study.sampling.note}"]
    lines += ["", "## Detection per defect class", "", DETECTION_EXPLAINED, ""]
    lines += [detection_table(a, scorers).to_markdown(), ""]
    lines += ["**Clean bases.** " + " ".join(clean_base_notes(study)), ""]
    not_made = _refusal_notes(study)
    if not_made:
        lines += ["**Mutants not made** (a class's row counts only the mutants made):", ""]
        lines += [f"- {note}" for note in not_made] + [""]
    lines += ["## Raw flags and partial reactions", "", raw_flags_table(a).to_markdown(), ""]
    lines += ["## Stability across repetitions", "", stability_table(a).to_markdown()]
    if study.config.repetitions == 1:
        lines += [
            "",
            "With one repetition, stability is not measured (every figure above is trivially 0).",
        ]
    lines += ["", "## Unscored evaluations", "", unscored_table(a).to_markdown()]
    lines += ["", "## Cost and latency", "", cost_table(a).to_markdown()]
    usage = _judge_usage_sentence(study)
    if usage:
        lines += ["", usage]
    if any(c.includes_shared_claims for c in a.cost):
        lines += [
            "",
            "Judge rows include the claim extraction both judges share, so they must not be added "
            "up. Latency of a cache hit is counted at the latency it had when first made.",
        ]
    if study.reference is not None:
        lines += ["", "## Reference: the OpenGATE paper with the same rules", ""]
        if study.reference_note:
            lines += [study.reference_note, ""]
        lines += [detection_table(study.reference, scorer_order(study.reference)).to_markdown()]
        if study.reference_differences:
            lines += [
                "",
                "Where our deterministic scorer and the paper's disagree on a paper mutant, and why "
                "(issues raised on the mutant and not on its base):",
                "",
                reference_differences_table(study).to_markdown(),
            ]
        lines += ["", stability_table(study.reference).to_markdown()]
    lines += [
        "",
        "## Inputs",
        "",
        "Every observation (output x scorer x repetition) is in `observations.csv` beside this "
        "report, one row each, readable by `pandas.read_csv` as is.",
        "",
    ]
    for corpus in study.corpora:
        lines.append(f"- corpus **{corpus.name}** from `{corpus.path}`")
        for name, sha in sorted(corpus.files_sha256.items()):
            lines.append(f"  - `{name}` sha256 `{sha}`")
    for m in study.mutation_sets:
        lines.append(
            f"- mutants `{m.path}` ({m.outputs}, mutation seed {m.seed}, corpus {m.corpus}) "
            f"sha256 `{m.sha256}`"
        )
    lines.append("")
    return "\n".join(lines)
