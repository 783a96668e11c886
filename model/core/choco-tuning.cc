// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Tuning of CHOCO-SGD's consensus step size gamma by simulated compressed gossip.
 */
#include "choco-tuning.h"

#include "mixing-weights.h"
#include "round-schedule.h"
#include "sparse-selection.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>

namespace dlsim
{
namespace
{

/**
 * Errors below this fraction of the initial error count as exact consensus (see
 * TuneChocoGamma): with doubles, runs that converge completely level off between about 1e-28
 * and 1e-26 of the initial error, at a value set by rounding, not by gamma.
 */
constexpr double kExactConsensus = 1e-20;

/**
 * The tuner abandons a run once its error exceeds this multiple of the initial error: such a
 * run has diverged (it cannot end below the start in practice), and finishing it only costs
 * time.
 */
constexpr double kAbortFactor = 1e6;

/// Seed offsets, so that the start vectors and the random-k draws are independent streams.
constexpr uint64_t kStartStream = 0x5354415254ULL;    // "START"
constexpr uint64_t kCompressStream = 0x52414E444BULL; // "RANDK"

[[noreturn]] void
Invalid(const std::string& field, const std::string& what)
{
    throw std::invalid_argument("ChocoTuningSpec." + field + ": " + what);
}

/// Spreads nearby (seed, stream) pairs over unrelated generator seeds.
uint64_t
TuningStreamSeed(uint64_t seed, uint64_t stream)
{
    return MixBits(seed + 0x9E3779B97F4A7C15ULL * (stream + 1));
}

/// Uniform in [0, bound). Written out rather than std::uniform_int_distribution, whose output
/// differs between standard libraries, so that a seed gives the same tuning everywhere.
uint64_t
UniformBelow(std::mt19937_64& rng, uint64_t bound)
{
    // Rejection of the top partial block keeps the draw exactly uniform.
    const uint64_t limit
        = std::numeric_limits<uint64_t>::max() - std::numeric_limits<uint64_t>::max() % bound;
    uint64_t r;
    do
    {
        r = rng();
    } while (r >= limit);
    return r % bound;
}

/// Uniform in (0, 1], 53 random bits (portable, unlike std::uniform_real_distribution).
double
UniformOpenClosed(std::mt19937_64& rng)
{
    return ((rng() >> 11) + 1.0) * (1.0 / 9007199254740992.0);
}

void
ValidateSpec(const ChocoTuningSpec& spec)
{
    const auto& nb = spec.neighbours;
    const std::size_t n = nb.size();
    if (n == 0)
    {
        Invalid("neighbours", "the graph has no nodes");
    }
    std::vector<std::vector<uint32_t>> sorted(nb);
    for (std::size_t i = 0; i < n; ++i)
    {
        std::sort(sorted[i].begin(), sorted[i].end());
        for (std::size_t m = 0; m < sorted[i].size(); ++m)
        {
            const uint32_t j = sorted[i][m];
            std::ostringstream where;
            where << "node " << i << " lists " << j;
            if (j >= n)
            {
                Invalid("neighbours", where.str() + ", which is not a node");
            }
            if (j == i)
            {
                Invalid("neighbours", where.str() + " (a self-loop)");
            }
            if (m > 0 && sorted[i][m - 1] == j)
            {
                Invalid("neighbours", where.str() + " twice");
            }
        }
    }
    for (std::size_t i = 0; i < n; ++i)
    {
        for (uint32_t j : sorted[i])
        {
            if (!std::binary_search(sorted[j].begin(), sorted[j].end(), static_cast<uint32_t>(i)))
            {
                std::ostringstream what;
                what << "not symmetric: node " << i << " lists " << j << " but not the reverse";
                Invalid("neighbours", what.str());
            }
        }
    }
    // On a disconnected graph the nodes cannot reach the global average, so every gamma
    // "fails" and the tuning would be meaningless.
    std::vector<bool> seen(n, false);
    std::vector<uint32_t> stack{0};
    seen[0] = true;
    std::size_t reached = 1;
    while (!stack.empty())
    {
        const uint32_t i = stack.back();
        stack.pop_back();
        for (uint32_t j : sorted[i])
        {
            if (!seen[j])
            {
                seen[j] = true;
                ++reached;
                stack.push_back(j);
            }
        }
    }
    if (reached != n)
    {
        Invalid("neighbours", "the graph is not connected");
    }

    if (spec.compression != "topk" && spec.compression != "randomk")
    {
        Invalid("compression", "unknown '" + spec.compression + "' (use topk or randomk)");
    }
    if (!(spec.alpha > 0.0 && spec.alpha <= 1.0))
    {
        std::ostringstream what;
        what << "must be in (0, 1], got " << spec.alpha;
        Invalid("alpha", what.str());
    }
    if (spec.dimension == 0)
    {
        Invalid("dimension", "must be at least 1");
    }
    if (spec.iterations == 0)
    {
        Invalid("iterations", "must be at least 1");
    }
    for (double g : spec.grid)
    {
        if (!(std::isfinite(g) && g > 0.0))
        {
            std::ostringstream what;
            what << "values must be finite and > 0, got " << g;
            Invalid("grid", what.str());
        }
    }
}

/// Metropolis-Hastings weights in adjacency-list form (n is small; no dense matrix needed).
struct Weights
{
    std::vector<double> self;                   ///< w_ii
    std::vector<std::vector<double>> neighbour; ///< w_ij, aligned with spec.neighbours[i]
};

Weights
BuildWeights(const std::vector<std::vector<uint32_t>>& nb)
{
    Weights w;
    w.self.resize(nb.size());
    w.neighbour.resize(nb.size());
    for (std::size_t i = 0; i < nb.size(); ++i)
    {
        double sum = 0.0;
        for (uint32_t j : nb[i])
        {
            const double wij = MetropolisHastingsWeight(nb[i].size(), nb[j].size());
            w.neighbour[i].push_back(wij);
            sum += wij;
        }
        w.self[i] = 1.0 - sum;
    }
    return w;
}

/// Number of entries kept: round(alpha * d), but at least one, or nothing would ever be sent.
uint32_t
KeptEntries(const ChocoTuningSpec& spec)
{
    const double k = std::round(spec.alpha * spec.dimension);
    return static_cast<uint32_t>(std::clamp(k, 1.0, static_cast<double>(spec.dimension)));
}

/**
 * The compression operator C, producing k (index, value) pairs. Its buffers live across calls,
 * so a run allocates nothing per iteration.
 */
class Compressor
{
  public:
    explicit Compressor(const ChocoTuningSpec& spec)
        : m_randomK(spec.compression == "randomk"), m_k(KeptEntries(spec)), m_order(spec.dimension),
          m_rng(TuningStreamSeed(spec.seed, kCompressStream))
    {
        std::iota(m_order.begin(), m_order.end(), 0u);
    }

