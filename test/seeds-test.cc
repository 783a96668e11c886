// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: repeated seeds and their spread. The Student t quantiles and the paired t-test against
 * published values and closed forms, `repeat` as a seed axis, rounds that are rounds under
 * eval.interval, and a grid of repeated seeds end to end.
 */
#include "run-command.h"
#include "scenario-grid.h"
#include "seed-statistics.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

const std::string kSmall = " --dataset=synthetic --synthetic.train_samples=300 --model=logistic "
                           "--nodes=4 --degree=2";

// The quantiles a table of Student's t gives, and two closed forms: with 1 degree of freedom t
// is Cauchy (quantile tan(pi (p - 1/2))), with 2 its quantile is (2p - 1) / sqrt(2p (1 - p)).
TEST(SeedStatistics, TQuantilesMatchPublishedValuesAndClosedForms)
{
    EXPECT_NEAR(StudentTQuantile(0.975, 1), 12.706, 5e-4);
    EXPECT_NEAR(StudentTQuantile(0.975, 2), 4.303, 5e-4);
    EXPECT_NEAR(StudentTQuantile(0.975, 4), 2.776, 5e-4);
    EXPECT_NEAR(StudentTQuantile(0.975, 29), 2.045, 5e-4);
    EXPECT_NEAR(StudentTQuantile(0.975, 1e6), 1.960, 5e-4) << "the normal's quantile";
    for (double p : {0.01, 0.2, 0.5, 0.9, 0.975, 0.999})
    {
        EXPECT_NEAR(StudentTQuantile(p, 1),
                    std::tan(M_PI * (p - 0.5)),
                    1e-9 * (1 + std::fabs(std::tan(M_PI * (p - 0.5)))))
            << p;
        EXPECT_NEAR(StudentTQuantile(p, 2), (2 * p - 1) / std::sqrt(2 * p * (1 - p)), 1e-9) << p;
    }
    // The two-sided p-value of the 97.5% quantile is 5%, whatever the degrees of freedom.
    for (double dof : {1.0, 2.0, 4.0, 9.0, 29.0})
    {
        EXPECT_NEAR(StudentTTwoSidedP(StudentTQuantile(0.975, dof), dof), 0.05, 1e-12) << dof;
    }
    EXPECT_THROW(StudentTQuantile(1.0, 3), std::invalid_argument);
    EXPECT_THROW(StudentTQuantile(0.5, 0), std::invalid_argument);
}

// 1, 2, 3, 4, 5: mean 3, s = sqrt(2.5), half-width t(0.975, 4) s / sqrt(5) = 1.9632.
TEST(SeedStatistics, TheConfidenceIntervalOfAHandExample)
{
    const MeanCi m = MeanWithCi({1, 2, 3, 4, 5});
    EXPECT_EQ(m.n, 5u);
    EXPECT_DOUBLE_EQ(m.mean, 3.0);
    EXPECT_NEAR(m.halfWidth, 2.776445105 * std::sqrt(2.5) / std::sqrt(5.0), 1e-8);
    EXPECT_NEAR(m.Low(), 1.036756, 1e-6);
    EXPECT_NEAR(m.High(), 4.963244, 1e-6);
    // Two values: t(0.975, 1) = 12.706 times the half distance between them.
    const MeanCi two = MeanWithCi({0.70, 0.74});
    EXPECT_NEAR(two.halfWidth, 12.7062047 * 0.02, 1e-7);
    // One value has no interval, none no mean.
    EXPECT_FALSE(MeanWithCi({0.7}).HasCi());
    EXPECT_DOUBLE_EQ(MeanWithCi({0.7}).mean, 0.7);
    EXPECT_EQ(MeanWithCi({}).n, 0u);
}

