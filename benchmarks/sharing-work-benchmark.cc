// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning (learning core, no ns-3 dependencies).
 *
 * The sharing work of a run without its training and without its network: learners with
 * GN-LeNet's parameters on a ring of the given degree (each node's `degree` nearest nodes)
 * run an algorithm's Encode and Aggregate through InMemoryNetwork for some rounds, their
 * "training" a small seeded random step so that every round's payloads change as after SGD.
 * This is the part of a large run the simulator's thread carries (benchmarks/run-benchmarks,
 * section h), timed alone, so that a change to the codec can be judged in seconds.
 *
 * It also prints one hash (FNV-1a) over every payload byte sent and every final model's bits:
 * a change meant to make the work cheaper must leave it as it was.
 *
 * Usage: sharing-work-benchmark [--algorithm=jwins] [--learners=16] [--degree=4] [--rounds=20]
 *                               [--repeat=3]
 * Prints the median over the repetitions of the sharing milliseconds per learner and round.
 */
#include "in-memory-network.h"
#include "nn-models.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <torch/torch.h>
#include <vector>

using namespace dlsim; // the learning core (model/core)

namespace
{

/// FNV-1a over bytes, continuing from `hash`.
uint64_t
Fnv(uint64_t hash, const void* data, size_t size)
{
    const auto* bytes = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < size; ++i)
    {
        hash = (hash ^ bytes[i]) * 0x100000001b3ull;
    }
    return hash;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string algorithm = "jwins";
    uint32_t learners = 16;
    uint32_t degree = 4;
    uint32_t rounds = 20;
    uint32_t repeat = 3;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const std::string value = arg.substr(arg.find('=') + 1);
        if (arg.rfind("--algorithm=", 0) == 0)
        {
            algorithm = value;
        }
        else if (arg.rfind("--learners=", 0) == 0)
        {
            learners = static_cast<uint32_t>(std::stoul(value));
        }
        else if (arg.rfind("--degree=", 0) == 0)
        {
            degree = static_cast<uint32_t>(std::stoul(value));
        }
        else if (arg.rfind("--rounds=", 0) == 0)
        {
            rounds = static_cast<uint32_t>(std::stoul(value));
        }
        else if (arg.rfind("--repeat=", 0) == 0)
        {
            repeat = std::max(1u, static_cast<uint32_t>(std::stoul(value)));
        }
        else
        {
            std::fprintf(stderr,
                         "usage: %s [--algorithm=jwins] [--learners=16] [--degree=4] "
                         "[--rounds=20] [--repeat=3]\n",
                         argv[0]);
            return 2;
        }
    }
    if (degree == 0 || degree % 2 != 0 || degree >= learners)
    {
        std::fprintf(stderr, "--degree must be even, positive and below --learners\n");
        return 2;
    }

    torch::set_num_threads(1);
    std::vector<std::vector<float>> models;
    for (uint32_t n = 0; n < learners; ++n)
    {
        torch::manual_seed(n + 1);
        torch::NoGradGuard noGrad;
        std::vector<float> flat;
        for (const auto& p : MakeModel("gn-lenet", 1, 28, 28, 10)->parameters())
        {
            const at::Tensor t = p.detach().contiguous().view(-1);
            flat.insert(flat.end(), t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
        }
        models.push_back(std::move(flat));
    }
    Adjacency ring(learners);
    for (uint32_t n = 0; n < learners; ++n)
    {
        for (uint32_t d = 1; d <= degree / 2; ++d)
        {
            ring[n].push_back((n + d) % learners);
            ring[n].push_back((n + learners - d) % learners);
        }
        std::sort(ring[n].begin(), ring[n].end());
    }

    SharingConfig sharing;
    sharing.algorithm = algorithm;
    std::vector<double> seconds;
    uint64_t hash = 0;
    for (uint32_t r = 0; r < repeat; ++r)
    {
        InMemoryNetwork network(sharing, ring, models, 1);
        double stepSeconds = 0.0;
        network.SetTrainingStep(
            [&stepSeconds](uint32_t node, uint32_t round, std::vector<float>& model)
            {
                const auto start = std::chrono::steady_clock::now();
                std::mt19937 rng(node * 1000003u + round);
                std::normal_distribution<float> step(0.0f, 1e-3f);
                for (float& v : model)
                {
                    v += step(rng);
                }
                stepSeconds
                    += std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                           .count();
            });
        const auto start = std::chrono::steady_clock::now();
        network.Run(rounds);
        const double total
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        seconds.push_back(total - stepSeconds);

        uint64_t h = 0xcbf29ce484222325ull;
        for (const auto& m : network.GetMessages())
        {
            h = Fnv(h, m.payload.data(), m.payload.size());
        }
        for (const auto& model : network.GetModels())
        {
            h = Fnv(h, model.data(), model.size() * sizeof(float));
        }
        if (r > 0 && h != hash)
        {
            std::fprintf(stderr, "the repetitions differ: the work is not deterministic\n");
            return 1;
        }
        hash = h;
    }
    std::sort(seconds.begin(), seconds.end());
    const double median = seconds[seconds.size() / 2];
    std::printf("%s: %u learners of %zu parameters, degree %u, %u rounds: sharing %.3f ms per "
                "learner and round (median of %u; min %.3f) hash %016llx\n",
                algorithm.c_str(),
                learners,
                models[0].size(),
                degree,
                rounds,
                1e3 * median / (learners * rounds),
                repeat,
                1e3 * seconds.front() / (learners * rounds),
                static_cast<unsigned long long>(hash));
    return 0;
}
