// A scenario page: the trajectory over the ortho aerial (or over the obstacles when there is
// none), speed, roll, pitch and yaw over time with the end marked, and enlargeable captures.
"use strict";
(function () {
  var s = window.ASG_SCENARIO;
  function byId(id) { return document.getElementById(id); }
  byId("outcome").textContent = s.status + (s.reason ? ", " + s.reason : "") +
      (s.t.length ? ", " + s.t[s.t.length - 1].toFixed(2) + " s of sim time" : "");

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
