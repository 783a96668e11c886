// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: tests of the overlay topologies and their mixing weights.
 */
#include "mixing-weights.h"
#include "ns3/rng-seed-manager.h"
#include "overlay-topologies.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

Ptr<UniformRandomVariable>
Rng(int64_t stream)
{
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(stream);
    return rng;
}

/// Row sums of the Metropolis-Hastings matrix are 1 and the matrix is symmetric.
void
ExpectDoublyStochastic(const OverlayGraph& g)
{
    for (uint32_t i = 0; i < g.GetNNodes(); ++i)
    {
        double self = 1.0;
        for (uint32_t j : g.GetOutNeighbours(i))
        {
            double wij = MetropolisHastingsWeight(g.GetOutNeighbours(i).size(),
                                                  g.GetOutNeighbours(j).size());
            double wji = MetropolisHastingsWeight(g.GetOutNeighbours(j).size(),
                                                  g.GetOutNeighbours(i).size());
            EXPECT_DOUBLE_EQ(wij, wji);
            self -= wij;
        }
        EXPECT_GT(self, 0.0) << "node " << i;
    }
}

TEST(OverlayGraph, RandomRegularHasDegreeKAndIsConnected)
{
    for (auto [n, k] :
         std::vector<std::pair<uint32_t, uint32_t>>{{16, 4}, {8, 3}, {96, 4}, {30, 10}, {5, 4}})
    {
        OverlayGraph g = MakeRandomRegularGraph(n, k, Rng(1));
        EXPECT_FALSE(g.IsDirected());
        EXPECT_TRUE(g.IsConnected());
        EXPECT_EQ(g.GetEdges().size(), size_t(n) * k / 2);
        for (uint32_t i = 0; i < n; ++i)
        {
            EXPECT_EQ(g.GetOutNeighbours(i).size(), k);
            EXPECT_EQ(g.GetInNeighbours(i), g.GetOutNeighbours(i));
            EXPECT_FALSE(g.HasEdge(i, i));
        }
        ExpectDoublyStochastic(g);
    }
}

TEST(OverlayGraph, RandomRegularFollowsTheStream)
{
    RngSeedManager::SetSeed(1);
    auto a = MakeRandomRegularGraph(16, 4, Rng(1)).GetEdges();
    auto b = MakeRandomRegularGraph(16, 4, Rng(1)).GetEdges();
    auto c = MakeRandomRegularGraph(16, 4, Rng(2)).GetEdges();
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
}

TEST(OverlayGraph, RandomRegularRejectsImpossibleDegrees)
{
    EXPECT_THROW(MakeRandomRegularGraph(5, 3, Rng(1)), TopologyError); // n*k odd
    EXPECT_THROW(MakeRandomRegularGraph(4, 4, Rng(1)), TopologyError); // k >= n
    EXPECT_THROW(MakeRandomRegularGraph(4, 0, Rng(1)), TopologyError);
    try
    {
        MakeRandomRegularGraph(7, 3, Rng(1));
    }
    catch (const TopologyError& e)
    {
        EXPECT_NE(std::string(e.what()).find("even"), std::string::npos) << e.what();
    }
}

TEST(OverlayGraph, RingsAndCompleteGraph)
{
    OverlayGraph ring = MakeRingGraph(6);
    EXPECT_TRUE(ring.IsConnected());
    for (uint32_t i = 0; i < 6; ++i)
    {
        EXPECT_EQ(ring.GetOutNeighbours(i).size(), 2u);
    }
    ExpectDoublyStochastic(ring);

    OverlayGraph directed = MakeDirectedRingGraph(5);
    EXPECT_TRUE(directed.IsDirected());
    EXPECT_TRUE(directed.IsConnected());
    for (uint32_t i = 0; i < 5; ++i)
    {
        EXPECT_EQ(directed.GetOutNeighbours(i), std::vector<uint32_t>{(i + 1) % 5});
        EXPECT_EQ(directed.GetInNeighbours(i), std::vector<uint32_t>{(i + 4) % 5});
    }
    // Push-sum: the sender keeps 1/(d+1) and gives 1/(d+1) to each out-neighbour, so every
    // column of the mixing matrix sums to one.
    EXPECT_DOUBLE_EQ(PushSumWeight(1) * 2, 1.0);
    EXPECT_EQ(directed.GetLinks().size(), 5u);

    OverlayGraph complete = MakeCompleteGraph(5);
    EXPECT_EQ(complete.GetEdges().size(), 10u);
    ExpectDoublyStochastic(complete);
}

