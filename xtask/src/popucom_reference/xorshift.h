// The generator both C++ programs of `cargo xtask popucom-reference` draw from: xorshift64.
#pragma once
#include <cstdint>

static uint64_t state = 0x9E3779B97F4A7C15ULL;

static inline uint64_t next_random() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}
