#!/usr/bin/env python3
# Scores the logs written by ansible.sh: python3 test/compat/score.py $COMPAT_DIR/logs/*.log
import re, sys, os
# A task that fails is expected when the task after it asserts on it and passes (the collection's
# tests check their own failures that way, with ignore_errors on the failing task).
def score(path):
    text = open(path).read()
    blocks = re.split(r'\n(?=TASK \[)', text)
    tasks = []
    for b in blocks:
        m = re.match(r'TASK \[(.*?)\]', b)
        if not m: continue
        name = m.group(1)
        if name.startswith('include_tasks') or 'Gathering' in name: continue
        failed = bool(re.search(r'^fatal: |^failed: ', b, re.M))
        tasks.append((name, failed))
    bad = []
    for i, (name, failed) in enumerate(tasks):
        if not failed: continue
        nxt = tasks[i + 1] if i + 1 < len(tasks) else None
        if nxt and 'ASSERT' in nxt[0].upper() and not nxt[1]:
            continue
        bad.append(name)
    return len(tasks), bad
tot = badn = 0
for f in sys.argv[1:]:
    n, bad = score(f)
    tot += n; badn += len(bad)
    print(f"{os.path.basename(f)[:-4]}: {n - len(bad)}/{n}" + (f"  FAILED: {bad[:3]}" if bad else ''))
print(f"TOTAL {tot - badn}/{tot} passed")
