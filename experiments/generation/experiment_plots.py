"""The generation experiment's plots (Debian's python3-matplotlib; run_experiment.py's docstring
says how to install it): regret against iteration, raw counts per threshold, distinct failures
against iteration per method (mean and band over trials), and one map-elites archive map."""
import csv
import glob
import os
import shutil

from trial_measures import RAW_THRESHOLDS, SEARCH_THRESHOLD

# Okabe-Ito colours, readable in print and for colour-blind readers.
COLOURS = ["#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00",
           "#CC79A7"]


def pyplot():
    """matplotlib.pyplot on the Agg backend; None when matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        print("plots skipped: python3-matplotlib is not installed (apt-get install "
              "--no-install-recommends python3-matplotlib python3-munkres)")
        return None


def save(plt, fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_regret(plt, runs_by_method, path, title_suffix):
    """Regret against iteration with the running maximum, first trial of each method."""
    fig, ax = plt.subplots(figsize=(9, 5))
    for i, (method, trials) in enumerate(runs_by_method.items()):
        regrets = [r for _, r, _ in trials[0]]
        running, best = [], 0.0
        for r in regrets:
            best = max(best, r)
            running.append(best)
        x = range(1, len(regrets) + 1)
        ax.scatter(x, regrets, s=2, color=COLOURS[i % len(COLOURS)], alpha=0.25)
        ax.plot(x, running, color=COLOURS[i % len(COLOURS)], label=method + " (running max)")
    for t in RAW_THRESHOLDS:
        ax.axhline(t, color="grey", linewidth=0.5, linestyle=":")
    ax.set_xlabel("iteration (scenarios run)")
    ax.set_ylabel("regret (dimensionless)")
    ax.set_title("Regret against iteration, first trial of each method" + title_suffix)
    ax.legend(loc="lower right", fontsize=8)
    return save(plt, fig, path)


def plot_counts(plt, results, path, title_suffix):
    """Raw high-regret scenarios per trial at each raw threshold, mean and sd."""
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.8 / max(1, len(results))
    for i, (method, summary) in enumerate(results.items()):
        means = [summary["count_%g" % t][0] or 0 for t in RAW_THRESHOLDS]
        spreads = [summary["count_%g" % t][1] or 0 for t in RAW_THRESHOLDS]
        xs = [j + i * width for j in range(len(RAW_THRESHOLDS))]
        ax.bar(xs, means, width, yerr=spreads, color=COLOURS[i % len(COLOURS)], label=method,
               capsize=2)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(RAW_THRESHOLDS))])
    ax.set_xticklabels(["regret >= %g" % t for t in RAW_THRESHOLDS])
    ax.set_ylabel("scenarios per trial (mean, bar = sd)")
    ax.set_title("High-regret scenarios found per trial" + title_suffix)
    ax.legend(fontsize=8)
    return save(plt, fig, path)


def step_values(curve, xs):
    """The step function `curve` ([(x, value)], x ascending; 0 before its first x) at `xs`."""
    values, i, current = [], 0, 0
    for x in xs:
        while i < len(curve) and curve[i][0] <= x:
            current = curve[i][1]
            i += 1
        values.append(current)
    return values


def plot_distinct(plt, curves_by_method, path, title_suffix):
    """Distinct failures at 0.75 against iteration per method: the mean over trials and a band
    from the lowest to the highest trial (search.csv's distinct_failures_0.75 per generation)."""
    fig, ax = plt.subplots(figsize=(9, 5))
    for i, (method, curves) in enumerate(curves_by_method.items()):
        xs = sorted({x for curve in curves for x, _ in curve})
        if not xs:
            continue
        per_trial = [step_values(curve, xs) for curve in curves]
        mean = [sum(v) / len(v) for v in zip(*per_trial)]
        colour = COLOURS[i % len(COLOURS)]
        ax.plot(xs, mean, color=colour, label="%s (%d trials)" % (method, len(curves)))
        ax.fill_between(xs, [min(v) for v in zip(*per_trial)], [max(v) for v in zip(*per_trial)],
                        color=colour, alpha=0.2, linewidth=0)
    ax.set_xlabel("iteration (scenarios run)")
    ax.set_ylabel("distinct failures at regret >= %g" % SEARCH_THRESHOLD)
    ax.set_title("Distinct failures against iteration: mean, band = lowest to highest trial" +
                 title_suffix)
    ax.legend(loc="upper left", fontsize=8)
    return save(plt, fig, path)


def last_archive(path):
    """The rows of the last generation of an archive.csv."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    last = max((int(r["generation"]) for r in rows), default=None)
    return [r for r in rows if int(r["generation"]) == last]


def plot_archive(plt, folder, landscape_m, path):
    """The map of a map-elites trial's archive: the report's own map PNG when the trial's report
    has one (copied), else drawn from archive_search.csv's last generation: each cell of the
    point grid coloured by the highest elite regret over its outcome and near-path bins and
    labelled with how many elites it holds, empty cells blank. None without an archive."""
    drawn = sorted(glob.glob(os.path.join(folder, "report", "*archive*.png")))
    if drawn:
        shutil.copyfile(drawn[0], path)
        return path
    archive = os.path.join(folder, "archive_search.csv")
    if not os.path.exists(archive):
        return None
    rows = last_archive(archive)
    cells = 1 + max([max(int(r["cell_x"]), int(r["cell_y"])) for r in rows] + [7])
    best = [[float("nan")] * cells for _ in range(cells)]
    count = [[0] * cells for _ in range(cells)]
    for r in rows:
        x, y, regret = int(r["cell_x"]), int(r["cell_y"]), float(r["regret"])
        count[y][x] += 1
        best[y][x] = regret if count[y][x] == 1 else max(best[y][x], regret)
    fig, ax = plt.subplots(figsize=(6, 5.2))
    image = ax.imshow(best, origin="lower", extent=(0, landscape_m, 0, landscape_m),
                      cmap="viridis")
    step = landscape_m / cells
    for y in range(cells):
        for x in range(cells):
            if count[y][x]:
                ax.text((x + 0.5) * step, (y + 0.5) * step, str(count[y][x]), ha="center",
                        va="center", fontsize=7, color="black",
                        bbox={"facecolor": "white", "alpha": 0.6, "linewidth": 0, "pad": 1})
    fig.colorbar(image, ax=ax, label="highest elite regret in the cell")
    ax.set_xlabel("x [m] (failure point, else end or goal)")
    ax.set_ylabel("y [m]")
    ax.set_title("map-elites archive, %s: %d elites" % (os.path.basename(folder), len(rows)),
                 fontsize=9)
    return save(plt, fig, path)


def plot_all(folder, prefix, title_suffix, results, runs_by_method, curves_by_method,
             archive_trial, landscape_m):
    """Every plot into `folder` with file names starting with `prefix`; the paths written."""
    plt = pyplot()
    if plt is None:
        return []
    os.makedirs(folder, exist_ok=True)
    written = [plot_regret(plt, runs_by_method,
                           os.path.join(folder, prefix + "regret_vs_iteration.png"), title_suffix),
               plot_counts(plt, results, os.path.join(folder, prefix + "counts.png"), title_suffix),
               plot_distinct(plt, curves_by_method,
                             os.path.join(folder, prefix + "distinct_vs_iteration.png"),
                             title_suffix)]
    if archive_trial is not None:
        path = plot_archive(plt, archive_trial, landscape_m,
                            os.path.join(folder, prefix + "archive_map.png"))
        if path:
            written.append(path)
    return written
