// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: figures, indexes and time to target as a researcher sees them: every algorithm in its
 * own colour and marker in every figure of a folder, legends with resolved values, log axes
 * for values spanning decades, the paper style, time to target interpolated the same way in
 * summary.csv, index.csv and figures, and the table a grid ends with.
 */
#include "external-command.h"
#include "results-plots.h"
#include "results-writer.h"
#include "run-catalogue.h"
#include "run-command.h"
#include "scenario-config.h"
#include "time-to-target.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

/**
 * A finished run folder written by hand, as a run leaves it: config.ini (`ini`, the rest
 * defaults), curve.csv (`curve`, its lines after the header), summary.csv and summary.json with
 * `resolved` as its "resolved" object, written by the run's own writers. The summary's
 * to-target fields are deliberately wrong (empty), so that a test sees whether they are
 * recomputed from the curve. Without `evaluated`, the run evaluated nothing: no accuracy.
 */
void
WriteRun(const std::string& dir,
         const std::string& ini,
         const std::string& curve,
         const std::map<std::string, std::string>& resolved = {},
         bool evaluated = true)
{
    fs::create_directories(dir);
    std::ofstream(dir + "/config.ini") << ini;
    std::ofstream(dir + "/curve.csv")
        << "round,time_s,bytes_per_node,accuracy_mean,accuracy_min,accuracy_max\n"
        << curve;
    RunSummary summary;
    summary.nodes = 4;
    summary.rounds = 40;
    if (evaluated)
    {
        summary.finalRound = 40;
        summary.finalAccuracyMean = 0.9;
        summary.finalAccuracyMin = 0.8;
        summary.finalAccuracyMax = 0.95;
    }
    summary.simulatedSeconds = 20;
    summary.valueBytesPerNode = 5000000;
    summary.wallSeconds = 1;
    summary.resolved = resolved;
    std::ofstream(dir + "/summary.csv") << SummaryCsvHeader() << "\n"
                                        << SummaryCsvRow(summary) << "\n";
    WriteSummaryJson(summary, dir + "/summary.json");
}

/// A curve crossing 0.6 between rounds 10 (0.5) and 20 (0.8), dipping below it afterwards.
const std::string kCurve = "0,0,0,0.1,0.1,0.1\n"
                           "10,5,1000000,0.5,0.4,0.6\n"
                           "20,10,3000000,0.8,0.7,0.9\n"
                           "30,15,4000000,0.55,0.5,0.6\n"
                           "40,20,5000000,0.9,0.85,0.95\n";

/// The same curve with the times scaled, as a slower link would stretch it.
std::string
Stretched(double factor)
{
    std::ostringstream out;
    std::stringstream lines(kCurve);
    for (std::string line; std::getline(lines, line);)
    {
        CurvePoint p = ParseCurveLine(line);
        out << p.round << "," << p.time * factor << "," << p.bytesPerNode << "," << p.accuracyMean
            << ",0,1\n";
    }
    return out.str();
}

/// Rows of index.csv (or points.csv, comparisons.csv) as column name to text.
std::vector<std::map<std::string, std::string>>
ReadIndex(const std::string& path)
{
    return ReadCsvByColumn(path);
}

/**
 * The colour and marker of the curve whose legend starts with `title` in a gnuplot script, as
 * "#rrggbb pt N". (No std::regex in this program: see model/random-variable-spec.cc.)
 */
std::string
StyleOfCurve(const std::string& script, const std::string& title)
{
    const size_t at = script.find("title '" + title);
    if (at == std::string::npos)
    {
        return "";
    }
    const size_t with = script.rfind(" with ", at);
    const std::string curve = script.substr(with, at - with);
    const size_t colour = curve.find("lc rgb \"");
    const size_t pt = curve.find(" pt ");
    if (with == std::string::npos || colour == std::string::npos || pt == std::string::npos)
    {
        return "";
    }
    return curve.substr(colour + 8, 7) + " pt "
           + curve.substr(pt + 4, curve.find(' ', pt + 4) - pt - 4);
}

/// The bounds of `set yrange [LO:HI]` in a gnuplot script; false when there is none.
bool
YRange(const std::string& script, double& lo, double& hi)
{
    const size_t at = script.find("set yrange [");
    if (at == std::string::npos)
    {
        return false;
    }
    const size_t colon = script.find(':', at);
    lo = std::stod(script.substr(at + 12, colon - at - 12));
    hi = std::stod(script.substr(colon + 1));
    return true;
}

std::string
Plot(const std::string& args, int expectedStatus = 0)
{
    std::string output;
    EXPECT_EQ(RunCommand(std::string(DLSIM_RUN_BINARY) + " " + args, output), expectedStatus)
        << output;
    return output;
}

/// kCurve's evaluations.
std::vector<CurvePoint>
CurvePoints()
{
    std::vector<CurvePoint> curve;
    std::stringstream lines(kCurve);
    for (std::string line; std::getline(lines, line);)
    {
        curve.push_back(ParseCurveLine(line));
    }
    return curve;
}

TEST(TimeToTarget, InterpolatesBetweenTheEvaluationsAroundTheFirstCrossing)
{
    const std::vector<CurvePoint> curve = CurvePoints();
    // 0.6 lies a third of the way from 0.5 (round 10) to 0.8 (round 20).
    auto c = FindTargetCrossing(curve, 0.6);
    ASSERT_TRUE(c.has_value());
    EXPECT_NEAR(c->time, 5.0 + 5.0 / 3.0, 1e-12);
    EXPECT_NEAR(c->bytesPerNode, 1e6 + 2e6 / 3.0, 1e-6);
    EXPECT_NEAR(c->round, 10.0 + 10.0 / 3.0, 1e-12);
    // Its bracket: the evaluations at 5 s (below) and 10 s (at or above).
    EXPECT_DOUBLE_EQ(c->evaluatedBelow, 5.0);
    EXPECT_DOUBLE_EQ(c->evaluatedAbove, 10.0);
    // Reached at an evaluation: exactly that evaluation, bracketed by the one before.
    c = FindTargetCrossing(curve, 0.8);
    ASSERT_TRUE(c.has_value());
    EXPECT_DOUBLE_EQ(c->time, 10.0);
    EXPECT_DOUBLE_EQ(c->evaluatedBelow, 5.0);
    EXPECT_DOUBLE_EQ(c->evaluatedAbove, 10.0);
    // Already at the first evaluation: no earlier one to interpolate from, a bracket of width 0.
    c = FindTargetCrossing(curve, 0.05);
    ASSERT_TRUE(c.has_value());
    EXPECT_DOUBLE_EQ(c->time, 0.0);
    EXPECT_DOUBLE_EQ(c->evaluatedBelow, 0.0);
    EXPECT_DOUBLE_EQ(c->evaluatedAbove, 0.0);
    EXPECT_FALSE(FindTargetCrossing(curve, 0.95).has_value());
    EXPECT_THROW(ParseCurveLine("10,abc,1,0.5"), std::runtime_error);
}

