// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Driving gnuplot: its string literals, paths and numbers, axis commands, and running one
 * figure's script into the files of the figure style, complete or not at all.
 */
#ifndef DLSIM_GNUPLOT_SCRIPT_H
#define DLSIM_GNUPLOT_SCRIPT_H

#include "figure-style.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * gnuplot string literal (a newline in `s` becomes a line break in the figure). Single quotes:
 * gnuplot runs `commands` in backquotes inside double-quoted strings through the shell, never
 * inside single-quoted ones, where a ' is written ''; newlines, which a single-quoted string
 * cannot hold, are joined in as "\n".
 */
std::string GnuplotQuote(const std::string& s);

/**
 * A path as gnuplot (a file to plot, an output file, the script itself as gnuplot's argument)
 * must see it: relative paths start with "./", so that gnuplot never reads one as a command
 * ("<cmd" as data, "|cmd" as output), a special file ("-", "") or an option ("-x").
 */
std::string GnuplotPath(const std::string& path);

/// A number for a gnuplot script, exactly enough to place a marker.
std::string GnuplotNumber(double v);

/**
 * gnuplot commands for one axis ("x" or "y") of the values drawn on it: a log scale when
 * forced, or (with autoLog) when the values are positive and span a factor of 10 or more, as
 * times to target across bandwidths do; and a range of its own around a constant series,
 * which gnuplot would otherwise only widen with a warning, to a range unrelated to the data.
 * With maxTics > 0, at most that many tic intervals on a linear axis.
 */
std::string AxisCommands(const std::string& axis,
                         const std::vector<double>& values,
                         bool forceLog,
                         bool autoLog,
                         int maxTics = 0);

/// Insert line breaks so that no line of `text` is longer than `width` (at spaces).
std::string WrapText(const std::string& text, size_t width);

/**
 * Run gnuplot on a script (`plotDir`/`name`.gp) that draws `body` into the files of the figure
 * style: PNG and SVG for the screen, PDF and SVG 3.5 in wide for a paper. The legend goes below
 * the plot; on paper the figure grows by the legend's height, so that the plot area keeps its
 * size whatever the number of curves. Throws ResultFileError or the error of a failing gnuplot.
 */
void RunGnuplot(const std::string& plotDir,
                const std::string& name,
                const std::string& body,
                const PlotOptions& options,
                const std::vector<std::string>& legend);

} // namespace ns3

#endif // DLSIM_GNUPLOT_SCRIPT_H
