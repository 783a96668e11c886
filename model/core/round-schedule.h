// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Where the rounds of a run get their graph and their random numbers: one rule for each, used
 * by the simulator, the in-memory network and the algorithms alike.
 */
#ifndef DLSIM_ROUND_SCHEDULE_H
#define DLSIM_ROUND_SCHEDULE_H

#include <cstddef>
#include <cstdint>

namespace dlsim
{

/**
 * \param round a round (from 1)
 * \param period rounds per phase
 * \param phases the number of phases
 * \return the phase of a time-varying overlay the round uses: phases rotate every `period`
 * rounds, phase 0 first
 */
inline size_t
PhaseOfRound(uint32_t round, uint32_t period, size_t phases)
{
    return ((round - 1) / period) % phases;
}

/**
 * \brief SplitMix64's finaliser: a cheap, well-mixed 64-bit hash (tie orders, generator seeds).
 * \param z the value
 * \return its hash
 */
inline uint64_t
MixBits(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// What a derived seed is for: each use gets its own stream, so that one use drawing more or
/// fewer numbers never shifts another.
enum class SeedUse
{
    InitialModel,    ///< a learner's initial weights (when learners do not share one)
    Sampling,        ///< a learner's mini-batch draws
    RandomSelection, ///< random sampling's masks and top-k's tie order (partial-model family)
    ChocoSelection,  ///< CHOCO-SGD's random-k draws and top-k tie order
    PushSelection,   ///< Sparse-Push's top-k tie order
    Validation,      ///< the training samples held out for validation (learner 0)
    PartnerChoice,   ///< AD-PSGD's choice of the neighbour to average with
};

/**
 * \param runSeed the run's seed
 * \param learner the learner's index
 * \param use what the seed is for
 * \return the seed of that use at that learner
 */
inline uint64_t
DeriveSeed(uint64_t runSeed, uint32_t learner, SeedUse use)
{
    switch (use)
    {
        case SeedUse::InitialModel:
            return runSeed * 1000003ull + learner;
        case SeedUse::Sampling:
            return (runSeed + 1) * 0x9E3779B97F4A7C15ull + learner;
        case SeedUse::RandomSelection:
            return runSeed * 1000003ull + learner * 7919ull + 1;
        case SeedUse::ChocoSelection:
            return runSeed * 1000003ull + learner * 7919ull + 2;
        case SeedUse::Validation:
            return runSeed * 1000003ull + learner * 7919ull + 4;
        case SeedUse::PartnerChoice:
            return runSeed * 1000003ull + learner * 7919ull + 5;
        case SeedUse::PushSelection:
        default:
            return runSeed * 1000003ull + learner * 7919ull + 3;
    }
}

} // namespace dlsim

#endif // DLSIM_ROUND_SCHEDULE_H
