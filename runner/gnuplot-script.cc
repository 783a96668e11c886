// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "gnuplot-script.h"

#include "external-command.h"
#include "result-files.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <sstream>

namespace fs = std::filesystem;

namespace ns3
{

std::string
GnuplotQuote(const std::string& s)
{
    std::string out = "'";
    for (char ch : s)
    {
        if (ch == '\n')
        {
            out += "'.\"\\n\".'";
            continue;
        }
        out += ch == '\'' ? std::string("''") : std::string(1, ch);
    }
    return out + "'";
}

std::string
GnuplotPath(const std::string& path)
{
    return !path.empty() && path[0] == '/' ? path : "./" + path;
}

std::string
GnuplotNumber(double v)
{
    std::ostringstream o;
    o << std::setprecision(10) << v;
    return o.str();
}

std::string
AxisCommands(const std::string& axis,
             const std::vector<double>& values,
             bool forceLog,
             bool autoLog,
             int maxTics)
{
    double lo = INFINITY;
    double hi = -INFINITY;
    for (double v : values)
    {
        if (std::isfinite(v) && (!forceLog || v > 0))
        {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    const bool any = lo <= hi;
    const bool log = forceLog || (autoLog && any && lo > 0 && hi / lo >= 10.0);
    std::ostringstream out;
    if (log)
    {
        out << "set logscale " << axis << "\n";
    }
    if (any && hi == lo)
    {
        const double pad = lo != 0 ? std::fabs(lo) * 0.1 : 1.0;
        out << "set " << axis << "range [" << GnuplotNumber(log ? lo / 2 : lo - pad) << ":"
            << GnuplotNumber(log ? hi * 2 : hi + pad) << "]\n";
    }
    else if (any && !log && maxTics > 0)
    {
        // gnuplot spaces tics by the range alone; on a narrow figure their labels would touch.
        // A step of 1, 2 or 5 times a power of ten, for at most maxTics intervals.
        const double raw = (hi - std::min(lo, 0.0)) / maxTics;
        const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
        double step = magnitude * 10;
        for (double m : {1.0, 2.0, 5.0})
        {
            if (m * magnitude >= raw)
            {
                step = m * magnitude;
                break;
            }
        }
        out << "set " << axis << "tics " << GnuplotNumber(step) << "\n";
    }
    return out.str();
}

std::string
WrapText(const std::string& text, size_t width)
{
    std::string out;
    size_t lineLength = 0;
    std::stringstream words(text);
    for (std::string word; words >> word;)
    {
        if (lineLength > 0 && lineLength + 1 + word.size() > width)
        {
            out += "\n";
            lineLength = 0;
        }
        else if (lineLength > 0)
        {
            out += " ";
            ++lineLength;
        }
        out += word;
        lineLength += word.size();
    }
    return out;
}

void
RunGnuplot(const std::string& plotDir,
           const std::string& name,
           const std::string& body,
           const PlotOptions& options,
           const std::vector<std::string>& legend)
{
    std::string script = plotDir + "/" + name + ".gp";
    std::ostringstream gp;
    std::vector<std::pair<std::string, std::string>> terminals; // terminal, file extension
    std::string key;
    // gnuplot 5.4 puts a legend below the plot over the x axis label; an empty legend title
    // takes that line instead.
    const std::string keyTitle = " title \" \"\n";
    if (FormatFor(options).paper)
    {
        size_t longest = 0;
        for (const auto& l : legend)
        {
            longest = std::max(longest, l.size());
        }
        // At 7 pt a character is about 4.5 pt wide; 3.5 in are 252 pt.
        const size_t columns = longest <= 22 ? 2 : 1;
        const size_t rows = (legend.size() + columns - 1) / columns;
        const double height = 2.5 + 0.12 * rows;
        std::ostringstream size;
        size << std::setprecision(3) << "3.5in," << height << "in";
        terminals = {{"pdfcairo noenhanced size " + size.str() + " font \"sans,8\"", ".pdf"},
                     {"svg noenhanced size 252," + GnuplotNumber(std::round(height * 72))
                          + " font \"sans,8\"",
                      ".svg"}};
        // Entries left-aligned after their line sample, which reads best in one column.
        key = "set key outside bottom center vertical Left reverse maxrows " + std::to_string(rows)
              + " font \",7\" samplen 2 spacing 1" + keyTitle;
    }
    else
    {
        terminals = {{"pngcairo noenhanced size 1000,650 font \",11\"", ".png"},
                     {"svg noenhanced size 1000,650 dynamic", ".svg"}};
        key = "set key outside bottom center horizontal maxrows 4 font \",9\"" + keyTitle;
    }
    // Figures are drawn under temporary names and renamed once gnuplot succeeded, so a figure
    // is either complete or absent. noenhanced: names like sparse-push.alpha must print as
    // they are, not as sub/superscripts.
    for (const auto& [terminal, ext] : terminals)
    {
        gp << "set terminal " << terminal << "\nset output "
           << GnuplotQuote(GnuplotPath(plotDir + "/" + name + ".partial" + ext)) << "\n"
           << key << body << "\nunset output\n";
    }
    WriteFileAtomically(script, gp.str());
    // No shell: the script's path is one argument, whatever characters the run folder holds.
    RunProgram({"gnuplot", GnuplotPath(script)},
               plotDir + "/" + name + ".log",
               "figures need Debian's gnuplot-nox");
    for (const auto& [terminal, ext] : terminals)
    {
        const std::string drawn = plotDir + "/" + name + ".partial" + ext;
        std::error_code error;
        if (fs::file_size(drawn, error) == 0 || error)
        {
            throw ResultFileError("cannot write " + plotDir + "/" + name + ext
                                  + ": gnuplot left it empty (is the disk full?)");
        }
        fs::rename(drawn, plotDir + "/" + name + ext, error);
        if (error)
        {
            throw ResultFileError("cannot write " + plotDir + "/" + name + ext + ": "
                                  + error.message());
        }
    }
}

} // namespace ns3
