// A scenario page: the outcome's facts, the driven and reference paths over the ortho aerial (or
// over the obstacles when there is none) with the first contact and the obstacle hit, speed,
// roll, pitch and yaw over time with the end marked, a person's interventions, and enlargeable
// captures with the same marks drawn over the ortho aerials.
"use strict";
(function () {
  var s = window.ASG_SCENARIO;
  function byId(id) { return document.getElementById(id); }
  function fact(list, name, value, key) {
    var dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = name;
    dd.textContent = value;
    dd.setAttribute("data-fact", key);
    list.appendChild(dt);
    list.appendChild(dd);
    return dd;
  }

  // The header: what ended the run, when, at what regret, touching what, of which failure kind.
  var outcome = byId("outcome");
  var facts = document.createElement("dl");
  facts.id = "outcome-facts";
  outcome.appendChild(facts);
  fact(facts, "status", s.status, "status");
  if (s.reason) fact(facts, "reason", s.reason, "reason");
  if (s.t.length) fact(facts, "sim time", s.t[s.t.length - 1].toFixed(2) + " s", "sim-time");
  if (s.regret !== null) fact(facts, "regret", s.regret.toFixed(4), "regret");
  if (s.collisions !== null) fact(facts, "collisions", String(s.collisions), "collisions");
  fact(facts, "failure kind", s.failure_kind || "none", "failure-kind");
  if (s.edited) {
    var edited = fact(facts, "edited", s.interventions.length + " interventions", "edited");
    edited.className = "edited";
  }
  [["regret", s.regret], ["collisions", s.collisions], ["failure-kind", s.failure_kind],
   ["edited", s.edited ? "1" : null]].forEach(function (p) {
    if (p[1] !== null && p[1] !== undefined) outcome.setAttribute("data-" + p[0], p[1]);
  });

  // The map: the trajectory over the ortho aerial, or over the obstacles and the relief.
  if (!ASG.scenarioMap(byId("trajectory-map"), s, 480, "trajectory")) {
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

  links();
  interventions();
  overlays();

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

  // A replayed scenario's source, and the interactive runs made from this scenario.
  function links() {
    var section = byId("links");
    if (s.source) {
      var p = document.createElement("p"), a = document.createElement("a");
      p.textContent = "Replays ";
      a.id = "source-link";
      a.href = "file://" + encodeURI(s.source.page);
      a.textContent = s.source.folder + " of the source batch";
      p.appendChild(a);
      section.appendChild(p);
    }
    (s.interactive || []).forEach(function (run) {
      var p = document.createElement("p"), a = document.createElement("a");
      p.textContent = "Interactive run: ";
      a.className = "interactive-link";
      a.href = run.folder + (run.page ? "/index.html" : "/result.json");
      a.textContent = run.folder + (run.page ? "" : " (result.json; asg-client report " +
                                                   "interactive/ makes its page)");
      p.appendChild(a);
      section.appendChild(p);
    });
  }

  // A person's interventions (docs/interactive.md), in sim-time order.
  function interventions() {
    var list = s.interventions || [];
    var section = byId("interventions");
    if (!list.length) { section.hidden = true; return; }
    var rows = list.map(function (i) {
      var details = Object.keys(i).filter(function (k) {
        return ["sim_time_s", "service", "entity", "kind"].indexOf(k) < 0;
      }).map(function (k) { return k + " " + JSON.stringify(i[k]); }).join(", ");
      return [i.sim_time_s, i.service, i.entity, i.kind, details];
    });
    var table = document.createElement("table");
    table.id = "intervention-table";
    var head = table.createTHead().insertRow();
    ["sim time [s]", "service", "entity", "kind", "details"].forEach(function (h) {
      var th = document.createElement("th");
      th.textContent = h;
      head.appendChild(th);
    });
    var body = table.createTBody();
    rows.forEach(function (r) {
      var tr = body.insertRow();
      tr.setAttribute("data-kind", r[3]);
      tr.setAttribute("data-sim-time", r[0]);
      r.forEach(function (v, k) {
        tr.insertCell().textContent = k === 0 && typeof v === "number" ? v.toFixed(2) :
                                      v === undefined ? "" : String(v);
      });
    });
    section.appendChild(table);
  }

  // The reference path, the first contact and the obstacle hit over every ortho aerial capture
  // ("ortho_aerial_padP...": the landscape [0, size] with P m around it, north up, west left).
  function overlays() {
    Array.prototype.forEach.call(document.querySelectorAll("#captures img"), function (img) {
      var match = /^ortho_aerial_pad(\d+)/.exec(img.getAttribute("alt") || "");
      if (!match || !(s.size > 0)) return;
      var pad = Number(match[1]), lo = -pad, hi = s.size + pad, n = 1000, k = n / (hi - lo);
      var map = { k: k, u: function (x, y) { return (hi - y) * k; },
                  v: function (x, y) { return (hi - x) * k; } };
      var holder = img.parentNode;
      holder.classList.add("overlaid");
      var root = ASG.el("svg", { viewBox: "0 0 " + n + " " + n, preserveAspectRatio: "none",
                                 "class": "capture-overlay", "data-capture": img.alt }, holder);
      map.g = root;
      ASG.drawReference(map, s.reference, 3);
      ASG.markContact(map, s, 4);
    });
  }
})();
