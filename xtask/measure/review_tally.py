"""The review's side of the planted-blunder measurements (`review_go_blunders.py`,
`review_chess_blunders.py`): each game through `tabula review`, and whether the planted move is
its side's biggest mistake."""

import argparse
import json
import random
import subprocess


def main(doc, game_name, config, default_games, engine_options, play):
    """The scripts' command line: the common options, the engine's (`engine_options(parser)`), then
    `play(args, rng)` makes the games (or `--load` reads them) and each level reviews them."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=default_games)
    parser.add_argument("--levels", type=int, nargs="+", default=[3])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tabula", default="target/release/tabula")
    parser.add_argument("--save", help="write the games (JSON lines) here")
    parser.add_argument("--load", help="review the games saved here instead of playing new ones")
    engine_options(parser)
    args = parser.parse_args()
    if args.load:
        games = [json.loads(line) for line in open(args.load)]
    else:
        games = play(args, random.Random(args.seed))
        if args.save:
            with open(args.save, "w") as out:
                out.writelines(json.dumps(game) + "\n" for game in games)
    tally(args.tabula, game_name, config, games, args.levels, args.seed)
    return 0


def tally(tabula, game_name, config, games, levels, seed):
    """`games`: dicts with `moves` (JSON), `ply` (the planted move, from 1) and `colour` (its side,
    1 or 2). Prints a line per game and level, and each level's share."""
    lines = "".join(json.dumps({"config": config, "moves": g["moves"]}) + "\n" for g in games)
    for level in levels:
        answer = subprocess.run(
            [tabula, "review", game_name, "--level", str(level), "--seed", str(seed)],
            input=lines, capture_output=True, text=True, check=True,
        )
        hits, marked = 0, 0
        for game, line in zip(games, answer.stdout.splitlines()):
            review = json.loads(line)
            theirs = [m for m in review["mistakes"] if m["colour"] == game["colour"]]
            mark = review["marks"][game["ply"] - 1]
            hit = bool(theirs) and theirs[0]["ply"] == game["ply"]
            hits += hit
            marked += mark is not None
            before, after = review["values"][game["ply"] - 1], review["values"][game["ply"]]
            named = "named the biggest" if hit else f"not the biggest: {[m['ply'] for m in theirs[:3]]}"
            print(f"level {level}: move {game['ply']}: mark {mark}, first player's chance {before:.2f} "
                  f"to {after:.2f}, {named}", flush=True)
        print(f"level {level}: the planted move is its side's biggest mistake in {hits} of {len(games)} "
              f"games, marked in {marked}", flush=True)
