// The page of bt play. Everything from the tree file (names, arguments,
// memory, messages) is set as text (textContent, value), never as markup.
(function () {
  "use strict";
  var TOKEN = document.querySelector('meta[name="bt-token"]').getAttribute("content");
  var STATE_NAMES = { i: "ready", r: "running", s: "succeeded", f: "failed" };
  var S = null;            // the last state shown
  var treeRev = -1;        // the tree drawn
  var srcRev = -1;         // the revision of the text in the text area
  var dirty = false;       // the text area has unsaved edits
  var tl = [], tlRev = -1; // the timeline's entries received, and its revision
  var srcText = "", srcSeen = -1; // the last text received, and its revision
  var nodes = [], rows = [], depth = [], end = [], collapsed = [], text = [];
  var shown = "", focusShown = [], askShown = -1;
  var zoom = 1, hits = [], hitAt = -1;

  function $(id) { return document.getElementById(id); }
  function mk(tag, cls, txt) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (txt !== undefined) { e.textContent = txt; }
    return e;
  }

  function notice(msg, isErr) {
    $("notice").textContent = msg || "";
    $("notice").classList.toggle("err", !!isErr);
  }

  // api makes a request of the server's API, with the token.
  function api(method, path, body, ctype) {
    var opts = { method: method, headers: { "X-BT-Token": TOKEN } };
    if (body !== undefined) {
      opts.body = body;
      opts.headers["Content-Type"] = ctype || "application/json";
    }
    return fetch(path, opts).then(function (r) {
      if (!r.ok) { return r.text().then(function (t) { throw new Error(t.trim() || r.statusText); }); }
      return r;
    });
  }

  // have says what the page has, so that a state does not send it again:
  // the tree drawn, the timeline's entries, the text.
  function have() {
    return "tree=" + treeRev + "&tl=" + tlRev + ":" + tl.length + "&src=" + srcSeen;
  }

  // post makes a state-changing request and shows the state it returns.
  function post(path, obj, raw, ctype) {
    var body = raw !== undefined ? raw : JSON.stringify(obj || {});
    return api("POST", path + (path.indexOf("?") < 0 ? "?" : "&") + have(), body, ctype)
      .then(function (r) { return r.json(); })
      .then(function (st) { render(st); if (!st.notice) { notice(""); } })
      .catch(function (e) { notice(String(e.message), true); });
  }

  // poll follows the server's changes (a file changed on disk, another
  // tab stepped) with long polls.
  function poll() {
    var after = S ? S.change : -1;
    api("GET", "/api/state?after=" + after + "&" + have())
      .then(function (r) { return r.json(); })
      .then(function (st) { render(st); poll(); })
      .catch(function () { setTimeout(poll, 1000); });
  }

  // layout draws the tree once per definition: one row per node,
  // indented by depth.
  function layout(ns) {
    var box = $("tree"), i, n = ns.length;
    nodes = ns; rows = new Array(n); depth = new Array(n); end = new Array(n); collapsed = new Array(n); text = new Array(n);
    box.textContent = "";
    for (i = 0; i < n; i++) {
      var nd = ns[i];
      depth[i] = nd[0] < 0 ? 0 : depth[nd[0]] + 1;
      collapsed[i] = false;
      text[i] = (nd[1] + nd[2] + " " + nd[3] + " " + nd[4]).toLowerCase();
      var row = mk("div", "nd s-i"), tg = mk("span", "tg"), bx = mk("span", "bx");
      row.setAttribute("data-i", i); row.setAttribute("data-s", "i");
      row.style.paddingLeft = (Math.min(depth[i], 60) * 1.3) + "em";
      row.title = "node " + i;
      bx.appendChild(mk("span", "k", nd[1]));
      if (nd[2]) { bx.appendChild(mk("span", "p", nd[2])); }
      if (nd[3]) { bx.appendChild(document.createTextNode(" ")); bx.appendChild(mk("span", "l", nd[3])); }
      if (nd[4]) { bx.appendChild(document.createTextNode(" ")); bx.appendChild(mk("span", "a", nd[4])); }
      row.appendChild(tg); row.appendChild(bx); row.appendChild(mk("span", "badge"));
      rows[i] = row;
      box.appendChild(row);
    }
    // end[i] is one past the last node of i's subtree (preorder).
    for (i = n - 1; i >= 0; i--) {
      var j = i + 1;
      while (j < n && depth[j] > depth[i]) { j = end[j]; }
      end[i] = j;
      rows[i].firstChild.textContent = end[i] > i + 1 ? "\u25be" : "";
    }
    shown = ""; focusShown = []; askShown = -1;
    applySearch();
  }

  // visibility hides the rows under collapsed nodes and marks each
  // collapsed node with the number of nodes it hides, and whether one of
  // them is running.
  function visibility() {
    var n = rows.length, i = 0, k, run;
    while (i < n) {
      rows[i].classList.remove("hidden");
      var badge = rows[i].lastChild;
      if (collapsed[i] && end[i] > i + 1) {
        run = false;
        for (k = i + 1; k < end[i]; k++) { rows[k].classList.add("hidden"); run = run || shown[k] === "r"; }
        badge.textContent = "+" + (end[i] - i - 1) + (run ? " (running inside)" : "");
        badge.className = run ? "badge run" : "badge";
        rows[i].firstChild.textContent = "\u25b8";
        i = end[i];
      } else {
        badge.textContent = ""; badge.className = "badge";
        if (end[i] > i + 1) { rows[i].firstChild.textContent = "\u25be"; }
        i++;
      }
    }
  }

  // reveal expands every collapsed ancestor of node i.
  function reveal(i) {
    for (var p = nodes[i][0]; p >= 0; p = nodes[p][0]) { collapsed[p] = false; }
    visibility();
  }

  function scrollToRow(i) {
    var box = $("treebox"), r = rows[i].getBoundingClientRect(), b = box.getBoundingClientRect();
    if (r.top < b.top + 20 || r.bottom > b.bottom) { box.scrollTop += r.top - b.top - b.height / 3; }
    if (r.left < b.left || r.right > b.right) { box.scrollLeft += r.left - b.left - 20; }
  }

  function applySearch() {
    var q = $("search").value.trim().toLowerCase(), i;
    hits = [];
    for (i = 0; i < rows.length; i++) {
      var hit = q !== "" && text[i].indexOf(q) >= 0;
      rows[i].classList.toggle("hit", hit);
      rows[i].classList.remove("curhit");
      if (hit) { hits.push(i); }
    }
    hitAt = -1;
    $("hits").textContent = q === "" ? "" : hits.length + (hits.length === 1 ? " match" : " matches");
  }

  function nextHit() {
    if (!hits.length) { return; }
    if (hitAt >= 0) { rows[hits[hitAt]].classList.remove("curhit"); }
    hitAt = (hitAt + 1) % hits.length;
    var i = hits[hitAt];
    reveal(i);
    rows[i].classList.add("curhit");
    scrollToRow(i);
    $("hits").textContent = (hitAt + 1) + " of " + hits.length;
  }

  function setZoom(z) {
    zoom = Math.max(0.2, Math.min(3, z));
    $("tree").style.fontSize = (13 * zoom) + "px";
  }

  function fit() {
    setZoom(1);
    var t = $("tree"), box = $("treebox");
    var w = t.scrollWidth, h = t.scrollHeight, bw = box.clientWidth - 16, bh = box.clientHeight - 40;
    if (w > 0 && h > 0) { setZoom(Math.min(1.5, bw / w, bh / h)); }
  }

  // paint shows a version's states, its focus and the node asked about.
  function paint(states, focus, ask) {
    var i;
    for (i = 0; i < rows.length && i < states.length; i++) {
      if (states[i] !== shown[i]) {
        rows[i].className = rows[i].className.replace(/\bs-[irsf]\b/, "s-" + states[i]);
        rows[i].setAttribute("data-s", states[i]);
        rows[i].title = "node " + i + ": " + STATE_NAMES[states[i]];
      }
    }
    shown = states;
    focusShown.forEach(function (j) { if (rows[j]) { rows[j].classList.remove("focus"); } });
    focusShown = focus.filter(function (j) { return j >= 0 && j < rows.length; });
    focusShown.forEach(function (j) { rows[j].classList.add("focus"); });
    if (askShown >= 0 && rows[askShown]) { rows[askShown].classList.remove("asking"); }
    askShown = ask && ask.node >= 0 && ask.node < rows.length ? ask.node : -1;
    if (askShown >= 0) { rows[askShown].classList.add("asking"); reveal(askShown); scrollToRow(askShown); } else { visibility(); }
  }

  function list(ul, items, empty) {
    ul.textContent = "";
    items.forEach(function (t) { ul.appendChild(mk("li", "", t)); });
    if (!items.length && empty) { ul.appendChild(mk("li", "empty", empty)); }
  }

  function renderAsk(ask) {
    $("askbox").classList.toggle("hidden", !ask);
    if (!ask) { $("askbox").removeAttribute("data-answers"); return; }
    $("askbox").setAttribute("data-answers", ask.answers.length);
    var what = ask.call === "value" ? "Value() is" : ask.call;
    $("question").textContent = "node " + ask.node + ": " + what + " " + ask.text + (ask.kind === "condition" ? " \u2014 does it hold?" + (ask.perCall ? " (asked at every call)" : " (once for this step: its other calls in the step get this answer)") : " \u2014 its result?");
    var box = $("choices");
    box.textContent = "";
    ask.choices.forEach(function (c) {
      var b = mk("button", "", c === "async" ? "async (settle later)" : c);
      b.id = "answer-" + c;
      b.setAttribute("data-answer", c);
      b.addEventListener("click", function () { post("/api/answer", { value: c }); });
      box.appendChild(b);
    });
    list($("askevents"), ask.events.concat(ask.answers.map(function (a) { return "answered " + a.kind + " " + a.name + ": " + a.value + (a.script ? " (script)" : ""); })), "(nothing yet)");
  }

  function renderTimeline(st) {
    var ol = $("timeline"), tl = st.timeline, kids = {}, online = {}, i;
    ol.textContent = "";
    for (i = 0; i < tl.length; i++) { if (tl[i].parent >= 0) { (kids[tl[i].parent] = kids[tl[i].parent] || []).push(tl[i].id); } }
    for (i = st.current; i >= 0; i = tl[i].parent) { online[i] = true; }
    // Depth-first: a first child continues its parent's column, the
    // others (branches) are indented one more.
    var stack = [[0, 0]];
    while (stack.length) {
      var top = stack.pop(), id = top[0], ind = top[1], v = tl[id];
      var li = mk("li", "tv"), dot = mk("span", "dot s-" + v.state);
      li.setAttribute("data-id", id);
      li.style.paddingLeft = (0.3 + ind * 1.2) + "em";
      li.appendChild(dot);
      li.appendChild(document.createTextNode("#" + id + " " + v.label));
      if (v.parent >= 0 && kids[v.parent][0] !== id) { li.appendChild(mk("span", "from", "\u2190 branch from #" + v.parent)); }
      if (online[id]) { li.classList.add("online"); }
      if (id === st.current) { li.classList.add("current"); }
      li.addEventListener("click", function (e) { post("/api/goto", { id: Number(e.currentTarget.getAttribute("data-id")) }); });
      ol.appendChild(li);
      var ks = kids[id] || [];
      for (var j = ks.length - 1; j >= 0; j--) { stack.push([ks[j], j === 0 ? ind : ind + 1]); }
    }
    var cur = ol.querySelector(".current");
    if (cur) {
      var box = $("timelinebox"), r = cur.getBoundingClientRect(), b = box.getBoundingClientRect();
      if (r.top < b.top + 20 || r.bottom > b.bottom) { box.scrollTop += r.top - b.top - b.height / 2; }
    }
  }

  function renderVersion(st) {
    var v = st.version;
    $("vlabel").textContent = "version #" + v.id + " \u2014 " + v.label;
    list($("events"), v.events.concat(v.answers.map(function (a) { return "answered " + a.kind + " " + a.name + ": " + a.value + (a.script ? " (script)" : ""); })), v.id === 0 ? "(the start: no step yet)" : "(no events)");
    var mem = $("memory");
    mem.textContent = "";
    v.memory.forEach(function (kv) {
      var li = mk("li"), k = mk("span", "k", kv[0]), val = mk("span", "v", kv[1]);
      li.appendChild(k); li.appendChild(document.createTextNode(": ")); li.appendChild(val);
      mem.appendChild(li);
    });
    if (!v.memory.length) { mem.appendChild(mk("li", "empty", "(empty)")); }
    $("asyncbox").classList.toggle("hidden", !v.asyncs.length);
    var as = $("asyncs");
    as.textContent = "";
    v.asyncs.forEach(function (a) {
      var li = mk("li", "", "node " + a.node + " " + nodes[a.node][3] + ": ");
      li.setAttribute("data-node", a.node);
      if (a.settled) {
        li.appendChild(document.createTextNode("settled with " + a.settled + " (applies at the next step)"));
      } else {
        ["success", "failure"].forEach(function (c) {
          var b = mk("button", "", "settle: " + c);
          b.setAttribute("data-settle", c);
          b.addEventListener("click", function () { post("/api/settle", { node: a.node, value: c }); });
          li.appendChild(b);
        });
      }
      as.appendChild(li);
    });
  }

  function renderSource(st) {
    if (st.srcRev !== srcRev) {
      if (!dirty) {
        $("source").value = st.source;
        srcRev = st.srcRev;
        $("dirty").textContent = "";
      } else {
        $("dirty").textContent = "the file changed on disk: Revert to take its text";
      }
    }
    var msg = st.error ? st.error.msg : "";
    if (st.fileError) { msg = st.fileError + (msg ? "\n" + msg : ""); }
    $("error").textContent = msg;
    $("error").classList.toggle("hidden", !msg);
    $("save").disabled = !st.canSave;
  }

  // refresh asks for the whole state, the page's copy of the timeline
  // being off.
  function refresh() {
    tl = []; tlRev = -1;
    api("GET", "/api/state?" + have())
      .then(function (r) { return r.json(); })
      .then(render)
      .catch(function (e) { notice(String(e.message), true); });
  }

  // render shows a state from the server (a newer one than shown). The
  // state holds the timeline's entries from timelineFrom on, and the text
  // unless sourceKept: the page keeps the rest.
  function render(st) {
    if (S && st.change < S.change) { return; }
    if (st.sourceKept) { st.source = srcText; } else { srcText = st.source; srcSeen = st.srcRev; }
    if (st.timeline) {
      if (st.timelineFrom > 0 && (st.timelineRev !== tlRev || st.timelineFrom > tl.length)) { refresh(); return; }
      tl = tl.slice(0, st.timelineFrom).concat(st.timeline);
      tlRev = st.timelineRev;
      st.timeline = tl;
    }
    S = st;
    document.title = st.name + " - bt play";
    $("name").textContent = st.name;
    $("engine").textContent = st.engine === "stepped" ? "stepped engine (Mistreevous): you answer actions and conditions" :
      st.engine === "elixir" ? "Elixir style: you answer Value() with success or failure" :
      st.engine === "btcpp" ? "BehaviorTree.CPP (tickOnce): you answer its leaves; the memory lists its blackboard scopes, each entry settable with a type" : "no valid tree yet";
    if (st.nodes && st.treeRev !== treeRev) { layout(st.nodes); scopes(st.scopes || []); treeRev = st.treeRev; }
    memoryForm(st.engine === "btcpp");
    renderSource(st);
    if (st.notice) { notice(st.notice, /error|cannot|refused|changed on disk|fail/i.test(st.notice) && st.notice.indexOf("saved") !== 0); }
    $("undoedit").classList.toggle("hidden", !st.undoEdit);
    var ok = !!st.engine && !!st.version;
    ["step", "undo", "redo", "restart", "savestate", "export"].forEach(function (id) { $(id).disabled = !ok; });
    $("percall").checked = !!st.perCall;
    if (!ok) { document.body.setAttribute("data-ready", "1"); return; }
    $("step").disabled = !!st.ask;
    $("undo").disabled = st.timeline[st.current].parent < 0;
    $("redo").disabled = st.redo < 0;
    paint(st.version.states, st.version.focus, st.ask);
    renderAsk(st.ask);
    renderVersion(st);
    renderTimeline(st);
    document.body.setAttribute("data-change", st.change);
    document.body.setAttribute("data-ready", "1");
  }

  // scopes lists a BehaviorTree.CPP tree's blackboard scopes to set an
  // entry in: the main tree's, then each SubTree instance's by its path.
  function scopes(paths) {
    var sel = $("memscope"), was = sel.value;
    sel.textContent = "";
    paths.forEach(function (p) {
      var o = mk("option", "", p === "" ? "main tree" : p);
      o.value = p;
      sel.appendChild(o);
    });
    if (paths.indexOf(was) >= 0) { sel.value = was; }
  }

  // memoryForm shows the blackboard's scope and type with the memory's
  // key and value for a BehaviorTree.CPP tree.
  function memoryForm(bb) {
    $("memscope").classList.toggle("hidden", !bb);
    $("memtype").classList.toggle("hidden", !bb);
    $("memval").placeholder = bb ? "value: 3, 2.5, true, text; null unsets" : "value: \"text\", 3, true; null deletes";
  }

  // setMemory sets a memory key, or a blackboard entry of a scope with a
  // type: the value is read as JSON, else taken as text (as text too for
  // the type string).
  function setMemory() {
    var raw = $("memval").value.trim(), v;
    try { v = JSON.parse(raw); } catch (err) { v = raw; }
    if (!S || S.engine !== "btcpp") {
      post("/api/memory", { key: $("memkey").value, value: v });
      return;
    }
    var typ = $("memtype").value;
    if (v === null) { typ = ""; } else if (typ === "string" && typeof v !== "string") { v = raw; }
    post("/api/blackboard", { scope: $("memscope").value, key: $("memkey").value, type: typ, value: v });
  }

  // download fetches path and saves it as a file.
  function download(path) {
    api("GET", path).then(function (r) {
      var cd = r.headers.get("Content-Disposition") || "", m = /filename="([^"]*)"/.exec(cd);
      return r.blob().then(function (b) {
        var a = mk("a"), url = URL.createObjectURL(b);
        a.href = url; a.download = m ? m[1] : "download";
        document.body.appendChild(a); a.click(); a.remove();
        setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
        notice("downloaded " + a.download);
      });
    }).catch(function (e) { notice(String(e.message), true); });
  }

  function saveSource() {
    var t = $("source").value;
    api("POST", "/api/source?rev=" + srcRev + "&" + have(), t, "text/plain; charset=utf-8")
      .then(function (r) { return r.json(); })
      .then(function (st) { dirty = false; render(st); })
      .catch(function (e) { notice(String(e.message), true); });
  }

  // gotoError puts the text area's caret at the error's line and column.
  function gotoError() {
    if (!S || !S.error || !S.error.line) { return; }
    var lines = $("source").value.split("\n"), off = 0, i;
    for (i = 0; i < S.error.line - 1 && i < lines.length; i++) { off += lines[i].length + 1; }
    off += Math.max(0, S.error.col - 1);
    $("source").focus();
    $("source").setSelectionRange(off, off);
  }

  function init() {
    $("step").addEventListener("click", function () { post("/api/step"); });
    $("undo").addEventListener("click", function () { post("/api/undo"); });
    $("redo").addEventListener("click", function () { post("/api/redo"); });
    $("restart").addEventListener("click", function () { post("/api/restart"); });
    $("cancel").addEventListener("click", function () { post("/api/cancel"); });
    $("undoedit").addEventListener("click", function () { post("/api/undoedit"); });
    $("percall").addEventListener("change", function (e) { post("/api/percall", { on: e.target.checked }); });
    $("savestate").addEventListener("click", function () { download("/api/save"); });
    $("export").addEventListener("click", function () { download("/api/export"); });
    $("loadstate").addEventListener("change", function (e) {
      var f = e.target.files[0];
      if (!f) { return; }
      f.arrayBuffer().then(function (buf) { post("/api/load", null, buf, "application/octet-stream"); });
      e.target.value = "";
    });
    $("memset").addEventListener("click", setMemory);
    $("search").addEventListener("input", applySearch);
    $("search").addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); nextHit(); } });
    $("zoomin").addEventListener("click", function () { setZoom(zoom * 1.25); });
    $("zoomout").addEventListener("click", function () { setZoom(zoom / 1.25); });
    $("fit").addEventListener("click", fit);
    $("expand").addEventListener("click", function () { collapsed = collapsed.map(function () { return false; }); visibility(); });
    $("tree").addEventListener("click", function (e) {
      var tg = e.target.closest(".tg");
      if (!tg) { return; }
      var i = Number(tg.parentNode.getAttribute("data-i"));
      if (end[i] > i + 1) { collapsed[i] = !collapsed[i]; visibility(); }
    });
    $("source").addEventListener("input", function () { dirty = true; $("dirty").textContent = "unsaved edits"; });
    $("save").addEventListener("click", saveSource);
    $("revert").addEventListener("click", function () {
      dirty = false;
      if (S) { $("source").value = S.source; srcRev = S.srcRev; }
      $("dirty").textContent = "";
    });
    $("error").addEventListener("click", gotoError);
    document.addEventListener("keydown", function (e) {
      var t = e.target.tagName;
      if ((e.ctrlKey || e.metaKey) && e.key === "s" && e.target === $("source")) { e.preventDefault(); saveSource(); return; }
      if (t === "INPUT" || t === "TEXTAREA" || e.ctrlKey || e.metaKey || e.altKey) { return; }
      if (e.key === "s" && !$("step").disabled) { post("/api/step"); }
      if (e.key === "u" && !$("undo").disabled) { post("/api/undo"); }
      if (e.key === "r" && !$("redo").disabled) { post("/api/redo"); }
    });
    poll();
  }

  // For tests and the console: the last state shown.
  window.btPlay = { state: function () { return S; } };
  init();
}());