// The time after which the curve stays at or above the target: after its last crossing from
// below, interpolated as the first one is; none when the curve ends below the target.
TEST(TimeToTarget, TheCurveStaysAboveTheTargetAfterItsLastCrossing)
{
    std::vector<CurvePoint> curve = CurvePoints();
    // 0.6: first reached at 5 + 5/3 s, left at 15 s (0.55), reached again for good a seventh
    // of the way from 0.55 (15 s) to 0.9 (20 s).
    auto last = FindLastCrossing(curve, 0.6);
    ASSERT_TRUE(last.has_value());
    EXPECT_NEAR(last->time, 15.0 + 5.0 / 7.0, 1e-12);
    EXPECT_NEAR(last->round, 30.0 + 10.0 / 7.0, 1e-12);
    EXPECT_NEAR(FindTargetCrossing(curve, 0.6)->time, 5.0 + 5.0 / 3.0, 1e-12);
    // Never below 0.05: the first evaluation. Ending below 0.95: none.
    EXPECT_DOUBLE_EQ(FindLastCrossing(curve, 0.05)->time, 0.0);
    EXPECT_FALSE(FindLastCrossing(curve, 0.95).has_value());
    curve.pop_back(); // now ending at 0.55, below 0.6 though it was above it before
    EXPECT_FALSE(FindLastCrossing(curve, 0.6).has_value());
    EXPECT_TRUE(FindTargetCrossing(curve, 0.6).has_value());
    EXPECT_FALSE(FindLastCrossing({}, 0.6).has_value());
    // collect writes it to index.csv, next to the first crossing.
    const std::string dir = FreshTempFolder("stays-above");
    WriteRun(dir + "/run", "target_accuracy = 0.6\n", kCurve);
    Plot("--collect " + dir);
    const auto rows = ReadIndex(dir + "/index.csv");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_NEAR(std::stod(rows[0].at("time_stays_above_target_s")), 15.0 + 5.0 / 7.0, 1e-8);
    EXPECT_NEAR(std::stod(rows[0].at("time_to_target_s")), 5.0 + 5.0 / 3.0, 1e-8);
    fs::remove_all(dir);
}

/// `curve`'s lines with the accuracies scaled by `factor` (a run that learns less).
std::string
Scaled(const std::string& curve, double factor)
{
    std::ostringstream out;
    std::stringstream lines(curve);
    for (std::string line; std::getline(lines, line);)
    {
        CurvePoint p = ParseCurveLine(line);
        out << p.round << "," << p.time << "," << p.bytesPerNode << "," << p.accuracyMean * factor
            << "," << p.accuracyMin * factor << "," << p.accuracyMax * factor << "\n";
    }
    return out.str();
}

// Three seeds of two algorithms, one D-PSGD seed never reaching the target: every seed counts.
// points.csv gives the mean over the seeds that reached it with its interval and "2 of 3", the
// table says so, the figures average all three seeds' curves up to the shortest one's end and
// name the seed that did not reach it, and comparisons.csv pairs the algorithms by seed.
TEST(Figures, EverySeedOfAPointCountsAndThoseNotReachingTheTargetAreNamed)
{
    const std::string dir = FreshTempFolder("seeds");
    const std::map<std::string, std::string> dpsgd
        = {{"1", kCurve}, {"2", Stretched(2)}, {"3", Scaled(kCurve, 0.5)}};
    for (const auto& [seed, curve] : dpsgd)
    {
        WriteRun(dir + "/seed=" + seed + "_algorithm=dpsgd",
                 "seed = " + seed + "\nalgorithm = dpsgd\ntarget_accuracy = 0.6\n",
                 curve);
        WriteRun(dir + "/seed=" + seed + "_algorithm=jwins",
                 "seed = " + seed + "\nalgorithm = jwins\ntarget_accuracy = 0.6\n",
                 Stretched(std::stod(seed)));
    }
    Plot("--collect " + dir);
    auto points = ReadIndex(dir + "/points.csv");
    ASSERT_EQ(points.size(), 2u);
    auto& d = points[0];
    EXPECT_EQ(d["algorithm"], "dpsgd");
    EXPECT_EQ(d["seeds"], "1 2 3");
    EXPECT_EQ(d["runs"], "3");
    EXPECT_EQ(d["reached"], "2");
    // Over the two that reached it: 5 + 5/3 and twice that, mean 10 s, half-width
    // t(0.975, 1) s / sqrt(2) = 12.7062 * (10/3) s.
    EXPECT_NEAR(std::stod(d["time_to_target_s"]), 10.0, 1e-8);
    EXPECT_NEAR(std::stod(d["time_to_target_s_ci95_high"]) - 10.0, 12.7062047 * 10.0 / 3.0, 1e-5);
    EXPECT_NEAR(std::stod(d["time_to_target_s_ci95_low"]), 10.0 - 12.7062047 * 10.0 / 3.0, 1e-5);
    EXPECT_EQ(points[1]["reached"], "3");
    // The table: the spread, and 2 of 3.
    const std::string table = ReadWholeFile(dir + "/grid-summary.txt");
    EXPECT_NE(table.find("(2 of 3)"), std::string::npos) << table;
    EXPECT_NE(table.find("10.0 \u00b1 42.4 (2 of 3)"), std::string::npos) << table;

    // The curve figure: one mean curve per algorithm over its three seeds, up to the shortest
    // seed's end (20 s); at 5 s seed 1 is at 0.5, seed 2 halfway from 0.1 to 0.5, seed 3 at 0.25.
    const std::string gp = ReadWholeFile(dir + "/plots/accuracy-vs-time.gp");
    EXPECT_NE(gp.find("title 'D-PSGD (target in 2 of 3 seeds)'"), std::string::npos) << gp;
    EXPECT_NE(gp.find("mean over 3 seeds, band: 95% CI over seeds"), std::string::npos) << gp;
    EXPECT_NE(gp.find("using 1:3:4 with filledcurves"), std::string::npos) << gp;
    std::ifstream dat(dir + "/plots/accuracy-vs-time.dat");
    std::string line;
    std::getline(dat, line);
    std::map<double, double> mean;
    while (std::getline(dat, line) && !line.empty())
    {
        std::stringstream fields(line);
        double x = 0;
        double m = 0;
        fields >> x >> m;
        mean[x] = m;
    }
    EXPECT_NEAR(mean.at(5.0), (0.5 + 0.3 + 0.25) / 3, 1e-9);
    EXPECT_DOUBLE_EQ(mean.rbegin()->first, 20.0) << "cut at the shortest seed's end";
    // The band over nodes instead, when asked for.
    Plot("--plot " + dir + " --band=nodes");
    EXPECT_NE(
        ReadWholeFile(dir + "/plots/accuracy-vs-time.gp").find("using 1:5:6 with filledcurves"),
        std::string::npos);

    // The paired tests: final accuracy over the 3 seeds, time to target over the 2 both reached.
    auto comparisons = ReadIndex(dir + "/comparisons.csv");
    ASSERT_EQ(comparisons.size(), 3u);
    EXPECT_EQ(comparisons[0]["metric"], "final_accuracy_mean");
    EXPECT_EQ(comparisons[0]["n"], "3");
    EXPECT_EQ(comparisons[1]["metric"], "time_to_target_s");
    EXPECT_EQ(comparisons[1]["common_seeds"], "3");
    EXPECT_EQ(comparisons[1]["n"], "2");
    EXPECT_EQ(comparisons[1]["seeds"], "1 2");
    // In seeds 1 and 2 both reach 0.6 at the same times (5 + 5/3 s, and twice that): no
    // difference.
    EXPECT_NEAR(std::stod(comparisons[1]["mean_difference"]), 0.0, 1e-8);
    EXPECT_EQ(comparisons[1]["significant"], "no");
    fs::remove_all(dir);
}

