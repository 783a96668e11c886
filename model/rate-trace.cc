// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "rate-trace.h"

#include "random-variable-spec.h"
#include "user-file.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <utility>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

/// Limits that keep a hostile or mistaken file from exhausting memory or time.
constexpr uint64_t kMaxLines = 10000000;
constexpr size_t kMaxLineLength = 4096;
constexpr uint64_t kMaxMilliseconds = 1000000000000ULL; // kMaxSeconds in ms

std::string
Format(double value)
{
    std::ostringstream out;
    out << value;
    return out.str();
}

std::string
Trim(const std::string& text)
{
    size_t begin = text.find_first_not_of(" \t\r");
    if (begin == std::string::npos)
    {
        return "";
    }
    return text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

/// A plain decimal number, the whole text; false for anything else, including inf and nan.
bool
ParsePlainNumber(const std::string& text, double& value)
{
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
    {
        return false;
    }
    char* end = nullptr;
    errno = 0;
    value = std::strtod(text.c_str(), &end);
    // `end` must reach the real end: a NUL byte in the text would otherwise end it early, and a
    // field "\0..." would read as 0.
    return end == text.c_str() + text.size() && errno != ERANGE && std::isfinite(value);
}

/**
 * Reads a trace file line by line with bounded memory: a line longer than kMaxLineLength or a
 * file of more than kMaxLines lines throws instead of being read whole.
 */
class LineReader
{
  public:
    explicit LineReader(const std::string& path) : m_path(path), m_lineNo(0)
    {
        std::error_code ec;
        if (const std::string why = UnreadableFileReason(path); !why.empty())
        {
            throw ConfigValueError("rate trace " + path + ": cannot read: " + why);
        }
        m_in.open(path, std::ios::binary);
        if (!m_in)
        {
            throw ConfigValueError("rate trace " + path + ": cannot open for reading"
                                   + (std::filesystem::exists(path, ec) ? "" : " (no such file)"));
        }
    }

    /// The next line without its end of line; false at the end of the file.
    bool Next(std::string& line)
    {
        line.clear();
        std::streambuf* buffer = m_in.rdbuf();
        int c = buffer->sbumpc();
        if (c == std::char_traits<char>::eof())
        {
            return false;
        }
        ++m_lineNo;
        if (m_lineNo > kMaxLines)
        {
            throw ConfigValueError(Where() + ": more than " + std::to_string(kMaxLines)
                                   + " lines; traces are limited to that");
        }
        while (c != std::char_traits<char>::eof() && c != '\n')
        {
            if (line.size() >= kMaxLineLength)
            {
                throw ConfigValueError(Where() + ": line longer than "
                                       + std::to_string(kMaxLineLength)
                                       + " characters (is this a trace file?)");
            }
            line.push_back(static_cast<char>(c));
            c = buffer->sbumpc();
        }
        if (m_lineNo == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0)
        {
            line.erase(0, 3); // a UTF-8 byte order mark, as some spreadsheet programs write
        }
        return true;
    }

    /// "rate trace <path>:<line>", the start of every message about the current line.
    std::string Where() const
    {
        return "rate trace " + m_path + ":" + std::to_string(m_lineNo);
    }

    uint64_t GetLineNumber() const
    {
        return m_lineNo;
    }

  private:
    std::string m_path;
    std::ifstream m_in;
    uint64_t m_lineNo;
};

} // namespace

