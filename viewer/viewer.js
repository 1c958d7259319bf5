(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("bt-data").textContent);
  var CODES = { i: 0, r: 1, s: 2, f: 3 }, LETTERS = "irsf", NAMES = ["ready", "running", "succeeded", "failed"];
  var SIGNALS = { s: "success", f: "failure", "-": "" };
  var K = 64; // a keyframe every K steps
  var SVG = "http://www.w3.org/2000/svg";
  function $(id) { return document.getElementById(id); }
  var R, els, shown, keys, memAt, memShown = [], cur = -1, lastScrolled = null, focusEls = [], cells = [], cellCls = [], timer = null;

  // apply applies a step's delta ("12s3f|5,7": node 12 succeeded, 3 failed;
  // focus 5 and 7) to the states st, and returns the focus list.
  function apply(step, st) {
    var bar = step.indexOf("|"), end = bar < 0 ? step.length : bar, n = 0, i, c;
    for (i = 0; i < end; i++) {
      c = step.charCodeAt(i);
      if (c >= 48 && c <= 57) { n = n * 10 + c - 48; } else { st[n] = CODES[step[i]]; n = 0; }
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

  // layout draws the tree once: one row per node, indented by depth.
  function layout() {
    var box = $("tree"), nodes = R.nodes, n = nodes.length, depth = new Int32Array(n), i, x, y, w, maxW = 0, d = [];
    box.textContent = "";
    var svg = el("svg", {}, box), lines = el("path", { "class": "ln" }, svg), g;
    els = new Array(n);
    for (i = 0; i < n; i++) {
      var nd = nodes[i], text = nd[1] + nd[2] + (nd[3] ? " " + nd[3] : "") + (nd[4] ? " " + nd[4] : "");
      depth[i] = nd[0] < 0 ? 0 : depth[nd[0]] + 1;
      x = 4 + Math.min(depth[i], 40) * 16; y = 4 + i * 20; w = 12 + text.length * 7.3;
      if (nd[0] >= 0) {
        var px = 4 + Math.min(depth[nd[0]], 40) * 16 + 7, py = 4 + nd[0] * 20 + 16;
        d.push("M" + px + " " + py + "V" + (y + 8) + "H" + x);
      }
      g = el("g", { "class": "nd s-i", "data-i": i, "data-s": "i", transform: "translate(" + x + "," + y + ")" }, svg);
      el("title", {}, g).textContent = "node " + i;
      el("rect", { width: w, height: 16, rx: 4 }, g);
      el("text", { x: 6, y: 12 }, g).textContent = text;
      el("text", { "class": "fm", x: w + 4, y: 12 }, g).textContent = "\u25c0 focus";
      els[i] = g;
      maxW = Math.max(maxW, x + w + 60);
    }
    lines.setAttribute("d", d.join(""));
    svg.setAttribute("width", maxW); svg.setAttribute("height", 8 + n * 20);
    shown = new Uint8Array(n);
    keys = [];
    var st = new Uint8Array(n);
    for (i = 0; i < R.steps.length; i++) {
      apply(R.steps[i], st);
      if (i % K === 0) { keys.push(st.slice()); }
    }
    // memAt[k] is the memory listing of step k: the last one recorded at
    // or before it.
    memAt = new Array(R.steps.length);
    var m = [];
    for (i = 0; i < R.steps.length; i++) {
      if (R.mem && Object.prototype.hasOwnProperty.call(R.mem, i)) { m = R.mem[i] || []; }
      memAt[i] = m;
    }
  }

  // memoryAt lists the memory of step k, each key with its value, whether
  // it changed since the step before (or is new), and the keys the step
  // forgot.
  function memoryAt(k) {
    var now = memAt[k], before = k > 0 ? memAt[k - 1] : now, old = Object.create(null), has = Object.create(null), out = [], i;
    for (i = 0; i < before.length; i++) { old[before[i][0]] = before[i][1]; }
    for (i = 0; i < now.length; i++) {
      has[now[i][0]] = true;
      out.push({ key: now[i][0], value: now[i][1], changed: k > 0 && old[now[i][0]] !== now[i][1], gone: false });
    }
    for (i = 0; i < before.length; i++) {
      if (!has[before[i][0]]) { out.push({ key: before[i][0], value: before[i][1], changed: true, gone: true }); }
    }
    return out;
  }

  // memoryPanel shows the memory of step k; keys and values are text,
  // never markup.
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

  function colName(x) { var s = ""; for (x++; x > 0; x = Math.floor((x - 1) / 26)) { s = String.fromCharCode(65 + (x - 1) % 26) + s; } return s; }

  function boardLayout() {
    var b = R.board, box = $("board"), x, y, e;
    $("boardbox").classList.toggle("hidden", !b);
    box.textContent = ""; cells = []; cellCls = [];
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
    for (i = 0; i < n; i++) { cls[i] = "c"; }
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

  // go shows step k: it recolours only the nodes whose state differs from
  // what is shown, and moves the focus marks.
  function go(k) {
    var n = R.steps.length, i, st, f;
    k = Math.max(0, Math.min(n - 1, k | 0));
    var base = Math.floor(k / K) * K;
    st = keys[base / K].slice();
    for (i = base + 1; i <= k; i++) { apply(R.steps[i], st); }
    f = focusOf(k);
    for (i = 0; i < st.length; i++) {
      if (st[i] !== shown[i]) {
        shown[i] = st[i];
        els[i].setAttribute("class", "nd s-" + LETTERS[st[i]]);
        els[i].setAttribute("data-s", LETTERS[st[i]]);
      }
    }
    focusEls.forEach(function (e) { e.classList.remove("focus"); });
    focusEls = f.filter(function (j) { return j >= 0 && j < els.length; }).map(function (j) { els[j].classList.add("focus"); return els[j]; });
    if (focusEls.length && k !== cur && focusEls[0] !== lastScrolled) { scrollTo(focusEls[0]); lastScrolled = focusEls[0]; }
    cur = k;
    $("scrub").value = k;
    $("pos").textContent = "step " + k + " / " + (n - 1);
    var sig = R.sig ? SIGNALS[R.sig[k]] : "", at = f.length ? nodeText(f[0]) : "";
    $("label").textContent = (R.labels && R.labels[k]) || (k === 0 && !sig ? "start" : "step " + k + (sig ? ": " + sig : "")) + (at ? (sig ? ", now at " : ": at ") + at : "");
    var ev = $("events"), list = (sig ? [sig + " signalled"] : []).concat((R.events && R.events[k]) || []);
    ev.textContent = "";
    list.forEach(function (t) { var li = document.createElement("li"); li.textContent = t; ev.appendChild(li); });
    $("eventsbox").classList.toggle("hidden", !R.events && !R.sig);
    if (R.board) { boardAt(k); }
    memoryPanel(k);
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

  function setReplay(j) {
    stop();
    R = D.replays[j];
    $("scrub").max = R.steps.length - 1;
    layout(); boardLayout(); cur = -1; focusEls = []; lastScrolled = null;
    go(0);
  }

  function play() {
    if (timer) { stop(); return; }
    if (cur >= R.steps.length - 1) { go(0); }
    $("play").textContent = "pause";
    timer = setInterval(function () {
      if (cur >= R.steps.length - 1) { stop(); return; }
      go(cur + 1);
    }, 1000 / Number($("speed").value));
  }
  function stop() {
    if (timer) { clearInterval(timer); timer = null; }
    $("play").textContent = "play";
  }

  $("title").textContent = D.title;
  var sel = $("replay");
  D.replays.forEach(function (r, j) { var o = document.createElement("option"); o.value = j; o.textContent = r.title; sel.appendChild(o); });
  sel.classList.toggle("hidden", D.replays.length < 2);
  sel.addEventListener("change", function () { setReplay(Number(sel.value)); });
  $("scrub").addEventListener("input", function () { go(Number($("scrub").value)); });
  $("first").onclick = function () { stop(); go(0); };
  $("prev").onclick = function () { stop(); go(cur - 1); };
  $("next").onclick = function () { stop(); go(cur + 1); };
  $("last").onclick = function () { stop(); go(R.steps.length - 1); };
  $("play").onclick = play;
  $("speed").addEventListener("change", function () { if (timer) { stop(); play(); } });
  document.addEventListener("keydown", function (e) {
    if (e.target === sel || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var by = e.shiftKey ? 10 : 1;
    switch (e.key) {
      case "ArrowRight": stop(); go(cur + by); break;
      case "ArrowLeft": stop(); go(cur - by); break;
      case "Home": stop(); go(0); break;
      case "End": stop(); go(R.steps.length - 1); break;
      case " ": play(); break;
      default: return;
    }
    e.preventDefault();
  });
  window.btViewer = {
    go: function (k) { stop(); go(k); },
    step: function () { return cur; },
    steps: function () { return R.steps.length; },
    replay: function (j) { sel.value = j; setReplay(j); },
    states: function () { return Array.prototype.map.call(els, function (e) { return e.getAttribute("data-s"); }).join(""); },
    focus: function () { return focusEls.map(function (e) { return Number(e.getAttribute("data-i")); }); },
    memory: function () { return memShown.map(function (e) { return { key: e.key, value: e.value, changed: e.changed, gone: e.gone }; }); },
    names: NAMES
  };
  setReplay(0);
  document.body.setAttribute("data-ready", "1");
})();
