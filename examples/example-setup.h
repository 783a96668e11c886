// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * What the example programs share: their data chosen by name on the command line, a network of
 * dedicated links under a random regular overlay, and the mean test accuracy per round gathered
 * from the learners' Evaluated trace source. dlsim-dpsgd-example.cc spells these steps out.
 */
#ifndef DLSIM_EXAMPLE_SETUP_H
#define DLSIM_EXAMPLE_SETUP_H

#include "dataset-catalog.h"
#include "direct-underlay-helper.h"
#include "learner-application.h"
#include "ns3/application-container.h"
#include "ns3/callback.h"
#include "ns3/node-container.h"
#include "ns3/random-variable-stream.h"
#include "ns3/string.h"
#include "overlay-graph.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * The data an example's --dataset names: generated clusters (2000 training and 500 test samples
 * unless given, drawn from `seed`, with `noise` if given) or a dataset read from `path` (by
 * default where Debian puts Fashion-MNIST). Prints the known names and returns nothing for an
 * unknown one.
 */
inline std::optional<dlsim::DatasetSplit>
LoadExampleData(const std::string& dataset,
                uint32_t seed,
                const std::string& path = dlsim::kDefaultFashionMnistDir,
                std::optional<double> noise = std::nullopt,
                uint32_t trainSamples = 2000)
{
    const std::vector<std::string> known = dlsim::KnownDatasets();
    if (std::find(known.begin(), known.end(), dataset) == known.end())
    {
        std::cerr << "unknown --dataset " << dataset << std::endl;
        return std::nullopt;
    }
    dlsim::DatasetChoice choice;
    choice.name = dataset;
    choice.path = path;
    choice.synthetic.trainSamples = trainSamples;
    choice.synthetic.testSamples = 500;
    if (noise)
    {
        choice.synthetic.noise = static_cast<float>(*noise);
    }
    choice.synthetic.seed = seed;
    return dlsim::LoadDataset(choice);
}

/// The examples' network: nodes, a random regular overlay over them, a direct underlay.
struct ExampleNetwork
{
    NodeContainer nodes;
    OverlayGraph overlay;
    Underlay underlay;
};

/**
 * `learners` nodes on a random `degree`-regular overlay (drawn from ns-3 stream 0), one
 * point-to-point link of `dataRate` and one-way `delay` per overlay edge (DirectUnderlayHelper).
 */
inline ExampleNetwork
MakeExampleNetwork(uint32_t learners,
                   uint32_t degree,
                   const std::string& dataRate,
                   const std::string& delay)
{
    Ptr<UniformRandomVariable> topologyRng = CreateObject<UniformRandomVariable>();
    topologyRng->SetStream(0);
    ExampleNetwork network{
        NodeContainer(), MakeRandomRegularGraph(learners, degree, topologyRng), Underlay()};
    network.nodes.Create(learners);
    DirectUnderlayHelper direct(network.overlay);
    direct.SetDeviceAttribute("DataRate", StringValue(dataRate));
    direct.SetChannelAttribute("Delay", StringValue(delay));
    network.underlay = direct.Install(network.nodes);
    return network;
}

/// Test accuracies per evaluated round, from the Evaluated trace source of every learner.
class AccuracyLog
{
  public:
    /// Listen to every application of `apps` (LearnerApplications).
    void Connect(const ApplicationContainer& apps)
    {
        for (uint32_t i = 0; i < apps.GetN(); ++i)
        {
            apps.Get(i)->TraceConnectWithoutContext("Evaluated",
                                                    MakeCallback(&AccuracyLog::Record, this));
        }
    }

    /// The mean over the learners that evaluated round `round` (0 when none did).
    double MeanAt(uint32_t round) const
    {
        auto it = m_accuracy.find(round);
        if (it == m_accuracy.end() || it->second.empty())
        {
            return 0.0;
        }
        double mean = 0;
        for (double a : it->second)
        {
            mean += a / it->second.size();
        }
        return mean;
    }

    /// Every evaluated round, in order.
    std::vector<uint32_t> Rounds() const
    {
        std::vector<uint32_t> rounds;
        for (const auto& [round, accuracies] : m_accuracy)
        {
            rounds.push_back(round);
        }
        return rounds;
    }

  private:
    void Record(const EvalReport& report)
    {
        m_accuracy[report.round].push_back(report.accuracy);
    }

    std::map<uint32_t, std::vector<double>> m_accuracy;
};

} // namespace ns3

#endif // DLSIM_EXAMPLE_SETUP_H