TEST(OverlayGraph, DirectedGraphsNeedStrongConnectivity)
{
    OverlayGraph g(3, true);
    g.AddEdge(0, 1);
    g.AddEdge(1, 2);
    EXPECT_FALSE(g.IsConnected());
    g.AddEdge(2, 0);
    EXPECT_TRUE(g.IsConnected());
    EXPECT_THROW(g.AddEdge(0, 1), TopologyError);
    EXPECT_THROW(g.AddEdge(1, 1), TopologyError);
    EXPECT_THROW(g.AddEdge(1, 3), TopologyError);
}

TEST(OverlayGraph, EdgeListFile)
{
    std::string path = std::filesystem::temp_directory_path() / "dlsim-edges.txt";
    {
        std::ofstream f(path);
        f << "# a star with a tail\n0 1\n0,2\n0 3\n\n3 4  # tail\n";
    }
    OverlayGraph g = ReadEdgeListGraph(path, 5, false);
    EXPECT_EQ(g.GetEdges().size(), 4u);
    EXPECT_EQ(g.GetOutNeighbours(0), (std::vector<uint32_t>{1, 2, 3}));
    ExpectDoublyStochastic(g); // irregular degrees: weights still symmetric

    {
        std::ofstream f(path);
        f << "0 1\n1 2\n";
    }
    EXPECT_THROW(ReadEdgeListGraph(path, 4, false), TopologyError); // node 3 unreachable
    {
        std::ofstream f(path);
        f << "0 1\n1 x\n";
    }
    try
    {
        ReadEdgeListGraph(path, 3, false);
        FAIL();
    }
    catch (const TopologyError& e)
    {
        EXPECT_NE(std::string(e.what()).find(path + ":2"), std::string::npos) << e.what();
    }
    {
        std::ofstream f(path);
        f << "0 1\n1 0\n";
    }
    EXPECT_THROW(ReadEdgeListGraph(path, 2, false), TopologyError); // duplicate
    std::filesystem::remove(path);
    EXPECT_THROW(ReadEdgeListGraph(path, 2, false), TopologyError); // missing
}

TopologySpec
Spec(const std::string& name, uint32_t nodes)
{
    TopologySpec spec;
    spec.name = name;
    spec.nodes = nodes;
    return spec;
}

TEST(OverlayGraph, MakeTopologyByName)
{
    EXPECT_EQ(MakeTopology(Spec("ring", 5), Rng(0)).At(1).GetEdges().size(), 5u);
    EXPECT_THROW(MakeTopology(Spec("torus", 5), Rng(0)), TopologyError);
    EXPECT_THROW(MakeTopology(Spec("file", 5), Rng(0)), TopologyError);
    // A key the topology does not have, and a value its key refuses, are errors of the topology.
    TopologySpec ring = Spec("ring", 5);
    ring.values = {{"degree", "3"}};
    EXPECT_THROW(MakeTopology(ring, Rng(0)), TopologyError);
    TopologySpec regular = Spec("random-regular", 6);
    regular.values = {{"degree", "0"}};
    EXPECT_THROW(MakeTopology(regular, Rng(0)), TopologyError);
}

