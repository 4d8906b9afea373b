"""The study viewer: one self-contained HTML page showing every output of a study (issue 35).

Each output: its answer with each finding's span marked, the context with the evidence a finding
was compared with marked, each judge's verdict per claim (the claim marked in the answer, accepted
or not, the quote it gave marked in the context), every scorer's verdict per repetition, the
blame call, and for a mutant its base and the defect injected. Filters by corpus, defect class, scorer and disagreement (the checks flag it
and no judge does, or the other way); keyboard navigation (``j``/``k`` or the arrow keys, ``/``
to the filters).

Safe by construction: the data travels as JSON inside ``<script type="application/json">`` (with
``<``, ``>``, ``&`` escaped, so no text can close the tag), and the page's script puts every text
into the page with ``textContent``, never as HTML; a Content-Security-Policy of ``default-src
'none'`` lets the page load nothing (no network at view time, even for a link a text carries).
"""

from __future__ import annotations

import html

from hybridjudge.study import ViewData

__all__ = ["render_viewer"]

_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

_STYLE = """
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,sans-serif;color:#1b1b1b;
background:#f6f6f4}header{padding:10px 16px;background:#23343f;color:#fff}
header h1{margin:0;font-size:17px}header p{margin:2px 0 0;font-size:12px;opacity:.85}
body{display:flex;flex-direction:column;height:100vh}
main{display:grid;grid-template-columns:340px 1fr;flex:1;min-height:0}
#side{border-right:1px solid #ccc;display:flex;flex-direction:column;min-height:0}
#filters{padding:8px;display:grid;grid-template-columns:1fr 1fr;gap:6px;border-bottom:1px solid #ccc}
#filters label{font-size:11px;color:#555;display:flex;flex-direction:column}
#filters select{font-size:13px}#count{grid-column:1/3;font-size:12px;color:#444}
#list{overflow:auto;flex:1;margin:0;padding:0;list-style:none}
#list li{padding:5px 8px;border-bottom:1px solid #e4e4e4;cursor:pointer;font-size:12px;
display:flex;justify-content:space-between;gap:8px;word-break:break-all}
#list li[aria-selected=true]{background:#dbe8f3}#list li .tag{color:#666;white-space:nowrap}
#list li.flag span:first-child::before{content:"\\25cf ";color:#b3261e}
#detail{overflow:auto;padding:12px 18px}h2{font-size:16px;margin:0 0 4px;word-break:break-all}
h3{font-size:13px;margin:14px 0 4px;text-transform:uppercase;letter-spacing:.04em;color:#444}
.meta{font-size:12px;color:#444}.box{background:#fff;border:1px solid #d8d8d8;border-radius:4px;
padding:8px 10px;white-space:pre-wrap;word-break:break-word}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:12px}
mark.finding{background:#f6c4bf;border-bottom:2px solid #b3261e}
mark.evidence{background:#cde6c7;border-bottom:2px solid #2e7d32}
mark.claim{background:#d9d4f0;border-bottom:2px solid #4a3a9a}
mark.claim.accepted{background:#d3e6f6;border-bottom:2px solid #1f5f99}
mark.quote{background:#fbe7a1;border-bottom:2px solid #8a6d00}
mark.evidence.quote{background:#e3e8a6}
table.verdicts td:first-child{white-space:nowrap}
table{border-collapse:collapse;font-size:12px}table.verdicts{margin-top:6px}td,th{border:1px solid #d0d0d0;padding:3px 6px;
text-align:left;vertical-align:top}th{background:#eceae6}.bad{color:#b3261e;font-weight:600}
.ok{color:#2e7d32}.passage{margin-bottom:6px}.passage b{color:#666;font-weight:400}
ul.findings{margin:0;padding-left:18px}kbd{font:inherit;font-size:11px;border:1px solid #aaa;
padding:0 3px;border-radius:3px;background:#fff;color:#1b1b1b}
"""