RateTrace::RateTrace(std::vector<Step> steps, double periodSeconds)
    : m_steps(std::move(steps)), m_periodSeconds(periodSeconds), m_meanRateBps(0),
      m_flooredWindows(0)
{
    if (m_steps.empty())
    {
        throw ConfigValueError("rate trace: no steps");
    }
    if (!(m_periodSeconds > 0))
    {
        throw ConfigValueError("rate trace: the period must be positive, got "
                               + Format(m_periodSeconds) + " s");
    }
    if (std::isinf(m_periodSeconds) && m_steps.size() != 1)
    {
        throw ConfigValueError("rate trace: only a single step can have an infinite period");
    }
    for (size_t i = 0; i < m_steps.size(); ++i)
    {
        const Step& step = m_steps[i];
        std::string where = "rate trace: step " + std::to_string(i);
        if (i == 0 && step.startSeconds != 0)
        {
            throw ConfigValueError(where + ": the first step must start at 0, not "
                                   + Format(step.startSeconds) + " s");
        }
        if (i > 0 && !(step.startSeconds > m_steps[i - 1].startSeconds))
        {
            throw ConfigValueError(where + ": starts must strictly increase, got "
                                   + Format(step.startSeconds) + " s after "
                                   + Format(m_steps[i - 1].startSeconds) + " s");
        }
        if (!(step.startSeconds < m_periodSeconds))
        {
            throw ConfigValueError(where + ": starts at " + Format(step.startSeconds)
                                   + " s, not before the end of the period ("
                                   + Format(m_periodSeconds) + " s)");
        }
        // Every step lasts at least kMinPeriodSeconds: a follower that changes a device's rate at
        // every step then makes at most 1,000 events per simulated second, and never
        // reschedules itself at the same instant (a period rounded to 0 would spin for ever). A
        // next step that does not start later is refused with the next step.
        const double end = i + 1 < m_steps.size() ? m_steps[i + 1].startSeconds : m_periodSeconds;
        if (end > step.startSeconds && end - step.startSeconds < kMinPeriodSeconds - kTimeSlack)
        {
            throw ConfigValueError(where + ": lasts " + Format(end - step.startSeconds)
                                   + " s, less than 1 ms (steps must be at least 1 ms long)");
        }
        CheckDataRateBps(where, step.rateBps);
    }
    if (m_steps.size() == 1)
    {
        m_meanRateBps = m_steps[0].rateBps;
    }
    else
    {
        double bits = 0;
        for (size_t i = 0; i < m_steps.size(); ++i)
        {
            double end = i + 1 < m_steps.size() ? m_steps[i + 1].startSeconds : m_periodSeconds;
            bits += m_steps[i].rateBps * (end - m_steps[i].startSeconds);
        }
        m_meanRateBps = bits / m_periodSeconds;
    }
}

const std::vector<RateTrace::Step>&
RateTrace::GetSteps() const
{
    return m_steps;
}

double
RateTrace::GetPeriodSeconds() const
{
    return m_periodSeconds;
}

double
RateTrace::GetRateAt(double seconds) const
{
    if (m_steps.size() == 1 || !std::isfinite(seconds))
    {
        return m_steps[0].rateBps;
    }
    double t = std::fmod(seconds, m_periodSeconds);
    if (t < 0)
    {
        t += m_periodSeconds;
    }
    if (t >= m_periodSeconds)
    {
        t = 0; // a tiny negative time rounded up to the period: the next period starts
    }
    auto after
        = std::upper_bound(m_steps.begin(),
                           m_steps.end(),
                           t,
                           [](double time, const Step& step) { return time < step.startSeconds; });
    return std::prev(after)->rateBps;
}

double
RateTrace::GetMeanRateBps() const
{
    return m_meanRateBps;
}

uint32_t
RateTrace::GetFlooredWindows() const
{
    return m_flooredWindows;
}

