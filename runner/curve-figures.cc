// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "curve-figures.h"

#include "figure-labels.h"
#include "gnuplot-script.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <string>

namespace ns3
{

namespace
{

/// One figure of accuracy against a measure of progress.
struct CurveFigure
{
    std::string name;   ///< file name
    std::string column; ///< summary.csv's column of the target crossing on this x axis
    std::string xlabel;
    double scale; ///< of the x values (bytes shown in MB)
};

/// The runs shown: of several seeds only the first, so that the figure stays readable.
std::vector<RunRecord>
FirstSeedRuns(const std::vector<RunRecord>& runs)
{
    std::vector<RunRecord> shown;
    for (const auto& run : runs)
    {
        auto first = std::min_element(
            runs.begin(),
            runs.end(),
            [](const RunRecord& a, const RunRecord& b)
            { return std::stoull(a.config.at("seed")) < std::stoull(b.config.at("seed")); });
        if (run.config.at("seed") == first->config.at("seed"))
        {
            shown.push_back(run);
        }
    }
    return shown;
}

/// Runs of one algorithm share its colour and marker and differ by dash pattern, numbered in
/// the same order in every figure: each run's number among its algorithm's.
std::vector<size_t>
DashVariants(const std::vector<RunRecord>& shown)
{
    std::vector<size_t> variant;
    std::map<std::string, size_t> seen;
    for (const auto& run : shown)
    {
        variant.push_back(seen[run.config.at("algorithm")]++);
    }
    return variant;
}

/// Draw figure `p`: a curve (and a band, for up to 8 runs) per shown run, crossings marked.
void
DrawCurveFigure(const CurveFigure& p,
                const std::vector<RunRecord>& shown,
                const std::vector<size_t>& variant,
                const FigureSet& set)
{
    const bool bands = shown.size() <= 8;
    std::vector<double> xs;
    for (const auto& run : shown)
    {
        for (const auto& point : run.curve.value_or(std::vector<CurvePoint>{}))
        {
            xs.push_back(p.name == "accuracy-vs-time"    ? point.time
                         : p.name == "accuracy-vs-bytes" ? point.bytesPerNode * p.scale
                                                         : point.round);
        }
    }
    std::ostringstream body;
    body << "set grid\nset xlabel " << GnuplotQuote(p.xlabel) << "\nset ylabel "
         << GnuplotQuote(set.format.paper ? "test accuracy"
                                          : "test accuracy (mean over nodes"
                                                + std::string(bands ? ", band: min-max)" : ")"))
         << "\nset yrange [0:1]\nset datafile separator \",\"\n"
         << "set style fill transparent solid 0.15 noborder\n"
         << AxisCommands("x", xs, set.options.logX, false, set.format.maxXTics);
    // Where each run first reaches the target: a larger marker on the target line and a
    // dotted drop line to the x axis.
    for (size_t i = 0; i < shown.size(); ++i)
    {
        const std::string& at = shown[i].summary.at(p.column);
        if (at.empty() || (set.options.logX && std::stod(at) <= 0))
        {
            continue;
        }
        const std::string x = GnuplotNumber(std::stod(at) * p.scale);
        AlgorithmStyle s = StyleOfAlgorithm(shown[i].config.at("algorithm"));
        body << "set arrow from " << x << ", graph 0 to " << x << ", first " << set.target
             << " nohead dt 3 lw 1 lc rgb \"" << s.colour << "\"\n"
             << "set label \"\" at " << x << ", first " << set.target << " point pt " << s.pointType
             << " ps " << set.format.pointSize * 3 << " lc rgb \"" << s.colour << "\" front\n";
    }
    body << "plot ";
    std::vector<std::string> legend;
    for (size_t i = 0; i < shown.size(); ++i)
    {
        std::string data = GnuplotQuote(GnuplotPath(shown[i].dir + "/curve.csv"));
        std::string x = "($"
                        + std::string(p.name == "accuracy-vs-rounds" ? "1"
                                      : p.name == "accuracy-vs-time" ? "2"
                                                                     : "3")
                        + "*" + GnuplotNumber(p.scale) + ")";
        std::string style = LineStyle(shown[i].config.at("algorithm"), variant[i], set.format);
        if (bands)
        {
            body << data << " using " << x << ":5:6 with filledcurves "
                 << style.substr(0, style.find(" pt ")) << " notitle, ";
        }
        legend.push_back(RunLabel(shown[i], set.axes, {"seed"}, set.format.paper));
        body << data << " using " << x << ":4 with linespoints " << style << " ps "
             << set.format.pointSize << " title " << GnuplotQuote(legend.back()) << ", ";
    }
    legend.push_back("target accuracy " + set.target + " (crossings marked)");
    body << set.target << " with lines dt 2 lc rgb \"black\" lw 1 title "
         << GnuplotQuote(legend.back()) << "\n";
    RunGnuplot(set.plotDir, p.name, body.str(), set.options, legend);
}

} // namespace

size_t
DrawCurveFigures(const std::vector<RunRecord>& runs, const FigureSet& set)
{
    const std::vector<RunRecord> shown = FirstSeedRuns(runs);
    const std::vector<size_t> variant = DashVariants(shown);
    const std::vector<CurveFigure> figures
        = {{"accuracy-vs-time", "time_to_target_s", "simulated wall-clock time (s)", 1},
           {"accuracy-vs-bytes", "bytes_per_node_to_target", "bytes sent per node (MB)", 1e-6},
           {"accuracy-vs-rounds", "round_to_target", "round", 1}};
    for (const CurveFigure& figure : figures)
    {
        DrawCurveFigure(figure, shown, variant, set);
    }
    return figures.size();
}

} // namespace ns3