// Sweep figures say over how many seeds their means and intervals are, and mark a point that
// only some seeds reached; with one seed per point they say that instead.
TEST(Figures, SweepFiguresSayOverHowManySeeds)
{
    const std::string dir = FreshTempFolder("sweep-seeds");
    for (std::string bw : {"1Mbps", "10Mbps"})
    {
        for (std::string seed : {"1", "2"})
        {
            const bool reaches = bw == "1Mbps" || seed == "1";
            WriteRun(dir + "/seed=" + seed + "_link.bandwidth=" + bw,
                     "seed = " + seed + "\ntarget_accuracy = 0.6\n[link]\nbandwidth = " + bw + "\n",
                     reaches ? Stretched(seed == "1" ? 1.0 : 1.5) : Scaled(kCurve, 0.5));
        }
    }
    Plot("--plot " + dir);
    std::string sweep = ReadWholeFile(dir + "/plots/sweep-link.bandwidth-time.gp");
    EXPECT_NE(sweep.find("mean and 95% CI over 2 seeds"), std::string::npos) << sweep;
    EXPECT_NE(sweep.find("set label '1/2' at 10, 6.666666667"), std::string::npos) << sweep;
    const std::string data = ReadWholeFile(dir + "/plots/sweep-link.bandwidth-time.dat");
    EXPECT_NE(data.find("\n10 6.666666667 6.666666667 6.666666667 1 2\n"), std::string::npos)
        << data;
    // One seed: no claim of seeds.
    fs::remove_all(dir + "/seed=2_link.bandwidth=1Mbps");
    fs::remove_all(dir + "/seed=2_link.bandwidth=10Mbps");
    Plot("--plot " + dir);
    sweep = ReadWholeFile(dir + "/plots/sweep-link.bandwidth-time.gp");
    EXPECT_EQ(sweep.find("95% CI over"), std::string::npos) << sweep;
    EXPECT_NE(sweep.find("one seed per point"), std::string::npos) << sweep;
    fs::remove_all(dir);
}

// A folder of symbolic links to runs (gathered from several grids) is plotted as a folder of
// runs; a link back up the tree is read once, not followed for ever.
TEST(Figures, AFolderOfLinksToRunsIsPlotted)
{
    const std::string runs = FreshTempFolder("linked-runs");
    const std::string links = FreshTempFolder("run-links");
    for (std::string bw : {"1Mbps", "10Mbps"})
    {
        WriteRun(runs + "/link.bandwidth=" + bw,
                 "seed = 1\ntarget_accuracy = 0.6\n[link]\nbandwidth = " + bw + "\n",
                 Stretched(1.0));
        fs::create_directory_symlink(runs + "/link.bandwidth=" + bw, links + "/" + bw);
    }
    fs::create_directory_symlink(links, links + "/loop");
    const std::string output = Plot("--plot " + links);
    EXPECT_NE(output.find("figures"), std::string::npos) << output;
    EXPECT_TRUE(fs::exists(links + "/plots/sweep-link.bandwidth-time.gp")) << output;
    fs::remove_all(links);
    fs::remove_all(runs);
}

// `--plot --figure-style=paper DIR` is `--plot DIR --figure-style=paper`: options before or after
// the folder; a second folder, none, or an option plotting does not take is refused by name.
TEST(Figures, PlotOptionsGoBeforeOrAfterTheFolder)
{
    const std::string dir = FreshTempFolder("plot-order");
    WriteRun(dir + "/run", "seed = 1\ntarget_accuracy = 0.6\n", Stretched(1.0));
    std::string output = Plot("--plot --figure-style=paper " + dir);
    EXPECT_NE(output.find("PDF and SVG"), std::string::npos) << output;
    output = Plot("--plot " + dir + " --figure-style paper");
    EXPECT_NE(output.find("PDF and SVG"), std::string::npos) << output;
    output = Plot("--plot", 2);
    EXPECT_NE(output.find("take one folder of runs, got 0"), std::string::npos) << output;
    output = Plot("--plot " + dir + " " + dir + "/run", 2);
    EXPECT_NE(output.find("got 2"), std::string::npos) << output;
    output = Plot("--plot " + dir + " --rounds=3", 2);
    EXPECT_NE(output.find("got '--rounds=3'"), std::string::npos) << output;
    fs::remove_all(dir);
}

