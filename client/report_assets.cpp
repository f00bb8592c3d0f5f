// The report's page code (report_assets.h), as raw string literals. Each file is self-contained
// plain CSS or JavaScript (ES5 with Object.assign and URLSearchParams), no library, no network.
#include "client/report_assets.h"

#include <array>

namespace asg::client {

namespace {

constexpr std::string_view kCss =
    R"ASSET(/* The batch report's style: plain, printable, readable without the scripts' colours. */
body { font: 14px/1.4 system-ui, sans-serif; margin: 1em 2em; color: #111; background: #fff; }
h1 { font-size: 1.5em; margin: 0.2em 0; }
h2 { font-size: 1.2em; margin-top: 1.5em; }
dl#facts { display: flex; flex-wrap: wrap; gap: 0.3em 1.5em; margin: 0.5em 0; }
dl#facts dt { font-weight: 600; }
dl#facts dt::after { content: ":"; }
dl#facts dd { margin: 0 0 0 -1.2em; }
.charts { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; padding: 0.5em; border: 1px solid #ddd; }
figcaption { font-weight: 600; margin-bottom: 0.3em; }
svg text { font: 11px system-ui, sans-serif; fill: #111; }
svg .axes line, svg .axes rect { stroke: #444; stroke-width: 1; }
svg .end-label { fill: #444; }
.legend { list-style: none; padding: 0; margin: 0.3em 0 0; display: flex; flex-wrap: wrap; gap: 0.2em 1em; }
.swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.3em;
          border: 1px solid #000; vertical-align: -0.05em; }
#filters { margin: 1em 0 0.5em; display: flex; flex-wrap: wrap; gap: 1em; align-items: center; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid #ddd; padding: 0.2em 0.5em; text-align: right; }
td:nth-child(2), td:nth-child(3) { text-align: left; }
th { cursor: pointer; user-select: none; background: #f3f3f3; position: sticky; top: 0; }
th.sorted.asc::after { content: " \25B2"; }
th.sorted.desc::after { content: " \25BC"; }
img.thumb { display: block; width: 96px; height: 96px; }
#captures { display: flex; flex-wrap: wrap; gap: 1em; }
#captures img { width: 256px; height: auto; display: block; cursor: zoom-in; }
pre { background: #f6f6f6; padding: 0.5em; overflow: auto; max-height: 30em; }
#lightbox { position: fixed; inset: 0; background: rgba(0, 0, 0, 0.85); display: flex;
            align-items: center; justify-content: center; cursor: zoom-out; }
#lightbox[hidden] { display: none; }
#lightbox img { max-width: 95vw; max-height: 95vh; image-rendering: pixelated; }
)ASSET";

constexpr std::string_view kPlotsJs =
    R"ASSET(// SVG charts shared by the report's pages: bar charts, histograms, line plots and the landscape
// map, with the Okabe-Ito colour-blind-safe palette.
"use strict";
var ASG = (function () {
  var NS = "http://www.w3.org/2000/svg";
  var REASON_COLORS = {
    REASON_SUCCESS: "#009E73", REASON_VEHICLE_COLLISION: "#D55E00",
    REASON_VEHICLE_FLIPPED: "#CC79A7", REASON_SIM_TIMEOUT: "#E69F00",
    REASON_VEHICLE_IDLING_TIMEOUT: "#56B4E9", REASON_VEHICLE_STUCK_TIMEOUT: "#0072B2",
    REASON_VEHICLE_OUT_OF_BOUNDS: "#F0E442"
  };
  var STATUS_COLORS = { done: "#009E73", invalid: "#E69F00", failed: "#D55E00" };

  function el(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    for (var key in attrs) node.setAttribute(key, attrs[key]);
    if (parent) parent.appendChild(node);
    return node;
  }
  function label(parent, x, y, text, attrs) {
    var node = el("text", Object.assign({ x: x, y: y }, attrs || {}), parent);
    node.textContent = text;
    return node;
  }
  function svg(container, width, height) {
    return el("svg", { viewBox: "0 0 " + width + " " + height, width: width, height: height,
                       role: "img" }, container);
  }
  // A short label for a number: up to 4 significant digits, no trailing zeros.
  function fmt(value) {
    if (value === null || value === undefined) return "";
    if (Math.abs(value) >= 1000 || value === Math.round(value)) return String(Math.round(value));
    return String(Number(value.toPrecision(4)));
  }
  // About `count` round tick values covering [lo, hi].
  function ticks(lo, hi, count) {
    if (!(hi > lo)) return [lo];
    var step = Math.pow(10, Math.floor(Math.log10((hi - lo) / count)));
    var err = (hi - lo) / count / step;
    step *= err >= 7.5 ? 10 : err >= 3.5 ? 5 : err >= 1.5 ? 2 : 1;
    var out = [];
    for (var v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
      out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    }
    return out;
  }
  function scale(d0, d1, r0, r1) {
    var k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
    return function (v) { return r0 + (v - d0) * k; };
  }
  // Axes over the box {x, y, w, h} for domains xd and yd; returns the two scales.
  function axes(root, box, xd, yd, xlabel, ylabel) {
    var sx = scale(xd[0], xd[1], box.x, box.x + box.w);
    var sy = scale(yd[0], yd[1], box.y + box.h, box.y);
    var g = el("g", { "class": "axes" }, root);
    el("line", { x1: box.x, y1: box.y + box.h, x2: box.x + box.w, y2: box.y + box.h }, g);
    el("line", { x1: box.x, y1: box.y, x2: box.x, y2: box.y + box.h }, g);
    ticks(xd[0], xd[1], 5).forEach(function (v) {
      el("line", { x1: sx(v), y1: box.y + box.h, x2: sx(v), y2: box.y + box.h + 4 }, g);
      label(g, sx(v), box.y + box.h + 16, fmt(v), { "text-anchor": "middle" });
    });
    ticks(yd[0], yd[1], 4).forEach(function (v) {
      el("line", { x1: box.x - 4, y1: sy(v), x2: box.x, y2: sy(v) }, g);
      label(g, box.x - 6, sy(v) + 4, fmt(v), { "text-anchor": "end" });
    });
    label(g, box.x + box.w / 2, box.y + box.h + 32, xlabel, { "text-anchor": "middle" });
    label(g, 12, box.y + box.h / 2, ylabel, {
      "text-anchor": "middle", transform: "rotate(-90 12 " + (box.y + box.h / 2) + ")" });
    return { x: sx, y: sy };
  }
  // Horizontal bars, one per entry {key, label, count, color}; the axis counts scenarios.
  function barChart(container, kind, entries) {
    var width = 520, left = 250, bar = 22, height = entries.length * (bar + 6) + 50;
    var root = svg(container, width, height);
    var max = Math.max(1, Math.max.apply(null, entries.map(function (e) { return e.count; })));
    var box = { x: left, y: 6, w: width - left - 50, h: entries.length * (bar + 6) };
    var sx = scale(0, max, box.x, box.x + box.w);
    var g = el("g", { "class": "axes" }, root);
    el("line", { x1: box.x, y1: box.y + box.h, x2: box.x + box.w, y2: box.y + box.h }, g);
    ticks(0, max, 4).filter(function (v) { return v === Math.round(v); }).forEach(function (v) {
      el("line", { x1: sx(v), y1: box.y + box.h, x2: sx(v), y2: box.y + box.h + 4 }, g);
      label(g, sx(v), box.y + box.h + 16, fmt(v), { "text-anchor": "middle" });
    });
    label(g, box.x + box.w / 2, box.y + box.h + 32, "scenarios [count]", { "text-anchor": "middle" });
    entries.forEach(function (e, i) {
      var y = box.y + i * (bar + 6) + 3;
      var row = el("g", { "class": "bar", "data-kind": kind, "data-key": e.key,
                          "data-count": e.count }, root);
      label(row, left - 6, y + bar / 2 + 4, e.label, { "text-anchor": "end" });
      el("rect", { x: box.x, y: y, width: Math.max(0, sx(e.count) - box.x), height: bar,
                   fill: e.color }, row);
      label(row, sx(e.count) + 4, y + bar / 2 + 4, String(e.count));
    });
  }
  // A histogram of `values` in `bins` equal bins; `xlabel` names the quantity and its unit.
  function histogram(container, values, xlabel, color, bins) {
    bins = bins || 20;
    var width = 520, height = 240, box = { x: 56, y: 10, w: width - 76, h: height - 60 };
    var root = svg(container, width, height);
    var lo = Math.min.apply(null, values), hi = Math.max.apply(null, values);
    if (!(hi > lo)) { lo -= 0.5; hi += 0.5; }
    var counts = new Array(bins).fill(0);
    values.forEach(function (v) {
      counts[Math.min(bins - 1, Math.floor((v - lo) / (hi - lo) * bins))]++;
    });
    var s = axes(root, box, [lo, hi], [0, Math.max(1, Math.max.apply(null, counts))], xlabel,
                 "scenarios [count]");
    counts.forEach(function (c, i) {
      var x0 = s.x(lo + (hi - lo) * i / bins), x1 = s.x(lo + (hi - lo) * (i + 1) / bins);
      var rect = el("rect", { x: x0 + 0.5, y: s.y(c), width: Math.max(0, x1 - x0 - 1),
                              height: s.y(0) - s.y(c), fill: color, "data-count": c }, root);
      el("title", {}, rect).textContent = fmt(lo + (hi - lo) * i / bins) + " to " +
          fmt(lo + (hi - lo) * (i + 1) / bins) + ": " + c;
    });
  }
  // Lines of ys over xs, each series {ys, color, name}; a dot and a label mark each end.
  function linePlot(container, xs, series, xlabel, ylabel, endLabel) {
    var width = 520, height = 220, box = { x: 60, y: 10, w: width - 90, h: height - 56 };
    var root = svg(container, width, height);
    if (xs.length === 0) { label(root, 20, 40, "no trajectory rows"); return; }
    var all = [];
    series.forEach(function (s) { all = all.concat(s.ys); });
    var lo = Math.min.apply(null, all), hi = Math.max.apply(null, all);
    if (!(hi > lo)) { lo -= 1; hi += 1; }
    var s = axes(root, box, [xs[0], Math.max(xs[xs.length - 1], xs[0] + 1e-9)], [lo, hi],
                 xlabel, ylabel);
    series.forEach(function (line) {
      var points = xs.map(function (x, i) {
        return s.x(x).toFixed(2) + "," + s.y(line.ys[i]).toFixed(2);
      }).join(" ");
      el("polyline", { points: points, fill: "none", stroke: line.color, "stroke-width": 1.5 },
         root);
      var last = xs.length - 1;
      el("circle", { cx: s.x(xs[last]), cy: s.y(line.ys[last]), r: 4, fill: line.color,
                     "class": "end" }, root);
    });
    if (endLabel) {
      label(root, s.x(xs[xs.length - 1]) - 4, box.y + 10, endLabel, { "text-anchor": "end",
                                                                       "class": "end-label" });
    }
  }
  // The landscape square [lo, hi] x [lo, hi] [m] seen from above, north (+x) up and west (+y)
  // left, in a `size`-pixel box with axes. Returns {root, g, u(x, y), v(x, y), k (px per m)}.
  function landscapeMap(container, lo, hi, size) {
    var margin = 50, root = svg(container, size + margin + 10, size + margin + 10);
    var k = size / (hi - lo);
    var ox = margin, oy = 10;
    var u = function (x, y) { return ox + (hi - y) * k; };
    var v = function (x, y) { return oy + (hi - x) * k; };
    var g = el("g", { "class": "axes" }, root);
    el("rect", { x: ox, y: oy, width: size, height: size, fill: "none" }, g);
    ticks(lo, hi, 6).forEach(function (m) {
      el("line", { x1: u(0, m), y1: oy + size, x2: u(0, m), y2: oy + size + 4 }, g);
      label(g, u(0, m), oy + size + 16, fmt(m), { "text-anchor": "middle" });
      el("line", { x1: ox - 4, y1: v(m, 0), x2: ox, y2: v(m, 0) }, g);
      label(g, ox - 6, v(m, 0) + 4, fmt(m), { "text-anchor": "end" });
    });
    label(g, ox + size / 2, oy + size + 34, "y [m] (west is left)", { "text-anchor": "middle" });
    label(g, 12, oy + size / 2, "x [m] (north is up)", {
      "text-anchor": "middle", transform: "rotate(-90 12 " + (oy + size / 2) + ")" });
    return { root: root, g: el("g", {}, root), u: u, v: v, k: k, ox: ox, oy: oy, size: size };
  }
  function reasonColor(reason, status) {
    return REASON_COLORS[reason] || STATUS_COLORS[status] || "#000000";
  }
  // A colour key: one swatch and name per entry {label, color}.
  function legend(container, entries) {
    var list = document.createElement("ul");
    list.className = "legend";
    entries.forEach(function (e) {
      var item = document.createElement("li");
      var swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = e.color;
      item.appendChild(swatch);
      item.appendChild(document.createTextNode(e.label));
      list.appendChild(item);
    });
    container.appendChild(list);
  }
  // Marks every <img> below `root` with data-natural-width once it loads (0 when it fails), so
  // a DOM dump shows which images loaded.
  function watchImages(root) {
    root.addEventListener("load", function (e) {
      if (e.target.tagName === "IMG") e.target.setAttribute("data-natural-width", e.target.naturalWidth);
    }, true);
    root.addEventListener("error", function (e) {
      if (e.target.tagName === "IMG") e.target.setAttribute("data-natural-width", "0");
    }, true);
    Array.prototype.forEach.call(root.querySelectorAll("img"), function (img) {
      if (img.complete) img.setAttribute("data-natural-width", img.naturalWidth);
    });
  }
  return { el: el, label: label, svg: svg, fmt: fmt, ticks: ticks, axes: axes,
           barChart: barChart, histogram: histogram, linePlot: linePlot,
           landscapeMap: landscapeMap, reasonColor: reasonColor, legend: legend,
           watchImages: watchImages, REASON_COLORS: REASON_COLORS, STATUS_COLORS: STATUS_COLORS };
})();
)ASSET";

constexpr std::string_view kIndexJs =
    R"ASSET(// The batch page: facts, charts, the end-point map and the scenario table. The table's sort,
// filters, search and page live in the URL fragment (#sort=sim_time&dir=asc&reason=...), read on
// load and on every change, so a view can be shared as a link.
"use strict";
(function () {
  var data = window.ASG_REPORT, rows = data.rows, batch = data.batch;
  var PAGE_SIZE = 100;
  var REASONS = Object.keys(ASG.REASON_COLORS);
  var hasRegret = rows.some(function (r) { return r.regret !== null; });

  function byId(id) { return document.getElementById(id); }
  function addFact(name, value) {
    var dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = name;
    dd.textContent = value;
    dd.setAttribute("data-fact", name);
    byId("facts").appendChild(dt);
    byId("facts").appendChild(dd);
  }
  addFact("scenarios", String(rows.length));
  if (batch.seed !== null) addFact("seed", String(batch.seed));
  if (batch.started !== null) addFact("started", batch.started);
  addFact("workers", String(batch.workers));
  if (batch.wall_time_s !== null) addFact("wall time", batch.wall_time_s.toFixed(3) + " s");
  if (batch.scenarios_per_s !== null) {
    addFact("throughput", batch.scenarios_per_s.toFixed(2) + " scenarios/s");
  }
  addFact("folder", batch.dir);

  // Counts per status (all three) and per termination reason of done scenarios.
  var statusCounts = { done: 0, invalid: 0, failed: 0 }, reasonCounts = {};
  rows.forEach(function (r) {
    statusCounts[r.status] = (statusCounts[r.status] || 0) + 1;
    if (r.status === "done" && r.reason) reasonCounts[r.reason] = (reasonCounts[r.reason] || 0) + 1;
  });
  ASG.barChart(byId("status-chart"), "status", Object.keys(statusCounts).map(function (s) {
    return { key: s, label: s, count: statusCounts[s], color: ASG.STATUS_COLORS[s] || "#000000" };
  }));
  var reasons = Object.keys(reasonCounts).sort(function (a, b) {
    return (REASONS.indexOf(a) + 1 || 99) - (REASONS.indexOf(b) + 1 || 99) || (a < b ? -1 : 1);
  });
  if (reasons.length) {
    ASG.barChart(byId("reason-chart"), "reason", reasons.map(function (r) {
      return { key: r, label: r, count: reasonCounts[r], color: ASG.reasonColor(r) };
    }));
  } else {
    byId("reason-chart").hidden = true;
  }
  var simTimes = rows.filter(function (r) { return r.sim_time !== null; })
                     .map(function (r) { return r.sim_time; });
  if (simTimes.length) ASG.histogram(byId("sim-time-chart"), simTimes, "sim time [s]", "#0072B2");
  else byId("sim-time-chart").hidden = true;
  var regrets = rows.filter(function (r) { return r.regret !== null; })
                    .map(function (r) { return r.regret; });
  if (regrets.length) ASG.histogram(byId("regret-chart"), regrets, "regret [1]", "#CC79A7");
  else byId("regret-chart").hidden = true;

  // End points on the landscape square of the largest nominal size.
  var size = Math.max.apply(null, [0].concat(rows.map(function (r) { return r.size || 0; })));
  var ends = rows.filter(function (r) { return r.end; });
  if (size > 0 && ends.length) {
    var map = ASG.landscapeMap(byId("map"), 0, size, 420);
    ends.forEach(function (r) {
      var dot = ASG.el("circle", { cx: map.u(r.end[0], r.end[1]).toFixed(2),
                                   cy: map.v(r.end[0], r.end[1]).toFixed(2), r: 3.5,
                                   fill: ASG.reasonColor(r.reason, r.status),
                                   stroke: "#000000", "stroke-width": 0.5,
                                   "data-folder": r.folder }, map.g);
      ASG.el("title", {}, dot).textContent = r.folder + ": " + (r.reason || r.status);
    });
    var seen = {};
    ends.forEach(function (r) { seen[r.reason || r.status] = ASG.reasonColor(r.reason, r.status); });
    ASG.legend(byId("map"), Object.keys(seen).sort().map(function (k) {
      return { label: k, color: seen[k] };
    }));
  } else {
    byId("map").hidden = true;
  }

  // Search progress from search.csv: mean and best regret per generation.
  var search = data.search;
  if (search && search.rows.length) {
    var col = function (name) {
      var i = search.columns.indexOf(name);
      return search.rows.map(function (row) { return row[i]; });
    };
    ASG.linePlot(byId("search-chart"), col("generation"), [
      { ys: col("mean_regret"), color: "#0072B2" }, { ys: col("best_regret"), color: "#D55E00" }
    ], "generation [count]", "regret [1]");
    ASG.legend(byId("search-chart"), [{ label: "mean regret", color: "#0072B2" },
                                      { label: "best regret so far", color: "#D55E00" }]);
  } else {
    byId("search-chart").hidden = true;
  }

  // The table.
  function num(v, digits) { return v === null || v === undefined ? "" : v.toFixed(digits); }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  var columns = [
    { key: "number", label: "#", cell: function (r) {
        return '<a href="' + esc(r.folder) + '/index.html">' + esc(r.folder.replace("scenario_", "")) + "</a>";
      } },
    { key: "status", label: "status", cell: function (r) { return esc(r.status); } },
    { key: "reason", label: "reason", cell: function (r) {
        return r.reason ? '<span class="swatch" style="background:' + ASG.reasonColor(r.reason) +
            '"></span>' + esc(r.reason) : esc(r.error || "");
      } },
    { key: "sim_time", label: "sim time [s]", cell: function (r) { return num(r.sim_time, 2); } },
    { key: "distance", label: "distance [m]", cell: function (r) { return num(r.distance, 2); } },
    { key: "max_roll", label: "max roll [deg]", cell: function (r) { return num(r.max_roll, 2); } },
    { key: "max_pitch", label: "max pitch [deg]", cell: function (r) { return num(r.max_pitch, 2); } },
    { key: "attempts", label: "attempts", cell: function (r) { return num(r.attempts, 0); } },
    { key: "reruns", label: "reruns", cell: function (r) { return num(r.reruns, 0); } },
    { key: "wall_time", label: "wall time [s]", cell: function (r) { return num(r.wall_time, 3); } }
  ];
  if (hasRegret) {
    columns.push({ key: "regret", label: "regret", cell: function (r) { return num(r.regret, 4); } });
  }
  columns.push({ key: "thumb", label: "ortho aerial", cell: function (r) {
    return r.thumb ? '<a href="' + esc(r.folder) + '/index.html"><img class="thumb" src="' +
        esc(r.thumb) + '" alt="" width="96" height="96"></a>' : "";
  } });
  var keys = columns.map(function (c) { return c.key; });

  var statuses = Object.keys(statusCounts).filter(function (s) { return statusCounts[s] > 0; });
  statuses.forEach(function (s) { byId("filter-status").add(new Option(s, s)); });
  reasons.forEach(function (r) { byId("filter-reason").add(new Option(r, r)); });

  function readState() {
    var p = new URLSearchParams(location.hash.replace(/^#/, ""));
    var sort = p.get("sort");
    return { sort: keys.indexOf(sort) >= 0 ? sort : "number",
             dir: p.get("dir") === "desc" ? "desc" : "asc",
             status: p.get("status") || "", reason: p.get("reason") || "",
             q: p.get("q") || "", page: Math.max(1, parseInt(p.get("page"), 10) || 1) };
  }
  function writeState(state) {
    var p = new URLSearchParams();
    p.set("sort", state.sort);
    p.set("dir", state.dir);
    if (state.status) p.set("status", state.status);
    if (state.reason) p.set("reason", state.reason);
    if (state.q) p.set("q", state.q);
    if (state.page > 1) p.set("page", state.page);
    var hash = "#" + p.toString();
    if (location.hash !== hash) location.hash = hash;
    else render();
  }
  function compare(key) {
    return function (a, b) {
      var x = a[key], y = b[key];
      if (x === y) return a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      return x < y ? -1 : 1;
    };
  }
  var headRow = document.querySelector("#scenarios thead tr");
  columns.forEach(function (c) {
    var th = document.createElement("th");
    th.textContent = c.label;
    th.setAttribute("data-key", c.key);
    th.addEventListener("click", function () {
      var s = readState();
      s.dir = s.sort === c.key && s.dir === "asc" ? "desc" : "asc";
      s.sort = c.key;
      s.page = 1;
      writeState(s);
    });
    headRow.appendChild(th);
  });
  ["filter-status", "filter-reason", "filter-number"].forEach(function (id) {
    byId(id).addEventListener(id === "filter-number" ? "input" : "change", function () {
      var s = readState();
      s.status = byId("filter-status").value;
      s.reason = byId("filter-reason").value;
      s.q = byId("filter-number").value.trim();
      s.page = 1;
      writeState(s);
    });
  });
  var tbody = document.querySelector("#scenarios tbody");
  ASG.watchImages(tbody);

  function render() {
    var state = readState();
    byId("filter-status").value = state.status;
    byId("filter-reason").value = state.reason;
    if (byId("filter-number").value.trim() !== state.q) byId("filter-number").value = state.q;
    var shown = rows.filter(function (r) {
      return (!state.status || r.status === state.status) &&
             (!state.reason || r.reason === state.reason) &&
             (!state.q || String(r.number).indexOf(state.q) >= 0 || r.folder.indexOf(state.q) >= 0);
    });
    var key = state.sort === "thumb" ? "thumb" : state.sort;
    shown.sort(compare(key));
    if (state.dir === "desc") {
      var nulls = shown.filter(function (r) { return r[key] === null; });
      shown = shown.filter(function (r) { return r[key] !== null; }).reverse().concat(nulls);
    }
    var pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
    var page = Math.min(state.page, pages);
    var html = [];
    shown.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).forEach(function (r) {
      html.push('<tr data-folder="' + esc(r.folder) + '" data-status="' + esc(r.status) +
                '" data-reason="' + esc(r.reason || "") + '" data-sim-time="' +
                (r.sim_time === null ? "" : r.sim_time) + '">' +
                columns.map(function (c) { return "<td>" + c.cell(r) + "</td>"; }).join("") +
                "</tr>");
    });
    tbody.innerHTML = html.join("");
    Array.prototype.forEach.call(headRow.children, function (th) {
      th.className = th.getAttribute("data-key") === state.sort ? "sorted " + state.dir : "";
    });
    byId("shown").textContent = shown.length + " of " + rows.length + " scenarios";
    var pager = byId("pager");
    pager.textContent = "";
    if (pages > 1) {
      var link = function (text, target) {
        var b = document.createElement("button");
        b.type = "button";
        b.textContent = text;
        b.disabled = target < 1 || target > pages || target === page;
        b.addEventListener("click", function () {
          var s = readState();
          s.page = target;
          writeState(s);
        });
        pager.appendChild(b);
      };
      link("\u00ab first", 1);
      link("\u2039 previous", page - 1);
      pager.appendChild(document.createTextNode(" page " + page + " of " + pages + " "));
      link("next \u203a", page + 1);
      link("last \u00bb", pages);
    }
    document.documentElement.setAttribute("data-ready", "1");
    document.documentElement.setAttribute("data-ready-ms", Math.round(performance.now()));
  }
  window.addEventListener("hashchange", render);
  render();
})();
)ASSET";

constexpr std::string_view kScenarioJs =
    R"ASSET(// A scenario page: the trajectory over the ortho aerial (or over the obstacles when there is
// none), speed, roll, pitch and yaw over time with the end marked, and enlargeable captures.
"use strict";
(function () {
  var s = window.ASG_SCENARIO;
  function byId(id) { return document.getElementById(id); }
  byId("outcome").textContent = s.status + (s.reason ? ", " + s.reason : "") +
      (s.t.length ? ", " + s.t[s.t.length - 1].toFixed(2) + " s of sim time" : "");

  // Contour lines of the relief heights (a square grid over [0, size], x-major) at 8 levels
  // between the lowest and the highest, by marching squares: one segment per crossed cell.
  function drawContours(map, relief) {
    var n = relief.n, z = relief.z, step = relief.size / (n - 1);
    var lo = Math.min.apply(null, z), hi = Math.max.apply(null, z);
    if (!(hi > lo)) return;
    var d = "";
    function at(i, j) { return z[i * n + j]; }
    for (var level = 1; level <= 8; ++level) {
      var h = lo + (hi - lo) * level / 9;
      for (var i = 0; i + 1 < n; ++i) {
        for (var j = 0; j + 1 < n; ++j) {
          // The corners in order around the cell, and where the level crosses each edge.
          var c = [[i, j], [i + 1, j], [i + 1, j + 1], [i, j + 1]], cross = [];
          for (var e = 0; e < 4; ++e) {
            var a = c[e], b = c[(e + 1) % 4], za = at(a[0], a[1]), zb = at(b[0], b[1]);
            if ((za < h) !== (zb < h)) {
              var f = (h - za) / (zb - za);
              var x = (a[0] + f * (b[0] - a[0])) * step, y = (a[1] + f * (b[1] - a[1])) * step;
              cross.push(map.u(x, y).toFixed(1) + "," + map.v(x, y).toFixed(1));
            }
          }
          for (var k = 0; k + 1 < cross.length; k += 2) d += "M" + cross[k] + "L" + cross[k + 1];
        }
      }
    }
    if (d) {
      ASG.el("path", { d: d, fill: "none", stroke: "#8B6F47", "stroke-width": 0.8,
                       "class": "contours" }, map.g);
    }
  }

  // The map: the ortho aerial covers [-padding, size + padding] in x and y.
  var size = s.size || 0;
  if (size > 0) {
    var pad = s.ortho ? s.ortho.padding : 0;
    var map = ASG.landscapeMap(byId("trajectory-map"), -pad, size + pad, 480);
    if (s.ortho) {
      ASG.el("image", { href: s.ortho.src, x: map.ox, y: map.oy, width: map.size,
                        height: map.size, preserveAspectRatio: "none" }, map.g);
    } else {
      ASG.el("rect", { x: map.ox, y: map.oy, width: map.size, height: map.size,
                       fill: "#f4f1e8" }, map.g);
      if (s.relief) drawContours(map, s.relief);
      s.obstacles.forEach(function (o) {
        var name = String(o[0]).toLowerCase(), scaleFactor = o[3] || 1;
        var radius = (name.indexOf("tree") >= 0 || name.indexOf("juniper") >= 0 ? 1.5
                      : name.indexOf("bush") >= 0 || name.indexOf("barberry") >= 0 ? 0.8
                      : name.indexOf("grass") >= 0 ? 0.3 : 0.5) * scaleFactor;
        ASG.el("circle", { cx: map.u(o[1], o[2]), cy: map.v(o[1], o[2]),
                           r: Math.max(1.5, radius * map.k), fill: "#009E73",
                           "fill-opacity": 0.6, stroke: "#000000", "stroke-width": 0.5,
                           "class": "obstacle" }, map.g);
      });
    }
    if (s.goal) {
      ASG.el("circle", { cx: map.u(s.goal.x, s.goal.y), cy: map.v(s.goal.x, s.goal.y),
                         r: (s.goal_radius || 1) * map.k, fill: "none", stroke: "#0072B2",
                         "stroke-width": 2, "class": "goal" }, map.g);
    }
    var points = s.x.map(function (x, i) {
      return map.u(x, s.y[i]).toFixed(2) + "," + map.v(x, s.y[i]).toFixed(2);
    }).join(" ");
    ASG.el("polyline", { id: "trajectory", points: points, fill: "none", stroke: "#E69F00",
                         "stroke-width": 2.5, "data-rows": s.x.length }, map.g);
    if (s.x.length) {
      ASG.el("circle", { cx: map.u(s.x[0], s.y[0]), cy: map.v(s.x[0], s.y[0]), r: 5,
                         fill: "#56B4E9", stroke: "#000000", "class": "start" }, map.g);
      var last = s.x.length - 1;
      ASG.el("circle", { cx: map.u(s.x[last], s.y[last]), cy: map.v(s.x[last], s.y[last]), r: 5,
                         fill: ASG.reasonColor(s.reason, s.status), stroke: "#000000",
                         "class": "end" }, map.g);
    }
    ASG.legend(byId("trajectory-map"), [
      { label: "start", color: "#56B4E9" }, { label: "trajectory", color: "#E69F00" },
      { label: "goal", color: "#0072B2" },
      { label: "end: " + (s.reason || s.status), color: ASG.reasonColor(s.reason, s.status) }]);
  } else {
    byId("trajectory-map").hidden = true;
  }

  var endLabel = "end: " + (s.reason || s.status);
  [["speed", "speed [m/s]", "#0072B2"], ["roll", "roll [deg]", "#D55E00"],
   ["pitch", "pitch [deg]", "#009E73"], ["yaw", "yaw [deg]", "#CC79A7"]].forEach(function (p) {
    var figure = byId(p[0] + "-plot");
    var caption = document.createElement("figcaption");
    caption.textContent = p[1].replace(/ \[.*/, "") + " over time";
    figure.appendChild(caption);
    ASG.linePlot(figure, s.t, [{ ys: s[p[0]], color: p[2] }], "sim time [s]", p[1], endLabel);
  });

  // Captures: a click shows the image full size; a click on it closes it.
  var box = byId("lightbox");
  Array.prototype.forEach.call(document.querySelectorAll("a.capture"), function (a) {
    a.addEventListener("click", function (e) {
      e.preventDefault();
      box.querySelector("img").src = a.getAttribute("href");
      box.hidden = false;
    });
  });
  box.addEventListener("click", function () { box.hidden = true; });
  ASG.watchImages(document.getElementById("captures") || document.body);
  document.documentElement.setAttribute("data-ready", "1");
})();
)ASSET";

constexpr std::array kAssets = {
    ReportAsset{"report.css", kCss},
    ReportAsset{"plots.js", kPlotsJs},
    ReportAsset{"index.js", kIndexJs},
    ReportAsset{"scenario.js", kScenarioJs},
};

}  // namespace

std::span<const ReportAsset> ReportAssets() { return kAssets; }

}  // namespace asg::client