// Student's sleep data (Cushny and Peebles, as in Student 1908 and R's `sleep`): extra hours of
// sleep of 10 patients under two drugs. R: t.test(extra ~ group, data = sleep, paired = TRUE)
// gives t = -4.0621, df = 9, p-value = 0.002833, 95% CI -2.4598858 to -0.7001142, mean -1.58.
TEST(SeedStatistics, ThePairedTTestGivesRsAnswerOnStudentsSleepData)
{
    const std::vector<double> drug1 = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
    const std::vector<double> drug2 = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};
    const PairedTest test = PairedTTest(drug1, drug2);
    ASSERT_TRUE(test.Tested());
    EXPECT_EQ(test.difference.n, 10u);
    EXPECT_NEAR(test.difference.mean, -1.58, 1e-12);
    EXPECT_NEAR(test.t, -4.0621, 5e-5);
    EXPECT_NEAR(test.p, 0.002833, 5e-7);
    EXPECT_NEAR(test.difference.Low(), -2.4598858, 5e-8);
    EXPECT_NEAR(test.difference.High(), -0.7001142, 5e-8);
    // The other way round: the same p, the opposite difference.
    EXPECT_NEAR(PairedTTest(drug2, drug1).p, test.p, 1e-15);
    EXPECT_NEAR(PairedTTest(drug2, drug1).t, 4.0621, 5e-5);
    // Every pair differing by the same amount: certain unless it is no difference at all.
    EXPECT_DOUBLE_EQ(PairedTTest({1, 2, 3}, {0, 1, 2}).p, 0.0);
    EXPECT_DOUBLE_EQ(PairedTTest({1, 2, 3}, {1, 2, 3}).p, 1.0);
    // One pair is no test.
    EXPECT_FALSE(PairedTTest({1}, {2}).Tested());
    EXPECT_THROW(PairedTTest({1, 2}, {1}), std::invalid_argument);
}

// repeat = N is a seed axis of N seeds from `seed`; with a list of seeds, N from each; each
// point is one run. repeat = 1 changes nothing.
TEST(Seeds, RepeatIsASeedAxisOfNSeeds)
{
    auto points = ExpandGrid(ScenarioConfig::Load("", {"--seed=5", "--repeat=3", "--out=r"}));
    ASSERT_EQ(points.size(), 3u);
    for (size_t i = 0; i < points.size(); ++i)
    {
        EXPECT_EQ(points[i].name, "seed=" + std::to_string(5 + i));
        EXPECT_EQ(points[i].config.GetString("seed"), std::to_string(5 + i));
        EXPECT_EQ(points[i].config.GetString("repeat"), "1") << "a point is one run";
        EXPECT_EQ(points[i].config.GetString("out"), "r/seed=" + std::to_string(5 + i));
    }
    // The same folders and configurations as the seed axis written out.
    auto axis = ExpandGrid(ScenarioConfig::Load("", {"--seed=5,6,7", "--out=r"}));
    ASSERT_EQ(axis.size(), 3u);
    for (size_t i = 0; i < axis.size(); ++i)
    {
        std::ostringstream a;
        std::ostringstream b;
        points[i].config.WriteIni(a);
        axis[i].config.WriteIni(b);
        EXPECT_EQ(points[i].name, axis[i].name);
        EXPECT_EQ(a.str(), b.str());
    }
    // With other axes, and from each of several listed seeds.
    points = ExpandGrid(ScenarioConfig::Load(
        "", {"--algorithm=dpsgd, jwins", "--seed=1, 11", "--repeat=2", "--out=r"}));
    std::set<std::string> names;
    for (const auto& p : points)
    {
        names.insert(p.name);
    }
    EXPECT_EQ(names,
              (std::set<std::string>{"seed=1_algorithm=dpsgd",
                                     "seed=1_algorithm=jwins",
                                     "seed=2_algorithm=dpsgd",
                                     "seed=2_algorithm=jwins",
                                     "seed=11_algorithm=dpsgd",
                                     "seed=11_algorithm=jwins",
                                     "seed=12_algorithm=dpsgd",
                                     "seed=12_algorithm=jwins"}));
    // repeat = 1: no axis, the configuration as given.
    const ScenarioConfig single = ScenarioConfig::Load("", {"--seed=5", "--repeat=1"});
    EXPECT_TRUE(GridAxes(single).empty());
    EXPECT_EQ(ExpandGrid(single).size(), 1u);
    // Bad values, named.
    auto refused = [](const std::vector<std::string>& args, const std::vector<std::string>& words)
    {
        try
        {
            ExpandGrid(ScenarioConfig::Load("", args));
            ADD_FAILURE() << "no error for " << args.back();
        }
        catch (const ScenarioError& e)
        {
            for (const auto& word : words)
            {
                EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
            }
        }
    };
    refused({"--repeat=0"}, {"repeat", "from 1 to 100", "'0'"});
    refused({"--repeat=101"}, {"repeat", "from 1 to 100", "'101'"});
    refused({"--repeat=2, 3"}, {"repeat", "'2, 3'"});
    refused({"--seed=4294967295", "--repeat=2"}, {"repeat", "beyond the largest seed"});
    refused({"--seed=1, 2", "--repeat=3"}, {"repeat", "both run seed 2", "at least 3 apart"});
    refused({"--seed=x", "--repeat=3"}, {"seed", "'x'"});
}

