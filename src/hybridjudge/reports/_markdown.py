"""``report.md``: the study as Markdown tables, one detection cell per (class, scorer).

Built from the same tables and labels as ``report.html`` (:mod:`hybridjudge.reports._tables`).
"""

from __future__ import annotations

from hybridjudge._sinks import markdown_code, markdown_text
from hybridjudge.model import Usage
from hybridjudge.reports._format import fmt_count, fmt_duration_s, fmt_usd
from hybridjudge.reports._tables import (
    BLAME_EXPLAINED,
    OUT_OF_SCOPE,
    blame_table,
    cheapest_lines,
    class_label,
    clean_base_notes,
    cost_table,
    detection_table,
    has_natural_separation,
    label_counts,
    label_table,
    labelled_corpora,
    raw_flags_table,
    reference_differences_table,
    scorer_order,
    separation_table,
    stability_table,
    unscored_table,
)
from hybridjudge.study import StudyResult

__all__ = [
    "CHEAPEST_EXPLAINED",
    "DETECTION_EXPLAINED",
    "LABELLED_ROW_EXPLAINED",
    "LABELS_EXPLAINED",
    "LABELS_TITLE",
    "SEPARATION_EXPLAINED",
    "judge_usage_sentences",
    "render_markdown",
    "study_facts",
]

DETECTION_EXPLAINED = (
    "Each cell: mutants detected (reacted in **every** repetition) / mutants, the rate and its "
    "Wilson 95% interval. *Reacted*: deterministic, the mutant raises an issue its base does not; "
    "judges, the mutant scores below the threshold and strictly below its base in the same "
    f"repetition. {OUT_OF_SCOPE} marks a class the scorer cannot see by construction. Classes "
    "are never summed: there is no overall figure, because the deterministic layer cannot see "
    "meaning inversions and the judges cannot see omissions, so any single number would be "
    "rigged either way. Rows marked *(retriever)* keep the answer and change its context (a "
    "passage dropped, replaced by another case's, made stale, or the context truncated); rows "
    "marked *(control)* only reorder or repeat passages, so every verdict they change is a "
    "false alarm."
)


LABELLED_ROW_EXPLAINED = (
    "The row *labelled incorrect* holds the answers labelled incorrect (no mutant, no base to "
    "react against): a cell counts those the scorer flagged in every repetition. The false "
    "alarms count only the answers labelled correct; unlabelled answers are in no rate."
)

SEPARATION_EXPLAINED = (
    "How well each scorer's score separates the labelled right answers from the natural "
    "hallucinations of the same questions (HaluEval: one of each per question): the AUROC is the "
    "chance that a random right answer scores higher than a random hallucinated one (ties count "
    "half; 0.5 is no separation, 1.0 perfect), with a 95% stratified bootstrap interval. An "
    "answer's score is its mean over the repetitions; answers unscored in some repetition are "
    "left out and counted. The deterministic scorer's score is 1 (grounded) or 0."
)

LABELS_TITLE = "Your labelled answers: which scorer can you trust?"

LABELS_EXPLAINED = (
    "How well each scorer separated the answers labelled correct from those labelled incorrect "
    "(the record's `label`, or `clean` / `is_hallucination`): the wrong answers it flagged in "
    "every repetition (the row *labelled incorrect* of the detection table: no mutant, so "
    "flagged is detected), the right answers it flagged (its false alarms, counted on the "
    "answers labelled correct only), and the AUROC of right vs wrong answers with a 95% "
    "stratified bootstrap interval (0.5 is no separation, 1.0 perfect; the deterministic "
    "scorer's score is 1 or 0). Unlabelled answers are in no false-alarm rate and no AUROC."
)

CHEAPEST_EXPLAINED = (
    "Per defect class, the cheapest LLM scorer that detects it in every repetition: it detected "
    "every mutant of the class (none unscored); cheapest by dollars per 1,000 evaluations as if "
    "nothing were cached (a scorer's cost includes the claim extraction it needs), then by "
    "median latency."
)


def _model_text(model: dict[str, str | float | int | None]) -> str:
    text = f"{model.get('model') or 'unknown'} at {model.get('endpoint') or model.get('backend')}"
    pin, pout = model.get("price_input_per_mtok"), model.get("price_output_per_mtok")
    if pin is None or pout is None:
        return text + ", price unknown"
    return text + f", ${pin:g} / ${pout:g} per million prompt / completion tokens"


def study_facts(study: StudyResult) -> list[tuple[str, str]]:
    """What a reader needs first: who judged, on what, how often, and on what sample."""
    cfg = study.config
    model = cfg.model or {}
    facts: list[tuple[str, str]] = []
    if cfg.judges:
        facts += [(f"judge {j.name}", _model_text(j.model)) for j in cfg.judges]
        first = cfg.judges[0].model
        settings = [
            f"{key} {first[key]}"
            for key in ("temperature", "seed", "max_tokens")
            if first.get(key) is not None
        ]
        if settings:
            facts.append((f"sampling settings ({cfg.judges[0].name})", ", ".join(settings)))
    elif model:
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
    if cfg.judges and len(set(cfg.thresholds.values())) == 1:
        value = next(iter(cfg.thresholds.values()))
        facts.append(("judge thresholds", f"flag a score below {value:g} (every judge)"))
    elif cfg.thresholds:
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
                f"outputs (seed {s.seed}); the deterministic checks scored all"
                + (
                    ", and so did the hybrid scorer (--hybrid-all-outputs)"
                    if cfg.hybrid_all_outputs
                    else ""
                ),
            )
        )
    else:
        facts.append(("sample", "none: every scorer scored every output"))
    facts.append(("corpora", ", ".join(f"{c.name} ({c.path})" for c in study.corpora) or "none"))
    facts.append(("written", f"hybridjudge {study.hybridjudge_version}, {study.created_at}"))
    return facts


