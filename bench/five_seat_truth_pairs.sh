#!/bin/bash
# Five-seat boards of two versions of the generator, each measured as a user would: `terragen simulate`
# with its default games, greedy and solitary players, on a seed no search uses. For the specs where a
# side-by-side run (generate_side_by_side.py) wrote different boards, its own fresh checks being too
# small to tell them apart (4,100 games: the same board read 5.05 and 6.68 points off on two of them).
#
#   bench/five_seat_truth_pairs.sh /tmp/before OUTDIR medium:3002 hard:3101 ...
#
# Prints per spec and version: a hash of board.json and each kind of player's worst seat in points.
set -e
before=$(realpath "$1"); mkdir -p "$2"; out=$(realpath "$2"); shift 2
# `python -m` puts the working directory first on the module path, ahead of PYTHONPATH: run from a
# directory holding no terragen, or both versions would be the one in the working directory
cd /
for s in "$@"; do
  d=${s%%:*}; seed=${s##*:}
  for v in before after; do
    dir=$out/$v-$d-$seed
    rm -rf "$dir"
    if [ $v = before ]; then
      PYTHONPATH=$before python -m terragen generate --players 5 --difficulty "$d" --seed "$seed" --out "$dir" --no-progress > /dev/null 2>&1 || true
    else
      python -m terragen generate --players 5 --difficulty "$d" --seed "$seed" --out "$dir" --no-progress > /dev/null 2>&1 || true
    fi
    for pol in greedy solitary; do
      python -m terragen simulate "$dir/board.json" --policy $pol --seed 515151 --json > "$dir/sim-$pol.json" 2>/dev/null || true
    done
    python - "$dir" "$v $d $seed" <<'PY'
import hashlib, json, sys
folder, name = sys.argv[1], sys.argv[2]
digest = hashlib.sha1(open(folder + "/board.json", "rb").read()).hexdigest()[:8]
parts = []
for policy in ("greedy", "solitary"):
    report = json.load(open(f"{folder}/sim-{policy}.json"))
    worst = max(abs(s["win_rate"] - s["fair"]) for s in report["seats"])
    parts.append(f"{policy} {100 * worst:.2f}")
print(name, digest, "; ".join(parts), flush=True)
PY
  done
done