TEST(OverlayGraph, EveryRegisteredTopologyIsMadeByName)
{
    // The registrations are the one list: MakeTopology and the `topology` key read it.
    const std::vector<std::string> names = TopologyRegistry::Names();
    EXPECT_EQ(names.size(), 8u);
    for (const auto& name : names)
    {
        if (name == "file" || name == "schedule")
        {
            continue; // they need files (ScheduleOfEdgeListFiles)
        }
        EXPECT_EQ(MakeTopology(Spec(name, 8), Rng(0)).GetNNodes(), 8u) << name;
    }
    EXPECT_EQ(TopologyRegistry::FindKey("degree")->defaultValue, "4");
    EXPECT_TRUE(TopologyRegistry::FindKey("topology.period"));
}

TEST(OverlayGraph, DirectedExponentialGraph)
{
    OverlayGraph g = MakeDirectedExponentialGraph(16);
    EXPECT_TRUE(g.IsDirected());
    EXPECT_TRUE(g.IsConnected());
    EXPECT_EQ(g.GetOutNeighbours(3), (std::vector<uint32_t>{4, 5, 7, 11}));
    EXPECT_EQ(g.GetInNeighbours(3), (std::vector<uint32_t>{1, 2, 11, 15}));
    // Not a power of two: peers r+1, r+2, r+4 only, all distinct.
    OverlayGraph six = MakeDirectedExponentialGraph(6);
    EXPECT_EQ(six.GetOutNeighbours(5), (std::vector<uint32_t>{0, 1, 3}));
}

TEST(OverlayGraph, TimeVaryingExponentialCyclesThroughOnePeer)
{
    OverlaySchedule s = MakeTimeVaryingExponentialSchedule(8, 2);
    EXPECT_EQ(s.GetPhases().size(), 3u); // hops 1, 2, 4
    EXPECT_EQ(s.At(1).GetOutNeighbours(0), std::vector<uint32_t>{1});
    EXPECT_EQ(s.At(2).GetOutNeighbours(0), std::vector<uint32_t>{1});
    EXPECT_EQ(s.At(3).GetOutNeighbours(0), std::vector<uint32_t>{2});
    EXPECT_EQ(s.At(5).GetOutNeighbours(0), std::vector<uint32_t>{4});
    EXPECT_EQ(s.At(7).GetOutNeighbours(0), std::vector<uint32_t>{1});
    EXPECT_EQ(s.At(3).GetInNeighbours(0), std::vector<uint32_t>{6});
    // The network must hold a link for every edge of every phase.
    OverlayGraph all = s.Union();
    EXPECT_EQ(all.GetEdges().size(), 24u);
    EXPECT_EQ(all.GetLinks().size(), 8u + 8u + 4u); // hop 4 pairs r with r+4 both ways
    EXPECT_TRUE(all.IsConnected());
}

TEST(OverlayGraph, ScheduleOfEdgeListFiles)
{
    std::string a = std::filesystem::temp_directory_path() / "dlsim-phase-a.txt";
    std::string b = std::filesystem::temp_directory_path() / "dlsim-phase-b.txt";
    std::ofstream(a) << "0 1\n2 3\n";
    std::ofstream(b) << "1 2\n3 0\n";
    TopologySpec spec = Spec("schedule", 4);
    spec.values = {{"topology.schedule", "[" + a + ", " + b + "]"},
                   {"topology.directed", "true"},
                   {"topology.period", "3"}};
    OverlaySchedule s = MakeTopology(spec, Rng(0));
    EXPECT_TRUE(s.IsDirected());
    EXPECT_EQ(s.At(3).GetOutNeighbours(0), std::vector<uint32_t>{1});
    EXPECT_EQ(s.At(4).GetOutNeighbours(3), std::vector<uint32_t>{0});
    EXPECT_TRUE(s.Union().IsConnected());
    spec.values["topology.schedule"] = "[" + a + "]";
    EXPECT_THROW(MakeTopology(spec, Rng(0)), TopologyError); // the union is not connected
    std::filesystem::remove(a);
    std::filesystem::remove(b);
}

} // namespace
} // namespace ns3
