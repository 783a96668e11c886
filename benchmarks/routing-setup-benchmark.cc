// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * How long a router-level underlay (network = file) takes to set up: a random connected graph
 * of --routers routers with 2.5 links per router (a random spanning tree, then random chords),
 * --learners learners attached at random, built by RoutedUnderlayHelper with its static
 * shortest-path routes; with --global, ns-3's global routing is then computed on top of it
 * (Ipv4GlobalRoutingHelper::PopulateRoutingTables, what dlsim used before) and timed too.
 * It prints wall seconds per step.
 *
 * Usage: routing-setup-benchmark [--routers=1000] [--learners=8] [--global] [--seed=1]
 */
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "routed-underlay-helper.h"

#include <chrono>
#include <cstdio>
#include <random>
#include <set>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t routers = 1000;
    uint32_t learners = 8;
    bool global = false;
    uint32_t seed = 1;
    CommandLine cmd;
    cmd.AddValue("routers", "routers in the random graph", routers);
    cmd.AddValue("learners", "learner hosts attached at random", learners);
    cmd.AddValue("global", "also time ns-3's global routing on the same network", global);
    cmd.AddValue("seed", "seed of the random graph", seed);
    cmd.Parse(argc, argv);
    if (routers < 2 || learners < 2)
    {
        std::fprintf(stderr, "routing-setup-benchmark: --routers and --learners must be >= 2\n");
        return 2;
    }

    std::mt19937 random(seed);
    RouterNetwork net;
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    auto add = [&](uint32_t a, uint32_t b)
    {
        if (a != b && pairs.insert({std::min(a, b), std::max(a, b)}).second)
        {
            net.links.push_back({a, b, 1e9, 1e-3, "router"});
        }
    };
    for (uint32_t r = 0; r < routers; ++r)
    {
        net.routers.push_back(std::to_string(r));
        if (r > 0)
        {
            add(r, random() % r);
        }
    }
    while (net.links.size() < routers * 5 / 2)
    {
        add(random() % routers, random() % routers);
    }
    for (uint32_t i = 0; i < learners; ++i)
    {
        net.attachment.push_back(random() % routers);
    }
    net.access.assign(learners, AccessLink{10e6, 50e6, 5e-3});

    using Clock = std::chrono::steady_clock;
    auto seconds = [](Clock::time_point since)
    {
        return std::chrono::duration<double>(Clock::now() - since).count();
    };
    NodeContainer hosts;
    hosts.Create(learners);
    RoutedUnderlayHelper helper(net);
    helper.SetProgress([](const std::string& line) { std::printf("  %s\n", line.c_str()); });
    auto start = Clock::now();
    helper.Install(hosts);
    std::printf("%u routers, %zu links, %u learners: built with static shortest-path routes in "
                "%.2f s\n",
                routers,
                net.links.size(),
                learners,
                seconds(start));
    if (global)
    {
        std::fflush(stdout);
        start = Clock::now();
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        std::printf("ns-3 global routing (PopulateRoutingTables) on the same network: %.2f s\n",
                    seconds(start));
    }
    Simulator::Destroy();
    return 0;
}
