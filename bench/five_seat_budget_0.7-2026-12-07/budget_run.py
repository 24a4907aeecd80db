import sys, time, hashlib, json
from pathlib import Path


def main():
    scale, n, d, seed, out = float(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
    import terragen.terrain.generate as gen
    gen.TURNS_PER_SECOND = {k: int(v * scale) for k, v in gen.TURNS_PER_SECOND.items()}
    from terragen.cli import main as cli
    t = time.time()
    try:
        cli(["generate", "--players", n, "--difficulty", d, "--seed", seed, "--out", out, "-q"])
    except SystemExit:
        pass
    took = time.time() - t
    data = Path(out, "board.json").read_bytes()
    meta = json.loads(data)["meta"]["balance"]
    print(json.dumps({"scale": scale, "spec": f"{n} {d} {seed}", "seconds": round(took, 1),
                      "md5": hashlib.md5(data).hexdigest()[:10], "best_effort": bool(meta.get("best_effort"))}), flush=True)


if __name__ == "__main__":
    main()
