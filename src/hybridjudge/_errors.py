"""The exception tree of hybridjudge.

Every error that hybridjudge raises on purpose derives from :class:`HybridJudgeError`, and each
also mixes in the builtin a caller would naturally catch, so ``except ValueError`` still works::

    HybridJudgeError
    ├── InputError (ValueError)          unusable user input: a file, a line, a field
    │   ├── CaseFileError                 one bad line of a JSONL/CSV case file (line, case id, field)
    │   ├── IncompatibleReportsError      two reports that must not be compared (scale, label source)
    │   ├── GroundingInputError           an argument of the grounding checks that cannot be used (grounding)
    │   │   └── GroundingTypeError (TypeError)  one of the wrong type
    │   ├── LexiconError                  a lexicon data file that breaks its schema (grounding)
    │   ├── CorruptCacheError             a reply-cache database or row that is not the project's own (model)
    │   ├── MetricNameError               an unknown retrieval measure name (metrics.retrieval)
    │   └── StaleMutationsError           a frozen mutation file that no longer matches its corpus (mutations)
    ├── ConfigError (ValueError)          an invalid setting (flag, environment variable, plan file)
    │   └── PromptError                   a judge prompt file that cannot be used (judges)
    ├── InvariantError (RuntimeError)     a computed report broke one of its own invariants
    ├── ModelError (RuntimeError)         talking to a model failed after the retries we allow
    │   ├── ModelConnectionError          endpoint unreachable, refused, or timed out
    │   ├── ModelHTTPError                the endpoint answered an HTTP error (``status``)
    │   │   └── ModelAuthError            401/403: a bad or missing API key
    │   └── ModelResponseError            the endpoint answered, but not like an OpenAI server
    ├── BudgetExhaustedError (RuntimeError)  ``--max-cost`` refused a request (model)
    ├── MutationRefused (ValueError)     a mutator declined to emit a mutant it cannot vouch for (mutations)
    └── LocalModelError (RuntimeError)    the embedded model cannot run (extra missing, checksum, port)

The errors marked with a package are defined there, beside the code that raises them.

Each error carries a short machine-readable ``code`` and a message that names the input and the fix.
"""

from __future__ import annotations

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
]


class HybridJudgeError(Exception):
    """Root of every error hybridjudge raises on purpose."""

    code: str = "hybridjudge_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return self.message


class InputError(HybridJudgeError, ValueError):
    """User input that cannot be used: the message names the input and how to fix it."""

    code = "invalid_input"


class CaseFileError(InputError):
    """One unusable line of a case file (code ``invalid_case_line``), or a whole file or corpus
    folder that cannot be used (no line: code ``invalid_case_file``).

    Attributes:
        path: the file.
        line: 1-based line number (``None`` when the whole file is unusable).
        case_id: the case id when it could be read.
        field: the offending field when there is one.
    """

    code = "invalid_case_line"

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        case_id: str | None = None,
        field: str | None = None,
    ) -> None:
        where = []
        if path is not None:
            where.append(str(path))
        if line is not None:
            where.append(f"line {line}")
        if case_id is not None:
            where.append(f"case {case_id!r}")
        if field is not None:
            where.append(f"field {field!r}")
        prefix = ", ".join(where)
        super().__init__(
            f"{prefix}: {message}" if prefix else message,
            code=None if line is not None else "invalid_case_file",
        )
        self.path = path
        self.line = line
        self.case_id = case_id
        self.field = field


class IncompatibleReportsError(InputError):
    """Two reports measured on different scales or label sources were asked to be compared."""

    code = "incompatible_reports"


class ConfigError(HybridJudgeError, ValueError):
    """An invalid setting: a CLI flag, an environment variable or a configuration file."""

    code = "invalid_config"


class InvariantError(HybridJudgeError, RuntimeError):
    """A computed report broke one of its own invariants (a bug, never a footnote)."""

    code = "invariant_violated"


class ModelError(HybridJudgeError, RuntimeError):
    """Talking to a model failed after every retry we allow."""

    code = "model_error"


class ModelConnectionError(ModelError):
    """The endpoint could not be reached, refused the connection or timed out."""

    code = "model_connection"


class ModelHTTPError(ModelError):
    """The endpoint answered with an HTTP error status."""

    code = "model_http"

    def __init__(self, message: str, *, status: int, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.status = status


class ModelAuthError(ModelHTTPError):
    """401 or 403: the API key is missing, wrong, or lacks access. Never retried."""

    code = "model_auth"


class ModelResponseError(ModelError):
    """The endpoint answered 2xx but not in the OpenAI chat-completions shape."""

    code = "model_response"


class LocalModelError(HybridJudgeError, RuntimeError):
    """The embedded offline model cannot run: extra not installed, checksum mismatch, busy port."""

    code = "local_model"