    uint32_t K() const
    {
        return m_k;
    }

    /// Compress v (length d) into idx/val (length k each); top-k orders ties by `tieSeed`.
    void Compress(const double* v, uint64_t tieSeed, uint32_t* idx, double* val)
    {
        const uint32_t d = m_order.size();
        if (m_k == d)
        {
            // Identity: no selection needed (alpha = 1 is plain gossip).
            for (uint32_t e = 0; e < d; ++e)
            {
                idx[e] = e;
                val[e] = v[e];
            }
            return;
        }
        if (m_randomK)
        {
            // Partial Fisher-Yates: the first k of m_order become a uniform k-subset. m_order
            // need not be reset between calls, since shuffling any permutation gives a
            // uniform subset. No d/k rescaling: CHOCO only needs a contraction
            // E||C(v) - v||^2 <= (1 - delta)||v||^2, not an unbiased C, and the reference
            // code uses the unscaled "random-biased" variant with CHOCO.
            for (uint32_t m = 0; m < m_k; ++m)
            {
                const uint32_t r = m + static_cast<uint32_t>(UniformBelow(m_rng, d - m));
                std::swap(m_order[m], m_order[r]);
            }
        }
        else
        {
            // The operator a run of CHOCO-SGD selects with, ties included.
            m_topK.SelectLargestMagnitudes(v, d, m_k, tieSeed, idx);
            for (uint32_t m = 0; m < m_k; ++m)
            {
                val[m] = v[idx[m]];
            }
            return;
        }
        for (uint32_t m = 0; m < m_k; ++m)
        {
            idx[m] = m_order[m];
            val[m] = v[m_order[m]];
        }
    }