def judge_usage_sentences(study: StudyResult) -> list[str]:
    """What the model clients did, each call counted once: one sentence for the run, and one
    per named judge."""
    from hybridjudge.study import split_scorer

    ju = study.judge_usage
    if ju is None:
        return []
    peers = any(split_scorer(s)[1] in ("ragas", "deepeval") for s in study.config.scorers)
    who = (
        "The model client of the judges and the peer scorers"
        if peers
        else "The judges' model client"
    )
    if study.config.judges:
        who = f"The model clients of the {len(study.config.judges)} judges" + (
            " and their peer scorers" if peers else ""
        )
    sentences = [_usage_sentence(who, ju)]
    for name, usage in study.judge_usage_by_judge.items():
        sentences.append(_usage_sentence(f"Judge {name}", usage))
    return sentences


def _usage_sentence(who: str, ju: Usage) -> str:
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
                readable = markdown_text(reason.replace("_", " "))
                corpus = markdown_text(m.corpus)
                note = f"{corpus} / {class_label(cls)}: {count} base(s) refused: {readable}"
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
    # names, paths and endpoints are other people's text: no raw HTML in the report
    lines += [
        f"- **{markdown_text(key)}**: {markdown_text(value)}" for key, value in study_facts(study)
    ]
    if study.sampling is not None:
        lines += ["", f"> **Sampled.** {markdown_text(study.sampling.note)}"]
    lines += ["", "## Detection per defect class", "", DETECTION_EXPLAINED, ""]
    lines += [detection_table(a, scorers).to_markdown(), ""]
    labelled = labelled_corpora(a)
    if labelled:
        lines += [LABELLED_ROW_EXPLAINED, ""]
    lines += ["**Clean bases.** " + markdown_text(" ".join(clean_base_notes(study))), ""]
    if labelled:
        lines += [f"## {LABELS_TITLE}", "", LABELS_EXPLAINED, ""]
        for name in labelled:
            lines += [label_table(a, scorers, name).to_markdown(), ""]
            lines += [label_counts(study, name) + ".", ""]
    if has_natural_separation(a):
        lines += ["## Separation of right and hallucinated answers (AUROC)", ""]
        lines += [SEPARATION_EXPLAINED, "", separation_table(a, scorers).to_markdown(), ""]
    if a.thresholds:
        from hybridjudge.reports._thresholds import (
            THRESHOLDS_TITLE,
            threshold_table,
            thresholds_explained,
        )

        lines += [f"## {THRESHOLDS_TITLE}", "", thresholds_explained(a), ""]
        lines += [threshold_table(a).to_markdown(), ""]
    if a.cascade:
        from hybridjudge.reports._cascade import (
            CASCADE_EXPLAINED,
            CASCADE_TITLE,
            cascade_savings,
            cascade_table,
        )

        lines += [f"## {CASCADE_TITLE}", "", CASCADE_EXPLAINED, ""]
        lines += [cascade_table(a).to_markdown(), ""]
        lines += [f"- {markdown_text(line)}" for line in cascade_savings(a, study)] + [""]
    if a.cheapest:
        lines += ["## Cheapest judge per defect class", "", CHEAPEST_EXPLAINED, ""]
        lines += [f"- {markdown_text(line)}" for line in cheapest_lines(a)] + [""]
    if a.blame:
        lines += ["## Whose failure: the retriever's or the generator's", "", BLAME_EXPLAINED, ""]
        lines += [blame_table(a).to_markdown(), ""]
    not_made = _refusal_notes(study)
    if not_made:
        lines += ["**Mutants not made** (a class's row counts only the mutants made):", ""]
        lines += [f"- {note}" for note in not_made] + [""]
    lines += ["## Raw flags and partial reactions", "", raw_flags_table(a).to_markdown(), ""]
    lines += ["## Stability across repetitions", "", stability_table(a).to_markdown()]
    if study.config.repetitions == 1:
        lines += [
            "",
            "With one repetition, stability is not measured (every figure above is trivially "
            "0); run with --repetitions 2 or more to measure it.",
        ]
    lines += ["", "## Unscored evaluations", "", unscored_table(a).to_markdown()]
    lines += ["", "## Cost and latency", "", cost_table(a).to_markdown()]
    usage = judge_usage_sentences(study)
    if usage:
        usage = [markdown_text(u) for u in usage]
        lines += [""] + [f"- {u}" if len(usage) > 1 else u for u in usage]
    if any(c.includes_shared_claims for c in a.cost):
        lines += [
            "",
            "Judge rows include the claim extraction both judges share, so they must not be added "
            "up. Latency of a cache hit is counted at the latency it had when first made.",
        ]
    if study.reference is not None:
        lines += ["", "## Reference: the OpenGATE paper with the same rules", ""]
        if study.reference_note:
            lines += [markdown_text(study.reference_note), ""]
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
        path = markdown_code(str(corpus.path))
        lines.append(f"- corpus **{markdown_text(corpus.name)}** from {path}")
        for name, sha in sorted(corpus.files_sha256.items()):
            lines.append(f"  - {markdown_code(name)} sha256 `{sha}`")
    for m in study.mutation_sets:
        lines.append(
            f"- mutants {markdown_code(str(m.path))} ({m.outputs}, mutation seed {m.seed}, "
            f"corpus {markdown_text(m.corpus)}) sha256 {markdown_code(m.sha256)}"
        )
    lines.append("")
    return "\n".join(lines)
