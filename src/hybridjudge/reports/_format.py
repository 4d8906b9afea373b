"""Numbers formatted for people: ``18.9 s`` rather than ``18887.485`` ms or ``1.89e+04``."""

from __future__ import annotations

__all__ = ["fmt_count", "fmt_duration_ms", "fmt_duration_s", "fmt_tokens", "fmt_usd"]


def fmt_count(value: int) -> str:
    """``34568`` -> ``34,568``."""
    return f"{value:,}"


def fmt_tokens(value: float) -> str:
    """Tokens per evaluation: whole numbers with thousands separators, one decimal below 10."""
    if value == 0:
        return "0"
    if value < 10:
        return f"{value:.1f}"
    return f"{round(value):,}"


def fmt_duration_ms(ms: float) -> str:
    """A duration given in milliseconds, in the unit a person would use.

    ``0.138`` -> ``0.14 ms``; ``14.2`` -> ``14 ms``; ``18887.485`` -> ``18.9 s``;
    ``250000`` -> ``4.2 min``; ``0`` -> ``0 ms``.
    """
    if ms == 0:
        return "0 ms"
    if ms < 1:
        return f"{ms:.2f} ms"
    if ms < 10:
        return f"{ms:.1f} ms"
    if ms < 1000:
        return f"{ms:.0f} ms"
    return fmt_duration_s(ms / 1000.0)


def fmt_duration_s(seconds: float) -> str:
    """A duration given in seconds: ``0.092`` -> ``92 ms``; ``237.4`` -> ``4.0 min``; ``0`` ->
    ``0 s``."""
    if seconds == 0:
        return "0 s"
    if seconds < 1:
        return fmt_duration_ms(seconds * 1000.0)
    if seconds < 10:
        return f"{seconds:.2f} s"
    if seconds < 120:
        return f"{seconds:.1f} s"
    if seconds < 7200:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def fmt_usd(value: float | None) -> str:
    """Dollars with the precision the amount needs: ``0`` -> ``$0``; ``11.49`` -> ``$11.49``;
    ``0.00042`` -> ``$0.00042``; ``None`` -> ``unknown cost`` (no price for the model, or a
    reply without usable token counts: never shown as $0)."""
    if value is None:
        return "unknown cost"
    if value == 0:
        return "$0"
    if value >= 1:
        return f"${value:,.2f}"
    return f"${value:.2g}" if value < 0.01 else f"${value:.3f}".rstrip("0")
