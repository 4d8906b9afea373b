"""Assertions for your own test suite: is this answer grounded, is it faithful?

::

    from hybridjudge.testing import assert_faithful, assert_grounded

    def test_refund_answer(hybridjudge_judge):          # fixture from the pytest plugin
        answer = my_rag("How long do I have for a refund?")
        assert_grounded(answer, context=POLICY, anchors=["30 days"])
        assert_faithful(answer, context=POLICY, min_score=0.8, judge=hybridjudge_judge)

:func:`assert_grounded` runs the deterministic checks (free, no model). :func:`assert_faithful`
runs the LLM judges through a :class:`FaithfulnessJudge`, which keeps one model client open for
many assertions; its replies are cached on disk, so a rerun of an unchanged test makes no model
call. Installing hybridjudge registers a pytest plugin (``hybridjudge.pytest_plugin``) with the
session fixtures ``hybridjudge_config`` (a :class:`~hybridjudge.model.ModelConfig` from the
environment: ``HYBRIDJUDGE_*``, ``OPENAI_BASE_URL``/``OPENAI_API_KEY``; override the fixture in
your ``conftest.py`` to choose another) and ``hybridjudge_judge``.

A failure message lists every finding, or every claim with its verdict and the judge's reason;
an unscored judgement fails with its reason (a gate fails closed).

The rule is the command line's: an answer passes :func:`assert_grounded` when ``hybridjudge
check`` finds it grounded, and :func:`assert_faithful` when every scorer's score is at or above
*min_score* (``hybridjudge judge --threshold``, default
:data:`~hybridjudge._params.DEFAULT_THRESHOLD`, 1.0: every claim faithful). An answer asserting
something against an empty context fails both (the ``no_context`` finding; every judge 0.0). For
a share of a data set rather than one answer, ``hybridjudge check`` / ``judge --fail-under
SCORER=SHARE`` in CI take the share of usable outputs that pass, and so does
:func:`assert_pass_share` on the batch of :func:`~hybridjudge.grounding.check_many` or
:func:`~hybridjudge.judges.judge_many`.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from hybridjudge._params import DEFAULT_THRESHOLD

if TYPE_CHECKING:
    from hybridjudge.grounding import AnchorLike, CheckBatch, GroundingReport
    from hybridjudge.judges import JudgeBatch, JudgeResult
    from hybridjudge.model import ModelClient, ModelConfig, Usage

__all__ = [
    "FaithfulnessJudge",
    "assert_faithful",
    "assert_grounded",
    "assert_pass_share",
    "describe_judgement",
    "describe_report",
]

T = TypeVar("T")


def describe_report(report: GroundingReport) -> str:
    """Every finding of a grounding report, one per line (``kind: message``)."""
    lines = [f"  {f.kind}: {f.message}" for f in report.findings]
    return "\n".join(lines) if lines else "  (no findings)"


def assert_grounded(
    answer: str,
    context: str | Sequence[str],
    *,
    question: str | None = None,
    anchors: Sequence[AnchorLike] = (),
    answerable: bool | None = True,
    allowed_numbers: Sequence[str] = (),
) -> GroundingReport:
    """Fail unless *answer* passes the deterministic grounding checks; return the report.

    Required facts (*anchors*) must be present and not negated, every number traceable to the
    context, the question or *allowed_numbers*, and abstention must match *answerable*.

    Raises:
        AssertionError: the answer has findings; the message lists each of them.
    """
    from hybridjudge.grounding import check_grounding

    report = check_grounding(
        answer,
        context,
        question=question,
        anchors=anchors,
        answerable=answerable,
        allowed_numbers=allowed_numbers,
    )
    if not report.grounded:
        count = len(report.findings)
        raise AssertionError(
            f"answer is not grounded: {count} finding{'s' if count != 1 else ''}\n"
            f"{describe_report(report)}\n  answer: {answer!r}"
        )
    return report


def describe_judgement(result: JudgeResult) -> str:
    """One judge result as text: score (or why unscored) and every claim with its verdict."""
    if result.status == "unscored":
        detail = f": {result.detail.error}" if result.detail is not None else ""
        return f"{result.scorer}: unscored ({result.unscored_reason}){detail}"
    assert result.score is not None
    faithful = sum(v.faithful for v in result.verdicts)
    head = f"{result.scorer}: {result.score:.2f}"
    if result.abstained:
        head += " (abstention)"
    else:
        head += f" ({faithful} of {len(result.verdicts)} claims faithful)"
    lines = [head]
    for verdict in result.verdicts:
        mark = "ok  " if verdict.faithful else "FAIL"
        lines.append(f"    {mark} [{verdict.label}] {verdict.claim!r}: {verdict.reason}")
    return "\n".join(lines)


class FaithfulnessJudge:
    """The LLM judges behind one open model client, callable from plain synchronous code.

    The client runs on a private event-loop thread, so the judge works the same in a test, a
    script or a notebook (whose loop is already running), and the embedded model or the HTTP
    connections are set up once for many assertions. Close it (or use ``with``) when done.
    """

    def __init__(
        self,
        config: ModelConfig | None = None,
        *,
        scorers: Sequence[str] = ("support", "contradiction"),
        mode: Literal["separate", "shared"] = "separate",
    ) -> None:
        """*config*: the model to use (default: :meth:`ModelConfig.from_env`)."""
        from hybridjudge.model import ModelConfig

        self.config: ModelConfig = config if config is not None else ModelConfig.from_env()
        self.scorers = tuple(scorers)
        self.mode: Literal["separate", "shared"] = mode
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._client: ModelClient | None = None

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def _open(self) -> ModelClient:
        with self._lock:
            if self._client is None:
                from hybridjudge.model import ModelClient

                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=loop.run_forever, name="hybridjudge-judge", daemon=True
                )
                thread.start()
                self._loop, self._thread = loop, thread
                client = ModelClient(self.config)
                try:
                    self._run(client.__aenter__())
                except BaseException:
                    self._stop_loop()
                    raise
                self._client = client
            return self._client

    def judge(
        self,
        answer: str,
        context: str | Sequence[str],
        *,
        question: str | None = None,
        scorers: Sequence[str] | None = None,
        repetition: int = 0,
    ) -> dict[str, JudgeResult]:
        """Judge *answer* against *context*: one :class:`JudgeResult` per scorer."""
        from hybridjudge.judges import judge

        client = self._open()
        passages = [context] if isinstance(context, str) else list(context)
        return self._run(
            judge(
                client,
                answer=answer,
                context=passages,
                question=question,
                scorers=tuple(scorers) if scorers is not None else self.scorers,
                mode=self.mode,
                repetition=repetition,
            )
        )

    @property
    def usage(self) -> Usage:
        """Model usage so far (calls, cache hits, tokens, cost)."""
        from hybridjudge.model import Usage

        return self._client.usage if self._client is not None else Usage()

    def _stop_loop(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join()
        if self._loop is not None:
            self._loop.close()
        self._loop = self._thread = None

    def close(self) -> None:
        """Close the model client (stopping the embedded model if it was started)."""
        with self._lock:
            client, self._client = self._client, None
            if client is not None:
                try:
                    self._run(client.__aexit__(None, None, None))
                finally:
                    self._stop_loop()

    def __enter__(self) -> FaithfulnessJudge:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def assert_faithful(
    answer: str,
    context: str | Sequence[str],
    *,
    question: str | None = None,
    min_score: float = DEFAULT_THRESHOLD,
    scorers: Sequence[str] | None = None,
    judge: FaithfulnessJudge | None = None,
    config: ModelConfig | None = None,
) -> dict[str, JudgeResult]:
    """Fail unless every scorer gives *answer* a score of at least *min_score* (the rule of
    ``hybridjudge judge --threshold``, with its default).

    Uses *judge* (e.g. the ``hybridjudge_judge`` fixture) or, if none is given, a judge opened
    for this one call with *config* (default: from the environment). An unscored result fails.

    Raises:
        AssertionError: a score is below *min_score* or unscored; the message shows every
            scorer's score and each claim with its verdict and reason.
        ValueError: *min_score* is not between 0 and 1.
    """
    if not 0.0 <= min_score <= 1.0:
        raise ValueError(f"min_score={min_score!r}: give a number between 0 and 1")
    if judge is None:
        with FaithfulnessJudge(config) as own:
            results = own.judge(answer, context, question=question, scorers=scorers)
    else:
        results = judge.judge(answer, context, question=question, scorers=scorers)
    failing = [
        r for r in results.values() if r.status == "unscored" or (r.score or 0.0) < min_score
    ]
    if failing:
        names = ", ".join(r.scorer for r in failing)
        body = "\n".join("  " + describe_judgement(r) for r in results.values())
        raise AssertionError(
            f"answer is not faithful (min_score {min_score:g}; failing: {names})\n{body}\n"
            f"  answer: {answer!r}"
        )
    return results


def _per_scorer(value: float | Mapping[str, float] | None, name: str) -> float | None:
    return value.get(name) if isinstance(value, Mapping) else value


def assert_pass_share(
    batch: CheckBatch | JudgeBatch,
    *,
    fail_under: float | Mapping[str, float] | None = None,
    threshold: float | Mapping[str, float] = DEFAULT_THRESHOLD,
) -> None:
    """Fail unless each scorer's share of the outputs that pass is at least *fail_under*: the
    rule of ``hybridjudge check`` / ``judge --fail-under``, on a batch in your test suite.

    An output passes the checks when it is grounded, a judge when its score is at or above
    *threshold* (``judge --threshold``; a number, or one per scorer). *fail_under* is the least
    share that must pass (a number, or one per scorer: ``{"support": 0.9}``); ``None`` (the
    default) means every output. A record that could not be checked or judged, or an unscored
    judgement, fails the assertion (as ``--max-unscored 0``): a gate fails closed.

    Raises:
        AssertionError: a scorer fails; the message names each with its share and the first
            failing outputs.
        ValueError: *fail_under* or *threshold* is not between 0 and 1.
    """
    from hybridjudge._params import fails_pass_share
    from hybridjudge.grounding import CheckBatch

    for value in (fail_under, threshold):
        values = value.values() if isinstance(value, Mapping) else [value]
        if any(v is not None and not 0.0 <= v <= 1.0 for v in values):
            raise ValueError(f"{value!r}: give shares and thresholds between 0 and 1")
    problems: list[str] = []
    passes: dict[str, list[tuple[str, bool]]] = {}
    if isinstance(batch, CheckBatch):
        for c in batch.outcomes:
            if c.report is None:
                problems.append(f"  {c.id!r} could not be checked: {c.error}")
            else:
                passes.setdefault("deterministic", []).append((c.id, c.report.grounded))
    else:
        for j in batch.outcomes:
            for name, result in j.results.items():
                if result.status != "scored" or result.score is None:
                    problems.append(f"  {j.id!r}: {describe_judgement(result)}")
                    continue
                limit = _per_scorer(threshold, name)
                limit = DEFAULT_THRESHOLD if limit is None else limit
                passes.setdefault(name, []).append((j.id, result.score >= limit))
    for name, results in passes.items():
        share = _per_scorer(fail_under, name)
        passed = sum(ok for _, ok in results)
        if fails_pass_share(passed, len(results), share):
            failing = [i for i, ok in results if not ok]
            shown = ", ".join(repr(i) for i in failing[:5])
            more = f" and {len(failing) - 5} more" if len(failing) > 5 else ""
            need = "every output" if share is None else f"at least {share:g}"
            problems.append(
                f"  {name}: {passed} of {len(results)} output(s) pass ({need} must); failing: "
                f"{shown}{more}"
            )
    if problems:
        raise AssertionError("the batch does not pass:\n" + "\n".join(problems))
