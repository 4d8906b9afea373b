"""``hybridjudge view RESULTS_DIR``: every output of a study in one self-contained page."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``view``."""
    parser = subparsers.add_parser(
        "view",
        help="write (or serve) a page showing every output of a study with its findings",
        description=(
            "Write viewer.html next to study.json: every output of the study with its answer "
            "(each finding of the checks marked), the context (the evidence a finding was "
            "compared with marked), every scorer's verdicts and, for a mutant, its base and the "
            "defect injected; filters by corpus, defect class, scorer and disagreement, keyboard "
            "navigation. One file, no network at view time. The corpora and mutation files the "
            "study read must be where it read them (or under --root)."
        ),
    )
    parser.add_argument(
        "results", type=Path, metavar="RESULTS_DIR", help="directory holding study.json"
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="the page to write (default RESULTS_DIR/viewer.html)"
    )
    parser.add_argument(
        "--root",
        type=Path,
        action="append",
        default=[],
        metavar="FOLDER",
        help="where to look for the study's corpora and mutation files (repeatable)",
    )
    parser.add_argument(
        "--serve",
        action="store_true",
        help="also serve the page on 127.0.0.1 until Ctrl-C (it needs no other file)",
    )
    parser.add_argument(
        "--port", type=int, default=0, help="TCP port (default: a free port, printed)"
    )
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from hybridjudge._atomic import atomic_write_text
    from hybridjudge.reports import render_viewer
    from hybridjudge.study import load_study, view_data

    study = load_study(args.results)
    folder = args.results if args.results.is_dir() else args.results.parent
    page = render_viewer(view_data(study, roots=(*args.root, folder)))
    out = args.out if args.out is not None else folder / "viewer.html"
    atomic_write_text(out, page)
    print(f"viewer: {out}")
    if args.serve:
        _serve(page, args.port)
    return 0


def _serve(page: str, port: int) -> None:
    """Serve ``page`` on 127.0.0.1 (every path gets it) until interrupted."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    body = page.encode("utf-8")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            return

    with ThreadingHTTPServer(("127.0.0.1", port), Handler) as server:
        print(
            f"serving on http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)", flush=True
        )
        server.serve_forever()
