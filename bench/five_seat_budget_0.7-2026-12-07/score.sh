#!/bin/bash
# score each board dir: worst seat distance for greedy/solitary/expert at simulate defaults, seed 777001
for d in /tmp/s36/br/*-1.0 /tmp/s36/br/*-0.7; do
  line="$(basename $d)"
  for pol in greedy solitary expert; do
    w=$(terragen simulate $d/board.json --seed 777001 --workers 2 --policy $pol --json 2>/dev/null | python -c "
import json,sys; r=json.load(sys.stdin); print(round(100*max(abs(s['deviation']) for s in r['seats']),2) if 'seats' in r else r.keys())" 2>&1 | tail -1)
    line="$line $pol=$w"
  done
  echo "$line"
done
