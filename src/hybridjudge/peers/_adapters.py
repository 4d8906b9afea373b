"""The peer adapters: RAGAS Faithfulness and DeepEval FaithfulnessMetric behind our model layer.

Each adapter builds the peer's own metric with the peer's documented way to use a custom
OpenAI-compatible endpoint, pointed at a :class:`~hybridjudge.peers._proxy.ProxySession` of a
running :class:`PeerProxy`:

- RAGAS: ``ragas.llms.llm_factory(model, client=AsyncOpenAI(base_url=...))`` (its Instructor
  adapter, JSON mode) and ``ragas.metrics.collections.Faithfulness``: one call extracting the
  statements, one call with a verdict per statement; score = supported / statements (NaN when
  there is no statement).
- DeepEval: a ``DeepEvalBaseLLM`` whose ``a_generate`` sends the prompt through the proxy and
  returns the reply text (DeepEval parses it itself), and ``FaithfulnessMetric`` with
  ``include_reason=False`` (the reason call does not change the score): truths, claims, then
  one verdict per claim; score = claims not contradicted / claims (1.0 when there is no claim).

The result is a :class:`PeerResult`: the peer's score, or unscored with a reason. NaN never
becomes a score, nor does DeepEval's 1.0 for an answer without claims, nor a score built from
fewer (or more) verdicts than claims.
"""

from __future__ import annotations

import importlib.metadata
import math
import os
from collections.abc import Sequence
from typing import Any

from hybridjudge._errors import ConfigError
from hybridjudge.peers._proxy import PeerProxy, ProxySession
from hybridjudge.peers._results import PeerName, PeerResult, PeerUnscoredReason

__all__ = ["PEER_PACKAGES", "ascore_peer", "peer_version", "require_peer"]

PEER_PACKAGES: dict[PeerName, str] = {"ragas": "ragas", "deepeval": "deepeval"}
"""The PyPI distribution behind each peer (pinned in the ``[peers]`` extra)."""

_NO_QUESTION = "(no question given)"
"""RAGAS refuses an empty question; an answer judged without one gets this placeholder."""


def _quiet_peers() -> None:
    """Turn the peers' telemetry off before they are imported (tests never reach the internet,
    and a study sends nothing anywhere but the configured model)."""
    os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")
    os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "1")
    os.environ.setdefault("DEEPEVAL_DISABLE_DOTENV", "1")


def peer_version(peer: PeerName) -> str | None:
    """The installed version of a peer's package, or ``None`` when it is not installed."""
    try:
        return importlib.metadata.version(PEER_PACKAGES[peer])
    except importlib.metadata.PackageNotFoundError:
        return None


def require_peer(peer: PeerName) -> str:
    """The installed version of ``peer``; raises :class:`ConfigError` naming the fix if missing."""
    if peer not in PEER_PACKAGES:
        raise ConfigError(
            f"unknown peer scorer {peer!r}: choose from {', '.join(PEER_PACKAGES)}",
            code="unknown_peer",
        )
    version = peer_version(peer)
    if version is None:
        raise ConfigError(
            f"the peer scorer {peer!r} needs the {PEER_PACKAGES[peer]!r} package: "
            "pip install 'hybridjudge[peers]'",
            code="missing_peer",
        )
    return version


def _one_line(text: str, limit: int = 500) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _is_parse_error(exc: BaseException) -> bool:
    """Whether a peer's exception means it could not parse or validate a model reply."""
    import json

    from pydantic import ValidationError

    names = {type(e).__name__ for e in _chain(exc)}
    if names & {"InstructorRetryException", "ValidationError", "JSONDecodeError"}:
        return True
    for item in _chain(exc):
        if isinstance(item, ValidationError | json.JSONDecodeError):
            return True
        if "invalid JSON" in str(item):
            return True
    return False


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _failure(
    peer: PeerName, session: ProxySession, exc: BaseException | None
) -> tuple[PeerUnscoredReason, str]:
    """The unscored reason and message for a peer that raised (or returned nothing usable)."""
    failed = session.first_failure()
    if failed is not None and failed.status == "budget_exhausted":
        return "budget_exhausted", failed.error or "--max-cost reached"
    if failed is not None and failed.status in ("model_error", "rejected"):
        return "model_error", failed.error or "model error"
    if failed is not None and failed.status == "parse_failure" and exc is not None:
        return "parse_failure", failed.error or "the model's reply is not JSON"
    if exc is not None and _is_parse_error(exc):
        return (
            "parse_failure",
            f"{peer} could not parse the model's reply: {type(exc).__name__}: {exc}",
        )
    detail = f"{type(exc).__name__}: {exc}" if exc is not None else "no result"
    return "model_error", f"{peer} failed: {detail}"


def _unscored(
    peer: PeerName,
    session: ProxySession,
    reason: PeerUnscoredReason,
    error: str,
    version: str,
    claims: Sequence[str] = (),
) -> PeerResult:
    return PeerResult(
        scorer=peer,
        status="unscored",
        unscored_reason=reason,
        error=_one_line(error),
        claims=tuple(claims),
        usage=session.usage,
        repetition=session.repetition,
        peer_version=version,
    )


