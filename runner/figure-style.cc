// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "figure-style.h"

#include "scenario-config.h"

#include <cstdint>
#include <map>
#include <sstream>

namespace ns3
{

FigureFormat
FormatFor(const PlotOptions& options)
{
    if (options.figureStyle == "paper")
    {
        return FigureFormat{true, 1.2, 0.35, 40, 5};
    }
    return FigureFormat{};
}

/// gnuplot line style of a curve: the algorithm's colour and marker, `variant` its dash pattern.
std::string
LineStyle(const std::string& algorithm, size_t variant, const FigureFormat& format)
{
    AlgorithmStyle s = StyleOfAlgorithm(algorithm);
    std::ostringstream o;
    o << "lc rgb \"" << s.colour << "\" pt " << s.pointType << " dt " << variant % 5 + 1 << " lw "
      << format.lineWidth;
    return o.str();
}

AlgorithmStyle
StyleOfAlgorithm(const std::string& algorithm)
{
    // Okabe-Ito colours (told apart with colour-blindness, too), filled markers of distinct
    // shapes, open ones for a family's second member (SCSP after Sparse-Push, AD-PSGD after
    // D-PSGD). AD-PSGD is drawn beside D-PSGD, so not in its black (small open and filled
    // circles look alike): Tol's wine, as Okabe-Ito's last colour, yellow, is faint on white.
    static const std::map<std::string, AlgorithmStyle> fixed = {
        {"dpsgd", {"#000000", 7}},
        {"random-sampling", {"#E69F00", 5}},
        {"topk", {"#56B4E9", 9}},
        {"jwins", {"#009E73", 11}},
        {"choco", {"#D55E00", 13}},
        {"sparse-push", {"#0072B2", 15}},
        {"scsp", {"#CC79A7", 14}},
        {"adpsgd", {"#882255", 6}},
    };
    auto it = fixed.find(algorithm);
    if (it != fixed.end())
    {
        return it->second;
    }
    // FNV-1a rather than std::hash, whose values may differ between libraries: an algorithm
    // added later keeps its style across machines and folders.
    uint32_t h = 2166136261u;
    for (unsigned char c : algorithm)
    {
        h = (h ^ c) * 16777619u;
    }
    static const char* const colours[]
        = {"#882255", "#44AA99", "#117733", "#AA4499", "#DDCC77", "#332288", "#999933", "#888888"};
    static const int points[] = {1, 2, 3, 6, 8, 10, 12};
    return {colours[h % 8], points[(h / 8) % 7]};
}

bool
ParsePlotOption(const std::string& arg, PlotOptions& options)
{
    if (arg == "--log-x" || arg == "--log-y")
    {
        (arg == "--log-x" ? options.logX : options.logY) = true;
        return true;
    }
    const std::string style = "--figure-style";
    if (arg == style || arg.rfind(style + "=", 0) == 0)
    {
        const std::string value = arg == style ? "" : arg.substr(style.size() + 1);
        if (value.empty())
        {
            throw ScenarioError("--figure-style needs a value: --figure-style=screen or "
                                "--figure-style=paper");
        }
        if (value != "screen" && value != "paper")
        {
            throw ScenarioError("unknown --figure-style '" + value
                                + "': use screen (PNG and SVG) or paper (PDF and SVG, 3.5 in "
                                  "wide for one column)");
        }
        options.figureStyle = value;
        return true;
    }
    const std::string band = "--band";
    if (arg == band || arg.rfind(band + "=", 0) == 0)
    {
        const std::string value = arg == band ? "" : arg.substr(band.size() + 1);
        if (value != "auto" && value != "seeds" && value != "nodes" && value != "none")
        {
            throw ScenarioError("--band " + (value.empty() ? "needs a value" : "'" + value + "'")
                                + ": use auto, seeds (95% confidence interval over a point's "
                                  "seeds), nodes (least to largest accuracy over the nodes) or "
                                  "none");
        }
        options.band = value;
        return true;
    }
    if (arg.rfind("--target_accuracy", 0) == 0)
    {
        ScenarioConfig c = ScenarioConfig::Load("", {arg});
        options.targetAccuracy = c.GetDouble("target_accuracy", 0.0, 1.0);
        return true;
    }
    return false;
}

} // namespace ns3