// Nine curves are more bands than a figure shows apart: the figure of all says so and where they
// are, and one figure per swept bandwidth (in the rates' order) draws every algorithm's band.
TEST(Figures, ManyCurvesGetOneFigurePerSweptValueWithTheirBands)
{
    const std::string dir = FreshTempFolder("facets");
    for (std::string algorithm : {"dpsgd", "jwins", "topk"})
    {
        for (std::string bw : {"1Mbps", "10Mbps", "100Mbps"})
        {
            for (std::string seed : {"1", "2"})
            {
                WriteRun(dir + "/" + algorithm + "-" + bw + "-" + seed,
                         "seed = " + seed + "\nalgorithm = " + algorithm
                             + "\ntarget_accuracy = 0.6\n[link]\nbandwidth = " + bw + "\n",
                         Stretched(seed == "1" ? 1.0 : 1.2));
            }
        }
    }
    const std::string output = Plot("--plot " + dir);
    const std::string all = ReadWholeFile(dir + "/plots/accuracy-vs-time.gp");
    EXPECT_NE(all.find("no bands with 9 curves: see the figures "
                       "accuracy-vs-time-link.bandwidth=VALUE"),
              std::string::npos)
        << all;
    EXPECT_EQ(all.find("filledcurves"), std::string::npos) << all;
    // Legends in the rates' order, not as text (10Mbps would come before 1Mbps).
    EXPECT_LT(all.find("D-PSGD, 1Mbps'"), all.find("D-PSGD, 10Mbps'")) << all;
    EXPECT_LT(all.find("D-PSGD, 10Mbps'"), all.find("D-PSGD, 100Mbps'")) << all;
    for (std::string bw : {"1Mbps", "10Mbps", "100Mbps"})
    {
        const std::string facet
            = ReadWholeFile(dir + "/plots/accuracy-vs-time-link.bandwidth=" + bw + ".gp");
        EXPECT_NE(facet.find("link.bandwidth = " + bw + "; mean over 2 seeds"), std::string::npos)
            << facet;
        size_t bands = 0;
        for (size_t at = facet.find("filledcurves"); at != std::string::npos;
             at = facet.find("filledcurves", at + 1))
        {
            ++bands;
        }
        // One band per algorithm, in each of the script's two outputs (PNG and SVG).
        EXPECT_EQ(bands, 2 * 3u) << bw << "\n" << facet;
        EXPECT_TRUE(fs::exists(dir + "/plots/accuracy-vs-bytes-link.bandwidth=" + bw + ".gp"));
    }
    EXPECT_NE(output.find("14 figures"), std::string::npos) << output;
    fs::remove_all(dir);
}

/// The catalogue reads a finished run whole: its keys, summary by column, resolved values, curve.
TEST(RunCatalogue, ReadsAFinishedRunWhole)
{
    const std::string dir = FreshTempFolder("catalogue-whole");
    WriteRun(dir + "/a", "seed = 3\ntarget_accuracy = 0.6\n", kCurve, {{"choco.gamma", "0.25"}});
    std::ostringstream warnings;
    const std::vector<RunRecord> runs = ReadFinishedRuns(dir, -1.0, warnings);
    ASSERT_EQ(runs.size(), 1u) << warnings.str();
    EXPECT_EQ(warnings.str(), "");
    EXPECT_EQ(runs[0].dir, dir + "/a");
    EXPECT_EQ(runs[0].config.at("seed"), "3");
    EXPECT_EQ(runs[0].config.at("algorithm"), "dpsgd") << "a key config.ini lacks: its default";
    EXPECT_EQ(runs[0].summary.at("final_accuracy_mean"), "0.9");
    EXPECT_EQ(runs[0].resolved.at("choco.gamma"), "0.25");
    ASSERT_TRUE(runs[0].curve.has_value());
    EXPECT_EQ(runs[0].curve->size(), 5u);
    // The to-target columns recomputed from the curve for the run's own target.
    EXPECT_NEAR(std::stod(runs[0].summary.at("time_to_target_s")), 5.0 + 5.0 / 3.0, 1e-8);
    fs::remove_all(dir);
}

/// A summary.csv of an earlier version, without time_stays_above_target_s, is still a finished
/// run's (a grid does not run it again); the catalogue computes the column from its curve.
TEST(RunCatalogue, ASummaryOfAnEarlierVersionIsStillFinished)
{
    const std::string dir = FreshTempFolder("catalogue-earlier");
    WriteRun(dir + "/a", "target_accuracy = 0.6\n", kCurve);
    const auto fields = ReadCsv(dir + "/a/summary.csv").at(0);
    std::ostringstream earlier;
    earlier << "final_accuracy_mean,final_accuracy_min,final_accuracy_max,time_to_target_s,"
               "bytes_per_node_to_target,round_to_target,simulated_time_s,value_bytes_per_node,"
               "metadata_bytes_per_node,wire_bytes_per_node,wall_time_s\n";
    for (size_t i = 0; i < fields.size(); ++i)
    {
        if (i != 10) // time_stays_above_target_s
        {
            earlier << fields[i] << (i + 1 < fields.size() ? "," : "\n");
        }
    }
    std::ofstream(dir + "/a/summary.csv") << earlier.str();
    EXPECT_EQ(IncompleteRunReason(dir + "/a"), "");
    std::ostringstream warnings;
    const auto runs = ReadFinishedRuns(dir, -1.0, warnings);
    ASSERT_EQ(runs.size(), 1u) << warnings.str();
    EXPECT_NEAR(std::stod(runs[0].summary.at("time_stays_above_target_s")), 15.0 + 5.0 / 7.0, 1e-8);
    EXPECT_EQ(runs[0].summary.at("wall_time_s"), "1");
    fs::remove_all(dir);
}

