"""hybridjudge: can your RAG system be trusted?

Deterministic grounding checks and cached LLM judges side by side, a mutation harness that
measures which scorer catches which defect (per defect class, never one aggregate), and metrics
for retrieval and ordinal classification.
"""

from __future__ import annotations

from hybridjudge._errors import (
    CaseFileError,
    ConfigError,
    HybridJudgeError,
    IncompatibleReportsError,
    InputError,
    InvariantError,
    LocalModelError,
    ModelAuthError,
    ModelConnectionError,
    ModelError,
    ModelHTTPError,
    ModelResponseError,
)

__version__ = "0.1.0"

__all__ = [
    "CaseFileError",
    "ConfigError",
    "HybridJudgeError",
    "IncompatibleReportsError",
    "InputError",
    "InvariantError",
    "LocalModelError",
    "ModelAuthError",
    "ModelConnectionError",
    "ModelError",
    "ModelHTTPError",
    "ModelResponseError",
    "__version__",
]
