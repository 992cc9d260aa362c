"""Random games played by Fairy-Stockfish (pyffish): each move chosen uniformly among its legal moves.

Input (JSON on stdin): {"variants": [[our name, Fairy-Stockfish's name], ...], "games": N,
"plies": P, "seed": S, "scripted": [[our name, its name, start FEN, [moves]], ...]}: random games,
then games that play the given moves (to reach endings random play rarely finds). Output: one JSON line per game with every position Fairy-Stockfish saw
(its legal moves, FEN and check) and how it says the game ended. Driven by
`cli/tests/fairy_stockfish.rs`, which replays the moves with our engine and compares.
"""
import json
import random
import sys

import pyffish as sf


def ending(variant, fen, moves, legal):
    """Fairy-Stockfish's end of the game at this position, in our reasons, or None."""
    # First: a game over by a variant's own rule (shatranj's bare king) also has no legal moves.
    immediate, result = sf.is_immediate_game_end(variant, fen, moves)
    if immediate:
        return "immediate:%d" % result
    if not legal:
        if sf.gives_check(variant, fen, moves):
            return "checkmate"
        return "stalemate:%d" % sf.game_result(variant, fen, moves)
    optional, _ = sf.is_optional_game_end(variant, fen, moves)
    if optional:
        clock = int(sf.get_fen(variant, fen, moves).split()[-2])
        return "fifty_moves" if clock >= 100 else "repetition"
    if sf.has_insufficient_material(variant, fen, moves) == (True, True):
        return "insufficient_material"
    return None


def play(ours, theirs, start, game, choose, plies):
    """One game from `start`; `choose(legal, ply)` picks each move (None: stop)."""
    moves, positions, end = [], [], None
    # Fairy-Stockfish is asked from the last capture or pawn move on (all that repetition
    # needs), so its work per position stays bounded.
    root, since = start, []
    for ply in range(plies + 1):
        fen = sf.get_fen(theirs, root, since)
        if since and fen.split()[-2] == "0":
            root, since = fen, []
        legal = sorted(sf.legal_moves(theirs, root, since))
        positions.append({"legal": legal, "fen": fen, "check": sf.gives_check(theirs, root, since)})
        end = ending(theirs, root, since, legal)
        move = None if end is not None or ply == plies else choose(legal, ply)
        if move is None:
            break
        moves.append(move)
        since = since + [move]
    print(json.dumps({"ours": ours, "theirs": theirs, "game": game, "start": start,
                      "moves": moves, "positions": positions, "end": end}))


def main():
    job = json.load(sys.stdin)
    rng = random.Random(job["seed"])
    for ours, theirs in job["variants"]:
        for game in range(job["games"]):
            play(ours, theirs, sf.start_fen(theirs), game, lambda legal, _: rng.choice(legal), job["plies"])
    for index, (ours, theirs, start, script) in enumerate(job.get("scripted", [])):
        start = start or sf.start_fen(theirs)
        play(ours, theirs, start, "scripted %d" % index,
             lambda legal, ply: script[ply] if ply < len(script) else None, len(script))


main()
