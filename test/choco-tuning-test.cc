// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: tests of the CHOCO-SGD consensus step size tuner (compressed gossip on random vectors).
 */
#include "choco-tuning.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

/// Circulant graph: node i is joined to i +- o (mod n) for every offset o.
std::vector<std::vector<uint32_t>>
Circulant(uint32_t n, const std::vector<uint32_t>& offsets)
{
    std::vector<std::vector<uint32_t>> g(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t o : offsets)
        {
            g[i].push_back((i + o) % n);
            g[i].push_back((i + n - o) % n);
        }
        std::sort(g[i].begin(), g[i].end());
        g[i].erase(std::unique(g[i].begin(), g[i].end()), g[i].end());
    }
    return g;
}

std::vector<std::vector<uint32_t>>
Ring8()
{
    return Circulant(8, {1});
}

/// 4-regular on 16 nodes, and not just a ring with chords to the next-but-one: offsets 1 and 5.
std::vector<std::vector<uint32_t>>
Regular16()
{
    return Circulant(16, {1, 5});
}

double
ConsensusError(const std::vector<std::vector<double>>& x)
{
    const std::size_t n = x.size();
    const std::size_t d = x[0].size();
    double error = 0.0;
    for (std::size_t e = 0; e < d; ++e)
    {
        double mean = 0.0;
        for (std::size_t i = 0; i < n; ++i)
        {
            mean += x[i][e];
        }
        mean /= n;
        for (std::size_t i = 0; i < n; ++i)
        {
            error += (x[i][e] - mean) * (x[i][e] - mean);
        }
    }
    return error / n;
}

/// Per-coordinate mean over the nodes.
std::vector<double>
NodeMean(const std::vector<std::vector<double>>& x)
{
    std::vector<double> mean(x[0].size(), 0.0);
    for (const auto& xi : x)
    {
        for (std::size_t e = 0; e < xi.size(); ++e)
        {
            mean[e] += xi[e] / x.size();
        }
    }
    return mean;
}

/// The message of the std::invalid_argument that f throws (fails the test if none).
template<typename F>
std::string
InvalidArgumentMessage(F f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    ADD_FAILURE() << "no std::invalid_argument thrown";
    return "";
}

TEST(ChocoTuning, DefaultGridIsLogSpacedFromMilliToOne)
{
    const std::vector<double> grid = DefaultChocoGammaGrid();
    ASSERT_EQ(grid.size(), 16u);
    EXPECT_NEAR(grid.front(), 1e-3, 1e-15);
    EXPECT_EQ(grid.back(), 1.0);
    for (std::size_t m = 1; m < grid.size(); ++m)
    {
        EXPECT_NEAR(grid[m] / grid[m - 1], std::pow(10.0, 0.2), 1e-12);
    }
}

TEST(ChocoTuning, UncompressedGammaOneIsPlainGossip)
{
    ChocoTuningSpec spec;
    spec.neighbours = Ring8();
    spec.alpha = 1.0;
    spec.dimension = 50;
    spec.iterations = 6;
    std::vector<std::vector<double>> y = ChocoStartVectors(spec);
    std::vector<std::vector<double>> finalX;
    const std::vector<double> errors = RunChocoGossip(spec, 1.0, &finalX);
    ASSERT_EQ(errors.size(), spec.iterations + 1);

    // On the ring every Metropolis-Hastings weight, self included, is 1/3.
    for (uint32_t t = 0; t <= spec.iterations; ++t)
    {
        const double expected = ConsensusError(y);
        EXPECT_NEAR(errors[t], expected, 1e-9 * expected) << "iteration " << t;
        std::vector<std::vector<double>> next(y);
        for (uint32_t i = 0; i < 8; ++i)
        {
            for (std::size_t e = 0; e < y[i].size(); ++e)
            {
                next[i][e] = (y[(i + 7) % 8][e] + y[i][e] + y[(i + 1) % 8][e]) / 3.0;
            }
        }
        if (t < spec.iterations)
        {
            y = next;
        }
    }
    for (uint32_t i = 0; i < 8; ++i)
    {
        for (std::size_t e = 0; e < y[i].size(); ++e)
        {
            EXPECT_NEAR(finalX[i][e], y[i][e], 1e-9);
        }
    }
    EXPECT_LT(errors.back(), 0.1 * errors.front());
}

