// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The learning work a simulation carries, without the simulation: the same learners (model,
 * data, batch, local steps) train every round and evaluate as often as a run would, on a pool of
 * worker threads (all cores by default), with no network, no simulator and no sharing. What
 * `dlsim run` costs beyond this is what simulating costs (benchmarks/run-benchmarks compares).
 *
 * Usage: bare-work-benchmark [--learners=16] [--rounds=40] [--model=gn-lenet]
 *                            [--dataset=fashion-mnist|synthetic] [--eval-every=100000]
 *                            [--eval-samples=1] [--eval-nodes=1] [--threads=0 (all cores)]
 * Prints the wall seconds of the whole work and of training alone.
 */
#include "dataset-catalog.h"
#include "learner.h"
#include "partitioner.h"
#include "worker-pool.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

using namespace dlsim; // the learning core (model/core)

int
main(int argc, char* argv[])
{
    uint32_t learners = 16;
    uint32_t rounds = 40;
    uint32_t evalEvery = 100000;
    uint32_t evalSamples = 1;
    uint32_t evalNodes = 1;
    uint32_t threads = 0;
    std::string model = "gn-lenet";
    std::string dataset = "fashion-mnist";
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const std::string value = arg.substr(arg.find('=') + 1);
        auto number = [&value]()
        {
            return static_cast<uint32_t>(std::stoul(value));
        };
        if (arg.rfind("--learners=", 0) == 0)
        {
            learners = number();
        }
        else if (arg.rfind("--rounds=", 0) == 0)
        {
            rounds = number();
        }
        else if (arg.rfind("--eval-every=", 0) == 0)
        {
            evalEvery = number();
        }
        else if (arg.rfind("--eval-samples=", 0) == 0)
        {
            evalSamples = number();
        }
        else if (arg.rfind("--eval-nodes=", 0) == 0)
        {
            evalNodes = number();
        }
        else if (arg.rfind("--threads=", 0) == 0)
        {
            threads = number();
        }
        else if (arg.rfind("--model=", 0) == 0)
        {
            model = value;
        }
        else if (arg.rfind("--dataset=", 0) == 0)
        {
            dataset = value;
        }
        else
        {
            std::cerr << "unknown argument " << arg << std::endl;
            return 2;
        }
    }
    UseSingleThreadedTorch();
    DatasetChoice choice;
    choice.name = dataset;
    DatasetSplit data = LoadDataset(choice);
    Partition partition = PartitionIid(*data.train, learners, 1);
    TrainingConfig training;
    training.model = model;
    training.lr = 0.05;
    std::vector<std::unique_ptr<Learner>> nodes;
    for (uint32_t i = 0; i < learners; ++i)
    {
        nodes.push_back(std::make_unique<Learner>(training, data.train, partition[i], 1, 1000 + i));
    }
    WorkerPool pool(threads == 0 ? WorkerPool::DefaultThreads() : threads);
    double trainSeconds = 0.0;
    auto evaluate = [&]()
    {
        std::vector<std::future<EvalResult>> done;
        for (uint32_t i = 0; i < std::min(evalNodes, learners); ++i)
        {
            Learner* learner = nodes[i].get();
            done.push_back(pool.Submit([learner, &data, evalSamples]()
                                       { return learner->Evaluate(*data.test, evalSamples); }));
        }
        for (auto& d : done)
        {
            d.get();
        }
    };
    const auto start = std::chrono::steady_clock::now();
    evaluate();
    for (uint32_t r = 1; r <= rounds; ++r)
    {
        const auto trainStart = std::chrono::steady_clock::now();
        std::vector<std::future<double>> done;
        for (auto& node : nodes)
        {
            Learner* learner = node.get();
            done.push_back(pool.Submit([learner]() { return learner->Train(); }));
        }
        for (auto& d : done)
        {
            d.get();
        }
        trainSeconds
            += std::chrono::duration<double>(std::chrono::steady_clock::now() - trainStart).count();
        if (r % evalEvery == 0 || r == rounds)
        {
            evaluate();
        }
    }
    const double total
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("threads %u learners %u rounds %u bare_seconds %.3f train_seconds %.3f\n",
                pool.GetThreads(),
                learners,
                rounds,
                total,
                trainSeconds);
    return 0;
}
