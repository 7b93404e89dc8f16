#!/usr/bin/env python3
"""Mutation check: every fault in tests/mutate/faults.txt must be caught.

Each fault is one slip a person could make in one line (a flipped
comparison, a dropped field in a hash, an inverted condition, a missing
check). It is applied to a scratch copy of the tree, the copy is rebuilt
(only what the change touches), and the tests named for the fault are
run; the fault is caught when one of them fails. The report gives each
fault's outcome and a table per module, and the run fails on any fault
missed, any fault that no longer applies, and any that does not build.

usage: run.py [--lint] [--only TEXT] [--keep] [--ready FILE]
  --lint       only check that every fault's text is found exactly once
  --only TEXT  run the faults whose title, file or tests contain TEXT
  --ready FILE create FILE once the scratch trees are copied, so that
               other tests may then write into the tree (tests/run.sh)
Ends with "N passed, N failed" (one per fault).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
SPEC = os.environ.get("MUSTACHE_SPEC") or os.path.normpath(
    os.path.join(TOP, "..", "shared", "spec", "mustache"))

# What a fault's "tests:" names run, from the top of the (scratch) tree.
TESTS = {
    "diffinc": ["python3", "tests/diffinc/diffinc.py", "--seeds", "1,2,3",
                "--steps", "60", "--posts", "120"],
    "deploy/plan": ["tests/deploy/test_plan"],
    "deploy/release": ["sh", "tests/deploy/release/run.sh"],
    "deploy/freebsd": ["sh", "tests/deploy/freebsd/run.sh"],
    "deploy/fleet": ["sh", "tests/deploy/fleet.sh", "bin/deploy"],
    "deploy/fleet-ssh": ["sh", "tests/deploy/fleet_ssh.sh", "bin/deploy"],
    "deploy/e2e": ["sh", "tests/deploy/e2e_netns.sh", "bin/deploy"],
    "deploy/gemini": ["sh", "tests/deploy/gemini.sh", "bin/deploy"],
    "deploy/acme": ["sh", "tests/deploy/acme.sh", "bin/deploy"],
    "deploy/bench-remote": ["sh", "tests/deploy/bench_remote.sh", "bin/deploy"],
    "deploy/dns": ["sh", "tests/deploy/dns.sh", "bin/deploy"],
    # the look test with one of its stylesheets on two pages: the faults
    # it catches show on every page
    "look/brutal": ["env", "LOOK_ONLY=brutal", "LOOK_PAGES=/ about/",
                    "sh", "tests/e2e/bssg_look.sh"],
    "look/cards": ["env", "LOOK_ONLY=cards", "LOOK_PAGES=/ about/",
                   "sh", "tests/e2e/bssg_look.sh"],
}
# What each test needs built besides bin/ssg and bin/deploy: a fault
# rebuilds only these, not every unit test (most of a build's time is
# linking them).
PROGRAMS = {
    "deploy/plan": ["tests/deploy/test_plan"],
    "deploy/release": ["tests/deploy/release/drv"],
    "deploy/freebsd": ["tests/deploy/freebsd/fbplan"],
    "deploy/dns": ["tests/deploy/dns_race"],
}
TIMEOUT = 600
# Rough seconds a fault takes, by its first test: the slow ones start
# first, so that the two trees finish together instead of one waiting on
# a last long fault.
COST = {"deploy/e2e": 45, "deploy/acme": 45, "diffinc": 30, "deploy/fleet": 20,
        "deploy/fleet-ssh": 30, "deploy/bench-remote": 80,
        "deploy/release": 20, "deploy/gemini": 12}


def cost(f):
    first = f["tests"][0].partition(":")[0]
    return COST.get(first, 3 if first.startswith("unit/") else 10)


def build_targets(f):
    targets = ["all"]
    for t in (t.partition(":")[0] for t in f["tests"]):
        if t.startswith("unit/"):
            targets.append("tests/unit/test_" + t[5:])
        targets += PROGRAMS.get(t, [])
    return targets


def test_command(name):
    if name in TESTS:
        return TESTS[name]
    if name.startswith("unit/"):
        prog = "tests/unit/test_" + name[5:]
        if name == "unit/template":
            return [prog, SPEC]
        if name == "unit/spec":
            return [prog, "tests/deploy/spec"]
        return [prog]
    if name.startswith("e2e/"):
        return ["sh", "tests/e2e/%s.sh" % name[4:]]
    raise SystemExit("unknown test name '%s'" % name)


def load(path):
    """Faults as dicts: title, module, file, find, replace, tests, line."""
    faults, cur, module = [], None, "?"
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if line.startswith("## "):
                module = line[3:].strip()
                continue
            if not line.strip() or line.startswith("#"):
                continue
            key, sep, val = line.partition(": ")
            if not sep and line.endswith(":"):
                key, val = line[:-1], ""
            val = val.replace("\\t", "\t")
            if key == "fault":
                cur = {"title": val, "module": module, "line": n}
                faults.append(cur)
            elif cur is not None and key in ("file", "find", "replace"):
                cur[key] = val
            elif cur is not None and key == "tests":
                cur["tests"] = val.split()
            else:
                raise SystemExit("%s:%d: cannot read '%s'" % (path, n, line))
    for fa in faults:
        for k in ("file", "find", "replace", "tests"):
            if k not in fa:
                raise SystemExit("%s:%d: fault '%s' has no %s:" % (
                    path, fa["line"], fa["title"], k))
    return faults


def occurrences(tree, fa):
    try:
        with open(os.path.join(tree, fa["file"])) as f:
            return f.read().count(fa["find"])
    except OSError:
        return -1


def run(cmd, cwd, log, tree=0, parts=""):
    # A fault is caught by the first failure: the tests may stop there.
    # MUTATE_TREE keeps two trees' deploy tests on different subnets;
    # TEST_PARTS, from "test:part", runs only that part of a long test.
    env = dict(os.environ, MUTATE_FAIL_FAST="1", MUTATE_TREE=str(tree),
               TEST_PARTS=parts)
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
                           timeout=TIMEOUT, env=env)
        return p.returncode
    except subprocess.TimeoutExpired:
        return -9


def make_targets(tree):
    """Everything the tests run: the programs, unit tests, test drivers."""
    out = subprocess.run(["make", "-s", "-C", tree, "-pn", "all"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True).stdout
    names = []
    for line in out.splitlines():
        for var in ("UNIT_TESTS", "TEST_PROGRAMS"):
            if line.startswith(var + " ="):
                names += line.split("=", 1)[1].split()
    return ["all"] + names


def try_fault(f, tree, n, log_path, lock):
    """Applies f in tree, builds, runs its tests; returns the outcome."""
    path = os.path.join(tree, f["file"])
    with open(path) as fp:
        orig = fp.read()
    with open(path, "w") as fp:
        fp.write(orig.replace(f["find"], f["replace"], 1))
    start = time.time()
    with open(log_path, "w") as log:
        if run(["make"] + build_targets(f), tree, log) != 0:
            outcome = "does not build"
        else:
            outcome = "missed"
            for t in f["tests"]:
                name, _, parts = t.partition(":")
                if run(test_command(name), tree, log, n, parts) != 0:
                    outcome = "caught by " + t
                    break
    with open(path, "w") as fp:
        fp.write(orig)
    mark = "ok  " if outcome.startswith("caught") else "FAIL"
    f["seconds"] = time.time() - start
    with lock:
        print("%s %-14s %s: %s (%.0fs)" % (mark, f["module"], f["title"],
              outcome, time.time() - start), flush=True)
    return outcome


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", action="store_true")
    ap.add_argument("--only")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--ready")
    a = ap.parse_args()
    faults = load(os.path.join(HERE, "faults.txt"))
    if a.only:
        faults = [f for f in faults if a.only in f["title"] or
                  a.only in f["file"] or a.only in " ".join(f["tests"])]

    stale = [f for f in faults if occurrences(TOP, f) != 1]
    for f in stale:
        print("STALE faults.txt:%d %s: the text to change is found %d times "
              "in %s (must be once): update the fault" % (
                  f["line"], f["title"], max(occurrences(TOP, f), 0),
                  f["file"]))
    if a.lint:
        for f in faults:
            if f not in stale:
                print("ok   %s" % f["title"])
        print("%d passed, %d failed" % (len(faults) - len(stale), len(stale)))
        return 1 if stale else 0

    scratch = tempfile.mkdtemp(prefix="mutate.")
    trees = [os.path.join(scratch, "tree%d" % n) for n in range(3)]
    results = []
    t0 = time.time()
    try:
        # The tree as it is, built: later builds redo one object and link.
        skip = shutil.ignore_patterns(".git", "output", ".ssg-cache")
        fuzz = os.path.join(TOP, "tests", "fuzz")

        def ignore(d, names):
            # the fuzz targets' objects: no fault's test runs them
            extra = ["build", "crashes"] if d == fuzz else []
            return set(skip(d, names)) | set(n for n in names if n in extra)
        shutil.copytree(TOP, trees[0], symlinks=True, ignore=ignore)
        targets = make_targets(trees[0])
        with open(os.path.join(scratch, "log0"), "w") as log:
            if run(["make", "-j2"] + targets, trees[0], log) != 0:
                print("the unchanged tree does not build")
                print("0 passed, 1 failed")
                return 1
        # Two more built copies: two faults at a time, one per core, and a
        # third tree for the deployer's faults only, whose tests spend most
        # of their time waiting on jails, servers and timed load.
        for t in trees[1:]:
            subprocess.run(["cp", "-a", trees[0], t], check=True)
        if a.ready:
            open(a.ready, "w").close()
        queue = sorted((f for f in faults if f not in stale), key=cost,
                       reverse=True)
        results.extend((f, "stale") for f in stale)
        lock = threading.Lock()

        def worker(n):
            tree = trees[n]
            log_path = os.path.join(scratch, "log%d" % n)
            while True:
                with lock:
                    pick = next((f for f in queue if n < 2 or
                                 f["tests"][0].startswith("deploy/")), None)
                    if pick is None:
                        return
                    queue.remove(pick)
                results.append((pick, try_fault(pick, tree, n, log_path,
                                                lock)))

        threads = [threading.Thread(target=worker, args=(n,))
                   for n in range(len(trees))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        if not a.keep:
            shutil.rmtree(scratch, ignore_errors=True)
        else:
            print("scratch trees kept in %s" % scratch)

    modules = {}
    for f, outcome in results:
        m = modules.setdefault(f["module"], [0, 0, 0])
        m[0] += 1
        m[1 if outcome.startswith("caught") else 2] += 1
    print()
    print("%-16s %6s %6s %6s" % ("module", "faults", "caught", "missed"))
    for name in sorted(modules):
        n, c, m = modules[name]
        print("%-16s %6d %6d %6d" % (name, n, c, m))
    caught = sum(1 for _, o in results if o.startswith("caught"))
    print("%-16s %6d %6d %6d" % ("total", len(results), caught,
                                 len(results) - caught))
    slow = sorted((f for f, _ in results if "seconds" in f),
                  key=lambda f: -f["seconds"])[:5]
    print("slowest: " + ", ".join("%s (%.0f s)" % (f["title"], f["seconds"])
                                  for f in slow))
    print("mutate: %d faults in %.0f s" % (len(results), time.time() - t0))
    print("%d passed, %d failed" % (caught, len(results) - caught))
    return 0 if caught == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
