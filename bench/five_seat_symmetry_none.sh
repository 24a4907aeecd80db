# five seats: the default mirrored terrain against --symmetry none, each board then checked by a default
# terragen simulate (greedy and solitary) on a fresh seed: bash bench/five_seat_symmetry_none.sh
mkdir -p /tmp/symtest
for spec in medium:94031 hard:94032 medium:94033 hard:94034; do
  d=${spec%%:*}; s=${spec##*:}
  for sym in default none; do
    extra=""; [ $sym = none ] && extra="--symmetry none"
    out=/tmp/symtest/$d-$s-$sym; rm -rf $out
    t0=$(date +%s.%N)
    terragen generate --players 5 --difficulty $d --seed $s $extra --out $out --no-progress -q >/dev/null 2>&1
    t1=$(date +%s.%N)
    g=$(terragen simulate $out/board.json --seed 9600$s --workers 2 --json | python -c "import json,sys; r=json.load(sys.stdin); print(max(abs(x['win_rate']-0.2) for x in r['seats'])*100)" 2>/dev/null)
    so=$(terragen simulate $out/board.json --seed 9600$s --workers 2 --policy solitary --json | python -c "import json,sys; r=json.load(sys.stdin); print(max(abs(x['win_rate']-0.2) for x in r['seats'])*100)" 2>/dev/null)
    echo "$spec $sym $(echo "$t1 - $t0" | bc) greedy=$g solitary=$so $(python -c "import json; m=json.load(open('$out/board.json'))['meta']['balance']; print(m.get('verdict'), m.get('best_effort'))")"
  done
done
