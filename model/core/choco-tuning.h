// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Tuning of CHOCO-SGD's consensus step size gamma (the module documentation, "CHOCO-SGD").
 * As in the reference code (epfml/ChocoSGD, dl_code/pcode/tools/tune_consensus_stepsize.py),
 * gamma is chosen by running compressed gossip (CHOCO-GOSSIP, Koloskova et al. ICML 2019,
 * Algorithm 1 without gradients) on random vectors for every gamma of a log grid and keeping the
 * one with the smallest final consensus error. Standard library only, so it can run before (or
 * without) a simulation.
 */
#ifndef DLSIM_CHOCO_TUNING_H
#define DLSIM_CHOCO_TUNING_H

#include <cstdint>
#include <string>
#include <vector>

namespace dlsim
{

/// What to tune for: the graph, the compression, and the size of the simulated gossip.
struct ChocoTuningSpec
{
    /// Undirected graph: neighbours[i] lists the neighbours of node i (no self-loops, no
    /// duplicates, j in neighbours[i] iff i in neighbours[j]); it must be connected.
    std::vector<std::vector<uint32_t>> neighbours;
    /// "topk" (largest magnitudes) or "randomk" (uniform random subset, not rescaled).
    std::string compression = "topk";
    /// Fraction of the entries kept, in (0, 1]; k = round(alpha * dimension), at least 1.
    double alpha = 0.1;
    /// Length of the random vectors (entries drawn i.i.d. N(0, 1), one vector per node).
    uint32_t dimension = 1000;
    /// Gossip iterations per gamma (at least 1).
    uint32_t iterations = 500;
    /// Gammas to try, each finite and > 0. Empty: DefaultChocoGammaGrid().
    std::vector<double> grid;
    /// Seeds the start vectors and the random-k draws (the same for every gamma).
    uint64_t seed = 1;
};

/// Outcome of one gamma.
struct ChocoTuningPoint
{
    double gamma; ///< Consensus step size tried.
    /// Consensus error after spec.iterations iterations. For a diverged run the tuner stops
    /// early (error not finite or above 1e6 times the initial error) and reports that error.
    double finalError;
    bool diverged; ///< Non-finite error, or final error above the initial error.
};

/// Outcome of a tuning run.
struct ChocoTuningResult
{
    double bestGamma;                     ///< Chosen consensus step size.
    double initialError;                  ///< Consensus error of the start vectors.
    std::vector<ChocoTuningPoint> points; ///< One per grid value, in grid order.
};

/**
 * Default gamma grid: 16 values 10^(-3 + 0.2 m), m = 0..15, i.e. 0.001 to 1 with a factor
 * 10^0.2 (about 1.585) between neighbours. (The reference code uses 20 values over the same
 * range; 16 gives round decades at every fifth value at 4/5 of the cost.)
 * \return the grid, ascending
 */
std::vector<double> DefaultChocoGammaGrid();

/**
 * Pick gamma for CHOCO-SGD: for every gamma of the grid, run RunChocoGossip from the same start
 * vectors (and, for random-k, the same random draws) and compare the final consensus errors.
 * Diverged points are never chosen. Among the others the smallest final error wins; errors
 * below 1e-20 of the initial error count as exact consensus (beneath that, the differences are
 * rounding noise), and among those the gamma that got there in the fewest iterations wins.
 * Remaining ties go to the larger gamma.
 *
 * \param spec the graph, compression, size and grid
 * \return the chosen gamma and every point tried
 * \throws std::invalid_argument on a bad spec, naming the field (neighbours, compression,
 *         alpha, dimension, iterations, grid).
 * \throws std::runtime_error if every gamma of the grid diverged.
 */
ChocoTuningResult TuneChocoGamma(const ChocoTuningSpec& spec);

/**
 * One CHOCO-GOSSIP run (exposed for tests). Every node i starts from x_i (ChocoStartVectors),
 * x̂_i = 0 and s_i = 0, and per iteration, all nodes synchronously:
 *   q_i = C(x_i - x̂_i); x̂_i += q_i; s_i += w_ii q_i + sum_{j in N(i)} w_ij q_j;
 *   x_i += gamma (s_i - x̂_i),
 * with Metropolis-Hastings weights. Returns the consensus error (1/n) sum_i ||x_i - xbar||^2,
 * xbar being the initial average, after each iteration: size iterations + 1, [0] = start.
 * Once the error is no longer finite the run stops and the last value is repeated.
 *
 * \param spec the graph, compression and size
 * \param gamma the consensus step size
 * \param finalX if not null, receives the final x_i (one vector per node).
 * \return the consensus error after each iteration
 * \throws std::invalid_argument on a bad spec or a gamma that is negative or not finite.
 */
std::vector<double> RunChocoGossip(const ChocoTuningSpec& spec,
                                   double gamma,
                                   std::vector<std::vector<double>>* finalX = nullptr);

/**
 * \param spec the graph, size and seed
 * \return the start vectors every run uses (exposed for tests): start[i] is node i's vector
 */
std::vector<std::vector<double>> ChocoStartVectors(const ChocoTuningSpec& spec);

} // namespace dlsim

#endif // DLSIM_CHOCO_TUNING_H