// With eval.interval a curve line is a tick of the clock, but its round is rounds: each
// learner's completed rounds in eval.csv (as rounds.csv counts them), their mean in curve.csv,
// and final_round and round_to_target in those rounds.
TEST(Seeds, RoundsUnderEvalIntervalAreRoundsNotTicks)
{
    const std::string out = FreshTempFolder("timed-rounds");
    // Learner 0 computes 4 times slower: with wait-free rounds it completes fewer rounds.
    std::ofstream(out + "/speeds.csv") << "node,gflops\n0,0.0025\n1,0.01\n2,0.01\n3,0.01\n";
    std::string output;
    ASSERT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + kSmall
                             + " --rounds=1000 --rounds.mode=async --rounds.duration=6s"
                               " --eval.interval=2s --target_accuracy=0.5 --no-plot"
                               " --compute.file="
                             + out + "/speeds.csv --out=" + out + "/run",
                         output),
              0)
        << output;
    // Rounds each learner had completed by each time.
    const auto rounds = ReadCsv(out + "/run/rounds.csv");
    auto completedBy = [&rounds](const std::string& node, double time)
    {
        return std::count_if(rounds.begin(),
                             rounds.end(),
                             [&](const std::vector<std::string>& row)
                             { return row[0] == node && std::stod(row[2]) <= time + 1e-9; });
    };
    std::map<double, std::vector<double>> byTime;
    for (const auto& row : ReadCsv(out + "/run/eval.csv"))
    {
        const double time = std::stod(row[1]);
        EXPECT_EQ(std::stol(row[0]), completedBy(row[2], time))
            << "node " << row[2] << " at " << time;
        byTime[time].push_back(std::stod(row[0]));
    }
    const auto curve = ReadCsv(out + "/run/curve.csv");
    ASSERT_EQ(curve.size(), byTime.size());
    ASSERT_GE(curve.size(), 3u);
    for (const auto& line : curve)
    {
        const auto& r = byTime.at(std::stod(line[1]));
        EXPECT_NEAR(std::stod(line[0]), std::accumulate(r.begin(), r.end(), 0.0) / r.size(), 1e-6);
    }
    // Not tick indexes: by the second tick the fast learners are dozens of rounds in.
    EXPECT_GT(std::stod(curve[1][0]), 10.0);
    const std::string json = ReadWholeFile(out + "/run/summary.json");
    EXPECT_NE(json.find("\"final_round\": " + curve.back()[0] + ","), std::string::npos) << json;
    const auto summary = ReadCsvByColumn(out + "/run/summary.csv").at(0);
    if (!summary.at("round_to_target").empty())
    {
        EXPECT_GE(std::stod(summary.at("round_to_target")), std::stod(curve.front()[0]));
        EXPECT_LE(std::stod(summary.at("round_to_target")), std::stod(curve.back()[0]));
    }
    fs::remove_all(out);
}

