// Plain UCT over the public C++ POPUCOM engine (`c/game.cpp` of liemark/popucom_chess_c-python),
// speaking `tabula ai`'s JSON Lines, for `tabula arena popucom --b 'jsonl:uct-player PLAYOUTS
// {seed}'` (built by `cargo xtask popucom-reference --uct-player`): the yardstick of issue 51
// played by the C++ engine's rules. The same algorithm as our `uct:PLAYOUTS`: UCT with weight 0.7,
// one node added per playout, uniformly random playouts to the end, the most visited move.
//
// Reads `{"config", "moves": [{"row", "col"}, ...], ...}` (the config is not read: the C++ engine
// knows only the standard game) and answers `{"move": {"row", "col"}}`, `{"move": null}` when
// the game is over, or `{"error": {...}}` when the engine refuses a move of the list.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "game.h"
#include "xorshift.h"

static int random_below(int n) { return (int)((next_random() >> 16) % (uint64_t)n); }

static std::vector<int> legal_squares(const Board& board) {
    std::vector<int> squares;
    if (get_game_result(&board) != IN_PROGRESS) return squares;
    Bitboards legal = get_legal_moves(&board);
    for (int part = 0; part < 2; ++part) {
        for (uint64_t word = legal.parts[part]; word; word &= word - 1) {
            squares.push_back(part * 64 + __builtin_ctzll(word));
        }
    }
    return squares;
}

static double reward_for(int player, GameResult result) {
    if (result == DRAW) return 0.5;
    return (result == BLACK_WIN) == (player == BLACK) ? 1.0 : 0.0;
}

struct Node {
    int square;  // the move that led here (-1 at the root)
    int mover;   // who made it
    int parent;
    std::vector<int> children;
    std::vector<int> untried;
    bool listed = false;
    int visits = 0;
    double wins = 0;  // for the mover
};

static int search(const Board& root, int playouts) {
    std::vector<Node> nodes;
    nodes.push_back(Node{-1, 1 - root.current_player, -1});
    for (int i = 0; i < playouts; ++i) {
        Board board;
        copy_board(&root, &board);
        int node = 0;
        for (;;) {
            if (!nodes[node].listed) {
                nodes[node].untried = legal_squares(board);
                nodes[node].listed = true;
            }
            if (!nodes[node].untried.empty()) {
                std::vector<int>& untried = nodes[node].untried;
                int pick = random_below((int)untried.size());
                int square = untried[pick];
                untried[pick] = untried.back();
                untried.pop_back();
                int mover = board.current_player;
                make_move(&board, square);
                nodes.push_back(Node{square, mover, node});
                int child = (int)nodes.size() - 1;
                nodes[node].children.push_back(child);
                node = child;
                break;
            }
            if (nodes[node].children.empty()) break;  // the game is over here
            double bonus = 0.7 * std::sqrt(std::log((double)nodes[node].visits));
            int best = -1;
            double best_score = -1;
            for (int child : nodes[node].children) {
                const Node& c = nodes[child];
                double score = c.wins / c.visits + bonus / std::sqrt((double)c.visits);
                if (score > best_score) best = child, best_score = score;
            }
            make_move(&board, nodes[best].square);
            node = best;
        }
        GameResult result;
        while ((result = get_game_result(&board)) == IN_PROGRESS) {
            Bitboards legal = get_legal_moves(&board);
            int low = __builtin_popcountll(legal.parts[0]);
            int k = random_below(low + __builtin_popcountll(legal.parts[1]));
            uint64_t word = k < low ? legal.parts[0] : legal.parts[1];
            for (int skip = k < low ? k : k - low; skip > 0; --skip) word &= word - 1;
            make_move(&board, (k < low ? 0 : 64) + __builtin_ctzll(word));
        }
        for (; node >= 0; node = nodes[node].parent) {
            nodes[node].visits++;
            nodes[node].wins += reward_for(nodes[node].mover, result);
        }
    }
    int best = -1;
    for (int child : nodes[0].children) {
        if (best < 0 || nodes[child].visits > nodes[best].visits) best = child;
    }
    return best < 0 ? -1 : nodes[best].square;
}

// The number after `key` at or after `from`, and where it ends; -1 if there is none.
static long number_after(const std::string& line, const char* key, size_t& from) {
    size_t at = line.find(key, from);
    if (at == std::string::npos) return -1;
    at += std::string(key).size();
    while (at < line.size() && (line[at] == ' ' || line[at] == ':')) ++at;
    char* end = nullptr;
    long value = strtol(line.c_str() + at, &end, 10);
    from = (size_t)(end - line.c_str());
    return value;
}

int main(int argc, char** argv) {
    int playouts = argc > 1 ? atoi(argv[1]) : 200000;
    if (argc > 2) state ^= strtoull(argv[2], nullptr, 10) * 0x2545F4914F6CDD1DULL;
    if (state == 0) state = 1;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        Board board;
        init_board(&board);
        size_t from = line.find("\"moves\"");
        bool refused = false;
        int played = 0;
        for (long row; from != std::string::npos && (row = number_after(line, "\"row\"", from)) >= 0; ++played) {
            long col = number_after(line, "\"col\"", from);
            refused = col < 0 || row >= BOARD_HEIGHT || col >= BOARD_WIDTH || !make_move(&board, get_sq(row, col));
            if (refused) break;
        }
        if (from == std::string::npos) {
            printf("{\"error\":{\"code\":\"bad_request\",\"message\":\"no \\\"moves\\\"\"}}\n");
        } else if (refused) {
            printf("{\"error\":{\"code\":\"bad_moves\",\"message\":\"the C++ engine refuses move %d\"}}\n", played);
        } else {
            int square = search(board, playouts);
            if (square < 0) {
                printf("{\"move\":null}\n");
            } else {
                printf("{\"move\":{\"row\":%d,\"col\":%d}}\n", get_row(square), get_col(square));
            }
        }
        fflush(stdout);
    }
    return 0;
}
