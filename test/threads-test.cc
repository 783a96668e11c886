// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Training on worker threads changes how fast a run goes, never what it computes: the same
 * scenario run with one thread (training in the simulator's thread) and with several writes the
 * same bytes into every result file.
 */
#include "run-command.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace
{

std::string
RunWithThreads(const std::string& name, const std::string& args, uint32_t threads)
{
    const std::string out = FreshTempFolder(name + "-threads-" + std::to_string(threads));
    std::string output;
    EXPECT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + args + " --no-plot --overwrite"
                             + " --run.threads=" + std::to_string(threads) + " --out=" + out,
                         output),
              0)
        << output;
    return out;
}

TEST(Threads, ResultsDoNotDependOnTheNumberOfWorkerThreads)
{
    const std::string common = " --nodes=6 --dataset=synthetic --lr=0.05 --degree=2";
    const std::map<std::string, std::string> scenarios = {
        // Rounds in lockstep, evaluations after rounds, a convolutional model.
        {"sync", " --model=gn-lenet --rounds=4 --eval.every=2 --eval.test_samples=50"},
        // Timed evaluations in the middle of a round's training, a host that crashes in the
        // middle of one and comes back, learners that never wait.
        {"async",
         " --model=mlp --rounds=200 --rounds.mode=async --rounds.duration=12s"
         " --compute.model=fixed --compute.step_seconds=0.1 --eval.interval=1s "
         "--eval.test_samples=100"
         " --faults.crash=[2@3.35s-6.1s]"},
        {"deadline",
         " --model=mlp --rounds=30 --rounds.mode=deadline --rounds.timeout=0.05s"
         " --compute.model=fixed --compute.step_seconds=0.1 --eval.interval=0.7s "
         "--eval.test_samples=100"
         " --faults.crash=[4@2.25s-3.95s]"},
    };
    for (const auto& [name, args] : scenarios)
    {
        const std::string one = RunWithThreads(name, common + args, 1);
        const std::string three = RunWithThreads(name, common + args, 3);
        for (const char* file :
             {"rounds.csv", "eval.csv", "curve.csv", "receipt.csv", "links.csv", "faults.csv"})
        {
            const std::string expected = ReadWholeFile(one + "/" + file);
            EXPECT_FALSE(expected.empty()) << name << " " << file;
            EXPECT_EQ(ReadWholeFile(three + "/" + file), expected) << name << " " << file;
        }
        std::filesystem::remove_all(one);
        std::filesystem::remove_all(three);
    }
}

} // namespace
} // namespace ns3
