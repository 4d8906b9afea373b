"""A local OpenAI-compatible judge on 127.0.0.1 for ``scripts/pip_path.sh``.

Runs the test suite's scripted server (``tests/support/openai_server.py``, standard library
only) with the bring-your-own-data tests' judge (``tests/byo/_judge.py``): a claim is faithful
exactly when it is a sentence of one of the texts given on the command line. Writes the base URL
to ``URL_FILE`` once it listens, then serves until it is sent SIGTERM or SIGINT.

Usage: ``python scripts/pip_path_server.py URL_FILE TEXT [TEXT ...]`` (with the repository root
on ``PYTHONPATH`` for the ``tests`` package, and hybridjudge importable from the environment:
the installed wheel, not the checkout).
"""

from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path


def main(argv: list[str]) -> int:
    """Serve until SIGTERM/SIGINT; returns the exit code."""
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    from tests.byo._judge import TextJudge
    from tests.support.openai_server import FakeOpenAIServer

    url_file, texts = Path(argv[0]), argv[1:]
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    with FakeOpenAIServer() as server:
        server.respond_with(TextJudge(texts))
        url_file.write_text(server.base_url + "\n", encoding="utf-8")
        stop.wait()
        print(f"pip_path_server: {server.request_count} request(s) served", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
