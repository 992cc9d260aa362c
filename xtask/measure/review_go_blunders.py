#!/usr/bin/env python3
"""How often the review with the computer names a planted Go blunder (issue 49, docs/AI.md).

GNU Go 3.8 plays itself on 9x9 (komi 7.5, area scoring) from a seeded random opening. At a seeded
move, the side to move instead puts one of its own groups of at least MIN_STONES stones in atari
(a legal move after which the group has one liberty, where it had more), chosen where GNU Go's own
score estimate says it costs the most (at least MIN_COST points against GNU Go's own move there,
in a game close by that estimate: within CLOSE points);
then GNU Go plays on for FOLLOW moves. Each such game goes to `tabula review go --level L`; a hit
is a review whose biggest mistake of the planting side is the planted move.

    python3 xtask/measure/review_go_blunders.py --games 20 --levels 3 4 --seed 1 \\
        --tabula target/release/tabula --gnugo /usr/games/gnugo

Prints one line per game and a tally per level. A measurement tool, not part of the test command
(GNU Go is slow to set up a game: about 10 s each).
"""

import subprocess
import sys

import review_tally

SIZE = 9
KOMI = 7.5
LETTERS = "ABCDEFGHJ"
MIN_STONES = 4
MIN_COST = 10.0
# Only where the game is close by GNU Go's estimate after its own move (points for the side to
# move): a blunder in a game already lost or won moves no chance of winning.
CLOSE = 6.0
FOLLOW = 6