  private:
    bool m_randomK;
    uint32_t m_k;
    std::vector<uint32_t> m_order;
    TopKSelector<double> m_topK;
    std::mt19937_64 m_rng;
};

/// Start vectors, flattened node-major (node i at [i * d, (i + 1) * d)).
std::vector<double>
FlatStart(const ChocoTuningSpec& spec)
{
    const std::size_t n = spec.neighbours.size();
    const std::size_t d = spec.dimension;
    std::vector<double> x(n * d);
    std::mt19937_64 rng(TuningStreamSeed(spec.seed, kStartStream));
    // Box-Muller written out, for the same portability reason as UniformBelow.
    const double twoPi = 6.283185307179586;
    for (std::size_t e = 0; e < x.size(); e += 2)
    {
        const double radius = std::sqrt(-2.0 * std::log(UniformOpenClosed(rng)));
        const double angle = twoPi * UniformOpenClosed(rng);
        x[e] = radius * std::cos(angle);
        if (e + 1 < x.size())
        {
            x[e + 1] = radius * std::sin(angle);
        }
    }
    return x;
}

double
ConsensusError(const std::vector<double>& x, const std::vector<double>& mean, std::size_t n)
{
    const std::size_t d = mean.size();
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i)
    {
        const double* xi = x.data() + i * d;
        for (std::size_t e = 0; e < d; ++e)
        {
            const double diff = xi[e] - mean[e];
            sum += diff * diff;
        }
    }
    return sum / n;
}

/**
 * The CHOCO-GOSSIP simulation behind RunChocoGossip; spec is already validated. The run stops
 * early (repeating the last error) once the error is not finite or exceeds abortFactor times
 * the initial error.
 */
std::vector<double>
Simulate(const ChocoTuningSpec& spec,
         const Weights& w,
         const std::vector<double>& start,
         double gamma,
         double abortFactor,
         std::vector<double>* finalX)
{
    const auto& nb = spec.neighbours;
    const std::size_t n = nb.size();
    const std::size_t d = spec.dimension;

    std::vector<double> mean(d, 0.0);
    for (std::size_t i = 0; i < n; ++i)
    {
        for (std::size_t e = 0; e < d; ++e)
        {
            mean[e] += start[i * d + e];
        }
    }
    for (double& m : mean)
    {
        m /= n;
    }

    // A fresh compressor per run: every gamma sees the same random-k draws, so the grid
    // points differ only in gamma.
    Compressor compressor(spec);
    const std::size_t k = compressor.K();
    const bool dense = k == d;

    std::vector<double> x(start);
    std::vector<double> xHat(n * d, 0.0);
    std::vector<double> s(n * d, 0.0); // s_i = sum_{j in N(i) u {i}} w_ij x̂_j
    std::vector<double> diff(d);
    std::vector<uint32_t> qIdx(n * k);
    std::vector<double> qVal(n * k);

    // Top-k's ties are ordered as in a run: by node i's seed plus the round (from 1).
    std::vector<uint64_t> tieSeeds(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        tieSeeds[i] = DeriveSeed(spec.seed, static_cast<uint32_t>(i), SeedUse::ChocoSelection);
    }

    std::vector<double> errors;
    errors.reserve(spec.iterations + 1);
    errors.push_back(ConsensusError(x, mean, n));
    for (uint32_t t = 0; t < spec.iterations; ++t)
    {
        // All nodes compress before anyone applies a message: the rounds are synchronous.
        for (std::size_t i = 0; i < n; ++i)
        {
            const double* xi = x.data() + i * d;
            const double* hi = xHat.data() + i * d;
            for (std::size_t e = 0; e < d; ++e)
            {
                diff[e] = xi[e] - hi[e];
            }
            compressor.Compress(diff.data(),
                                tieSeeds[i] + t + 1,
                                qIdx.data() + i * k,
                                qVal.data() + i * k);
        }
        for (std::size_t i = 0; i < n; ++i)
        {
            double* hi = xHat.data() + i * d;
            double* si = s.data() + i * d;
            const uint32_t* idx = qIdx.data() + i * k;
            const double* val = qVal.data() + i * k;
            if (dense)
            {
                // Uncompressed: the indices are 0..d-1, and dropping the indirection lets
                // the compiler vectorise.
                for (std::size_t e = 0; e < d; ++e)
                {
                    hi[e] += val[e];
                    si[e] += w.self[i] * val[e];
                }
            }
            else
            {
                for (std::size_t m = 0; m < k; ++m)
                {
                    hi[idx[m]] += val[m];
                    si[idx[m]] += w.self[i] * val[m];
                }
            }
            for (std::size_t a = 0; a < nb[i].size(); ++a)
            {
                const uint32_t j = nb[i][a];
                const double wij = w.neighbour[i][a];
                const uint32_t* jIdx = qIdx.data() + j * k;
                const double* jVal = qVal.data() + j * k;
                if (dense)
                {
                    for (std::size_t e = 0; e < d; ++e)
                    {
                        si[e] += wij * jVal[e];
                    }
                }
                else
                {
                    for (std::size_t m = 0; m < k; ++m)
                    {
                        si[jIdx[m]] += wij * jVal[m];
                    }
                }
            }
        }
        // The gossip step and the consensus error in one pass over x.
        double sum = 0.0;
        for (std::size_t i = 0; i < n; ++i)
        {
            double* xi = x.data() + i * d;
            const double* hi = xHat.data() + i * d;
            const double* si = s.data() + i * d;
            for (std::size_t e = 0; e < d; ++e)
            {
                xi[e] += gamma * (si[e] - hi[e]);
                const double dev = xi[e] - mean[e];
                sum += dev * dev;
            }
        }
        const double err = sum / n;
        errors.push_back(err);
        if (!std::isfinite(err) || err > abortFactor * errors.front())
        {
            // Diverged beyond recovery: skip the rest.
            errors.resize(spec.iterations + 1, err);
            break;
        }
    }
    if (finalX)
    {
        *finalX = std::move(x);
    }
    return errors;
}

bool
Diverged(const std::vector<double>& errors)
{
    const double last = errors.back();
    return !std::isfinite(last) || last > errors.front();
}

} // namespace

