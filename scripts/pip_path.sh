#!/usr/bin/env bash
# The path a pip user walks (issue 34, docs/cli.md "Installed with pip"): build the wheel and the
# sdist with the project's build backend, install the wheel alone (the core: no [local] extra, so
# no embedded model) into a fresh venv, and from outside the checkout run
#   - hybridjudge check on an example (exit 1: it has ungrounded answers; 0 with --fail-under 0),
#   - judge --dry-run and judge/study run without a model or an endpoint: one line naming
#     pip install 'hybridjudge[local]' and --base-url / OPENAI_BASE_URL, never a checkout command,
#   - judge against a local OpenAI-compatible test server on 127.0.0.1 (scripts/pip_path_server.py,
#     started here and stopped at the end).
# Usage: scripts/pip_path.sh   (PYTHON=python3.12 to pick the interpreter; KEEP=1 keeps the temp dir)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-python3}
work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  if [ -z "${KEEP:-}" ]; then rm -rf "$work"; else echo "pip path: kept $work"; fi
}
trap cleanup EXIT
fail() { echo "pip path: FAIL: $*" >&2; exit 1; }
expect_rc() {  # expect_rc CODE LABEL -- command...: run it, require exit CODE
  local want=$1 label=$2; shift 3
  local rc=0
  "$@" >"$work/out" 2>"$work/err" || rc=$?
  if [ "$rc" != "$want" ]; then
    cat "$work/out" "$work/err" >&2
    fail "$label: exit $rc, expected $want"
  fi
  echo "pip path: ok: $label (exit $rc)"
}

# 1. the wheel and the sdist, as the project's build (hatchling, in an isolated build env) makes them
builder=$PYTHON
if ! "$PYTHON" -c "import build" 2>/dev/null; then
  "$PYTHON" -m venv "$work/build-env"
  "$work/build-env/bin/python" -m pip install --quiet build
  builder="$work/build-env/bin/python"
fi
"$builder" -m build --outdir "$work/dist" "$repo" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; fail "python -m build"; }
wheel=$(ls "$work"/dist/hybridjudge-*.whl)
sdist=$(ls "$work"/dist/hybridjudge-*.tar.gz)
tar -tzf "$sdist" >"$work/sdist.txt"
grep -q '/src/hybridjudge/cli/__init__.py$' "$work/sdist.txt" || fail "the sdist has no src/hybridjudge"
"$PYTHON" -m zipfile -l "$wheel" >"$work/wheel.txt"
grep -q 'hybridjudge/judges/prompts/' "$work/wheel.txt" || fail "the wheel has no judge prompts"
echo "pip path: built $(basename "$wheel") and $(basename "$sdist")"

# 2. a fresh venv with the wheel alone (its core dependencies from the index; no extra)
"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "$wheel"
hj="$work/venv/bin/hybridjudge"
if "$work/venv/bin/python" -c "import xllamacpp" 2>/dev/null; then fail "the core wheel pulled in xllamacpp"; fi
cd "$work"  # away from the checkout: nothing may import its src
unset OPENAI_BASE_URL OPENAI_API_KEY HYBRIDJUDGE_BASE_URL HYBRIDJUDGE_BACKEND HYBRIDJUDGE_MODEL PYTHONPATH || true
export HYBRIDJUDGE_CACHE_DIR="$work/cache"
export HYBRIDJUDGE_MODEL_DIR="$work/models"  # a fresh machine: no model assembled by an earlier install
"$hj" --version

# 3. the deterministic checks need nothing more
expect_rc 1 "check on the OpenGATE example (ungrounded answers: exit 1)" -- "$hj" check "$repo/examples/check/opengate-cases.jsonl"
expect_rc 0 "check --fail-under deterministic=0" -- "$hj" check "$repo/examples/check/opengate-cases.jsonl" --fail-under deterministic=0

# 4. no embedded model, no endpoint: one line saying how to get either
expect_rc 0 "judge --dry-run on the embedded model" -- "$hj" judge "$repo/examples/check/opengate-cases.jsonl" --dry-run
grep -q "priced backend: local, NOT installed" "$work/out" || fail "--dry-run does not say the embedded model is not installed"
grep -q "pip install 'hybridjudge\[local\]'" "$work/out" || fail "--dry-run does not say how to install it"
expect_rc 2 "judge without a model or an endpoint" -- "$hj" judge "$repo/examples/check/opengate-cases.jsonl"
[ "$(grep -c . "$work/err")" = 1 ] || fail "judge printed more than one line: $(cat "$work/err")"
grep -q "pip install 'hybridjudge\[local\]'" "$work/err" || fail "judge: no install hint"
grep -q -- "--base-url" "$work/err" || fail "judge: no --base-url hint"
grep -q "OPENAI_BASE_URL" "$work/err" || fail "judge: no OPENAI_BASE_URL hint"
! grep -q "pip install -e" "$work/err" || fail "judge: a checkout command"
expect_rc 2 "study run without a model or an endpoint" -- "$hj" study run --corpus "$repo/corpus/opengate" --mutations "$repo/mutations/opengate.jsonl" --out "$work/study"
grep -q "pip install 'hybridjudge\[local\]'" "$work/err" || fail "study run: no install hint"
[ ! -e "$work/study/study.json" ] || fail "study run wrote a study without a judge"
expect_rc 2 "model path without the embedded model" -- "$hj" model path
grep -q "pip install 'hybridjudge\[local\]'" "$work/err" || fail "model path: no install hint"
! grep -q "pip install -e" "$work/err" || fail "model path: a checkout command"

# 5. judge against a local OpenAI-compatible test server on 127.0.0.1
context="Customers may request a full refund within 30 days of purchase."
printf '%s\n' \
  "{\"id\": \"right\", \"question\": \"Refunds?\", \"answer\": \"$context\", \"context\": [\"$context\"]}" \
  "{\"id\": \"wrong\", \"question\": \"Refunds?\", \"answer\": \"Refunds are possible within 90 days of purchase.\", \"context\": [\"$context\"]}" \
  >"$work/cases.jsonl"
PYTHONPATH="$repo" "$work/venv/bin/python" "$repo/scripts/pip_path_server.py" "$work/url" "$context" &
server_pid=$!
for _ in $(seq 1 100); do [ -s "$work/url" ] && break; sleep 0.1; done
[ -s "$work/url" ] || fail "the test server did not start"
endpoint=(--base-url "$(cat "$work/url")" --model fake-model --price-in 1 --price-out 2)
expect_rc 0 "judge --dry-run on the endpoint" -- "$hj" judge "$work/cases.jsonl" --dry-run "${endpoint[@]}"
grep -q "priced backend: openai-compatible endpoint" "$work/out" || fail "--dry-run does not name the endpoint"
expect_rc 1 "judge on the endpoint (one answer fails the default --threshold 1)" -- "$hj" judge "$work/cases.jsonl" --json "${endpoint[@]}"
[ "$(grep -c '"format_version"' "$work/out")" = 2 ] || fail "judge --json did not print 2 lines"
expect_rc 0 "judge --fail-under support=0.5,contradiction=0.5" -- "$hj" judge "$work/cases.jsonl" --fail-under support=0.5,contradiction=0.5 "${endpoint[@]}"
echo "pip path: passed"