_SCRIPT = r"""
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
const $ = (id) => document.getElementById(id);
const el = (tag, text, cls) => { const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls; return e; };
const CHECKS = "deterministic";
let shown = [], current = -1;
function fill(select, values) { for (const v of values) select.append(el("option", v)); }
fill($("f-corpus"), data.corpora); fill($("f-defect"), data.defects);
fill($("f-scorer"), data.scorers);
const flagged = (o, scorer) => o.scores.some((s) => s.scorer === scorer && s.flagged === true);
const anyFlag = (o) => o.scores.some((s) => s.flagged === true);
function marked(text, spans) {
  // text with its [start, end) spans marked: each span {start, end, cls, ref, title}; where spans
  // overlap, the overlap is one <mark> carrying every span's class and ref (data-refs), so each
  // span's text is the text of the marks naming its ref. Text nodes only, never HTML.
  const box = el("div", undefined, "box");
  const ok = spans.filter((s) => s.start !== null && s.end !== null && s.end > s.start
    && s.end <= text.length);
  const cuts = [...new Set([0, text.length, ...ok.flatMap((s) => [s.start, s.end])])]
    .sort((a, b) => a - b);
  for (let i = 0; i + 1 < cuts.length; i++) {
    const a = cuts[i], b = cuts[i + 1], piece = text.slice(a, b);
    const over = ok.filter((s) => s.start <= a && s.end >= b);
    if (!over.length) { box.append(document.createTextNode(piece)); continue; }
    const m = el("mark", piece, [...new Set(over.map((s) => s.cls))].join(" "));
    m.dataset.refs = over.map((s) => s.ref).join(" ");
    m.title = over.map((s) => s.title).join("\n"); box.append(m);
  }
  return box;
}
function show(index) {
  if (!shown.length) { $("detail").replaceChildren(el("p", "No output matches the filters.")); return; }
  current = Math.max(0, Math.min(index, shown.length - 1));
  for (const li of $("list").children) li.setAttribute("aria-selected", "false");
  const li = $("list").children[current]; li.setAttribute("aria-selected", "true");
  li.scrollIntoView({block: "nearest"});
  const o = shown[current]; const d = $("detail"); d.replaceChildren();
  d.append(el("h2", o.id));
  d.append(el("div", [o.corpus, "case " + o.case_id, o.origin,
    o.defect ? "defect: " + o.defect : "no defect injected",
    o.clean === true ? "labelled right" : o.clean === false ? "labelled wrong" : ""]
    .filter(Boolean).join(" \u00b7 "), "meta"));
  if (o.defect_detail) d.append(el("div", "injected: " + o.defect_detail, "meta"));
  if (o.blame) { const b = el("div", "whose failure: " + o.blame + (o.blame_evidence ?
    " \u2014 " + o.blame_evidence : ""), "meta"); b.id = "blame"; d.append(b); }
  if (o.question) { d.append(el("h3", "Question")); d.append(el("div", o.question, "box")); }
  const spans = o.findings.map((f, i) => ({start: f.start, end: f.end, cls: "finding",
    ref: "f" + i, title: f.kind + ": " + f.message}));
  const cols = el("div", undefined, "cols"); const left = el("div"); const right = el("div");
  left.append(el("h3", "Answer")); const answer = marked(o.answer, spans);
  answer.id = "answer"; left.append(answer);
  if (o.base_text !== null) { right.append(el("h3", "Its base (" + o.base_id + ")"));
    right.append(el("div", o.base_text, "box")); }
  cols.append(left, right); d.append(cols);
  d.append(el("h3", "Findings of the checks (" + o.findings.length + ")"));
  if (!o.findings.length) d.append(el("div", "none: grounded", "ok"));
  const ul = el("ul", undefined, "findings"); ul.id = "findings";
  for (const f of o.findings) ul.append(el("li", f.kind + ": " + f.message +
    (f.evidence ? "  [compared with: " + f.evidence + "]" : "")));
  d.append(ul);
  const first = o.claims.map((c, k) => ({...c, k})).filter((c) => c.repetition === 0);
  for (const name of [...new Set(first.map((c) => c.scorer))]) {
    const mine = first.filter((c) => c.scorer === name);
    const full = mine.some((c) => c.label !== null);  // every verdict (study format 6)
    const accepted = mine.filter((c) => c.faithful).length;
    d.append(el("h3", full ? name + ", repetition 0: " + accepted + " of " + mine.length +
      " claims accepted" : "Claims " + name + " found unfaithful (repetition 0: " +
      mine.length + ")"));
    const box = marked(o.answer, mine.map((c) => ({start: c.start, end: c.end,
      cls: c.faithful ? "claim accepted" : "claim", ref: "c" + c.k,
      title: name + ": " + (c.label || "unfaithful")})));
    box.classList.add("claims"); box.dataset.scorer = name; d.append(box);
    if (full) {
      const t = el("table", undefined, "verdicts"); t.dataset.scorer = name;
      const head = el("tr");
      for (const h of ["verdict", "claim", "quote from the context"]) head.append(el("th", h));
      t.append(head);
      for (const c of mine) {
        const r = el("tr"); r.dataset.ref = "c" + c.k;
        r.append(el("td", c.label, c.faithful ? "ok" : "bad"), el("td", c.claim),
          el("td", c.quote === null ? "-" : "\u201c" + c.quote + "\u201d" + (c.passage !==
            null ? " [" + (c.passage + 1) + "]" : c.quote_found ? " (in the context, not word for " +
            "word: not marked)" : " (not in the context)")));
        t.append(r);
      }
      d.append(t);
    } else {
      for (const c of mine.filter((c) => c.start === null))
        d.append(el("div", "(rephrased) " + c.claim, "meta"));
    }
  }
  d.append(el("h3", "Context"));
  o.context.forEach((p, i) => {
    const ev = o.findings.map((f, j) => ({...f, j}))
      .filter((f) => f.passage === i && f.evidence_start !== null)
      .map((f) => ({start: f.evidence_start, end: f.evidence_start + f.evidence.length,
        cls: "evidence", ref: "e" + f.j, title: "compared with: " + f.kind}));
    const quotes = first.filter((c) => c.passage === i && c.quote_start !== null)
      .map((c) => ({start: c.quote_start, end: c.quote_start + c.quote.length, cls: "quote",
        ref: "q" + c.k, title: c.scorer + " quotes it for: " + c.claim}));
    const box = marked(p, [...ev, ...quotes]); box.classList.add("passage");
    box.prepend(el("b", "[" + (i + 1) + "] ")); d.append(box);
  });
  d.append(el("h3", "Verdicts per repetition"));
  const t = el("table"); const head = el("tr");
  for (const h of ["scorer", "rep.", "score", "verdict", "issues / reason"]) head.append(el("th", h));
  t.append(head);
  for (const s of o.scores) { const r = el("tr"); r.append(el("td", s.scorer), el("td", s.repetition),
      el("td", s.score === null ? "-" : s.score.toFixed(2)),
      el("td", s.status !== "scored" ? "unscored" : s.flagged ? "flagged" : "passed",
        s.status !== "scored" ? "" : s.flagged ? "bad" : "ok"),
      el("td", s.status === "scored" ? s.issues.join("; ") : s.unscored_reason)); t.append(r); }
  d.append(t);
}
function apply() {
  const c = $("f-corpus").value, df = $("f-defect").value, sc = $("f-scorer").value,
    dis = $("f-disagree").value;
  shown = data.outputs.filter((o) => (!c || o.corpus === c) && (!df || (o.defect || "base") === df)
    && (!sc || flagged(o, sc)) && (!dis || o.disagreement === dis));
  const list = $("list"); list.replaceChildren();
  shown.forEach((o, i) => { const li = el("li", undefined, anyFlag(o) ? "flag" : "");
    li.setAttribute("role", "option"); li.dataset.id = o.id;
    li.append(el("span", o.id), el("span", o.defect || "base", "tag"));
    li.addEventListener("click", () => show(i)); list.append(li); });
  $("count").textContent = shown.length + " of " + data.outputs.length + " outputs";
  show(0);
}
for (const id of ["f-corpus", "f-defect", "f-scorer", "f-disagree"]) $(id).addEventListener("change", apply);
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLSelectElement) return;
  if (e.key === "j" || e.key === "ArrowDown") { show(current + 1); e.preventDefault(); }
  else if (e.key === "k" || e.key === "ArrowUp") { show(current - 1); e.preventDefault(); }
  else if (e.key === "/") { $("f-corpus").focus(); e.preventDefault(); }
});
apply();
"""