TEST(ChocoTuning, UncompressedTunerPicksGammaOne)
{
    for (const auto& graph : {Ring8(), Regular16()})
    {
        ChocoTuningSpec spec;
        spec.neighbours = graph;
        spec.alpha = 1.0;
        spec.dimension = 100;
        // 500 iterations take every gamma from about 0.25 up to machine-precision consensus,
        // so this also checks that rounding noise does not decide the choice.
        const ChocoTuningResult result = TuneChocoGamma(spec);
        EXPECT_EQ(result.bestGamma, 1.0) << graph.size() << " nodes";
        EXPECT_EQ(result.points.size(), DefaultChocoGammaGrid().size());

        spec.grid = {0.01, 0.1, 0.5, 0.8};
        EXPECT_EQ(TuneChocoGamma(spec).bestGamma, 0.8) << graph.size() << " nodes";
    }
}

/// Tuning under strong compression: an interior gamma that converges, and gamma = 1 is worse.
void
CheckCompressedTuning(const ChocoTuningSpec& spec)
{
    const ChocoTuningResult result = TuneChocoGamma(spec);
    const std::vector<double> grid = DefaultChocoGammaGrid();
    ASSERT_EQ(result.points.size(), grid.size());
    EXPECT_GT(result.bestGamma, grid.front());
    EXPECT_LT(result.bestGamma, grid.back());
    EXPECT_GT(result.initialError, 0.0);

    const auto best = std::find_if(result.points.begin(),
                                   result.points.end(),
                                   [&result](const ChocoTuningPoint& p)
                                   { return p.gamma == result.bestGamma; });
    ASSERT_NE(best, result.points.end());
    EXPECT_FALSE(best->diverged);
    EXPECT_LT(best->finalError, 1e-3 * result.initialError);

    const ChocoTuningPoint& one = result.points.back();
    ASSERT_EQ(one.gamma, 1.0);
    EXPECT_TRUE(one.diverged || one.finalError > best->finalError);
    for (const ChocoTuningPoint& p : result.points)
    {
        if (!p.diverged)
        {
            EXPECT_LE(p.finalError, result.initialError);
        }
    }
}

TEST(ChocoTuning, TopTenPercentOnRingPicksInteriorGamma)
{
    ChocoTuningSpec spec;
    spec.neighbours = Ring8();
    spec.dimension = 200;
    CheckCompressedTuning(spec);
}

TEST(ChocoTuning, TopTenPercentOnRegularGraphPicksInteriorGamma)
{
    ChocoTuningSpec spec;
    spec.neighbours = Regular16();
    spec.dimension = 200;
    CheckCompressedTuning(spec);
}

TEST(ChocoTuning, RandomTenPercentOnRegularGraphPicksInteriorGamma)
{
    ChocoTuningSpec spec;
    spec.neighbours = Regular16();
    spec.compression = "randomk";
    spec.dimension = 200;
    CheckCompressedTuning(spec);
}

TEST(ChocoTuning, EveryRunPreservesTheAverage)
{
    struct Case
    {
        std::string compression;
        double alpha;
        double gamma;
    };

    for (const Case& c : {Case{"topk", 0.1, 0.1},
                          Case{"topk", 0.1, 1.0}, // diverges
                          Case{"topk", 0.01, 0.03},
                          Case{"randomk", 0.1, 0.05},
                          Case{"randomk", 0.1, 0.5}, // diverges
                          Case{"topk", 1.0, 1.0}})
    {
        ChocoTuningSpec spec;
        spec.neighbours = Regular16();
        spec.compression = c.compression;
        spec.alpha = c.alpha;
        spec.dimension = 100;
        spec.iterations = 200;
        const std::vector<double> initialMean = NodeMean(ChocoStartVectors(spec));
        std::vector<std::vector<double>> finalX;
        const std::vector<double> errors = RunChocoGossip(spec, c.gamma, &finalX);
        ASSERT_EQ(errors.size(), spec.iterations + 1);
        EXPECT_NEAR(errors.front(), ConsensusError(ChocoStartVectors(spec)), 1e-9);

        // Rounding grows with the size of the entries, which is large for diverging runs.
        double scale = 1.0;
        for (const auto& xi : finalX)
        {
            for (double v : xi)
            {
                ASSERT_TRUE(std::isfinite(v));
                scale = std::max(scale, std::fabs(v));
            }
        }
        const std::vector<double> finalMean = NodeMean(finalX);
        for (std::size_t e = 0; e < finalMean.size(); ++e)
        {
            ASSERT_NEAR(finalMean[e], initialMean[e], 1e-9 * scale)
                << c.compression << " alpha " << c.alpha << " gamma " << c.gamma;
        }
    }
}

