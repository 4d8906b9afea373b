"""Keep secrets out of every stored or printed text.

- :func:`redact_secrets`: replaces anything that looks like an API key or token in free text
  (server replies, error messages) with ``[REDACTED]``; an exact key value passed in ``known``
  is replaced wherever it appears, whatever its shape.
- :func:`redact_url`: drops the ``user:password@`` part and key-like query values of a URL.
- :func:`looks_like_key`: whether a string is probably a credential (used to refuse echoing a
  key given by mistake where a variable *name* is expected).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

__all__ = ["REDACTED", "looks_like_key", "redact_secrets", "redact_url"]

REDACTED = "[REDACTED]"
"""What a secret is replaced with."""

_KEY_PATTERNS = (
    r"\bsk-(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_\-]{16,}",  # OpenAI, Anthropic
    r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",  # AWS access key id
    r"\bgh[pousr]_[A-Za-z0-9]{30,}",  # GitHub
    r"\bgithub_pat_[A-Za-z0-9_]{40,}",
    r"\bxox[abposr]-[A-Za-z0-9\-]{10,}",  # Slack
    r"\bhf_[A-Za-z0-9]{30,}",  # Hugging Face
    r"\bAIza[0-9A-Za-z_\-]{35}",  # Google
    r"\bgsk_[A-Za-z0-9]{30,}",  # Groq
    r"\beyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}",  # JWT
)
_KEY_RE = re.compile("|".join(_KEY_PATTERNS))
_BEARER_RE = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=\-]{8,}")
_ASSIGNED_RE = re.compile(
    r"(?i)\b((?:api[_-]?key|access[_-]?token|auth[_-]?token|secret|password|passwd|token)"
    r"[\"']?\s*[:=]\s*[\"']?)([^\s\"',;&]{6,})"
)
_SENSITIVE_PARAM = re.compile(r"(?i)key|token|secret|password|passwd|sig|auth|credential")


def looks_like_key(text: str) -> bool:
    """True when ``text`` is probably a credential rather than a name.

    A known key shape (``sk-...``, ``hf_...``, a JWT ...) or a long run of letters and digits
    mixed with no separator an environment variable name would have. Variable names are
    ``[A-Za-z_][A-Za-z0-9_]*`` and mostly upper case; keys are long and mixed case.
    """
    value = text.strip()
    if not value:
        return False
    if _KEY_RE.search(value) or _BEARER_RE.search(value):
        return True
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
        # Not a valid variable name at all: treat long opaque strings as keys.
        return len(value) >= 20 and not any(c.isspace() for c in value)
    has_lower = any(c.islower() for c in value)
    has_upper = any(c.isupper() for c in value)
    digits = sum(c.isdigit() for c in value)
    return len(value) >= 24 and has_lower and has_upper and digits >= 3


def redact_secrets(text: str, known: Iterable[str | None] = ()) -> str:
    """``text`` with key-like substrings (and each exact ``known`` value) replaced."""
    if not text:
        return text
    for secret in known:
        if secret and len(secret) >= 4 and secret in text:
            text = text.replace(secret, REDACTED)
    text = _KEY_RE.sub(REDACTED, text)
    text = _BEARER_RE.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    return _ASSIGNED_RE.sub(lambda m: f"{m.group(1)}{REDACTED}", text)


def redact_url(url: str) -> str:
    """``url`` without credentials: ``user:pass@`` becomes ``[REDACTED]@`` and the values of
    query parameters named like a key (``api_key``, ``token``, ``sig`` ...) are replaced."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return redact_secrets(url)
    netloc = parts.netloc
    # ``local://MODEL@SHA256`` names the embedded model and its weights, not credentials
    if "@" in netloc and parts.scheme != "local":
        netloc = f"{REDACTED}@{netloc.rsplit('@', 1)[1]}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode(
            [(k, REDACTED if _SENSITIVE_PARAM.search(k) else v) for k, v in pairs], safe="[]"
        )
    return redact_secrets(urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment)))
