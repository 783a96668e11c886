// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "sharing-algorithm.h"

#include "choco-sharing.h"
#include "dpsgd-sharing.h"
#include "partial-model-sharing.h"
#include "sparse-push-sharing.h"

#include <numeric>
#include <stdexcept>

namespace ns3
{

bool
SharingAlgorithm::TrainsInRound(uint32_t /* round */) const
{
    return true;
}

uint32_t
SharingAlgorithm::ExtraRounds() const
{
    return 0;
}

PartialReceipt
SharingAlgorithm::GetPartialReceipt() const
{
    return PartialReceipt::LatestModel;
}

std::vector<std::string>
KnownAlgorithms()
{
    return {"dpsgd", "random-sampling", "topk", "jwins", "choco", "sparse-push", "scsp"};
}

std::unique_ptr<SharingAlgorithm>
CreateSharingAlgorithm(const SharingConfig& config)
{
    const std::string& name = config.algorithm;
    if (name == "dpsgd")
    {
        return std::make_unique<DpsgdSharing>();
    }
    if (name == "random-sampling" || name == "topk")
    {
        PartialModelOptions options;
        options.selector = name == "topk" ? PartialModelOptions::Selector::TopK
                                          : PartialModelOptions::Selector::Random;
        options.accumulation = name == "topk" && config.accumulation;
        options.alphas = {config.alpha};
        return std::make_unique<PartialModelSharing>(options);
    }
    if (name == "jwins")
    {
        PartialModelOptions options;
        options.wavelet = config.jwinsWavelet;
        options.levels = config.jwinsLevels;
        options.selector = PartialModelOptions::Selector::TopK;
        options.accumulation = config.jwinsAccumulation;
        options.metadataCap = config.jwinsMetadataCap;
        options.alphas = config.jwinsAlphas;
        if (!config.jwinsRandomCutoff && !options.alphas.empty())
        {
            double mean = std::accumulate(options.alphas.begin(), options.alphas.end(), 0.0)
                          / options.alphas.size();
            options.alphas = {mean};
        }
        return std::make_unique<PartialModelSharing>(options);
    }
    if (name == "choco")
    {
        return std::make_unique<ChocoSharing>(
            config.chocoCompression, config.alpha, config.chocoGamma);
    }
    if (name == "sparse-push" || name == "scsp")
    {
        bool scsp = name == "scsp";
        return std::make_unique<SparsePushSharing>(config.alpha,
                                                   config.pushEta,
                                                   scsp ? config.trainingRounds : 0,
                                                   scsp ? config.scspGossipRounds : 0,
                                                   config.scspGossipEta);
    }
    std::string known;
    for (const auto& n : KnownAlgorithms())
    {
        known += (known.empty() ? "" : ", ") + n;
    }
    throw std::invalid_argument("unknown algorithm '" + name + "' (known: " + known + ")");
}

} // namespace ns3
