// The variant lab: the YAML and the form kept in step through the server's check, runs started, watched and cancelled.
// Every word shown comes from the server (data-strings, or its answers): this file holds none of its own.
"use strict";
(function () {
  const lab = document.getElementById("lab");
  if (!lab) return;
  const words = JSON.parse(lab.dataset.strings);
  const $ = (id) => document.getElementById(id);
  const text = $("lab-text"), lines = $("lab-lines"), status = $("lab-status"), problems = $("lab-problems");
  const form = $("lab-form"), runForm = $("lab-run-form");
  const DRAFT = "scoutlab-lab-draft";
  let checkTimer = null, asked = 0, jobId = null, pollTimer = null, valid = false, playing = false;

  // One run per page at a time: Start waits until the run it follows ends or is cancelled.
  function enableRun() { $("lab-run-button").disabled = !valid || playing; }

  const say = (template, values) => template.replace(/\{(\w+)\}/g, (m, k) => (k in (values || {}) ? values[k] : m));

  async function post(url, body) {
    const answer = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    let data = {};
    try { data = await answer.json(); } catch (e) { data = {error: words.offline}; }
    return {ok: answer.ok, status: answer.status, data};
  }

  // -- the editor -------------------------------------------------------------------------------

  function numberLines() {
    const count = text.value.split("\n").length;
    let out = "";
    for (let i = 1; i <= count; i++) out += i + "\n";
    lines.textContent = out;
    lines.scrollTop = text.scrollTop;
  }

  function goToLine(line) {
    const rows = text.value.split("\n");
    const start = rows.slice(0, line - 1).reduce((n, row) => n + row.length + 1, 0);
    text.focus();
    text.setSelectionRange(start, start + (rows[line - 1] || "").length);
  }

  function scheduleCheck() {
    numberLines();
    sessionStorage.setItem(DRAFT, text.value);
    clearTimeout(checkTimer);
    status.textContent = words.checking;
    checkTimer = setTimeout(() => check({text: text.value}), 400);  // one request once typing pauses
  }

  async function check(body) {
    const mine = ++asked;
    let answer;
    try { answer = await post("/lab/api/check", body); } catch (e) { status.textContent = words.offline; return; }
    if (mine !== asked) return;  // a later check is on its way: this answer is stale
    if (!answer.ok) { showProblems([answer.data.error || words.offline], []); return; }
    const data = answer.data;
    if (typeof data.text === "string" && data.text !== text.value) {
      text.value = data.text;
      sessionStorage.setItem(DRAFT, text.value);
      numberLines();
    }
    showProblems(data.problems, data.warnings);
    valid = data.valid;
    $("lab-play-button").disabled = !valid;
    enableRun();
    if (data.valid) {
      fillForm(data.knobs);
      showDiff(data);
      showRules(data.rules);
    }
  }

  // `LINE: $.path: message`: the place as written (left to right, in the YAML's type), the message in the page's own
  // direction and type.
  function problemText(line) {
    const parts = /^(.*?\$\S*?): (.*)$/.exec(line);
    if (!parts) return document.createTextNode(line);
    const where = document.createElement("bdi"), message = document.createElement("bdi");
    where.className = "lab-place";
    where.dir = "ltr";
    where.lang = "en";
    where.textContent = parts[1] + ":";
    message.textContent = parts[2];
    message.dir = document.documentElement.dir || "ltr";
    const both = document.createDocumentFragment();
    both.append(where, " ", message);
    return both;
  }

  function showProblems(list, warnings) {
    problems.textContent = "";
    for (const line of list) {
      const item = document.createElement("li");
      const at = /^(\d+): /.exec(line);
      if (at) {
        const link = document.createElement("button");
        link.type = "button";
        link.className = "lab-line";
        link.append(problemText(line));
        link.title = say(words.go_to_line, {line: at[1]});
        link.addEventListener("click", () => goToLine(Number(at[1])));
        item.append(link);
      } else item.append(problemText(line));
      problems.append(item);
    }
    for (const line of warnings || []) {
      const item = document.createElement("li");
      item.className = "lab-warning";
      item.append(words.warning + " ", problemText(line));
      problems.append(item);
    }
    status.textContent = list.length ? words.problems : words.valid;
    status.className = "lab-status " + (list.length ? "bad" : "good");
  }

  function fillForm(knobs) {
    for (const field of form.querySelectorAll("[data-path]")) {
      if (field === document.activeElement || field.contains(document.activeElement)) continue;  // never under the user's fingers
      const value = knobs[field.dataset.path];
      const kind = field.dataset.kind;
      if (kind === "bool") field.checked = !!value;
      else if (kind === "int" || kind === "text") field.value = value === null || value === undefined ? "" : value;
      else if (kind === "rounds") field.value = String(value);
      else for (const box of field.querySelectorAll("input")) {
        box.checked = (value || []).map(String).includes(box.value);
      }
    }
  }

  function fieldValue(field) {
    const kind = field.dataset.kind;
    if (kind === "bool") return field.checked;
    if (kind === "int") return field.value === "" ? null : Number(field.value);
    if (kind === "text") return field.value;
    if (kind === "rounds") return field.value === "per_player" ? "per_player" : Number(field.value);
    const chosen = [...field.querySelectorAll("input:checked")].map((box) => box.value);
    return kind === "counts" ? chosen.map(Number) : chosen;
  }

  form.addEventListener("change", (event) => {
    const field = event.target.closest("[data-path]");
    if (!field) return;
    check({text: text.value, set: {path: field.dataset.path, value: fieldValue(field)}});
  });
  form.addEventListener("submit", (event) => event.preventDefault());

  function showDiff(data) {
    $("lab-parent").textContent = "(" + data.parent_title + ")";
    const body = $("lab-diff").querySelector("tbody");
    body.textContent = "";
    for (const row of data.diff) {
      const tr = document.createElement("tr"), rule = document.createElement("td");
      if (row.rule) rule.append(row.rule, document.createElement("br"));
      rule.append(yamlKey(row.path, row.rule ? "lab-key" : ""));  // the key, to find it in the YAML
      tr.append(rule);
      for (const value of [row.parent, row.value]) {
        const td = document.createElement("td");
        if (!row.worded) td.append(yamlKey(value, ""));
        else if (/^[-+0-9., ]+$/.test(value)) { const n = document.createElement("bdi"); n.dir = "ltr"; n.textContent = value; td.append(n); }
        else if (value.includes("\n")) td.append(listOf(value.split("\n")));  // end conditions or plugins, one an item
        else td.textContent = value;
        tr.append(td);
      }
      body.append(tr);
    }
    $("lab-diff").hidden = !data.diff.length;
    $("lab-diff-none").hidden = !!data.diff.length;
  }

  function listOf(items) {
    const list = document.createElement("ul");
    list.className = "lab-values";
    for (const item of items) { const li = document.createElement("li"); li.textContent = item; list.append(li); }
    return list;
  }

  // Text as the YAML writes it: English, left to right, in the YAML's type.
  function yamlKey(value, className) {
    const code = document.createElement("code");
    code.textContent = value;
    code.lang = "en";
    code.dir = "ltr";
    if (className) code.className = className;
    return code;
  }

  function showRules(sections) {
    const box = $("lab-rules");
    box.textContent = "";
    for (const section of sections) {
      const h = document.createElement("h3");
      h.textContent = section.title;
      const list = document.createElement("ul");
      for (const sentence of section.sentences) {
        const li = document.createElement("li");
        li.textContent = sentence.text;
        if (sentence.items.length) {
          const inner = document.createElement("ul");
          for (const item of sentence.items) { const i = document.createElement("li"); i.textContent = item; inner.append(i); }
          li.append(inner);
        }
        list.append(li);
      }
      box.append(h, list);
    }
  }

  text.addEventListener("input", scheduleCheck);
  text.addEventListener("scroll", () => { lines.scrollTop = text.scrollTop; });
  $("lab-load").addEventListener("click", () => check({text: "", start: $("lab-start").value}));
  $("lab-play").addEventListener("submit", () => { $("lab-play-text").value = text.value; });

  // -- runs -------------------------------------------------------------------------------------

  function runKind() { return runForm.querySelector("input[name=kind]:checked").value; }
  function showKind() {
    const sweep = runKind() === "sweep";
    $("lab-against-field").hidden = sweep;
    $("lab-tune-field").hidden = sweep;
    $("lab-knob-field").hidden = !sweep;
    $("lab-values-field").hidden = !sweep;
  }
  runForm.addEventListener("change", showKind);

  runForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {kind: runKind(), text: text.value, against: $("lab-against").value, players: Number($("lab-players").value),
                  games: $("lab-games").value, knob: $("lab-knob").value, values: $("lab-values").value,
                  tune: $("lab-tune").checked};
    let answer;
    try { answer = await post("/lab/api/jobs", body); } catch (e) { $("lab-job-status").textContent = words.offline; return; }
    $("lab-job").hidden = false;
    if (!answer.ok) {
      $("lab-results").hidden = true;
      $("lab-cancel").hidden = true;
      $("lab-job-status").textContent = answer.data.error;
      return;
    }
    follow(answer.data.id);
  });

  function follow(id) {
    jobId = id;
    const url = new URL(location.href);
    url.searchParams.set("job", id);
    history.replaceState(null, "", url);  // a reload finds the run again
    $("lab-job").hidden = false;
    $("lab-results").hidden = true;
    poll();
  }

  async function poll() {
    clearTimeout(pollTimer);
    let answer;
    try {
      const response = await fetch("/lab/api/jobs/" + encodeURIComponent(jobId));
      answer = {ok: response.ok, data: await response.json()};
    } catch (e) {
      $("lab-job-status").textContent = words.offline;
      pollTimer = setTimeout(poll, 2000);
      return;
    }
    if (!answer.ok) { $("lab-job-status").textContent = answer.data.error; $("lab-cancel").hidden = true; return; }
    showJob(answer.data);
    if (answer.data.state === "running") pollTimer = setTimeout(poll, 700);
  }

  function showJob(job) {
    const bar = $("lab-progress"), line = $("lab-job-status");
    bar.max = Math.max(job.total, 1);
    bar.value = job.done;
    $("lab-cancel").hidden = job.state !== "running";
    playing = job.state === "running";
    enableRun();
    if (job.state === "running") line.textContent = job.total ? say(job.fitting ? words.fitting : words.running, job) : words.preparing;
    else if (job.state === "cancelled") line.textContent = words.cancelled;
    else if (job.state === "failed") line.textContent = job.error || words.failed;
    else line.textContent = say(job.interrupted ? words.time_limit : words.finished, job);
    if (job.state === "finished") showResults(job);
  }

  function showResults(job) {
    const findings = $("lab-findings"), files = $("lab-files"), charts = $("lab-charts");
    findings.textContent = files.textContent = charts.textContent = "";
    for (const line of job.findings) {
      const li = document.createElement("li"); li.textContent = line; findings.append(li);
    }
    if (!job.findings.length) {  // the page's own words, in a list marked English
      const li = document.createElement("li");
      li.lang = document.documentElement.lang; li.dir = document.documentElement.dir || "ltr"; li.textContent = words.no_findings;
      findings.append(li);
    }
    for (const file of job.files) {
      const li = document.createElement("li"), a = document.createElement("a");
      a.href = file.url; a.textContent = file.label; a.setAttribute("download", "");
      li.append(a); files.append(li);
    }
    for (const chart of job.charts) {
      const figure = document.createElement("figure"), img = document.createElement("img"), caption = document.createElement("figcaption");
      img.src = chart.url; img.alt = chart.title;
      const title = document.createElement("strong");
      title.textContent = chart.title;
      const note = document.createElement("span");  // a block: its own direction sets its alignment
      note.className = "lab-caption";
      note.lang = "en"; note.dir = "ltr"; note.textContent = chart.caption;
      caption.append(title, " ", note);
      const full = document.createElement("a");  // on a phone the chart's words are tiny: a tap opens it full size
      full.href = chart.url;
      full.append(img);
      figure.append(full, caption);
      charts.append(figure);
    }
    $("lab-results").hidden = false;
  }

  $("lab-cancel").addEventListener("click", async () => {
    const answer = await post("/lab/api/jobs/" + encodeURIComponent(jobId) + "/cancel", {});
    if (answer.ok) showJob(answer.data);
  });

  // -- on load: the run in the address, else the draft, else the official rules' house rule ---------

  async function begin() {
    const id = new URL(location.href).searchParams.get("job");
    if (id) {
      jobId = id;
      $("lab-job").hidden = false;
      try {
        const response = await fetch("/lab/api/jobs/" + encodeURIComponent(id));
        const data = await response.json();
        if (response.ok) {
          text.value = data.ask.text;
          const kind = runForm.querySelector(`input[name=kind][value=${data.ask.kind}]`);
          if (kind) kind.checked = true;
          $("lab-games").value = data.ask.games;
          $("lab-players").value = String(data.ask.players);
          if (data.ask.kind === "sweep") { $("lab-knob").value = data.ask.knob; $("lab-values").value = data.ask.values; }
          else { $("lab-against").value = data.ask.against; $("lab-tune").checked = !!data.ask.tune; }
          showKind();
          showJob(data);
          if (data.state === "running") pollTimer = setTimeout(poll, 700);
        } else $("lab-job-status").textContent = data.error;
      } catch (e) { $("lab-job-status").textContent = words.offline; }
    }
    if (!text.value) text.value = sessionStorage.getItem(DRAFT) || "";
    numberLines();
    if (text.value) check({text: text.value});
    else check({text: "", start: $("lab-start").value});
  }
  showKind();
  begin();
})();
