// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "curve-figures.h"

#include "figure-labels.h"
#include "gnuplot-script.h"
#include "result-files.h"
#include "run-points.h"
#include "swept-values.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
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
    Progress along;     ///< the x axis
    std::string column; ///< summary.csv's column of the target crossing on this x axis
    std::string xlabel;
    double scale; ///< of the x values (bytes shown in MB)
    /// What the figure's title says first: the facet's value ("link.bandwidth = 1Mbps"), or
    /// where the bands left out of a figure of many curves are drawn. Empty: nothing.
    std::string note;
};

/// A figure shows at most this many bands apart; with more curves it draws none and says where
/// they are (one figure per value of a swept key, DrawCurveFigures).
constexpr size_t kMaxBands = 8;

/// Points of one algorithm share its colour and marker and differ by dash pattern, numbered in
/// the same order in every figure: each point's number among its algorithm's.
std::vector<size_t>
DashVariants(const std::vector<RunPoint>& points)
{
    std::vector<size_t> variant;
    std::map<std::string, size_t> seen;
    for (const auto& point : points)
    {
        variant.push_back(seen[point.runs.at(0).config.at("algorithm")]++);
    }
    return variant;
}

/// Draw figure `p`: a mean curve (and a band, for up to kMaxBands points) per point, crossings
/// marked.
void
DrawCurveFigure(const CurveFigure& p,
                const std::vector<RunPoint>& points,
                const std::vector<size_t>& variant,
                const FigureSet& set)
{
    std::vector<MeanCurve> curves;
    size_t fewest = SIZE_MAX;
    size_t most = 0;
    for (const auto& point : points)
    {
        curves.push_back(MeanCurveOf(point, p.along));
        fewest = std::min(fewest, point.runs.size());
        most = std::max(most, point.runs.size());
    }
    // The band: over the seeds where a point has several (auto), else over the nodes.
    std::string band = set.options.band;
    if (band == "auto")
    {
        band = most > 1 ? "seeds" : "nodes";
    }
    if (points.size() > kMaxBands)
    {
        band = "none"; // more bands than a figure can show apart: p.note says where they are
    }
    // The data: one block per point with a curve (gnuplot does not count empty blocks).
    const std::string file = set.plotDir + "/" + p.name + ".dat";
    std::ostringstream dat;
    dat << "# x mean ci95_low ci95_high nodes_min nodes_max (one block per curve: mean test "
           "accuracy over the seeds of a point, each seed's mean over nodes interpolated at every "
           "x a seed evaluated at, up to the shortest seed's end)\n";
    std::vector<double> xs;
    std::vector<int> block(points.size(), -1);
    int blocks = 0;
    for (size_t i = 0; i < points.size(); ++i)
    {
        if (curves[i].points.empty())
        {
            continue;
        }
        block[i] = blocks++;
        for (const auto& m : curves[i].points)
        {
            const double x = m.x * p.scale;
            const bool ci = m.accuracy.HasCi();
            dat << std::setprecision(10) << x << " " << m.accuracy.mean << " "
                << (ci ? m.accuracy.Low() : m.accuracy.mean) << " "
                << (ci ? m.accuracy.High() : m.accuracy.mean) << " " << m.nodeMin << " "
                << m.nodeMax << "\n";
            xs.push_back(x);
        }
        dat << "\n\n";
    }
    WriteFileAtomically(file, dat.str());
    const std::string bandText = band == "seeds"   ? ", band: 95% CI over seeds"
                                 : band == "nodes" ? ", band: min-max over nodes"
                                                   : "";
    std::ostringstream body;
    body << "set grid\nset xlabel " << GnuplotQuote(p.xlabel) << "\nset ylabel "
         << GnuplotQuote(set.format.paper ? "test accuracy"
                                          : "test accuracy (mean over nodes" + bandText + ")")
         << "\nset yrange [0:1]\nset datafile separator whitespace\n"
         << "set style fill transparent solid 0.15 noborder\n"
         << AxisCommands("x", xs, set.options.logX, false, set.format.maxXTics);
    if (most > 1 || !p.note.empty())
    {
        const std::string seeds = most > 1 ? "mean over " + SeedCountText(fewest, most) + bandText
                                                 + "; each curve ends where the first of its "
                                                   "seeds ended; target marked at the mean over "
                                                   "the seeds that reached it"
                                           : "";
        body << "set title "
             << GnuplotQuote(
                    WrapText(p.note + (p.note.empty() || seeds.empty() ? "" : "; ") + seeds,
                             set.format.titleWidth))
             << " font \"," << (set.format.paper ? 7 : 10) << "\"\n";
    }
    // Where each point reaches the target (the mean over its seeds that reached it): a larger
    // marker on the target line and a dotted drop line to the x axis.
    std::vector<std::string> reachedNote(points.size());
    for (size_t i = 0; i < points.size(); ++i)
    {
        const ColumnOverSeeds at = OverSeeds(points[i], p.column);
        if (at.runs > 1 && at.values.n < at.runs)
        {
            reachedNote[i] = " (target in " + std::to_string(at.values.n) + " of "
                             + std::to_string(at.runs) + " seeds)";
        }
        const double v = at.values.mean * p.scale;
        if (at.values.n == 0 || (set.options.logX && v <= 0))
        {
            continue;
        }
        const std::string x = GnuplotNumber(v);
        AlgorithmStyle s = StyleOfAlgorithm(points[i].runs.at(0).config.at("algorithm"));
        body << "set arrow from " << x << ", graph 0 to " << x << ", first " << set.target
             << " nohead dt 3 lw 1 lc rgb \"" << s.colour << "\"\n"
             << "set label \"\" at " << x << ", first " << set.target << " point pt " << s.pointType
             << " ps " << set.format.pointSize * 3 << " lc rgb \"" << s.colour << "\" front\n";
    }
    body << "plot ";
    std::vector<std::string> legend;
    const std::string data = GnuplotQuote(GnuplotPath(file));
    for (size_t i = 0; i < points.size(); ++i)
    {
        const std::string style
            = LineStyle(points[i].runs.at(0).config.at("algorithm"), variant[i], set.format);
        // Which runs' times the network model only approximates (RunRecord::networkFidelity).
        const auto approximate
            = std::count_if(points[i].runs.begin(),
                            points[i].runs.end(),
                            [](const RunRecord& run) { return !run.networkFidelity.empty(); });
        legend.push_back(PointLabel(points[i].runs, set.axes, {"seed"}, set.format.paper)
                         + reachedNote[i]
                         + (approximate == 0 ? ""
                            : approximate == static_cast<long>(points[i].runs.size())
                                ? " (flows approx.)"
                                : " (flows approx. in " + std::to_string(approximate) + ")"));
        if (block[i] < 0)
        {
            // No curve (nothing evaluated): the point keeps its legend entry.
            body << "NaN with linespoints " << style << " title " << GnuplotQuote(legend.back())
                 << ", ";
            continue;
        }
        const std::string source = data + " index " + std::to_string(block[i]);
        const bool drawBand = band == "nodes" || (band == "seeds" && curves[i].seeds > 1);
        if (drawBand)
        {
            body << source << " using 1:" << (band == "seeds" ? "3:4" : "5:6")
                 << " with filledcurves " << style.substr(0, style.find(" pt ")) << " notitle, ";
        }
        // Where seeds evaluated at different x, theirs interleave: about as many markers as one
        // seed has evaluations, rather than a marker at every seed's.
        size_t evaluations = 1;
        for (const auto& run : points[i].runs)
        {
            evaluations = std::max(evaluations, run.curve ? run.curve->size() : 0);
        }
        body << source << " using 1:2 with linespoints " << style << " ps " << set.format.pointSize
             << " pi " << std::max<size_t>(1, curves[i].points.size() / evaluations) << " title "
             << GnuplotQuote(legend.back()) << ", ";
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
    const std::vector<RunPoint> points = GroupSeeds(runs, set.axes);
    const std::vector<size_t> variant = DashVariants(points);
    const std::vector<CurveFigure> figures
        = {{"accuracy-vs-time",
            Progress::Time,
            "time_to_target_s",
            "simulated wall-clock time (s)",
            1},
           {"accuracy-vs-bytes",
            Progress::Bytes,
            "bytes_per_node_to_target",
            "bytes sent per node (MB)",
            1e-6},
           {"accuracy-vs-rounds", Progress::Round, "round_to_target", "round", 1}};
    // Too many curves for their bands: the bands go to small multiples, one figure per value of
    // the first swept key other than the algorithm (the network condition of a sweep), each with
    // every algorithm's band at that value, in the key's order (1Mbps before 10Mbps).
    std::string facet;
    if (points.size() > kMaxBands)
    {
        const auto axis
            = std::find_if(set.axes.begin(),
                           set.axes.end(),
                           [](const std::string& a) { return a != "algorithm" && a != "seed"; });
        facet = axis == set.axes.end() ? "" : *axis;
    }
    // The facet's values in order, each with its points (and their dash variants).
    std::map<std::string, std::pair<std::vector<RunPoint>, std::vector<size_t>>> panels;
    std::vector<std::string> values;
    for (size_t i = 0; i < points.size() && !facet.empty(); ++i)
    {
        for (const auto& [key, value] : points[i].values)
        {
            if (key == facet)
            {
                auto& [at, atVariant] = panels[value];
                if (at.empty())
                {
                    values.push_back(value);
                }
                at.push_back(points[i]);
                atVariant.push_back(variant[i]);
            }
        }
    }
    std::stable_sort(values.begin(),
                     values.end(),
                     [&facet](const std::string& a, const std::string& b)
                     { return SweptValueBefore(facet, a, b); });
    size_t drawn = 0;
    for (CurveFigure figure : figures)
    {
        if (points.size() > kMaxBands)
        {
            figure.note = "no bands with " + std::to_string(points.size()) + " curves"
                          + (facet.empty() ? ""
                                           : ": see the figures " + figure.name + "-" + facet
                                                 + "=VALUE, one per value");
        }
        DrawCurveFigure(figure, points, variant, set);
        ++drawn;
        for (const std::string& value : values)
        {
            const auto& [at, atVariant] = panels.at(value);
            CurveFigure panel = figure;
            panel.name = figure.name + "-" + facet + "=" + SafeFileName(value);
            panel.note = facet + " = " + value
                         + (at.size() > kMaxBands
                                ? "; no bands with " + std::to_string(at.size()) + " curves"
                                : "");
            DrawCurveFigure(panel, at, atVariant, set);
            ++drawn;
        }
    }
    return drawn;
}

} // namespace ns3