TEST(ChocoTuning, SameSeedSameResult)
{
    ChocoTuningSpec spec;
    spec.neighbours = Regular16();
    spec.compression = "randomk";
    spec.dimension = 100;
    spec.iterations = 200;
    spec.grid = {0.01, 0.05, 0.2};
    const ChocoTuningResult a = TuneChocoGamma(spec);
    const ChocoTuningResult b = TuneChocoGamma(spec);
    EXPECT_EQ(a.bestGamma, b.bestGamma);
    EXPECT_EQ(a.initialError, b.initialError);
    ASSERT_EQ(a.points.size(), b.points.size());
    for (std::size_t m = 0; m < a.points.size(); ++m)
    {
        EXPECT_EQ(a.points[m].finalError, b.points[m].finalError);
        EXPECT_EQ(a.points[m].diverged, b.points[m].diverged);
    }
    EXPECT_EQ(RunChocoGossip(spec, 0.05), RunChocoGossip(spec, 0.05));

    spec.seed = 2;
    EXPECT_NE(TuneChocoGamma(spec).initialError, a.initialError);
}

TEST(ChocoTuning, BadInputsThrowNamingTheField)
{
    ChocoTuningSpec good;
    good.neighbours = Ring8();
    good.dimension = 20;
    good.iterations = 5;
    good.grid = {0.1};
    EXPECT_NO_THROW(TuneChocoGamma(good));

    auto expectField = [](const ChocoTuningSpec& spec, const std::string& field)
    {
        const std::string tune = InvalidArgumentMessage([&spec] { TuneChocoGamma(spec); });
        EXPECT_NE(tune.find(field), std::string::npos) << tune;
        const std::string run = InvalidArgumentMessage([&spec] { RunChocoGossip(spec, 0.1); });
        EXPECT_NE(run.find(field), std::string::npos) << run;
    };

    ChocoTuningSpec spec = good;
    spec.neighbours.clear();
    expectField(spec, "neighbours");
    spec = good;
    spec.neighbours[0] = {1}; // node 7 still lists 0
    expectField(spec, "neighbours");
    spec = good;
    spec.neighbours[0].push_back(8); // not a node
    expectField(spec, "neighbours");
    spec = good;
    spec.neighbours[0].push_back(0); // self-loop
    expectField(spec, "neighbours");
    spec = good;
    spec.neighbours[0].push_back(1); // duplicate
    expectField(spec, "neighbours");
    spec = good;
    spec.neighbours = {{1}, {0}, {3}, {2}}; // two components
    expectField(spec, "neighbours");

    for (double alpha : {0.0, -0.1, 1.5, std::numeric_limits<double>::quiet_NaN()})
    {
        spec = good;
        spec.alpha = alpha;
        expectField(spec, "alpha");
    }
    spec = good;
    spec.compression = "qsgd";
    expectField(spec, "compression");
    spec = good;
    spec.dimension = 0;
    expectField(spec, "dimension");
    spec = good;
    spec.iterations = 0;
    expectField(spec, "iterations");
    for (double g : {0.0, -0.5, std::numeric_limits<double>::infinity()})
    {
        spec = good;
        spec.grid = {0.1, g};
        const std::string msg = InvalidArgumentMessage([&spec] { TuneChocoGamma(spec); });
        EXPECT_NE(msg.find("grid"), std::string::npos) << msg;
    }

    for (double gamma : {-0.1, std::numeric_limits<double>::quiet_NaN()})
    {
        const std::string msg = InvalidArgumentMessage([&] { RunChocoGossip(good, gamma); });
        EXPECT_NE(msg.find("gamma"), std::string::npos) << msg;
    }
}

TEST(ChocoTuning, AllDivergingGridThrows)
{
    ChocoTuningSpec spec;
    spec.neighbours = Ring8();
    spec.dimension = 100;
    spec.grid = {1.0, 2.0};
    EXPECT_THROW(TuneChocoGamma(spec), std::runtime_error);
}

} // namespace
} // namespace ns3