std::vector<double>
DefaultChocoGammaGrid()
{
    std::vector<double> grid;
    for (int m = 0; m < 16; ++m)
    {
        grid.push_back(std::pow(10.0, -3.0 + 0.2 * m));
    }
    grid.back() = 1.0; // exact, so that alpha = 1 can pick plain gossip's gamma = 1
    return grid;
}

std::vector<std::vector<double>>
ChocoStartVectors(const ChocoTuningSpec& spec)
{
    ValidateSpec(spec);
    const std::vector<double> flat = FlatStart(spec);
    const std::size_t d = spec.dimension;
    std::vector<std::vector<double>> start(spec.neighbours.size());
    for (std::size_t i = 0; i < start.size(); ++i)
    {
        start[i].assign(flat.begin() + i * d, flat.begin() + (i + 1) * d);
    }
    return start;
}

std::vector<double>
RunChocoGossip(const ChocoTuningSpec& spec, double gamma, std::vector<std::vector<double>>* finalX)
{
    ValidateSpec(spec);
    if (!(std::isfinite(gamma) && gamma >= 0.0))
    {
        std::ostringstream what;
        what << "RunChocoGossip: gamma must be finite and >= 0, got " << gamma;
        throw std::invalid_argument(what.str());
    }
    std::vector<double> flatX;
    std::vector<double> errors = Simulate(spec,
                                          BuildWeights(spec.neighbours),
                                          FlatStart(spec),
                                          gamma,
                                          std::numeric_limits<double>::infinity(),
                                          finalX ? &flatX : nullptr);
    if (finalX)
    {
        const std::size_t d = spec.dimension;
        finalX->assign(spec.neighbours.size(), {});
        for (std::size_t i = 0; i < finalX->size(); ++i)
        {
            (*finalX)[i].assign(flatX.begin() + i * d, flatX.begin() + (i + 1) * d);
        }
    }
    return errors;
}

ChocoTuningResult
TuneChocoGamma(const ChocoTuningSpec& spec)
{
    ValidateSpec(spec);
    const std::vector<double> grid = spec.grid.empty() ? DefaultChocoGammaGrid() : spec.grid;
    const Weights w = BuildWeights(spec.neighbours);
    const std::vector<double> start = FlatStart(spec);

    ChocoTuningResult result;
    result.bestGamma = std::numeric_limits<double>::quiet_NaN();
    result.initialError = 0.0;

    // Ranking key: (reached exact consensus ? iteration it got there : T + 1, final error,
    // -gamma), smallest wins. Comparing final errors that are all rounding noise would pick a
    // gamma at random once several of them converge completely.
    bool haveBest = false;
    uint32_t bestReach = 0;
    double bestError = 0.0;
    for (double gamma : grid)
    {
        const std::vector<double> errors = Simulate(spec, w, start, gamma, kAbortFactor, nullptr);
        result.initialError = errors.front();
        const bool diverged = Diverged(errors);
        result.points.push_back({gamma, errors.back(), diverged});
        if (diverged)
        {
            continue;
        }
        const double floor = kExactConsensus * errors.front();
        uint32_t reach = spec.iterations + 1;
        if (errors.back() <= floor)
        {
            reach = static_cast<uint32_t>(
                std::find_if(errors.begin(), errors.end(), [floor](double e) { return e <= floor; })
                - errors.begin());
        }
        const double error = reach <= spec.iterations ? 0.0 : errors.back();
        const bool better
            = !haveBest || reach < bestReach
              || (reach == bestReach
                  && (error < bestError || (error == bestError && gamma > result.bestGamma)));
        if (better)
        {
            haveBest = true;
            bestReach = reach;
            bestError = error;
            result.bestGamma = gamma;
        }
    }
    if (!haveBest)
    {
        throw std::runtime_error("TuneChocoGamma: every gamma of the grid diverged");
    }
    return result;
}

} // namespace dlsim
