"""Random games played by Fairy-Stockfish (pyffish): each move chosen uniformly among its legal moves.

Input (JSON on stdin): {"variants": [[our name, Fairy-Stockfish's name], ...], "games": N,
"plies": P, "seed": S}. Output: one JSON line per game with every position Fairy-Stockfish saw
(its legal moves, FEN and check) and how it says the game ended. Driven by
`cli/tests/fairy_stockfish.rs`, which replays the moves with our engine and compares.
"""
import json
import random
import sys

import pyffish as sf


def ending(variant, fen, moves, legal):
    """Fairy-Stockfish's end of the game at this position, in our reasons, or None."""
    if not legal:
        if sf.gives_check(variant, fen, moves):
            return "checkmate"
        return "stalemate:%d" % sf.game_result(variant, fen, moves)
    immediate, result = sf.is_immediate_game_end(variant, fen, moves)
    if immediate:
        return "immediate:%d" % result
    optional, _ = sf.is_optional_game_end(variant, fen, moves)
    if optional:
        clock = int(sf.get_fen(variant, fen, moves).split()[-2])
        return "fifty_moves" if clock >= 100 else "repetition"
    if sf.has_insufficient_material(variant, fen, moves) == (True, True):
        return "insufficient_material"
    return None


def main():
    job = json.load(sys.stdin)
    rng = random.Random(job["seed"])
    for ours, theirs in job["variants"]:
        start = sf.start_fen(theirs)
        for game in range(job["games"]):
            moves, positions, end = [], [], None
            # Fairy-Stockfish is asked from the last capture or pawn move on (all that repetition
            # needs), so its work per position stays bounded.
            root, since = start, []
            for _ in range(job["plies"] + 1):
                fen = sf.get_fen(theirs, root, since)
                if since and fen.split()[-2] == "0":
                    root, since = fen, []
                legal = sorted(sf.legal_moves(theirs, root, since))
                positions.append({"legal": legal, "fen": fen, "check": sf.gives_check(theirs, root, since)})
                end = ending(theirs, root, since, legal)
                if end is not None or len(moves) == job["plies"]:
                    break
                move = rng.choice(legal)
                moves.append(move)
                since = since + [move]
            print(json.dumps({"ours": ours, "theirs": theirs, "game": game, "start": start,
                              "moves": moves, "positions": positions, "end": end}))


main()