def _json_for_script(data: ViewData) -> str:
    """The data as JSON that cannot end its ``<script>`` element or open a comment."""
    text = data.model_dump_json()
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def render_viewer(data: ViewData) -> str:
    """The viewer page for ``data``: one HTML file that needs no network and no other file."""
    title = html.escape(f"hybridjudge viewer: {data.title}")
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{title}</title><style>{_STYLE}</style></head><body>"
        f"<header><h1>{title}</h1><p>{len(data.outputs)} outputs. Keys: <kbd>j</kbd>/<kbd>k</kbd> "
        "or arrows to move, <kbd>/</kbd> to the filters. Red: a finding of the checks; green: "
        "the context it was compared with; violet: a claim a judge did not accept, blue: one "
        "it accepted; yellow: the judge's quote in the context.</p>"
        '</header><main><div id="side"><div id="filters">'
        '<label>corpus<select id="f-corpus"><option value="">all</option></select></label>'
        '<label>defect class<select id="f-defect"><option value="">all</option></select></label>'
        '<label>flagged by<select id="f-scorer"><option value="">any or none</option></select>'
        '</label><label>disagreement<select id="f-disagree"><option value="">all</option>'
        '<option value="checks_only">checks flag, judges pass</option>'
        '<option value="judges_only">a judge flags, checks pass</option></select></label>'
        '<div id="count"></div></div><ul id="list" role="listbox"></ul></div>'
        '<section id="detail" aria-live="polite"></section></main>'
        f'<script id="data" type="application/json">{_json_for_script(data)}</script>'
        f"<script>{_SCRIPT}</script></body></html>\n"
    )