/// A summary.json that is not JSON: the folder and the file are named, the run left out.
TEST(RunCatalogue, ABrokenSummaryJsonIsNamedAndLeftOut)
{
    const std::string dir = FreshTempFolder("catalogue-broken-json");
    WriteRun(dir + "/good", "seed = 1\n", kCurve);
    WriteRun(dir + "/broken", "seed = 2\n", kCurve);
    std::ofstream(dir + "/broken/summary.json") << "{\"status\": \"finished\", \"nodes\": ";
    EXPECT_NE(IncompleteRunReason(dir + "/broken").find("summary.json is not JSON"),
              std::string::npos)
        << IncompleteRunReason(dir + "/broken");
    std::ostringstream warnings;
    const std::vector<RunRecord> runs = ReadFinishedRuns(dir, -1.0, warnings);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].dir, dir + "/good");
    EXPECT_NE(warnings.str().find(dir + "/broken is not a finished run (summary.json is not JSON"),
              std::string::npos)
        << warnings.str();
    EXPECT_NE(warnings.str().find("left out"), std::string::npos) << warnings.str();
    // A JSON document that is not an object, and one whose figure is not a number.
    std::ofstream(dir + "/broken/summary.json") << "[1, 2]";
    EXPECT_EQ(IncompleteRunReason(dir + "/broken"), "summary.json is not a JSON object");
    std::ofstream(dir + "/broken/summary.json") << "{\"status\": \"finished\", \"nodes\": \"4\"}";
    EXPECT_EQ(IncompleteRunReason(dir + "/broken"), "summary.json has no number for nodes");
    // A hostile "resolved" value nested 100,000 deep: read without recursing (no crash), left out.
    WriteRun(dir + "/broken", "seed = 2\n", kCurve);
    std::string deep = ReadWholeFile(dir + "/broken/summary.json");
    const std::string empty = "\"resolved\": {}";
    const size_t resolved = deep.find(empty);
    ASSERT_NE(resolved, std::string::npos) << deep;
    deep.replace(resolved,
                 empty.size(),
                 "\"resolved\": {\"x\": " + std::string(100000, '[') + std::string(100000, ']')
                     + ", \"y\": 2}");
    std::ofstream(dir + "/broken/summary.json") << deep;
    const std::vector<RunRecord> both = ReadFinishedRuns(dir, -1.0, warnings);
    ASSERT_EQ(both.size(), 2u);
    EXPECT_EQ(both[0].resolved, (std::map<std::string, std::string>{{"y", "2"}}));
    fs::remove_all(dir);
}

/// A run without curve.csv is read, but a new target cannot be computed for it: said so.
TEST(RunCatalogue, AMissingCurveIsNamedWhenANewTargetNeedsIt)
{
    const std::string dir = FreshTempFolder("catalogue-no-curve");
    WriteRun(dir + "/run", "seed = 1\n", kCurve);
    fs::remove(dir + "/run/curve.csv");
    std::ostringstream warnings;
    const std::vector<RunRecord> runs = ReadFinishedRuns(dir, -1.0, warnings);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_FALSE(runs[0].curve.has_value());
    try
    {
        ReadFinishedRuns(dir, 0.5, warnings);
        ADD_FAILURE() << "no error for a new target without curve.csv";
    }
    catch (const ScenarioError& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "run " + dir + "/run has no curve.csv to recompute the target from");
    }
    // A curve.csv that does not parse leaves its run out, named with the file and the line,
    // and the other runs are read.
    WriteRun(dir + "/other", "seed = 2\n", kCurve);
    std::ofstream(dir + "/run/curve.csv") << "round,time_s\n10,abc,1,0.5\n";
    std::ostringstream left;
    const std::vector<RunRecord> rest = ReadFinishedRuns(dir, -1.0, left);
    ASSERT_EQ(rest.size(), 1u) << left.str();
    EXPECT_EQ(rest[0].dir, dir + "/other");
    EXPECT_NE(left.str().find(dir + "/run cannot be read (" + dir
                              + "/run/curve.csv: a curve line has 'abc'"),
              std::string::npos)
        << left.str();
    EXPECT_NE(left.str().find("): left out"), std::string::npos) << left.str();
    fs::remove_all(dir);
}

/// A folder with a partial run (interrupted: *.partial files, a summary.csv but no summary.json)
/// is named and left out; a folder of nothing but partial files is no run at all.
TEST(RunCatalogue, APartialRunIsNamedAndLeftOut)
{
    const std::string dir = FreshTempFolder("catalogue-partial");
    WriteRun(dir + "/done", "seed = 1\n", kCurve);
    WriteRun(dir + "/cut", "seed = 2\n", kCurve);
    fs::remove(dir + "/cut/summary.json");
    fs::rename(dir + "/cut/curve.csv", dir + "/cut/curve.csv.partial");
    fs::create_directories(dir + "/started");
    std::ofstream(dir + "/started/config.ini") << "seed = 3\n";
    std::ofstream(dir + "/started/rounds.csv.partial") << "round\n1\n";
    EXPECT_EQ(FindRunFolders(dir), (std::vector<std::string>{dir + "/cut", dir + "/done"}));
    EXPECT_EQ(IncompleteRunReason(dir + "/cut"), "no summary.json");
    EXPECT_FALSE(HasCompleteResults(dir + "/started"));
    std::ostringstream warnings;
    const std::vector<RunRecord> runs = ReadFinishedRuns(dir, -1.0, warnings);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].dir, dir + "/done");
    EXPECT_NE(warnings.str().find(dir + "/cut is not a finished run (no summary.json)"),
              std::string::npos)
        << warnings.str();
    // A summary.csv cut short beside a good summary.json.
    WriteRun(dir + "/cut", "seed = 2\n", kCurve);
    std::ofstream(dir + "/cut/summary.csv") << SummaryCsvHeader() << "\n0.9,0.8";
    EXPECT_EQ(IncompleteRunReason(dir + "/cut"),
              "summary.csv is missing, cut short or not numbers");
    EXPECT_FALSE(ReadSummaryCsv(dir + "/cut/summary.csv").has_value());
    // Nothing finished at all: the folder is named.
    fs::remove_all(dir + "/done");
    try
    {
        RequireFinishedRuns(dir, -1.0, warnings);
        ADD_FAILURE() << "no error without a finished run";
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("no finished runs"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find(dir), std::string::npos) << e.what();
    }
    fs::remove_all(dir);
}

TEST(Figures, CollectWithATargetRewritesTheIndexFromTheCurves)
{
    std::string dir = FreshTempFolder("retarget");
    WriteRun(dir + "/seed=1", "seed = 1\ntarget_accuracy = 0.7\n", kCurve);
    WriteRun(dir + "/seed=2", "seed = 2\ntarget_accuracy = 0.7\n", Stretched(2));
    Plot("--collect " + dir + " --target_accuracy=0.6");
    auto rows = ReadIndex(dir + "/index.csv");
    ASSERT_EQ(rows.size(), 2u);
    // By hand: a third of the way from round 10 (5 s, 1 MB) to round 20 (10 s, 3 MB).
    EXPECT_EQ(rows[0]["target_accuracy"], "0.6");
    EXPECT_NEAR(std::stod(rows[0]["time_to_target_s"]), 6.6666666667, 1e-8);
    EXPECT_NEAR(std::stod(rows[0]["bytes_per_node_to_target"]), 1666666.667, 1e-3);
    EXPECT_NEAR(std::stod(rows[0]["round_to_target"]), 13.333333333, 1e-8);
    EXPECT_NEAR(std::stod(rows[1]["time_to_target_s"]), 13.333333333, 1e-8);

    // plot with a target updates an existing index too, so that it never disagrees with
    // the figures; a target never reached leaves the fields empty.
    Plot("--plot " + dir + " --target_accuracy 0.95");
    rows = ReadIndex(dir + "/index.csv");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0]["target_accuracy"], "0.95");
    EXPECT_EQ(rows[0]["time_to_target_s"], "");
    EXPECT_EQ(rows[0]["round_to_target"], "");

    // Without a target, the runs' own one (0.7), still interpolated: 5 + 5 * 2/3 s.
    Plot("--collect " + dir);
    rows = ReadIndex(dir + "/index.csv");
    EXPECT_NEAR(std::stod(rows[0]["time_to_target_s"]), 5.0 + 10.0 / 3.0, 1e-8);
    fs::remove_all(dir);
}

