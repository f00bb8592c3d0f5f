// The failures page: a card without an aerial gets its representative's trajectory map with the
// failure point marked; every image is watched so that a DOM dump shows which loaded.
"use strict";
(function () {
  var maps = window.ASG_FAILURES.maps;
  Array.prototype.forEach.call(document.querySelectorAll("figure.failure-map"), function (figure) {
    var s = maps[figure.getAttribute("data-map")];
    var map = s && ASG.scenarioMap(figure, s, 260);
    if (!map) {
      figure.hidden = true;
      return;
    }
    // The failure point (docs/failures.md): a cross, 8 px each way.
    var u = map.u(s.point[0], s.point[1]), v = map.v(s.point[0], s.point[1]);
    ASG.el("path", { d: "M" + (u - 8) + "," + (v - 8) + "L" + (u + 8) + "," + (v + 8) +
                        "M" + (u - 8) + "," + (v + 8) + "L" + (u + 8) + "," + (v - 8),
                     stroke: "#000000", "stroke-width": 3, "class": "failure-point" }, map.g);
    ASG.legend(figure, [{ label: "failure point (x)", color: "#000000" }]);
  });
  ASG.watchImages(document.body);
  document.documentElement.setAttribute("data-ready", "1");
})();
