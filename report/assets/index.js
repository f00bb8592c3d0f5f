// The batch page: facts, charts, the end-point map and the scenario table. The table's sort,
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
    return dd;
  }
  addFact("scenarios", String(rows.length));
  if (batch.seed !== null) addFact("seed", String(batch.seed));
  if (batch.started !== null) addFact("started", batch.started);
  addFact("workers", String(batch.workers));
  if (batch.wall_time_s !== null) addFact("wall time", batch.wall_time_s.toFixed(3) + " s");
  if (batch.scenarios_per_s !== null) {
    addFact("throughput", batch.scenarios_per_s.toFixed(2) + " scenarios/s");
  }
  // A resumed run's own figures, beside the batch's (summary.json's resumed_run).
  var resumed = batch.resumed_run;
  if (resumed) {
    var fact = addFact("resumed run", resumed.scenarios_run + " scenarios run in " +
                       resumed.wall_time_s.toFixed(3) + " s, " +
                       resumed.scenarios_per_s.toFixed(2) + " scenarios/s");
    fact.setAttribute("data-wall-time-s", resumed.wall_time_s);
    fact.setAttribute("data-scenarios-run", resumed.scenarios_run);
  }
  addFact("folder", batch.dir);

  // The failing scenarios beside the distinct failures they are copies of, the reliable ones and
  // the near misses (summary.json), linked to the failures page.
  var f = batch.failures;
  if (f) {
    var dd = addFact("failures", f.failing_scenarios + " failing scenarios: ");
    var link = document.createElement("a");
    link.href = f.page;
    link.id = "failures-link";
    link.textContent = f.distinct_failures + " distinct" +
        (f.reliable_failures !== null ? ", " + f.reliable_failures + " reliable" : "");
    dd.appendChild(link);
    if (f.contacts !== null) dd.appendChild(document.createTextNode("; " + f.contacts + " near misses"));
    ["failing_scenarios", "distinct_failures", "reliable_failures", "contacts"].forEach(function (k) {
      if (f[k] !== null) dd.setAttribute("data-" + k.replace(/_/g, "-"), f[k]);
    });
  }

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

  // A map-elites search's archive (report/archive_map.h): the PNG with its labels drawn over it.
  var archive = data.archive;
  if (archive) {
    var figure = byId("archive-map");
    figure.querySelector("figcaption").textContent = "Search archive after generation " +
        archive.generation + ": " + archive.cells + " cells, each elite coloured by its regret";
    var root = ASG.svg(figure, archive.width, archive.height);
    ASG.el("image", { href: archive.src, x: 0, y: 0, width: archive.width,
                      height: archive.height }, root);
    archive.panels.forEach(function (p) {
      ASG.label(root, p.x, p.y - 5, p.outcome + " (" + p.cells + ")", {
        "class": "panel-label", "data-outcome": p.outcome, "data-cells": p.cells });
    });
    var scale = archive.scale;
    scale.ticks.forEach(function (t) {
      ASG.label(root, t.x, scale.y + scale.height + 18, ASG.fmt(t.regret), {
        "text-anchor": "middle", "class": "tick-label" });
    });
    ASG.label(root, scale.x, scale.y - 4, "elite regret [1] (" + ASG.fmt(scale.max) +
              " and above: yellow); white: empty cell");
    var note = document.createElement("p");
    note.textContent = "One panel per outcome; each panel is the landscape on a " +
        archive.grid_cells + " x " + archive.grid_cells + " grid (north up, west left), each " +
        "cell split into its " + archive.near_path_bins + " bins of obstacles near the " +
        "reference path (row by row, fewest first).";
    figure.appendChild(note);
  } else {
    byId("archive-map").hidden = true;
  }

  // A replay batch's family trees (docs/batch-reference.md, family_trees.png).
  if (data.family_trees) {
    var trees = document.createElement("img");
    trees.src = data.family_trees;
    trees.alt = "family trees of the replayed scenarios";
    trees.className = "family-trees";
    byId("family-trees").appendChild(trees);
    ASG.watchImages(byId("family-trees"));
  } else {
    byId("family-trees").hidden = true;
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
    { key: "status", label: "status", cell: function (r) {
        return esc(r.status) + (r.edited ? ' <span class="edited">edited</span>' : "");
      } },
    { key: "reason", label: "reason", cell: function (r) {
        return r.reason ? '<span class="swatch" style="background:' + ASG.reasonColor(r.reason) +
            '"></span><span title="' + esc(r.reason) + '">' + esc(r.reason.replace(/^REASON_/, "")) +
            "</span>" : esc(r.error || "");
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
  columns.push({ key: "collisions", label: "collisions", cell: function (r) {
    return num(r.collisions, 0);
  } });
  columns.push({ key: "failure_kind", label: "failure kind", cell: function (r) {
    return esc(r.failure_kind || "");
  } });
  if (rows.some(function (r) { return r.origin !== null; })) {
    columns.push({ key: "origin", label: "origin", cell: function (r) { return esc(r.origin || ""); } });
    columns.push({ key: "generation", label: "generation", cell: function (r) {
      return num(r.generation, 0);
    } });
  }
  if (rows.some(function (r) { return r.source; })) {
    columns.push({ key: "source", label: "source scenario", cell: function (r) {
      return r.source ? '<a class="source" href="file://' + esc(encodeURI(r.source.page)) + '">' +
          esc(r.source.folder) + "</a>" : "";
    } });
  }
  columns.push({ key: "thumb", label: "ortho aerial (click to zoom)", cell: function (r) {
    return r.thumb ? '<a class="zoom" data-zoom="' + esc(r.folder) + '" href="' +
        esc(r.thumb) + '"><img class="thumb" src="' + esc(r.thumb) +
        '" alt="" width="192" height="192"></a>' : "";
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
             q: p.get("q") || "", page: Math.max(1, parseInt(p.get("page"), 10) || 1),
             zoom: p.get("zoom") || "" };
  }
  function writeState(state) {
    var p = new URLSearchParams();
    p.set("sort", state.sort);
    p.set("dir", state.dir);
    if (state.status) p.set("status", state.status);
    if (state.reason) p.set("reason", state.reason);
    if (state.q) p.set("q", state.q);
    if (state.page > 1) p.set("page", state.page);
    if (state.zoom) p.set("zoom", state.zoom);
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
    var key = state.sort;
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
                (r.sim_time === null ? "" : r.sim_time) + '" data-regret="' +
                (r.regret === null ? "" : r.regret) + '" data-collisions="' +
                (r.collisions === null ? "" : r.collisions) + '" data-failure-kind="' +
                esc(r.failure_kind || "") + '"' + (r.edited ? ' data-edited="1"' : "") +
                (r.source ? ' data-source="' + esc(r.source.folder) + '"' : "") + ">" +
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
    zoom(state.zoom);
    document.documentElement.setAttribute("data-ready", "1");
    document.documentElement.setAttribute("data-ready-ms", Math.round(performance.now()));
  }
  // The zoomed thumbnail (#zoom=<folder>): its full-resolution aerial over the page, linked to
  // the scenario's page; a click on it closes it.
  var box = byId("lightbox");
  ASG.watchImages(box);
  function zoom(folder) {
    var row = folder && rows.filter(function (r) { return r.folder === folder && r.thumb; })[0];
    box.hidden = !row;
    if (!row) return;
    var img = box.querySelector("img");
    if (img.getAttribute("src") !== row.thumb) img.setAttribute("src", row.thumb);
    img.setAttribute("data-folder", row.folder);
    var caption = box.querySelector("figcaption");
    caption.innerHTML = '<a href="' + esc(row.folder) + '/index.html">' + esc(row.folder) +
        "</a>: " + esc(row.reason || row.status) + " (click the image to close)";
  }
  box.addEventListener("click", function (e) {
    if (e.target.tagName === "A") return;
    var s = readState();
    s.zoom = "";
    writeState(s);
  });
  tbody.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("a.zoom");
    if (!link) return;
    e.preventDefault();
    var s = readState();
    s.zoom = link.getAttribute("data-zoom");
    writeState(s);
  });
  window.addEventListener("hashchange", render);
  render();
})();