TEST(Figures, AnAlgorithmKeepsItsStyleAndLegendsShowResolvedValues)
{
    std::string dir = FreshTempFolder("styles");
    for (std::string bw : {"1Mbps", "100Mbps"})
    {
        const double stretch = bw == "1Mbps" ? 3.0 : 1.0;
        const std::string common
            = "seed = 1\ntarget_accuracy = 0.6\n[link]\nbandwidth = " + bw + "\n";
        WriteRun(dir + "/link.bandwidth=" + bw + "_algorithm=dpsgd",
                 "algorithm = dpsgd\n" + common,
                 Stretched(stretch));
        WriteRun(dir + "/link.bandwidth=" + bw + "_algorithm=choco",
                 "algorithm = choco\n" + common + "[choco]\ngamma = auto\nalpha = 0.1\n",
                 Stretched(2 * stretch),
                 {{"choco.gamma", "0.0432198765"}});
    }
    Plot("--plot " + dir);
    std::set<std::string> chocoStyles;
    std::set<std::string> dpsgdStyles;
    for (std::string figure : {"accuracy-vs-time",
                               "accuracy-vs-bytes",
                               "accuracy-vs-rounds",
                               "sweep-link.bandwidth-time",
                               "sweep-link.bandwidth-bytes"})
    {
        std::string script = ReadWholeFile(dir + "/plots/" + figure + ".gp");
        ASSERT_FALSE(script.empty()) << figure;
        EXPECT_GT(fs::file_size(dir + "/plots/" + figure + ".png"), 1000u) << figure;
        std::string choco = StyleOfCurve(script, "CHOCO-SGD (topk 0.1, gamma 0.0432)");
        std::string dpsgd = StyleOfCurve(script, "D-PSGD");
        EXPECT_NE(choco, "") << figure << " has no CHOCO curve with the tuned gamma:\n" << script;
        EXPECT_NE(dpsgd, "") << figure;
        chocoStyles.insert(choco);
        dpsgdStyles.insert(dpsgd);
        EXPECT_EQ(script.find("gamma auto"), std::string::npos) << figure;
    }
    EXPECT_EQ(chocoStyles.size(), 1u) << "CHOCO-SGD changes colour or marker between figures";
    EXPECT_EQ(dpsgdStyles.size(), 1u);
    EXPECT_NE(*chocoStyles.begin(), *dpsgdStyles.begin());

    // Each run's crossing of the target is marked: D-PSGD at 100 Mbit/s at 5 + 5/3 s.
    std::string time = ReadWholeFile(dir + "/plots/accuracy-vs-time.gp");
    EXPECT_NE(time.find("set arrow from 6.666666667, graph 0 to 6.666666667, first 0.6"),
              std::string::npos)
        << time;

    // 1 to 100 Mbit/s spans two decades: a log x axis; times to target within a factor of 6
    // keep a linear y axis unless asked for.
    std::string sweep = ReadWholeFile(dir + "/plots/sweep-link.bandwidth-time.gp");
    EXPECT_NE(sweep.find("set logscale x"), std::string::npos) << sweep;
    EXPECT_EQ(sweep.find("set logscale y"), std::string::npos) << sweep;
    Plot("--plot " + dir + " --log-y");
    sweep = ReadWholeFile(dir + "/plots/sweep-link.bandwidth-time.gp");
    EXPECT_NE(sweep.find("set logscale y"), std::string::npos) << sweep;
    fs::remove_all(dir);
}

/// Seeds of one configuration whose `auto` key resolved differently (CHOCO-SGD's gamma, tuned
/// per seed) are one legend entry naming the range, in the curves and in the sweep alike.
TEST(Figures, SeedsThatResolvedAutoDifferentlyShareOneEntryWithTheRange)
{
    const std::string dir = FreshTempFolder("resolved-ranges");
    const std::map<std::string, std::string> gammaOf = {{"1", "0.158489319"}, {"2", "0.2511886"}};
    for (std::string bw : {"1Mbps", "10Mbps"})
    {
        for (const auto& [seed, gamma] : gammaOf)
        {
            WriteRun(dir + "/seed=" + seed + "_link.bandwidth=" + bw,
                     "algorithm = choco\nseed = " + seed
                         + "\ntarget_accuracy = 0.6\n[link]\nbandwidth = " + bw
                         + "\n[choco]\ngamma = auto\nalpha = 0.1\n",
                     kCurve,
                     {{"choco.gamma", gamma}});
        }
    }
    Plot("--plot " + dir);
    const std::string curves = ReadWholeFile(dir + "/plots/accuracy-vs-time.gp");
    EXPECT_NE(curves.find("gamma 0.158-0.251), 1Mbps'"), std::string::npos) << curves;
    EXPECT_EQ(curves.find("gamma 0.158)"), std::string::npos) << curves;
    const std::string sweep = ReadWholeFile(dir + "/plots/sweep-link.bandwidth-time.gp");
    EXPECT_NE(sweep.find("gamma 0.158-0.251)'"), std::string::npos) << sweep;
    EXPECT_EQ(sweep.find("index 1 using 1:2:3:4"), std::string::npos)
        << "one line, not one per gamma";
    fs::remove_all(dir);
}

