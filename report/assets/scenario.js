// A scenario page: the trajectory over the ortho aerial (or over the obstacles when there is
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