RateTrace
RateTrace::ReadCsv(const std::string& path)
{
    LineReader reader(path);
    std::vector<Step> steps;
    bool seenRow = false; // a header is allowed only before the first row
    std::string line;
    while (reader.Next(line))
    {
        line = Trim(line.substr(0, line.find('#')));
        if (line.empty())
        {
            continue;
        }
        std::string where = reader.Where();
        size_t comma = line.find(',');
        if (comma == std::string::npos || line.find(',', comma + 1) != std::string::npos)
        {
            throw ConfigValueError(where + ": expected two fields time_s,rate, got '" + line + "'");
        }
        std::string timeText = Trim(line.substr(0, comma));
        std::string rateText = Trim(line.substr(comma + 1));
        if (!seenRow && timeText == "time_s")
        {
            seenRow = true;
            continue; // header
        }
        seenRow = true;
        double time;
        if (!ParsePlainNumber(timeText, time))
        {
            throw ConfigValueError(where + ": bad time '" + timeText
                                   + "' (expected a number of seconds)");
        }
        if (time < 0)
        {
            throw ConfigValueError(where + ": negative time " + timeText + " s");
        }
        if (time > kMaxSeconds)
        {
            throw ConfigValueError(where + ": time " + timeText + " s is beyond 1e9 s");
        }
        if (steps.empty() && time != 0)
        {
            throw ConfigValueError(where + ": the first row must be at time 0, got " + timeText
                                   + " s");
        }
        if (!steps.empty() && !(time > steps.back().startSeconds))
        {
            throw ConfigValueError(
                where + ": time " + timeText + " s is not after the previous row's "
                + Format(steps.back().startSeconds) + " s (times must strictly increase)");
        }
        if (!steps.empty() && time - steps.back().startSeconds < kMinPeriodSeconds - kTimeSlack)
        {
            throw ConfigValueError(where + ": time " + timeText + " s is less than 1 ms after the "
                                   + "previous row's " + Format(steps.back().startSeconds)
                                   + " s (rows must be at least 1 ms apart)");
        }
        double rate;
        if (!ParsePlainNumber(rateText, rate))
        {
            // Not a plain number of bit/s: a number with a unit, or an error naming the line.
            rate = ParseDataRateBps(where, rateText);
        }
        CheckDataRateBps(where, rate);
        steps.push_back({time, rate});
    }
    if (steps.empty())
    {
        throw ConfigValueError("rate trace " + path + ": empty trace, no rows in "
                               + std::to_string(reader.GetLineNumber()) + " lines");
    }
    double period = std::numeric_limits<double>::infinity();
    if (steps.size() > 1)
    {
        double last = steps.back().startSeconds;
        period = last + (last - steps[steps.size() - 2].startSeconds);
    }
    return RateTrace(std::move(steps), period);
}

