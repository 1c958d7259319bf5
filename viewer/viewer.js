// The drawing of behavior tree replays, shared by the static replay page
// (viewer.Write, which inlines this file) and the live monitor
// (viewer.Monitor, which serves it as viewer.js beside monitor.js).
//
// BTView(opts) binds the page's elements (#tree, #scrub, the buttons, the
// search box, the board, events and memory panels) and shows a replay R:
//   R.title, R.nodes ([parent, kind, params, label, attrs] in preorder),
//   R.steps (each "12s3f|5,7": node 12 succeeded, 3 failed, focus 5 and
//   7; a delta from the step before, or with R.full the whole state over
//   all-ready), R.labels, R.events, R.mem (by step; a step without a
//   memory listing has the one before), R.sig, R.board, R.shots, and for
//   the monitor R.nums (each step's version number), R.grids (by step,
//   the board as it stands: {cols, rows, cells, last}, cells one letter a
//   cell: . water, o ship, m miss, x hit, k sunk) and R.texts (by step,
//   the world's text).
// Every name is set as text, never as markup.
(function () {
  "use strict";
  var CODES = { i: 0, r: 1, s: 2, f: 3 }, LETTERS = "irsf", NAMES = ["ready", "running", "succeeded", "failed"];
  var SIGNALS = { s: "success", f: "failure", "-": "" };
  var K = 64; // a keyframe every K steps
  var SVG = "http://www.w3.org/2000/svg";
  var ROW = 20, INDENT = 16;
  function $(id) { return document.getElementById(id); }
  function has(o, k) { return o != null && Object.prototype.hasOwnProperty.call(o, k) && o[k] != null; }

  // apply applies a step's delta ("12s3f|5,7") to the states st, and
  // returns the focus list.
  function apply(step, st) {
    var bar = step.indexOf("|"), end = bar < 0 ? step.length : bar, n = 0, i, c;
    for (i = 0; i < end; i++) {
      c = step.charCodeAt(i);
      if (c >= 48 && c <= 57) { n = n * 10 + c - 48; } else { if (n < st.length) { st[n] = CODES[step[i]] || 0; } n = 0; }
    }
    if (bar < 0 || bar + 1 >= step.length) { return []; }
    return step.slice(bar + 1).split(",").map(Number);
  }

  function el(name, attrs, parent) {
    var e = document.createElementNS(SVG, name), k;
    for (k in attrs) { e.setAttribute(k, attrs[k]); }
    if (parent) { parent.appendChild(e); }
    return e;
  }

  function colName(x) { var s = ""; for (x++; x > 0; x = Math.floor((x - 1) / 26)) { s = String.fromCharCode(65 + (x - 1) % 26) + s; } return s; }

  // BTView returns the viewer of the page. opts.fragment keeps the step in
  // the URL's fragment (#step=17, #replay=2&step=17); opts.onMove(k) is
  // called after every move the user makes.
  function BTView(opts) {
    opts = opts || {};
    var R = null, els = [], texts = [], kids = [], depth = [], collapsed, shown, keys = [], memAt = [], memShown = [];
    var cur = -1, lastScrolled = null, focusEls = [], hidFocus = [], cells = [], cellCls = [], timer = null;
    var matches = [], matchAt = -1, hashTimer = null, replayIndex = 0, boardShape = "";
    var GRID = { ".": "c", o: "ship", m: "m", x: "x", k: "k" };

    // layout draws the tree once: one row per node, indented by depth,
    // with a toggle on each node that has children.
    function layout() {
      var box = $("tree"), nodes = R.nodes, n = nodes.length, i, x, w;
      box.textContent = "";
      els = new Array(n); texts = new Array(n); kids = []; depth = new Int32Array(n);
      collapsed = new Uint8Array(n); shown = new Uint8Array(n);
      for (i = 0; i < n; i++) { kids.push([]); }
      if (!n) {
        var p = document.createElement("div"); p.className = "waiting"; p.textContent = R.waiting || "no tree"; box.appendChild(p);
        return;
      }
      var svg = el("svg", {}, box);
      el("path", { "class": "ln" }, svg);
      for (i = 0; i < n; i++) {
        var nd = nodes[i], text = nd[1] + nd[2] + (nd[3] ? " " + nd[3] : "") + (nd[4] ? " " + nd[4] : "");
        depth[i] = nd[0] < 0 || nd[0] >= i ? 0 : depth[nd[0]] + 1;
        if (nd[0] >= 0 && nd[0] < i) { kids[nd[0]].push(i); }
        texts[i] = text;
        x = 14; w = 12 + text.length * 7.3;
        var g = el("g", { "class": "nd s-i", "data-i": i, "data-s": "i" }, svg);
        el("title", {}, g).textContent = "node " + i;
        el("text", { "class": "tg", x: 0, y: 12 }, g);
        el("rect", { x: x, width: w, height: 16, rx: 4 }, g);
        el("text", { x: x + 6, y: 12 }, g).textContent = text;
        el("text", { "class": "more", x: x + w + 4, y: 12 }, g);
        el("text", { "class": "fm", x: x + w + 4, y: 12 }, g).textContent = "\u25c0 focus";
        els[i] = g;
      }
      for (i = 0; i < n; i++) {
        if (kids[i].length) { els[i].querySelector(".tg").textContent = "\u25be"; }
      }
      relayout();
    }

    function descendants(i) { var c = 0, j; for (j = 0; j < kids[i].length; j++) { c += 1 + descendants(kids[i][j]); } return c; }

    // relayout places the rows of the nodes that are not inside a collapsed
    // subtree, one after another, and draws the lines to their parents.
    function relayout() {
      var n = els.length, vis = new Uint8Array(n), rowY = new Float64Array(n), row = 0, d = [], maxW = 0, i;
      if (!n) { return; }
      for (i = 0; i < n; i++) {
        var par = R.nodes[i][0], g = els[i];
        vis[i] = par < 0 || par >= i ? 1 : (vis[par] && !collapsed[par] ? 1 : 0);
        if (!vis[i]) { g.setAttribute("display", "none"); continue; }
        g.removeAttribute("display");
        var x = 4 + Math.min(depth[i], 40) * INDENT, y = 4 + row * ROW;
        rowY[i] = y; row++;
        g.setAttribute("transform", "translate(" + x + "," + y + ")");
        if (par >= 0 && par < i) {
          var px = 4 + Math.min(depth[par], 40) * INDENT + 18, py = rowY[par] + 16;
          d.push("M" + px + " " + py + "V" + (y + 8) + "H" + (x + 14));
        }
        var more = g.querySelector(".more");
        more.textContent = collapsed[i] ? "(+" + descendants(i) + " hidden)" : "";
        if (kids[i].length) { g.querySelector(".tg").textContent = collapsed[i] ? "\u25b8" : "\u25be"; }
        maxW = Math.max(maxW, x + 40 + texts[i].length * 7.3 + 100);
      }
      var svg = $("tree").querySelector("svg");
      svg.querySelector(".ln").setAttribute("d", d.join(""));
      svg.setAttribute("width", maxW); svg.setAttribute("height", 8 + row * ROW);
      markHidden();
    }

    function visible(i) {
      for (var p = R.nodes[i][0]; p >= 0; p = R.nodes[p][0]) { if (collapsed[p]) { return false; } }
      return true;
    }

    // markHidden marks the nearest shown ancestor of each focus inside a
    // collapsed subtree.
    function markHidden() {
      hidFocus.forEach(function (e) { e.classList.remove("hidfocus"); });
      hidFocus = [];
      focusEls.forEach(function (e) {
        var i = Number(e.getAttribute("data-i")), top = i, p;
        for (p = R.nodes[i][0]; p >= 0; p = R.nodes[p][0]) { if (collapsed[p]) { top = p; } }
        if (top !== i) { els[top].classList.add("hidfocus"); hidFocus.push(els[top]); }
      });
    }

    function setCollapsed(i, c) {
      if (i < 0 || i >= els.length || !kids[i].length) { return; }
      collapsed[i] = c ? 1 : 0;
      relayout();
    }

    // index computes the keyframes and memory listings of the steps from
    // `from` on.
    function index(from) {
      var n = R.nodes.length, i, st;
      if (from === 0) { keys = []; memAt = []; }
      if (!R.full) {
        st = from === 0 ? new Uint8Array(n) : stateAt(from - 1);
        for (i = from; i < R.steps.length; i++) {
          apply(R.steps[i], st);
          if (i % K === 0) { keys[i / K] = st.slice(); }
        }
      }
      var m = from > 0 ? memAt[from - 1] : [];
      for (i = from; i < R.steps.length; i++) {
        if (R.mem && has(R.mem, i)) { m = R.mem[i]; }
        memAt[i] = m;
      }
    }

    function stateAt(k) {
      var st, i;
      if (R.full) { st = new Uint8Array(R.nodes.length); apply(R.steps[k], st); return st; }
      var base = Math.floor(k / K) * K;
      st = keys[base / K].slice();
      for (i = base + 1; i <= k; i++) { apply(R.steps[i], st); }
      return st;
    }

    // memoryAt lists the memory of step k, each key with its value,
    // whether it changed since the step before (or is new), and the keys
    // the step forgot.
    function memoryAt(k) {
      var now = memAt[k] || [], before = k > 0 ? memAt[k - 1] || [] : now, old = Object.create(null), seen = Object.create(null), out = [], i;
      for (i = 0; i < before.length; i++) { old[before[i][0]] = before[i][1]; }
      for (i = 0; i < now.length; i++) {
        seen[now[i][0]] = true;
        out.push({ key: now[i][0], value: now[i][1], changed: k > 0 && old[now[i][0]] !== now[i][1], gone: false });
      }
      for (i = 0; i < before.length; i++) {
        if (!seen[before[i][0]]) { out.push({ key: before[i][0], value: before[i][1], changed: true, gone: true }); }
      }
      return out;
    }

    function memoryPanel(k) {
      $("memorybox").classList.toggle("hidden", !R.mem);
      if (!R.mem) { memShown = []; return; }
      var box = $("memory");
      box.textContent = "";
      memShown = memoryAt(k);
      memShown.forEach(function (e) {
        var li = document.createElement("li"), key = document.createElement("span"), val = document.createElement("span");
        key.className = "k"; key.textContent = e.key;
        val.className = "v"; val.textContent = e.gone ? "(forgotten)" : e.value;
        li.appendChild(key); li.appendChild(document.createTextNode(": ")); li.appendChild(val);
        if (e.changed) { li.className = e.gone ? "changed gone" : "changed"; li.title = "changed at this step"; }
        box.appendChild(li);
      });
      if (!memShown.length) { var li = document.createElement("li"); li.className = "empty"; li.textContent = "(empty)"; box.appendChild(li); }
    }

    function boardLayout() {
      var b = R.board, box = $("board"), x, y, e;
      $("boardbox").classList.toggle("hidden", !b);
      box.textContent = ""; cells = []; cellCls = []; boardShape = b ? b.cols + "x" + b.rows : "";
      if (!b) { return; }
      box.style.gridTemplateColumns = "repeat(" + (b.cols + 1) + ", 24px)";
      for (y = -1; y < b.rows; y++) {
        for (x = -1; x < b.cols; x++) {
          e = document.createElement("div");
          if (y < 0 || x < 0) { e.className = "h"; e.textContent = y < 0 ? (x < 0 ? "" : colName(x)) : y + 1; }
          else { e.className = "c"; e.title = colName(x) + (y + 1); cells.push(e); cellCls.push("c"); }
          box.appendChild(e);
        }
      }
    }

    function boardAt(k) {
      var b = R.board, n = b.cols * b.rows, cls = new Array(n), ship = new Int32Array(n).fill(-1), i, j, s, c;
      if (b.cols + "x" + b.rows !== boardShape) { boardLayout(); }
      for (i = 0; i < n; i++) { cls[i] = "c"; }
      if (R.grids) { gridAt(k, cls); return; }
      (b.ships || []).forEach(function (cs, si) { for (j = 0; j + 1 < cs.length; j += 2) { cls[cs[j + 1] * b.cols + cs[j]] = "ship"; ship[cs[j + 1] * b.cols + cs[j]] = si; } });
      var last = -1;
      for (i = 1; i <= k; i++) {
        s = R.shots[i]; if (!s) { continue; }
        c = s[1] * b.cols + s[0]; last = c;
        if (s[2] === "m") { cls[c] = "m"; continue; }
        cls[c] = "x"; ship[c] = s[3];
        if (s[2] === "s") { for (j = 0; j < n; j++) { if (ship[j] === s[3] && cls[j] === "x") { cls[j] = "k"; } } }
      }
      for (i = 0; i < n; i++) {
        c = cls[i] + (i === last ? " last" : "");
        if (cellCls[i] !== c) { cells[i].className = c; cellCls[i] = c; }
      }
    }

    // gridAt draws the board of step k as the monitor receives it: the
    // whole board at each step, as the program drew it.
    function gridAt(k, cls) {
      var g = R.grids[k], i, c, last = -1;
      if (g && g.cols === R.board.cols && g.rows === R.board.rows) {
        for (i = 0; i < cls.length; i++) { cls[i] = GRID[g.cells.charAt(i)] || "c"; }
        last = g.last;
      }
      for (i = 0; i < cls.length; i++) {
        c = cls[i] + (i === last ? " last" : "");
        if (cellCls[i] !== c) { cells[i].className = c; cellCls[i] = c; }
      }
    }

    function posText(k) {
      var n = R.steps.length;
      if (R.nums) { return n ? "version " + R.nums[k] + " (kept " + R.nums[0] + "\u2013" + R.nums[n - 1] + ")" : "no versions yet"; }
      return "step " + k + " / " + (n - 1);
    }

    // go shows step k: it recolours only the nodes whose state differs
    // from what is shown, and moves the focus marks.
    function go(k) {
      var n = R.steps.length, i, st, f;
      if (!n) {
        $("pos").textContent = posText(0); $("label").textContent = R.waiting || ""; $("events").textContent = "";
        $("worldtext").textContent = ""; $("worldtext").classList.add("hidden");
        cur = -1; return;
      }
      k = Math.max(0, Math.min(n - 1, k | 0));
      st = stateAt(k);
      f = focusOf(k);
      for (i = 0; i < st.length && i < els.length; i++) {
        if (st[i] !== shown[i]) {
          els[i].classList.remove("s-" + LETTERS[shown[i]]);
          els[i].classList.add("s-" + LETTERS[st[i]]);
          els[i].setAttribute("data-s", LETTERS[st[i]]);
          shown[i] = st[i];
        }
      }
      focusEls.forEach(function (e) { e.classList.remove("focus"); });
      focusEls = f.filter(function (j) { return j >= 0 && j < els.length; }).map(function (j) { els[j].classList.add("focus"); return els[j]; });
      markHidden();
      var target = hidFocus.length ? hidFocus[0] : focusEls[0];
      if (target && k !== cur && target !== lastScrolled) { scrollTo(target); lastScrolled = target; }
      cur = k;
      $("scrub").max = n - 1;
      $("scrub").value = k;
      $("pos").textContent = posText(k);
      var sig = R.sig ? SIGNALS[R.sig[k]] : "", at = f.length && f[0] < R.nodes.length ? nodeText(f[0]) : "";
      $("label").textContent = (R.labels && R.labels[k]) || (k === 0 && !sig ? "start" : "step " + k + (sig ? ": " + sig : "")) + (at ? (sig ? ", now at " : ": at ") + at : "");
      var ev = $("events"), list = (sig ? [sig + " signalled"] : []).concat((R.events && R.events[k]) || []);
      ev.textContent = "";
      list.forEach(function (t) { var li = document.createElement("li"); li.textContent = t; ev.appendChild(li); });
      $("eventsbox").classList.toggle("hidden", !R.events && !R.sig);
      if (R.board) { boardAt(k); }
      var text = R.texts && R.texts[k];
      $("worldtext").textContent = text || "";
      $("worldtext").classList.toggle("hidden", !text);
      memoryPanel(k);
      if (opts.fragment) { writeHash(); }
    }

    function nodeText(i) { var nd = R.nodes[i]; return nd[3] || nd[1] + nd[2]; }

    function focusOf(k) {
      var s = R.steps[k], bar = s.indexOf("|");
      if (bar < 0 || bar + 1 >= s.length) { return []; }
      return s.slice(bar + 1).split(",").map(Number);
    }

    function scrollTo(e) {
      var box = $("treebox"), r = e.getBoundingClientRect(), b = box.getBoundingClientRect();
      if (r.top < b.top || r.bottom > b.bottom) { box.scrollTop += r.top - b.top - b.height / 3; }
      if (r.left < b.left || r.right > b.right) { box.scrollLeft += r.left - b.left - 20; }
    }

    // The URL's fragment: #step=K, or #replay=J&step=K past the first
    // replay. It is written a moment after the moves stop, so that playing
    // or scrubbing fast does not flood the browser's history API.
    function writeHash() {
      if (hashTimer) { return; }
      hashTimer = setTimeout(function () {
        hashTimer = null;
        var h = "#" + (replayIndex > 0 ? "replay=" + replayIndex + "&" : "") + "step=" + cur;
        if (location.hash !== h) { history.replaceState(null, "", h); }
      }, 80);
    }

    function readHash() {
      var m = /(?:^#|&)step=(\d+)/.exec(location.hash), r = /(?:^#|&)replay=(\d+)/.exec(location.hash);
      return { step: m ? Number(m[1]) : -1, replay: r ? Number(r[1]) : -1 };
    }

    // Search: the nodes whose text holds the query (ignoring case) are
    // marked, their collapsed ancestors opened, the others dimmed; Enter
    // goes to the next one.
    function search(q) {
      q = (q || "").toLowerCase();
      matches = []; matchAt = -1;
      var i, p, opened = false;
      for (i = 0; i < els.length; i++) {
        var hit = q !== "" && texts[i].toLowerCase().indexOf(q) >= 0;
        els[i].classList.toggle("match", hit);
        els[i].classList.remove("cur");
        if (hit) {
          matches.push(i);
          for (p = R.nodes[i][0]; p >= 0; p = R.nodes[p][0]) { if (collapsed[p]) { collapsed[p] = 0; opened = true; } }
        }
      }
      if (opened) { relayout(); }
      $("tree").classList.toggle("searching", q !== "");
      $("found").textContent = q === "" ? "" : matches.length === 1 ? "1 match" : matches.length + " matches";
      if (matches.length) { nextMatch(); }
      return matches.slice();
    }
    function nextMatch() {
      if (!matches.length) { return; }
      if (matchAt >= 0) { els[matches[matchAt]].classList.remove("cur"); }
      matchAt = (matchAt + 1) % matches.length;
      var e = els[matches[matchAt]];
      e.classList.add("cur");
      scrollTo(e);
    }

    function play() {
      if (timer) { stop(); return; }
      if (cur >= R.steps.length - 1) { go(0); }
      $("play").textContent = "pause";
      timer = setInterval(function () {
        if (cur >= R.steps.length - 1) { stop(); moved(); return; }
        go(cur + 1);
      }, 1000 / Number($("speed").value));
    }
    function stop() {
      if (timer) { clearInterval(timer); timer = null; }
      $("play").textContent = "play";
    }
    function moved() { if (opts.onMove) { opts.onMove(cur); } }
    function user(k) { stop(); go(k); moved(); }

    // setReplay shows R, at step k (the first if k is out of range).
    function setReplay(r, k, j) {
      stop();
      R = r; replayIndex = j || 0;
      matches = []; matchAt = -1;
      layout(); boardLayout(); index(0); cur = -1; focusEls = []; hidFocus = []; lastScrolled = null;
      var q = $("search").value;
      if (q) { search(q); } else { $("found").textContent = ""; $("tree").classList.remove("searching"); }
      go(k >= 0 && k < R.steps.length ? k : 0);
    }

    // extend takes the steps added to R since `from` (the monitor appends
    // them); it stays at the step shown unless follow is set.
    function extend(from, follow) {
      index(from);
      if (follow || cur < 0) { go(R.steps.length - 1); } else { $("scrub").max = R.steps.length - 1; $("pos").textContent = posText(cur); }
    }

    // dropFront drops the first d steps of R (the monitor keeps a bounded
    // window), keeping the step shown if it is still there.
    function dropFront(d) {
      if (d <= 0) { return; }
      var m = memAt[d], keep = cur - d;
      R.steps.splice(0, d); if (R.labels) { R.labels.splice(0, d); } if (R.events) { R.events.splice(0, d); } if (R.nums) { R.nums.splice(0, d); }
      if (R.grids) { R.grids.splice(0, d); } if (R.texts) { R.texts.splice(0, d); }
      if (R.mem) { R.mem.splice(0, d); if (!has(R.mem, 0)) { R.mem[0] = m || []; } }
      index(0);
      cur = -1;
      go(Math.max(keep, 0));
    }

    $("scrub").addEventListener("input", function () { user(Number($("scrub").value)); });
    $("first").onclick = function () { user(0); };
    $("prev").onclick = function () { user(cur - 1); };
    $("next").onclick = function () { user(cur + 1); };
    $("last").onclick = function () { user(R.steps.length - 1); };
    $("play").onclick = play;
    $("speed").addEventListener("change", function () { if (timer) { stop(); play(); } });
    $("search").addEventListener("input", function () { search($("search").value); });
    $("search").addEventListener("keydown", function (e) {
      if (e.key === "Enter") { e.preventDefault(); nextMatch(); }
      if (e.key === "Escape") { $("search").value = ""; search(""); $("search").blur(); }
    });
    $("collapseall").onclick = function () { for (var i = 1; i < els.length; i++) { if (kids[i].length) { collapsed[i] = 1; } } relayout(); };
    $("expandall").onclick = function () { collapsed.fill(0); relayout(); };
    $("tree").addEventListener("click", function (e) {
      var t = e.target;
      if (!t.classList || !t.classList.contains("tg")) { return; }
      var i = Number(t.parentNode.getAttribute("data-i"));
      setCollapsed(i, !collapsed[i]);
    });
    document.addEventListener("keydown", function (e) {
      var tag = e.target && e.target.tagName;
      if (tag === "SELECT" || tag === "INPUT" && e.target.type !== "range" || e.altKey || e.ctrlKey || e.metaKey || !R) { return; }
      var by = e.shiftKey ? 10 : 1;
      switch (e.key) {
        case "ArrowRight": user(cur + by); break;
        case "ArrowLeft": user(cur - by); break;
        case "Home": user(0); break;
        case "End": user(R.steps.length - 1); break;
        case " ": play(); break;
        case "/": $("search").focus(); break;
        default: return;
      }
      e.preventDefault();
    });

    return {
      setReplay: setReplay,
      user: user,
      extend: extend,
      dropFront: dropFront,
      readHash: readHash,
      replay: function () { return R; },
      go: function (k) { stop(); go(k); },
      step: function () { return cur; },
      steps: function () { return R ? R.steps.length : 0; },
      states: function () { return Array.prototype.map.call(els, function (e) { return e.getAttribute("data-s"); }).join(""); },
      focus: function () { return focusEls.map(function (e) { return Number(e.getAttribute("data-i")); }); },
      memory: function () { return memShown.map(function (e) { return { key: e.key, value: e.value, changed: e.changed, gone: e.gone }; }); },
      collapse: function (i) { setCollapsed(i, true); },
      expand: function (i) { setCollapsed(i, false); },
      visible: function (i) { return visible(i); },
      search: function (q) { $("search").value = q; return search(q); },
      names: NAMES
    };
  }
  window.BTView = BTView;

  // The static replay page: its data is in the page.
  var data = document.getElementById("bt-data");
  if (!data) { return; }
  var D = JSON.parse(data.textContent);
  var view = BTView({ fragment: true });
  var sel = $("replay");
  $("title").textContent = D.title;
  D.replays.forEach(function (r, j) { var o = document.createElement("option"); o.value = j; o.textContent = r.title; sel.appendChild(o); });
  sel.classList.toggle("hidden", D.replays.length < 2);
  sel.addEventListener("change", function () { view.setReplay(D.replays[Number(sel.value)], 0, Number(sel.value)); });
  var h = view.readHash(), j = h.replay >= 0 && h.replay < D.replays.length ? h.replay : 0;
  sel.value = j;
  view.setReplay(D.replays[j], h.step, j);
  // A fragment the user edits (or a link within the page) moves the page.
  window.addEventListener("hashchange", function () {
    var h = view.readHash();
    if (h.replay >= 0 && h.replay < D.replays.length && String(h.replay) !== sel.value) {
      sel.value = h.replay;
      view.setReplay(D.replays[h.replay], h.step, h.replay);
    } else if (h.step >= 0 && h.step !== view.step()) {
      view.user(h.step);
    }
  });
  window.btViewer = {
    go: view.go, step: view.step, steps: view.steps, states: view.states, focus: view.focus, memory: view.memory,
    collapse: view.collapse, expand: view.expand, visible: view.visible, search: view.search, names: view.names,
    replay: function (k) { sel.value = k; view.setReplay(D.replays[k], 0, k); }
  };
  document.body.setAttribute("data-ready", "1");
})();
