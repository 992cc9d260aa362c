#!/usr/bin/env python3
"""One game of the computer against itself, as a JSON line `{"game", "config", "moves"}`: the
games the browser test reviews whole (`cli/tests/e2e/data/review-games.jsonl`, docs/AI.md).

    python3 xtask/measure/self_play.py chess 120 --level 3 --seed 1 --config '{}'
    python3 xtask/measure/self_play.py go 60 --level 3 --seed 1 --config '{"size": 9}'

Asks `tabula ai <game>` (JSON lines, one process) for each move until the game ends or has the
number of moves asked for.
"""

import argparse
import json
import subprocess


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("moves", type=int)
    parser.add_argument("--level", default="3")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--config", default="{}")
    parser.add_argument("--tabula", default="target/release/tabula")
    args = parser.parse_args()
    config = json.loads(args.config)
    command = [args.tabula, "ai", args.game, "--level", args.level, "--seed", args.seed]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as ai:
        moves = []
        while len(moves) < args.moves:
            ai.stdin.write(json.dumps({"config": config, "moves": moves}) + "\n")
            ai.stdin.flush()
            reply = json.loads(ai.stdout.readline())
            if reply.get("move") is None:
                break
            moves.append(reply["move"])
        ai.stdin.close()
    print(json.dumps({"game": args.game, "config": config, "moves": moves}))


if __name__ == "__main__":
    main()
