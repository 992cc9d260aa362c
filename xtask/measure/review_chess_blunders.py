#!/usr/bin/env python3
"""How often the review with the computer names a move that gives away a piece (issue 49,
docs/AI.md), as Fairy-Stockfish judges it.

Fairy-Stockfish plays itself (orthodox chess, a fixed depth) from a seeded random opening. From a
seeded move on, at the first position that is close (Fairy-Stockfish's score within CLOSE
centipawns), the side to move instead plays a move that loses at least a piece by
Fairy-Stockfish's search (its score for the mover falls by PIECE centipawns or more; a seeded
choice among such moves); Fairy-Stockfish then plays on for FOLLOW plies. Each game goes to
`tabula review chess --level L`; a hit is a review whose biggest mistake of that side is the
planted move.

    python3 xtask/measure/review_chess_blunders.py --games 30 --levels 3 4 --seed 1 \\
        --tabula target/release/tabula --engine /path/to/fairy-stockfish

Fairy-Stockfish is built here for measurement only (docs/AI.md); it is no part of the test command.
"""

import re
import subprocess
import sys

import review_tally

CLOSE = 150
PIECE = 300
FOLLOW = 6
MATE = 10000


class Uci:
    def __init__(self, engine, depth):
        self.depth = depth
        self.process = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("uci")
        self.until("uciok")
        self.send("setoption name Threads value 1")
        self.send("isready")
        self.until("readyok")

    def send(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.process.stdout.readline()
            if line == "":
                raise RuntimeError(f"the engine ended waiting for {prefix!r}")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def legal(self, moves):
        self.send(f"position startpos moves {' '.join(moves)}")
        self.send("go perft 1")
        lines = self.until("Nodes searched")
        return [line.split(":")[0] for line in lines if re.fullmatch(r"[a-z]\d+[a-z]\d+[a-z+]?: \d+", line)]

    def search(self, moves, depth=None):
        """(best move or None, score in centipawns for the side to move)."""
        self.send(f"position startpos moves {' '.join(moves)}")
        self.send(f"go depth {depth or self.depth}")
        score = 0
        for line in self.until("bestmove"):
            words = line.split()
            if "score" in words:
                at = words.index("score")
                kind, value = words[at + 1], int(words[at + 2])
                score = value if kind == "cp" else (MATE - abs(value)) * (1 if value > 0 else -1)
            if words and words[0] == "bestmove":
                best = words[1] if words[1] != "(none)" else None
        return best, score

    def close(self):
        self.send("quit")
        self.process.wait()


def planted_game(uci, rng):
    """A game with a planted piece given away: (UCI moves, the planted ply from 1, the mover's
    loss in centipawns), or None if the game ended first."""
    moves = []
    opening = rng.randint(2, 6)
    plant_from = rng.randint(10, 40)
    while len(moves) < 120:
        legal = uci.legal(moves)
        if not legal:
            return None
        if len(moves) < opening:
            moves.append(rng.choice(legal))
            continue
        best, score = uci.search(moves)
        if best is None:
            return None
        if len(moves) >= plant_from and abs(score) <= CLOSE:
            losses = []
            for move in legal:
                _, reply = uci.search(moves + [move], uci.depth - 1)
                loss = score + reply
                if loss >= PIECE and abs(reply) < MATE // 2:
                    losses.append((move, loss))
            if losses:
                move, loss = rng.choice(sorted(losses))
                moves.append(move)
                ply = len(moves)
                for _ in range(FOLLOW):
                    reply, _ = uci.search(moves)
                    if reply is None:
                        break
                    moves.append(reply)
                return moves, ply, loss
        moves.append(best)
    return None


def engine_options(parser):
    parser.add_argument("--engine", required=True, help="a Fairy-Stockfish binary")
    parser.add_argument("--depth", type=int, default=10)


def play(args, rng):
    uci = Uci(args.engine, args.depth)
    games = []
    while len(games) < args.games:
        found = planted_game(uci, rng)
        if found is None:
            continue
        moves, ply, loss = found
        games.append({"moves": moves, "ply": ply, "colour": 1 if ply % 2 else 2, "loss": loss})
        print(f"game {len(games)}: ply {ply} ({moves[ply - 1]}) loses {loss} centipawns by "
              f"Fairy-Stockfish at depth {args.depth}", flush=True)
    uci.close()
    return games


if __name__ == "__main__":
    sys.exit(review_tally.main(__doc__, "chess", {}, 30, engine_options, play))
