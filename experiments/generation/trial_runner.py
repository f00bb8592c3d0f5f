"""Runs one trial of the generation experiment: the search and its two failures passes.

Pass 1, the search: `asg-client run` of the trial's batch with failures.regret_threshold 0.75
(the goal's threshold; map-elites' descriptors depend on it), which writes the scenarios, the
search logs and, at its end, failures.csv/json with the reproduction runs of the distinct
failures at 0.75. Its files are saved as failures_0.75.csv/json, summary_0.75.json,
asg_log_search.txt, search_search.csv and archive_search.csv.

Pass 2, the lower threshold: `asg-client run --resume` of the same batch with
failures.regret_threshold 0.375. The failures section is not part of the batch's identity, so
the resume is accepted; every search scenario's folder is complete and is kept (nothing of the
search runs again), the final pass judges every folder at 0.375, and the reproduction runs of
the distinct failures at 0.375 run, each a run of its representative's folder (a run whose
folder already holds the planned scenario number, from pass 1, is kept; the numbers follow the
failure ids, so a representative that is a failure of another id at 0.375 runs again, to the
same result). failures_0.375.csv/json are saved from it; the folder's own failures.csv/json,
summary.json, failure_ids and report stay those of 0.375, and the *_0.75 files keep the search
pass's.

The search is replayed over the kept folders. For every strategy but map-elites the replay
proposes the same candidates. map-elites' archive cells use the outcome at the batch's
threshold, so its replay can propose other candidates than the folders hold; that does not
touch the measures, which come from the folders and their reproduction runs alone (never from
the strategy), but it rewrites archive.csv. So after pass 2 the search pass's search.csv and
archive.csv are put back, and the trial records whether the replay had rewritten each
identically.
"""
import filecmp
import json
import os
import shutil
import subprocess
import time

from trial_measures import SEARCH_THRESHOLD, threshold_name

LOWER_THRESHOLD = 0.375


def wait_for_text(path, needle, offset, timeout_s, process):
    """The text of the file at `path` after byte `offset` once it holds `needle`; None after
    `timeout_s` or when `process` has exited."""
    deadline = time.time() + timeout_s
    while time.time() < deadline and process.poll() is None:
        if os.path.exists(path):
            with open(path, errors="replace") as f:
                f.seek(offset)
                text = f.read()
            if needle in text:
                return text
        time.sleep(0.05)
    return None


def run_with_stack(build, command, folder, workers):
    """`command` (asg-client run ... with --listen 127.0.0.1:0) with every local worker driven by
    an asg-node-stack process that connects once the client has launched the workers; returns a
    CompletedProcess (returncode, stderr). Reads only the log lines this run appends, so that a
    resumed run finds its own port."""
    log = os.path.join(folder, "asg_log.txt")
    offset = os.path.getsize(log) if os.path.exists(log) else 0
    client = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
    nodes = []
    text = wait_for_text(log, "launched worker %d" % workers, offset, 60, client)
    if text is not None:
        port = text.split("listening on 127.0.0.1:")[1].split()[0].rstrip(",")
        for worker in range(1, workers + 1):
            nodes.append(subprocess.Popen(
                [os.path.join(build, "bin", "asg-node-stack"), "--connect", "127.0.0.1:" + port,
                 "--worker-id", str(worker), "--name", "stack"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    _, stderr = client.communicate()
    for node in nodes:
        try:
            node.wait(timeout=15)
        except subprocess.TimeoutExpired:
            node.kill()
    return subprocess.CompletedProcess(client.args, client.returncode, "", stderr)


def run_pass(build, batch, batch_file, folder, workers, system, resume):
    """One `asg-client run` of `batch` (written to `batch_file`) into `folder`; [s] its wall time.
    Exits the experiment when the client fails (exit codes other than 0 and 1)."""
    with open(batch_file, "w") as f:
        json.dump(batch, f, indent=1)
    command = [os.path.join(build, "bin", "asg-client"), "run", batch_file, "--out", folder,
               "--workers", str(workers), "-q"] + (["--resume"] if resume else [])
    started = time.time()
    if system == "stack":
        done = run_with_stack(build, command + ["--listen", "127.0.0.1:0"], folder, workers)
    else:
        done = subprocess.run(command, capture_output=True, text=True)
    wall_s = time.time() - started
    if done.returncode not in (0, 1):
        raise SystemExit("%s failed (%d): %s" % (batch_file, done.returncode, done.stderr[-2000:]))
    return wall_s


def save(folder, name, saved_name):
    """Copies DIR/name to DIR/saved_name when it exists."""
    source = os.path.join(folder, name)
    if os.path.exists(source):
        shutil.copyfile(source, os.path.join(folder, saved_name))


def same_file(folder, name, saved_name):
    """Whether DIR/name and DIR/saved_name hold the same bytes; None when the saved one does not
    exist (a search without an archive)."""
    saved = os.path.join(folder, saved_name)
    if not os.path.exists(saved):
        return None
    return filecmp.cmp(os.path.join(folder, name), saved, shallow=False)


def save_failures(folder, threshold):
    """Saves failures.csv/json and summary.json as the files of `threshold`."""
    for name in ("failures.csv", "failures.json", "summary.json"):
        stem, extension = os.path.splitext(name)
        save(folder, name, "%s_%s%s" % (stem, threshold_name(threshold), extension))


def with_threshold(batch, threshold):
    """`batch` with failures.regret_threshold `threshold` (a copy)."""
    batch = json.loads(json.dumps(batch))
    batch.setdefault("failures", {})["regret_threshold"] = threshold
    return batch


def run_trial(build, batch, folder, workers, system):
    """Runs both passes of the trial `batch` into `folder` (emptied first); returns the walls
    [s] of each pass and whether the replay of pass 2 rewrote search.csv identically."""
    shutil.rmtree(folder, ignore_errors=True)
    search_wall_s = run_pass(build, with_threshold(batch, SEARCH_THRESHOLD), folder + ".json",
                             folder, workers, system, resume=False)
    save_failures(folder, SEARCH_THRESHOLD)
    for name, saved in (("asg_log.txt", "asg_log_search.txt"), ("search.csv", "search_search.csv"),
                        ("archive.csv", "archive_search.csv")):
        save(folder, name, saved)
    lower_wall_s = run_pass(build, with_threshold(batch, LOWER_THRESHOLD),
                            folder + "_%s.json" % threshold_name(LOWER_THRESHOLD), folder,
                            workers, system, resume=True)
    save_failures(folder, LOWER_THRESHOLD)
    replayed = {name: same_file(folder, name, saved) for name, saved in
                (("search.csv", "search_search.csv"), ("archive.csv", "archive_search.csv"))}
    save(folder, "search_search.csv", "search.csv")
    save(folder, "archive_search.csv", "archive.csv")
    return {"pass_wall_s": search_wall_s, "lower_pass_wall_s": lower_wall_s,
            "replay_same_search_log": replayed["search.csv"],
            "replay_same_archive": replayed["archive.csv"]}
