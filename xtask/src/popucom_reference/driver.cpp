// Uniform random playouts over the public C++ POPUCOM engine (`c/game.cpp` of
// liemark/popucom_chess_c-python), for `cargo xtask popucom-reference`: from the empty board to
// the end, each move picked uniformly among `get_legal_moves` with a xorshift generator, for the
// given seconds. Prints what `tabula bench popucom` prints last (`playouts_per_sec=`), and the share
// of draws, which should match ours (about 4.7%) if both play the same game.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "game.h"
#include "xorshift.h"

#ifdef __BMI2__
#include <immintrin.h>
#endif

// The k-th set bit (from 0) of a word: one instruction with BMI2 (-march=native here), else walked.
static inline int kth_bit(uint64_t word, int k) {
#ifdef __BMI2__
    return __builtin_ctzll(_pdep_u64(1ULL << k, word));
#else
    for (int i = 0; i < k; ++i) word &= word - 1;
    return __builtin_ctzll(word);
#endif
}

// One playout; returns the result. The legal moves are computed once a move (the engine's
// `make_move` checks them again itself).
static GameResult playout() {
    Board board;
    init_board(&board);
    for (;;) {
        if (board.moves_left[BLACK] <= 0 && board.moves_left[WHITE] <= 0) return get_game_result(&board);
        Bitboards legal = get_legal_moves(&board);
        int low = __builtin_popcountll(legal.parts[0]);
        int count = low + __builtin_popcountll(legal.parts[1]);
        if (count == 0) return get_game_result(&board);
        int k = (int)((next_random() >> 16) % (uint64_t)count);
        int square = k < low ? kth_bit(legal.parts[0], k) : 64 + kth_bit(legal.parts[1], k - low);
        if (!make_move(&board, square)) {
            fprintf(stderr, "the engine refused its own legal move %d\n", square);
            exit(1);
        }
    }
}

int main(int argc, char** argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 5.0;
    long playouts = 0, draws = 0;
    double elapsed = 0;
    auto start = std::chrono::steady_clock::now();
    while (elapsed < seconds) {
        for (int i = 0; i < 1000; ++i) {
            if (playout() == DRAW) draws++;
            playouts++;
        }
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    printf("playouts=%ld draws=%.1f%%\n", playouts, 100.0 * (double)draws / (double)playouts);
    printf("playouts_per_sec=%.0f\n", (double)playouts / elapsed);
    return 0;
}