async def _ragas(
    session: ProxySession, model: str, question: str, answer: str, context: Sequence[str]
) -> tuple[float, list[str]]:
    import openai
    from ragas.llms import llm_factory
    from ragas.metrics.collections import Faithfulness

    client = openai.AsyncOpenAI(
        base_url=session.base_url, api_key="hybridjudge-proxy", max_retries=0
    )
    try:
        llm = llm_factory(model, client=client)
        metric = Faithfulness(llm=llm)
        result = await metric.ascore(
            user_input=question or _NO_QUESTION, response=answer, retrieved_contexts=list(context)
        )
    finally:
        await client.close()
    return float(result.value), []  # RAGAS's metric does not expose its statements


async def _deepeval(
    session: ProxySession, model: str, question: str, answer: str, context: Sequence[str]
) -> tuple[float, list[str], int]:
    import openai
    from deepeval.metrics import FaithfulnessMetric
    from deepeval.models import DeepEvalBaseLLM
    from deepeval.test_case import LLMTestCase

    client = openai.AsyncOpenAI(
        base_url=session.base_url, api_key="hybridjudge-proxy", max_retries=0
    )

    class _ProxyModel(DeepEvalBaseLLM):  # type: ignore[misc]  # the peer's untyped base class
        """DeepEval's custom-model hook: every prompt goes through our proxy."""

        def load_model(self, *args: Any, **kwargs: Any) -> Any:
            return client

        def generate(self, *args: Any, **kwargs: Any) -> str:
            raise NotImplementedError("the hybridjudge peer adapter runs DeepEval async only")

        async def a_generate(self, prompt: Any, *args: Any, **kwargs: Any) -> str:
            completion = await client.chat.completions.create(
                model=model,
                messages=[{"role": "user", "content": str(prompt)}],
                response_format={"type": "json_object"},
            )
            return completion.choices[0].message.content or ""

        def get_model_name(self, *args: Any, **kwargs: Any) -> str:
            return model

    try:
        metric = FaithfulnessMetric(model=_ProxyModel(model), include_reason=False, async_mode=True)
        case = LLMTestCase(
            input=question or _NO_QUESTION, actual_output=answer, retrieval_context=list(context)
        )
        score = await metric.a_measure(case, _show_indicator=False)
    finally:
        await client.close()
    claims = [str(claim) for claim in (metric.claims or [])]
    verdicts = [v for v in (metric.verdicts or []) if v is not None]
    return float(score), claims, len(verdicts)


async def ascore_peer(
    proxy: PeerProxy,
    peer: PeerName,
    *,
    answer: str,
    context: Sequence[str],
    question: str = "",
    repetition: int = 0,
) -> PeerResult:
    """Score one answer with one peer, its model calls going through ``proxy``.

    Args:
        proxy: a started :class:`PeerProxy` (our model client behind it).
        peer: ``ragas`` or ``deepeval``.
        answer: the answer to judge.
        context: the context passages.
        question: the question (RAGAS and DeepEval both use it; a placeholder when empty).
        repetition: repetition index (part of every cache key, like our judges').

    Returns:
        The peer's score, or unscored with a reason (see :data:`PeerUnscoredReason`).

    Raises:
        ConfigError: the peer's package is not installed (``pip install 'hybridjudge[peers]'``),
            or the endpoint is unusable for every request (bad key, unknown model: re-raised
            from the model layer).
    """
    version = require_peer(peer)
    _quiet_peers()
    session = proxy.session(peer, repetition)
    model = proxy.config.model or "local"
    try:
        try:
            if peer == "ragas":
                score, claims = await _ragas(session, model, question, answer, context)
                verdict_count = None
            else:
                score, claims, verdict_count = await _deepeval(
                    session, model, question, answer, context
                )
        except Exception as exc:  # a peer failure is this output's outcome, never the run's
            proxy.raise_fatal()
            reason, message = _failure(peer, session, exc)
            return _unscored(peer, session, reason, message, version)
        proxy.raise_fatal()
        if peer == "deepeval":
            if not claims:
                return _unscored(
                    peer,
                    session,
                    "no_claims",
                    "DeepEval extracted no claim (it scores 1.0)",
                    version,
                )
            if verdict_count != len(claims):
                return _unscored(
                    peer,
                    session,
                    "parse_failure",
                    f"DeepEval got {verdict_count} verdicts for {len(claims)} claims",
                    version,
                    claims,
                )
        if math.isnan(score):
            ok_calls = sum(1 for call in session.calls if call.status == "ok")
            if peer == "ragas" and ok_calls <= 1:
                return _unscored(
                    peer, session, "no_claims", "RAGAS extracted no statement (score NaN)", version
                )
            return _unscored(peer, session, "nan", f"{peer} returned NaN", version, claims or ())
        if not 0.0 <= score <= 1.0 or math.isinf(score):
            return _unscored(
                peer, session, "nan", f"{peer} returned {score!r}, not a score in [0, 1]", version
            )
        return PeerResult(
            scorer=peer,
            status="scored",
            score=score,
            claims=tuple(claims or ()),
            usage=session.usage,
            repetition=repetition,
            peer_version=version,
        )
    finally:
        proxy.close_session(session)