class Gtp:
    def __init__(self, gnugo, level):
        self.process = subprocess.Popen(
            [gnugo, "--mode", "gtp", "--level", str(level), "--chinese-rules"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if line == "":
                raise RuntimeError(f"GNU Go ended at {command!r}")
            if line.strip() == "" and lines:
                break
            if line.strip():
                lines.append(line.strip())
        answer = " ".join(lines)
        if not answer.startswith("="):
            raise RuntimeError(f"{command!r}: {answer}")
        return answer[1:].strip()

    def close(self):
        self.ask("quit")
        self.process.wait()


def vertex(col, row):
    return f"{LETTERS[col]}{row + 1}"


def board_of(gtp):
    board = {}
    for colour, name in ((1, "black"), (2, "white")):
        for v in gtp.ask(f"list_stones {name}").split():
            board[(LETTERS.index(v[0].upper()), int(v[1:]) - 1)] = colour
    return board


def neighbours(point):
    col, row = point
    for c, r in ((col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1)):
        if 0 <= c < SIZE and 0 <= r < SIZE:
            yield (c, r)


def groups(board, colour):
    """Each group of `colour`: (stones, liberties)."""
    seen, found = set(), []
    for point, c in board.items():
        if c != colour or point in seen:
            continue
        stones, liberties, stack = {point}, set(), [point]
        while stack:
            for n in neighbours(stack.pop()):
                if board.get(n) == colour and n not in stones:
                    stones.add(n)
                    stack.append(n)
                elif n not in board:
                    liberties.add(n)
        seen |= stones
        found.append((stones, liberties))
    return found


def score_for(estimate, colour):
    """GNU Go's `estimate_score` ("B+9.2", "W+3.0") as points for `colour` (1 black)."""
    word = estimate.split()[0]
    points = float(word[2:]) if len(word) > 2 else 0.0
    black = points if word.startswith("B") else -points
    return black if colour == 1 else -black


def gtp_colour(colour):
    return "black" if colour == 1 else "white"


def plant(gtp, colour):
    """The move that puts a large group of `colour` in atari at the greatest cost by GNU Go's
    estimate, with that cost; None if there is none costing MIN_COST or more."""
    board = board_of(gtp)
    before = {frozenset(stones): len(libs) for stones, libs in groups(board, colour)}
    candidates = []
    for stones, libs in groups(board, colour):
        if len(stones) >= MIN_STONES - 1 and len(libs) == 2:
            candidates += [lib for lib in libs]
    # GNU Go's own move here, as the yardstick.
    own = gtp.ask(f"reg_genmove {gtp_colour(colour)}")
    gtp.ask(f"play {gtp_colour(colour)} {own}")
    yardstick = score_for(gtp.ask("estimate_score"), colour)
    gtp.ask("undo")
    if abs(yardstick) > CLOSE:
        return None
    best = None
    for point in sorted(set(candidates)):
        move = vertex(*point)
        try:
            gtp.ask(f"play {gtp_colour(colour)} {move}")
        except RuntimeError:
            continue
        after = board_of(gtp)
        in_atari = [
            stones
            for stones, libs in groups(after, colour)
            if len(stones) >= MIN_STONES and len(libs) == 1 and before.get(frozenset(stones - {point}), 2) >= 2
        ]
        cost = yardstick - score_for(gtp.ask("estimate_score"), colour) if in_atari else 0.0
        gtp.ask("undo")
        if in_atari and cost >= MIN_COST and (best is None or cost > best[1]):
            best = (move, cost, max(len(s) for s in in_atari))
    return best


def move_json(colour, move):
    if move.lower() == "pass":
        return {"type": "pass", "colour": colour}
    return {"type": "play", "at": move.upper(), "colour": colour}


def planted_game(gtp, rng):
    """A game with a planted blunder: (moves as JSON, the planted ply from 1, its cost, the group's
    size), or None if the game offered no plant."""
    gtp.ask("clear_board")
    moves = []
    colour = 1
    opening = rng.randint(2, 4)
    plant_from = rng.randint(14, 40)
    while len(moves) < 80:
        if len(moves) < opening:
            empty = [(c, r) for c in range(1, SIZE - 1) for r in range(1, SIZE - 1)]
            board = board_of(gtp)
            move = vertex(*rng.choice([p for p in empty if p not in board]))
            gtp.ask(f"play {gtp_colour(colour)} {move}")
        elif len(moves) >= plant_from:
            planted = plant(gtp, colour)
            if planted is not None:
                move, cost, stones = planted
                gtp.ask(f"play {gtp_colour(colour)} {move}")
                moves.append(move_json(colour, move))
                ply = len(moves)
                for _ in range(FOLLOW):
                    colour = 3 - colour
                    reply = gtp.ask(f"genmove {gtp_colour(colour)}")
                    if reply.lower() in ("pass", "resign"):
                        break
                    moves.append(move_json(colour, reply))
                return moves, ply, cost, stones
            move = gtp.ask(f"genmove {gtp_colour(colour)}")
        else:
            move = gtp.ask(f"genmove {gtp_colour(colour)}")
        if move.lower() in ("pass", "resign"):
            return None
        moves.append(move_json(colour, move))
        colour = 3 - colour
    return None


def engine_options(parser):
    parser.add_argument("--gnugo", default="/usr/games/gnugo")
    parser.add_argument("--gnugo-level", type=int, default=5)


def play(args, rng):
    gtp = Gtp(args.gnugo, args.gnugo_level)
    gtp.ask(f"boardsize {SIZE}")
    gtp.ask(f"komi {KOMI}")
    games = []
    while len(games) < args.games:
        found = planted_game(gtp, rng)
        if found is None:
            continue
        moves, ply, cost, stones = found
        colour = moves[ply - 1]["colour"]
        games.append({"moves": moves, "ply": ply, "colour": colour, "cost": cost, "stones": stones})
        print(f"game {len(games)}: move {ply} ({moves[ply - 1]['at']}, {stones} stones in atari, "
              f"GNU Go: costs {cost:.1f} points)", flush=True)
    gtp.close()
    return games


if __name__ == "__main__":
    sys.exit(review_tally.main(__doc__, "go", {"size": SIZE, "komi": KOMI}, 12, engine_options, play))
