"""Peer scorers: RAGAS Faithfulness and DeepEval FaithfulnessMetric on our model layer.

Optional (``pip install 'hybridjudge[peers]'``, versions pinned as measured). Their model calls go
through an OpenAI-compatible proxy on 127.0.0.1 backed by :class:`hybridjudge.model.ModelClient`,
so they are cached, retried, counted and timed like our judges' calls; a rerun costs nothing.
Every failure is an unscored :class:`PeerResult` with a reason, never a score (``docs/peers.md``).

Example::

    from hybridjudge.model import ModelConfig
    from hybridjudge.peers import PeerProxy, ascore_peer

    with PeerProxy(ModelConfig.from_env()) as proxy:
        result = await ascore_peer(proxy, "ragas", answer="...", context=["..."], question="...")
        result.score, result.unscored_reason, result.usage.calls

Many answers (one proxy, concurrent evaluations)::

    batch = score_peers_many(records, config=config, peers=["ragas", "deepeval"], repetitions=2)
    batch.outcomes[0].results["ragas"].score, batch.usage_by_peer["deepeval"].cost_usd
"""

from hybridjudge.peers._adapters import PEER_PACKAGES, ascore_peer, peer_version, require_peer
from hybridjudge.peers._many import (
    PeerBatch,
    PeerOutcome,
    PeerRecord,
    ascore_peers_many,
    score_peers_many,
)
from hybridjudge.peers._proxy import PEER_PROMPT_VERSION, PeerProxy, ProxyCall, ProxySession
from hybridjudge.peers._results import PEERS, PeerName, PeerResult, PeerUnscoredReason

__all__ = [
    "PEERS",
    "PEER_PACKAGES",
    "PEER_PROMPT_VERSION",
    "PeerBatch",
    "PeerName",
    "PeerOutcome",
    "PeerProxy",
    "PeerRecord",
    "PeerResult",
    "PeerUnscoredReason",
    "ProxyCall",
    "ProxySession",
    "ascore_peer",
    "ascore_peers_many",
    "peer_version",
    "require_peer",
    "score_peers_many",
]
