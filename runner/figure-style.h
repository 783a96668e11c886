// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * How figures look: the screen and paper styles, the options of `dlsim plot`, and each
 * algorithm's colour, marker and line style, the same in every figure.
 */
#ifndef DLSIM_FIGURE_STYLE_H
#define DLSIM_FIGURE_STYLE_H

#include <cstddef>
#include <string>
#include <vector>

namespace ns3
{

/// How `dlsim plot` and `dlsim collect` (and a run's own figures) draw.
struct PlotOptions
{
    /// >= 0: time, bytes and round to this target instead of the runs' own target_accuracy.
    double targetAccuracy = -1.0;
    /// "screen": PNG and SVG, 1000 pixels wide. "paper": PDF and SVG, 3.5 in (one column).
    std::string figureStyle = "screen";
    /// Log x (y) axes in every figure; without, a sweep figure's axis is logarithmic when its
    /// values are positive and span a factor of 10 or more.
    bool logX = false;
    bool logY = false;
    /**
     * The band around each accuracy curve: "seeds" (the 95% confidence interval of the mean over
     * a point's seeds; none for a point of one seed), "nodes" (the least and largest accuracy over
     * the nodes, averaged over the seeds), "none", or "auto": seeds when a point of the figure
     * has several, else nodes.
     */
    std::string band = "auto";
};

/**
 * Take `arg` into `options` if it is one of --figure-style=STYLE, --band=BAND, --log-x, --log-y
 * and --target_accuracy=X; false when it is none of them. Throws ScenarioError naming the flag
 * and the value when the value is bad (e.g. an unknown figure style).
 */
bool ParsePlotOption(const std::string& arg, PlotOptions& options);

/// What differs between the screen and the paper style of a figure.
struct FigureFormat
{
    bool paper = false;
    double lineWidth = 2.0;
    double pointSize = 0.6;
    size_t titleWidth = 110; ///< characters per title line that fit the width
    int maxXTics = 0;        ///< at most this many x tic intervals (0: gnuplot's choice)
};

/// The format of `options`' figure style.
FigureFormat FormatFor(const PlotOptions& options);

/// An algorithm's colour (gnuplot "#rrggbb") and point type, the same in every figure.
struct AlgorithmStyle
{
    std::string colour;
    int pointType = 7;
};

/// Fixed for the algorithms dlsim implements; derived from the name for any other.
AlgorithmStyle StyleOfAlgorithm(const std::string& algorithm);

/// gnuplot line style of a curve: the algorithm's colour and marker, `variant` its dash pattern.
std::string LineStyle(const std::string& algorithm, size_t variant, const FigureFormat& format);

/// Where and how one set of figures is drawn: what every figure kind needs besides the runs.
struct FigureSet
{
    std::string plotDir; ///< the folder of the figures (RUN/plots)
    PlotOptions options;
    FigureFormat format;
    std::vector<std::string> axes; ///< the keys whose values differ between the runs (RunAxes)
    std::string target;            ///< the target accuracy, as text
};

} // namespace ns3

#endif // DLSIM_FIGURE_STYLE_H