// A grid with repeat = 3: every seed runs in its own folder (as a seed axis would), the index
// lists every run, points.csv every point over its 3 seeds, the table has a row per point with
// its spread, and the figures' data averages all the seeds.
TEST(Seeds, AGridWithRepeatReportsEveryPointOverItsSeeds)
{
    const std::string out = FreshTempFolder("repeat-grid");
    std::string output;
    ASSERT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + kSmall
                             + " --rounds=4 --eval.every=2 --target_accuracy=0.8"
                               " --algorithm='dpsgd, jwins' --repeat=3 -j 2 --out="
                             + out,
                         output),
              0)
        << output;
    for (const std::string seed : {"1", "2", "3"})
    {
        for (const std::string algorithm : {"dpsgd", "jwins"})
        {
            const std::string run = out + "/seed=" + seed + "_algorithm=" + algorithm;
            EXPECT_TRUE(fs::exists(run + "/summary.json")) << run;
            EXPECT_NE(ReadWholeFile(run + "/config.ini").find("\nrepeat = 1\n"), std::string::npos);
        }
    }
    EXPECT_EQ(ReadCsvByColumn(out + "/index.csv").size(), 6u);
    const auto points = ReadCsvByColumn(out + "/points.csv");
    ASSERT_EQ(points.size(), 2u);
    for (const auto& point : points)
    {
        EXPECT_EQ(point.at("seeds"), "1 2 3");
        EXPECT_EQ(point.at("runs"), "3");
        EXPECT_EQ(point.at("evaluated"), "3");
        EXPECT_NE(point.at("final_accuracy_mean_ci95_low"), "");
    }
    // The table: a row per point with its seeds and the spread.
    const size_t table = output.find("dlsim: grid results");
    ASSERT_NE(table, std::string::npos) << output;
    EXPECT_NE(output.find("95% confidence interval", table), std::string::npos);
    EXPECT_NE(output.find("\n  dpsgd     3     ", table), std::string::npos)
        << output.substr(table);
    EXPECT_NE(output.find(" \u00b1 ", table), std::string::npos) << output.substr(table);
    EXPECT_EQ(ReadWholeFile(out + "/grid-summary.txt"),
              output.substr(table, output.find("dlsim: 3 figures") - table));
    // The figure's mean curve at round 4 is the mean of the three seeds' final accuracies.
    std::ifstream dat(out + "/plots/accuracy-vs-rounds.dat");
    std::string line;
    std::vector<std::vector<double>> block;
    std::getline(dat, line); // comment
    while (std::getline(dat, line) && !line.empty())
    {
        std::stringstream fields(line);
        block.emplace_back(std::istream_iterator<double>(fields), std::istream_iterator<double>());
    }
    ASSERT_EQ(block.size(), 3u) << "rounds 0, 2 and 4";
    double sum = 0;
    for (const std::string seed : {"1", "2", "3"})
    {
        sum += std::stod(ReadCsvByColumn(out + "/seed=" + seed + "_algorithm=dpsgd/summary.csv")
                             .at(0)
                             .at("final_accuracy_mean"));
    }
    EXPECT_NEAR(block.back()[1], sum / 3, 1e-9);
    EXPECT_NE(ReadWholeFile(out + "/plots/accuracy-vs-rounds.gp").find("mean over 3 seeds"),
              std::string::npos);
    // Paired tests of D-PSGD against JWINS over the three seeds.
    const auto comparisons = ReadCsvByColumn(out + "/comparisons.csv");
    ASSERT_EQ(comparisons.size(), 3u) << "final accuracy, time and bytes to the target";
    EXPECT_EQ(comparisons[0].at("a"), "D-PSGD");
    EXPECT_EQ(comparisons[0].at("common_seeds"), "3");
    fs::remove_all(out);
}

} // namespace
} // namespace ns3