RateTrace
RateTrace::ReadMahimahi(const std::string& path, double windowSeconds, uint32_t packetBytes)
{
    // Check the arguments before the file so that nothing is read for a call that cannot work.
    double windowMsReal = windowSeconds * 1000;
    if (!std::isfinite(windowMsReal) || windowMsReal < 1 || windowMsReal > kMaxMilliseconds
        || std::fabs(windowMsReal - std::round(windowMsReal)) > 1e-6)
    {
        throw ConfigValueError("rate trace " + path
                               + ": the window must be a whole number of milliseconds, at least "
                                 "1 ms, got "
                               + Format(windowSeconds) + " s");
    }
    auto windowMs = static_cast<uint64_t>(std::llround(windowMsReal));
    if (packetBytes < 1 || packetBytes > 65535)
    {
        throw ConfigValueError("rate trace " + path
                               + ": the packet size must be between 1 and 65535 bytes, got "
                               + std::to_string(packetBytes));
    }

    LineReader reader(path);
    std::vector<uint64_t> times; // ms; at most kMaxLines of them, LineReader sees to it
    uint64_t lastLine = 0;
    std::string line;
    while (reader.Next(line))
    {
        line = Trim(line);
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        std::string where = reader.Where();
        if (line[0] == '-')
        {
            throw ConfigValueError(where + ": negative timestamp " + line + " ms");
        }
        if (!std::all_of(line.begin(),
                         line.end(),
                         [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        {
            throw ConfigValueError(where + ": bad timestamp '" + line
                                   + "' (expected a whole number of milliseconds)");
        }
        // At most 13 digits: 1e12 ms is 1e9 s, and 13 digits cannot overflow 64 bits.
        size_t digits = line.size() - std::min(line.find_first_not_of('0'), line.size());
        if (digits > 13 || std::stoull(line) > kMaxMilliseconds)
        {
            throw ConfigValueError(where + ": timestamp " + line + " ms is beyond 1e9 s");
        }
        uint64_t t = std::stoull(line);
        if (!times.empty() && t < times.back())
        {
            throw ConfigValueError(
                where + ": timestamp " + line + " ms is before the previous line's "
                + std::to_string(times.back()) + " ms (timestamps must not decrease)");
        }
        times.push_back(t);
        lastLine = reader.GetLineNumber();
    }
    if (times.empty())
    {
        throw ConfigValueError("rate trace " + path + ": empty trace, no timestamps in "
                               + std::to_string(reader.GetLineNumber()) + " lines");
    }
    std::string lastWhere = "rate trace " + path + ":" + std::to_string(lastLine);
    const uint64_t period = times.back();
    if (period == 0)
    {
        throw ConfigValueError(lastWhere
                               + ": the last timestamp is 0 ms; a Mahimahi trace repeats with "
                                 "the period of its last timestamp, which must be at least 1 ms");
    }
    const uint64_t windows = (period + windowMs - 1) / windowMs;
    if (windows > std::numeric_limits<uint32_t>::max())
    {
        throw ConfigValueError(lastWhere + ": a period of " + std::to_string(period)
                               + " ms in windows of " + std::to_string(windowMs)
                               + " ms makes too many windows; use a longer window");
    }

    // Opportunities per non-empty window, in window order. Those at the last timestamp are at
    // time 0 of the next period (Mahimahi's wrap-around), so they count in window 0.
    std::vector<std::pair<uint64_t, uint64_t>> counts; // window index, opportunities
    uint64_t atPeriod = 0;
    for (uint64_t t : times)
    {
        if (t == period)
        {
            ++atPeriod;
            continue;
        }
        uint64_t k = t / windowMs;
        if (!counts.empty() && counts.back().first == k)
        {
            ++counts.back().second;
        }
        else
        {
            counts.emplace_back(k, 1);
        }
    }
    times.clear();
    times.shrink_to_fit();
    if (atPeriod > 0)
    {
        if (!counts.empty() && counts.front().first == 0)
        {
            counts.front().second += atPeriod;
        }
        else
        {
            counts.insert(counts.begin(), {0, atPeriod});
        }
    }

    std::vector<Step> steps;
    uint64_t floored = 0;
    auto lengthMs = [&](uint64_t k)
    {
        return std::min(windowMs, period - k * windowMs);
    };
    auto add = [&](uint64_t k, uint64_t opportunities)
    {
        double rate = static_cast<double>(opportunities) * packetBytes * 8.0 * 1000.0
                      / static_cast<double>(lengthMs(k));
        CheckDataRateBps("rate trace " + path + ": window " + std::to_string(k) + " (from "
                             + Format(k * windowMs / 1000.0) + " s)",
                         rate);
        if (steps.empty() || steps.back().rateBps != rate)
        {
            steps.push_back({static_cast<double>(k * windowMs) / 1000.0, rate});
        }
    };
    // Windows [first, end) have no opportunity: one packet each (the resolution limit).
    auto addEmpty = [&](uint64_t first, uint64_t end)
    {
        if (first >= end)
        {
            return;
        }
        floored += end - first;
        add(first, 1);
        // The rate of the shorter last window differs from that of the full ones.
        if (end == windows && end - 1 > first && lengthMs(end - 1) != windowMs)
        {
            add(end - 1, 1);
        }
    };
    uint64_t next = 0;
    for (const auto& [k, opportunities] : counts)
    {
        addEmpty(next, k);
        add(k, opportunities);
        next = k + 1;
    }
    addEmpty(next, windows);

    RateTrace trace(std::move(steps), period / 1000.0);
    trace.m_flooredWindows = static_cast<uint32_t>(floored);
    return trace;
}

RateTrace
RateTrace::Read(const std::string& path, const std::string& format, double windowSeconds)
{
    if (format == "csv")
    {
        return ReadCsv(path);
    }
    if (format == "mahimahi")
    {
        return ReadMahimahi(path, windowSeconds);
    }
    if (format == "auto")
    {
        std::string extension = std::filesystem::path(path).extension().string();
        std::transform(extension.begin(),
                       extension.end(),
                       extension.begin(),
                       [](char c)
                       { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
        return extension == ".csv" ? ReadCsv(path) : ReadMahimahi(path, windowSeconds);
    }
    throw ConfigValueError("rate trace " + path + ": unknown format '" + ShownText(format)
                           + "' (expected csv, mahimahi or auto)");
}

} // namespace ns3