TEST(Figures, AConstantSeriesGetsARangeAroundIt)
{
    std::string dir = FreshTempFolder("flat");
    for (std::string bw : {"5Mbps", "10Mbps"})
    {
        // Identical curves: the time to target is the same at both bandwidths.
        WriteRun(dir + "/link.bandwidth=" + bw,
                 "target_accuracy = 0.6\n[link]\nbandwidth = " + bw + "\n",
                 kCurve);
    }
    Plot("--plot " + dir);
    std::string sweep = ReadWholeFile(dir + "/plots/sweep-link.bandwidth-time.gp");
    EXPECT_EQ(sweep.find("set logscale"), std::string::npos) << "5 to 10 Mbit/s is no decade";
    double lo = 0;
    double hi = 0;
    ASSERT_TRUE(YRange(sweep, lo, hi)) << sweep;
    EXPECT_LT(lo, 6.6666);
    EXPECT_GT(hi, 6.6667);
    EXPECT_EQ(ReadWholeFile(dir + "/plots/sweep-link.bandwidth-time.log").find("empty y range"),
              std::string::npos);
    fs::remove_all(dir);
}

/// A point no seed reached the target at is drawn where its runs ended (an open triangle at
/// their simulated time, or at the megabytes they sent), not left out as if it had not run.
TEST(Figures, ASweepPointThatNeverReachedTheTargetIsDrawnAtTheRunsEnd)
{
    const std::string dir = FreshTempFolder("sweep-not-reached");
    WriteRun(dir + "/link.bandwidth=10Mbps",
             "target_accuracy = 0.6\n[link]\nbandwidth = 10Mbps\n",
             kCurve);
    // Never above 0.5: not reached; WriteRun's runs end at 20 s having sent 5 MB per node.
    WriteRun(dir + "/link.bandwidth=1Mbps",
             "target_accuracy = 0.6\n[link]\nbandwidth = 1Mbps\n",
             "0,0,0,0.1,0.1,0.1\n40,20,5000000,0.5,0.4,0.6\n");
    Plot("--plot " + dir);
    EXPECT_NE(
        ReadWholeFile(dir + "/plots/sweep-link.bandwidth-time-not-reached.dat").find("\n1 20 1\n"),
        std::string::npos);
    EXPECT_NE(
        ReadWholeFile(dir + "/plots/sweep-link.bandwidth-bytes-not-reached.dat").find("\n1 5 1\n"),
        std::string::npos);
    const std::string script = ReadWholeFile(dir + "/plots/sweep-link.bandwidth-time.gp");
    EXPECT_NE(script.find("-not-reached.dat' index 0 using 1:2 with points"), std::string::npos)
        << script;
    EXPECT_NE(script.find("title 'not reached: time at the end'"), std::string::npos) << script;
    EXPECT_TRUE(fs::exists(dir + "/plots/sweep-link.bandwidth-time.png"));
    fs::remove_all(dir);
}

TEST(Figures, PaperStyleDrawsOneColumnPdfAndSvg)
{
    std::string dir = FreshTempFolder("paper");
    WriteRun(dir, "algorithm = jwins\ntarget_accuracy = 0.6\n", kCurve);
    std::string output = Plot("--plot " + dir + " --figure-style=paper");
    EXPECT_NE(output.find("PDF and SVG"), std::string::npos) << output;
    for (std::string ext : {".pdf", ".svg"})
    {
        EXPECT_GT(fs::file_size(dir + "/plots/accuracy-vs-time" + ext), 1000u) << ext;
    }
    EXPECT_EQ(ReadWholeFile(dir + "/plots/accuracy-vs-time.pdf").rfind("%PDF", 0), 0u);
    EXPECT_NE(ReadWholeFile(dir + "/plots/accuracy-vs-time.gp").find("size 3.5in,"),
              std::string::npos);

    output = Plot("--plot " + dir + " --figure-style=poster", 2);
    EXPECT_NE(output.find("--figure-style 'poster'"), std::string::npos) << output;
    output = Plot("--collect " + dir + " --log-z", 2);
    EXPECT_NE(output.find("--log-z"), std::string::npos) << output;
    fs::remove_all(dir);
}

TEST(Figures, StylesAreFixedForKnownAlgorithmsAndStableForOthers)
{
    std::set<std::string> colours;
    std::set<int> markers;
    for (std::string a :
         {"dpsgd", "random-sampling", "topk", "jwins", "choco", "sparse-push", "scsp"})
    {
        colours.insert(StyleOfAlgorithm(a).colour);
        markers.insert(StyleOfAlgorithm(a).pointType);
    }
    EXPECT_EQ(colours.size(), 7u);
    EXPECT_EQ(markers.size(), 7u);
    EXPECT_EQ(StyleOfAlgorithm("choco").colour, "#D55E00");
    EXPECT_EQ(StyleOfAlgorithm("my-gossip").colour, StyleOfAlgorithm("my-gossip").colour);
    EXPECT_EQ(StyleOfAlgorithm("my-gossip").pointType, StyleOfAlgorithm("my-gossip").pointType);
}

TEST(Figures, AGridReportsProgressAndEndsWithATableOfItsPoints)
{
    std::string out = FreshTempFolder("grid-table");
    std::string output
        = Plot("--dataset=synthetic --synthetic.train_samples=300 --model=logistic --nodes=4 "
               "--degree=2 --rounds=4 --eval.every=2 --target_accuracy=0.5 --no-plot "
               "--link.bandwidth='1Mbps, 10Mbps' --out="
               + out);
    EXPECT_NE(output.find("(point 1 of 2: link.bandwidth=1Mbps)"), std::string::npos) << output;
    EXPECT_NE(output.find("(point 2 of 2: link.bandwidth=10Mbps)"), std::string::npos) << output;
    EXPECT_NE(output.find("left"), std::string::npos) << "no time left estimated:\n" << output;
    EXPECT_NE(output.find("evaluated around it (s)"), std::string::npos) << output;
    const size_t table = output.find("dlsim: grid results");
    ASSERT_NE(table, std::string::npos) << output;
    auto index = ReadIndex(out + "/index.csv");
    ASSERT_EQ(index.size(), 2u);
    for (auto& row : index)
    {
        // Every point in the table with its values, the network model that made its figures,
        // and its figures as in index.csv.
        std::ostringstream accuracy;
        accuracy << std::fixed << std::setprecision(3) << std::stod(row["final_accuracy_mean"]);
        bool listed = false;
        std::stringstream lines(output.substr(table));
        for (std::string line; std::getline(lines, line);)
        {
            const std::string start = "  " + row["link.bandwidth"] + " ";
            if (line.rfind(start, 0) == 0)
            {
                std::string rest = line.substr(start.size());
                rest = rest.substr(rest.find_first_not_of(' '));
                const std::string model = row["network_model"] + " ";
                listed = rest.rfind(model, 0) == 0
                         && rest.substr(rest.find_first_not_of(' ', model.size()))
                                    .rfind(accuracy.str(), 0)
                                == 0;
            }
        }
        EXPECT_TRUE(listed) << row["link.bandwidth"] << " missing from:\n" << output.substr(table);
        // The run computed its time to target the way collect recomputes it from curve.csv.
        auto crossing
            = FindTargetCrossing(ReadCurveCsv(out + "/" + row["run"] + "/curve.csv"), 0.5);
        ASSERT_EQ(crossing.has_value(), !row["time_to_target_s"].empty());
        if (crossing)
        {
            EXPECT_NEAR(std::stod(row["time_to_target_s"]), crossing->time, 1e-9);
            // The evaluations around it, in index.csv and bracketing the interpolated time.
            const double below = std::stod(row["target_evaluated_below_s"]);
            const double above = std::stod(row["target_evaluated_above_s"]);
            EXPECT_DOUBLE_EQ(below, crossing->evaluatedBelow);
            EXPECT_DOUBLE_EQ(above, crossing->evaluatedAbove);
            EXPECT_LE(below, crossing->time);
            EXPECT_GE(above, crossing->time);
        }
    }
    fs::remove_all(out);
}

