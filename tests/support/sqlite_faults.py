"""Faults of the reply cache's database, injected at the SQLite connection (the layer below the
cache): a disk that fills up after the cache opened."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest


class _FullDisk:
    """A connection whose writes fail as SQLite's do on a full disk (reads still work)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.lstrip().upper().startswith(("INSERT", "DELETE", "UPDATE")):
            raise sqlite3.OperationalError("database or disk is full")
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def disk_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every reply cache opened from now on (in this test) finds its disk full on each write."""
    from hybridjudge.model import _cache

    original = _cache._connect_writer

    def connect(path: Path) -> Any:
        return _FullDisk(original(path))

    monkeypatch.setattr(_cache, "_connect_writer", connect)
