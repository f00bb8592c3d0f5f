// SVG charts shared by the report's pages: bar charts, histograms, line plots, the landscape map
// and a scenario's map on it, with the Okabe-Ito colour-blind-safe palette.
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
      el("path", { d: d, fill: "none", stroke: "#8B6F47", "stroke-width": 0.8,
                   "class": "contours" }, map.g);
    }
  }
  // A scenario's map in `container`, `pixels` wide: the driven path (broken at each teleport) and
  // the reference path over its ortho aerial, or over its obstacles and its relief's contour
  // lines, with the start, the goal, the end, the first contact and the obstacle hit marked;
  // `s` is a scenario page's data (report/scenario_data.h). The polyline gets the id
  // `trajectoryId` when given. Returns the map (landscapeMap's), or null when `s` has no size.
  function scenarioMap(container, s, pixels, trajectoryId) {
    var size = s.size || 0;
    if (!(size > 0)) return null;
    // The ortho aerial covers [-padding, size + padding] in x and y.
    var pad = s.ortho ? s.ortho.padding : 0;
    var map = landscapeMap(container, -pad, size + pad, pixels);
    if (s.ortho) {
      el("image", { href: s.ortho.src, x: map.ox, y: map.oy, width: map.size,
                    height: map.size, preserveAspectRatio: "none" }, map.g);
    } else {
      el("rect", { x: map.ox, y: map.oy, width: map.size, height: map.size,
                   fill: "#f4f1e8" }, map.g);
      if (s.relief) drawContours(map, s.relief);
      s.obstacles.forEach(function (o) {
        var name = String(o[0]).toLowerCase(), scaleFactor = o[3] || 1;
        var radius = (name.indexOf("tree") >= 0 || name.indexOf("juniper") >= 0 ? 1.5
                      : name.indexOf("bush") >= 0 || name.indexOf("barberry") >= 0 ? 0.8
                      : name.indexOf("grass") >= 0 ? 0.3 : 0.5) * scaleFactor;
        el("circle", { cx: map.u(o[1], o[2]), cy: map.v(o[1], o[2]),
                       r: Math.max(1.5, radius * map.k), fill: "#009E73",
                       "fill-opacity": 0.6, stroke: "#000000", "stroke-width": 0.5,
                       "class": "obstacle" }, map.g);
      });
    }
    if (s.goal) {
      el("circle", { cx: map.u(s.goal.x, s.goal.y), cy: map.v(s.goal.x, s.goal.y),
                     r: (s.goal_radius || 1) * map.k, fill: "none", stroke: "#0072B2",
                     "stroke-width": 2, "class": "goal" }, map.g);
    }
    var reference = s.reference || [];
    drawReference(map, reference);
    // The driven path, one line per stretch between teleports (a person's edits).
    trajectorySegments(s).forEach(function (segment, k) {
      var points = segment.map(function (i) {
        return map.u(s.x[i], s.y[i]).toFixed(2) + "," + map.v(s.x[i], s.y[i]).toFixed(2);
      }).join(" ");
      var line = el("polyline", { points: points, fill: "none", stroke: "#E69F00",
                                  "stroke-width": 2.5, "data-rows": segment.length,
                                  "data-segment": k, "class": "trajectory" }, map.g);
      if (trajectoryId && k === 0) line.setAttribute("id", trajectoryId);
    });
    if (s.x.length) {
      el("circle", { cx: map.u(s.x[0], s.y[0]), cy: map.v(s.x[0], s.y[0]), r: 5,
                     fill: "#56B4E9", stroke: "#000000", "class": "start" }, map.g);
      var last = s.x.length - 1;
      el("circle", { cx: map.u(s.x[last], s.y[last]), cy: map.v(s.x[last], s.y[last]), r: 5,
                     fill: reasonColor(s.reason, s.status), stroke: "#000000",
                     "class": "end" }, map.g);
    }
    var entries = [
      { label: "start", color: "#56B4E9" }, { label: "driven path", color: "#E69F00" }];
    if (reference.length > 1) entries.push({ label: "reference path (dashed)", color: "#CC79A7" });
    entries.push({ label: "goal", color: "#0072B2" },
                 { label: "end: " + (s.reason || s.status), color: reasonColor(s.reason, s.status) });
    if (markContact(map, s)) {
      entries.push({ label: "first contact (x)", color: "#000000" });
      if (s.hit) entries.push({ label: "obstacle hit: " + shortName(s.hit[0]), color: "#D55E00" });
    }
    legend(container, entries);
    return map;
  }
  // The trajectory's row indices, split where sim time passes a teleport's (s.interventions of
  // kind "teleport"): one array per stretch the vehicle drove.
  function trajectorySegments(s) {
    var cuts = (s.interventions || []).filter(function (i) {
      return i && i.kind === "teleport" && typeof i.sim_time_s === "number";
    }).map(function (i) { return i.sim_time_s; }).sort(function (a, b) { return a - b; });
    var segments = [[]], next = 0;
    s.x.forEach(function (x, i) {
      var crossed = false;
      while (next < cuts.length && s.t[i] >= cuts[next]) { crossed = true; ++next; }
      if (crossed && segments[segments.length - 1].length) segments.push([]);
      segments[segments.length - 1].push(i);
    });
    return segments;
  }
  // The reference path [[x, y], ...] [m] on `map`, dashed, its width in units of `unit` map
  // pixels (1 when not given); nothing for fewer than two vertices.
  function drawReference(map, reference, unit) {
    if (!reference || reference.length < 2) return;
    var w = unit || 1;
    el("polyline", { points: reference.map(function (p) {
                       return map.u(p[0], p[1]).toFixed(2) + "," + map.v(p[0], p[1]).toFixed(2);
                     }).join(" "), fill: "none", stroke: "#CC79A7", "stroke-width": 2.5 * w,
                     "stroke-dasharray": 6 * w + " " + 4 * w, "data-vertices": reference.length,
                     "class": "reference" }, map.g);
  }
  // The actor class's last path element ("/Game/.../BP_Rock_01" -> "BP_Rock_01").
  function shortName(path) { return String(path).split("/").pop(); }
  // The first contact (a cross) and the obstacle hit (a ring) on `map`, their sizes in units of
  // `unit` map pixels (1 when not given); false when the run touched nothing.
  function markContact(map, s, unit) {
    if (!s.contact) return false;
    var w = unit || 1, a = 7 * w;
    var u = map.u(s.contact.x, s.contact.y), v = map.v(s.contact.x, s.contact.y);
    el("path", { d: "M" + (u - a) + "," + (v - a) + "L" + (u + a) + "," + (v + a) +
                    "M" + (u - a) + "," + (v + a) + "L" + (u + a) + "," + (v - a),
                 stroke: "#000000", "stroke-width": 3 * w, "class": "contact-point",
                 "data-t": s.contact.t }, map.g);
    if (s.hit && typeof s.hit[1] === "number" && typeof s.hit[2] === "number") {
      var ring = el("circle", { cx: map.u(s.hit[1], s.hit[2]), cy: map.v(s.hit[1], s.hit[2]),
                                r: Math.max(6 * w, 0.6 * (s.hit[3] || 1) * map.k), fill: "none",
                                stroke: "#D55E00", "stroke-width": 3 * w, "class": "obstacle-hit",
                                "data-actor-index": s.contact.actor_index }, map.g);
      el("title", {}, ring).textContent = "hit: " + s.hit[0];
    }
    return true;
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
           landscapeMap: landscapeMap, scenarioMap: scenarioMap, reasonColor: reasonColor,
           markContact: markContact, drawReference: drawReference, shortName: shortName, trajectorySegments: trajectorySegments,
           legend: legend,
           watchImages: watchImages, REASON_COLORS: REASON_COLORS, STATUS_COLORS: STATUS_COLORS };
})();