TEST(Figures, GnuplotRunsWithoutAShellWhateverTheFoldersAreCalled)
{
    // Absolute, and relative to the working directory with what gnuplot would read as a pipe
    // ("<command" as data, "|command" as output).
    const auto [base, cwd, absolute] = MakeHostileFolders("weird-plot");
    const std::string relative = "<touch PWNED4|x";
    WriteRun(absolute, "algorithm = dpsgd\ntarget_accuracy = 0.6\n", kCurve);
    WriteRun(cwd + "/" + relative, "algorithm = dpsgd\ntarget_accuracy = 0.6\n", kCurve);
    for (const std::string& dir : {absolute, relative})
    {
        std::string output;
        ASSERT_EQ(RunCommand("cd " + ShellQuote(cwd) + " && " + DLSIM_RUN_BINARY + " --plot "
                                 + ShellQuote(dir),
                             output),
                  0)
            << output;
        const std::string plots = (dir == relative ? cwd + "/" : "") + dir + "/plots/";
        for (std::string figure : {"accuracy-vs-time", "accuracy-vs-bytes", "accuracy-vs-rounds"})
        {
            EXPECT_GT(fs::file_size(plots + figure + ".png"), 1000u) << figure;
            EXPECT_GT(fs::file_size(plots + figure + ".svg"), 1000u) << figure;
        }
    }
    EXPECT_FALSE(AnyFileNamedPwned(base)) << "a path ran as a command";
    EXPECT_EQ(std::distance(fs::directory_iterator(cwd), fs::directory_iterator()), 1)
        << "only the relative run folder is in the working directory";
    fs::remove_all(base);
}

TEST(Figures, AMissingOrFailingGnuplotIsReportedWithALogThatExists)
{
    const std::string dir = FreshTempFolder("no-gnuplot");
    WriteRun(dir + "/run", "algorithm = dpsgd\ntarget_accuracy = 0.6\n", kCurve);
    fs::create_directories(dir + "/bin");
    std::string output;
    const std::string plot = "PATH=" + dir + "/bin " + DLSIM_RUN_BINARY + " --plot " + dir + "/run";
    EXPECT_EQ(RunCommand(plot, output), 1) << output;
    for (std::string word : {"dlsim: error: cannot run gnuplot", "not installed", "gnuplot-nox"})
    {
        EXPECT_NE(output.find(word), std::string::npos) << word << " in: " << output;
    }
    // A gnuplot that fails: the message points at its log, which holds what it said.
    std::ofstream(dir + "/bin/gnuplot") << "#!/bin/sh\necho 'broken gnuplot' >&2\nexit 3\n";
    ::chmod((dir + "/bin/gnuplot").c_str(), 0755);
    EXPECT_EQ(RunCommand(plot, output), 1) << output;
    const std::string log = dir + "/run/plots/accuracy-vs-time.log";
    EXPECT_NE(output.find("gnuplot failed with exit status 3; see " + log), std::string::npos)
        << output;
    EXPECT_NE(ReadWholeFile(log).find("broken gnuplot"), std::string::npos);
    fs::remove_all(dir);
}

// dlsim-run always evaluates (it refuses --ns3.ns3::LearnerApplication::Evaluate, which it sets
// from eval.nodes), but an own program may turn evaluation off: its run folder must not claim an
// accuracy either.
TEST(Figures, ARunThatEvaluatedNothingReportsNoAccuracy)
{
    const std::string out = FreshTempFolder("no-eval");
    std::string output;
    ASSERT_EQ(RunCommand(std::string(DLSIM_ACCESS_STUDY_BINARY) + " --learners=4 --rounds=2"
                             + " --ns3::LearnerApplication::Evaluate=false --out="
                             + ShellQuote(out + "/run"),
                         output),
              0)
        << output;
    EXPECT_NE(ReadWholeFile(out + "/run/summary.json")
                  .find("\"final_accuracy\": {\"mean\": null, \"min\": null, \"max\": null}"),
              std::string::npos);
    EXPECT_EQ(ReadCsv(out + "/run/summary.csv").at(0).at(0), "");
    // The figures were drawn (no crash) without a curve; with a run that did evaluate, the index
    // and the figures hold its accuracy and leave the other's empty, not 0.
    EXPECT_GT(fs::file_size(out + "/run/plots/accuracy-vs-time.png"), 1000u);
    WriteRun(out + "/evaluated", "algorithm = jwins\n", kCurve);
    Plot("--collect " + out);
    auto rows = ReadIndex(out + "/index.csv");
    ASSERT_EQ(rows.size(), 2u);
    // Rows are ordered by the axis (algorithm): dpsgd's run, then jwins' "evaluated".
    EXPECT_EQ(rows[1]["run"], "evaluated");
    EXPECT_EQ(rows[1]["final_accuracy_mean"], "0.9");
    EXPECT_EQ(rows[0]["run"], "run");
    EXPECT_EQ(rows[0]["final_accuracy_mean"], "");
    EXPECT_EQ(rows[0]["final_accuracy_max"], "");
    EXPECT_GT(fs::file_size(out + "/plots/accuracy-vs-time.png"), 1000u);
    fs::remove_all(out);
}

} // namespace
} // namespace ns3
