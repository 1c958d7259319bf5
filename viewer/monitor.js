// The live part of viewer.Monitor's page: it follows one feed's event
// stream and hands its versions to BTView (viewer.js), which draws them as
// the static replay page does. Events: "trees" (the list of feeds),
// "reset" (a feed's layout and kept versions) and "step" (one new
// version), "end" (the game ended, or the feed closed). Names, texts and
// boards are set as text or drawn, never taken as markup.
(function () {
  "use strict";
  function $(id) { return document.getElementById(id); }
  var sel = $("replay"), es = null, treeId = -1, follow = true, connected = false, R = null, keep = 1000;
  var pending = [], flushTimer = null, trees = [], ended = { n: 0, result: "", closed: false };
  var view = window.BTView({ onMove: function (k) { follow = k === view.steps() - 1; status(); } });

  $("title").textContent = document.title;
  sel.classList.remove("hidden");
  sel.setAttribute("aria-label", "tree");
  empty("connecting");

  function empty(why) {
    R = { title: "", nodes: [], steps: [], labels: [], events: [], mem: [], nums: [], grids: [], texts: [], full: true, waiting: why };
    view.setReplay(R, 0);
  }

  // status shows whether the page follows the feed live.
  function status() {
    var s = $("live"), last = R && R.nums.length ? R.nums[R.nums.length - 1] : -1, at = view.step();
    if (!connected) { s.textContent = "disconnected"; s.className = "off"; return; }
    if (follow || at < 0) { s.textContent = "\u25cf live"; s.className = "on"; return; }
    s.textContent = "paused, " + (last - R.nums[at]) + " behind (End: live)"; s.className = "off";
  }

  function fromReset(d) {
    keep = d.keep || keep;
    var r = { title: d.title, nodes: d.nodes, steps: [], labels: [], events: [], mem: [], nums: [], grids: [], texts: [], full: true, waiting: "waiting for the first version of this tree" };
    d.steps.forEach(function (s) { push(r, s); });
    return r;
  }

  function push(r, s) {
    var i = r.steps.length;
    r.steps.push(s.step); r.labels.push(s.label); r.events.push((s.world || []).concat(s.events || [])); r.nums.push(s.n);
    r.grids.push(s.grid || null); r.texts.push(s.text || "");
    if (s.grid) { r.board = { cols: s.grid.cols, rows: s.grid.rows, ships: [] }; }
    if (s.mem) { r.mem[i] = s.mem; }
  }

  // showEnd says whether the feed's game ended (at which version) or the
  // feed closed.
  function showEnd() {
    var e = $("ended"), t = [];
    if (ended.n > 0) { t.push("game over at version " + (ended.n - 1) + (ended.result ? ": " + ended.result : "")); }
    if (ended.closed) { t.push("feed closed"); }
    e.textContent = t.join("; ");
    e.classList.toggle("hidden", !t.length);
  }

  // flush draws the steps received since the last flush, at most about
  // thirty times a second however fast versions come.
  function flush() {
    flushTimer = null;
    if (!pending.length) { return; }
    var from = R.steps.length, wasEmpty = from === 0;
    pending.forEach(function (s) { push(R, s); });
    pending = [];
    if (wasEmpty) { view.setReplay(R, R.steps.length - 1); } else { view.extend(from, follow); }
    if (R.steps.length > keep + Math.max(16, keep >> 2)) {
      view.dropFront(R.steps.length - keep);
      if (follow) { view.go(R.steps.length - 1); }
    }
    status();
  }

  function connect(id) {
    if (es) { es.close(); }
    treeId = id; follow = true; pending = []; ended = { n: 0, result: "", closed: false }; showEnd();
    empty(id >= 0 ? "connecting" : "no trees yet");
    es = new EventSource(id >= 0 ? "events?tree=" + id : "events");
    es.onopen = function () { connected = true; status(); };
    es.onerror = function () { connected = false; status(); };
    es.addEventListener("trees", function (e) {
      trees = JSON.parse(e.data);
      sel.textContent = "";
      trees.forEach(function (t) {
        var o = document.createElement("option");
        o.value = t.id; o.textContent = t.name;
        sel.appendChild(o);
      });
      if (treeId < 0 && trees.length) { choose(wanted() < trees.length ? wanted() : 0); return; }
      sel.value = treeId;
    });
    es.addEventListener("reset", function (e) {
      var d = JSON.parse(e.data), at = view.step(), num = R && at >= 0 && R.nums.length ? R.nums[at] : -1;
      pending = [];
      R = fromReset(d);
      var k = follow ? R.steps.length - 1 : R.nums.indexOf(num);
      view.setReplay(R, k >= 0 ? k : 0);
      status();
    });
    es.addEventListener("end", function (e) {
      ended = JSON.parse(e.data);
      showEnd();
    });
    es.addEventListener("step", function (e) {
      pending.push(JSON.parse(e.data));
      if (!flushTimer) { flushTimer = setTimeout(flush, 30); }
    });
  }

  function wanted() { var m = /(?:^#|&)tree=(\d+)/.exec(location.hash); return m ? Number(m[1]) : 0; }

  function choose(id) {
    history.replaceState(null, "", "#tree=" + id);
    connect(id);
    sel.value = id;
  }

  sel.addEventListener("change", function () { choose(Number(sel.value)); });

  window.btMonitor = {
    tree: function () { return treeId; },
    trees: function () { return trees.map(function (t) { return t.name; }); },
    choose: choose,
    step: view.step,
    steps: view.steps,
    go: function (k) { view.go(k); follow = k === view.steps() - 1; status(); },
    num: function () { var k = view.step(); return R && k >= 0 ? R.nums[k] : -1; },
    last: function () { return R && R.nums.length ? R.nums[R.nums.length - 1] : -1; },
    following: function () { return follow; },
    states: view.states,
    focus: view.focus,
    memory: view.memory,
    board: function () { return Array.prototype.map.call(document.querySelectorAll("#board div.c, #board div.ship, #board div.m, #board div.x, #board div.k"), function (d) { return d.className; }); },
    events: function () { return Array.prototype.map.call(document.querySelectorAll("#events li"), function (li) { return li.textContent; }); },
    text: function () { return $("worldtext").textContent; },
    ended: function () { return $("ended").classList.contains("hidden") ? "" : $("ended").textContent; }
  };
  connect(-1);
  document.body.setAttribute("data-ready", "1");
})();
