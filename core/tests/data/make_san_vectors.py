"""Writes san-pyffish.jsonl: SAN of moves in seeded random games, as Fairy-Stockfish writes it.

The reference for `core/tests/fairy_pgn.rs`. Needs `pip install pyffish` (0.0.90 made the file):
    python3 core/tests/data/make_san_vectors.py > core/tests/data/san-pyffish.jsonl
Only our built-in variants whose start position Fairy-Stockfish writes with the same letters.
"""
import json
import random

import pyffish as sf

# Our name -> Fairy-Stockfish's, for the variants both have with the same letters.
VARIANTS = {
    "chess": "chess", "amazon": "amazon", "capablanca": "capablanca", "nightrider": "nightrider",
    "grasshopper": "grasshopper", "grand": "grand", "minichess": "losalamos", "janus": "janus",
    "chancellor9": "chancellor", "knightmate": "knightmate", "shatranj": "shatranj",
}
# Positions near promotion and castling, which random games from the start rarely reach.
ENDINGS = [("chess", "chess", "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1"),
           ("capablanca", "capablanca", "r4k3r/1P6P1/10/10/10/10/1p6p1/R4K3R w KQkq - 0 1"),
           ("grand", "grand", "r8r/1P6k1/10/10/10/10/10/10/1p6K1/R8R w - - 0 1"),
           ("shatranj", "shatranj", "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1")]
CHESS960 = ["bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9"]


def game(variant, ours, fen, chess960, rng, plies):
    moves = []
    for _ in range(plies):
        legal = sf.legal_moves(variant, fen, moves, chess960)
        if not legal:
            break
        here = sf.get_fen(variant, fen, moves, chess960)
        sans = {m: sf.get_san(variant, here, m, chess960) for m in legal}
        # Lean towards the moves notation has most to say about: captures, checks, promotions, castling.
        marked = [m for m, s in sans.items() if any(c in s for c in "x+#=O")]
        move = rng.choice(marked if marked and rng.random() < 0.6 else legal)
        print(json.dumps({"variant": ours, "chess960": chess960, "fen": here, "uci": move, "san": sans[move]}))
        moves.append(move)


rng = random.Random(20261123)
for ours, theirs in VARIANTS.items():
    for _ in range(2):
        game(theirs, ours, sf.start_fen(theirs), False, rng, 70)
for ours, theirs, fen in ENDINGS:
    for _ in range(2):
        game(theirs, ours, fen, False, rng, 24)
for fen in CHESS960:
    game("chess", "chess", fen, True, rng, 60)
