// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "csv-rows.h"

#include "user-file.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace dlsim
{

namespace
{

/// Limits that keep a hostile or mistaken file from exhausting memory.
constexpr uint64_t kMaxCsvLines = 10000000;
// Wide enough for a latency matrix of thousands of regions.
constexpr size_t kMaxCsvLineLength = size_t(1) << 20;

bool
NextCsvLine(std::istream& in, std::string& line, const std::string& where)
{
    LineRead read = ReadBoundedLine(in, line, kMaxCsvLineLength);
    if (read == LineRead::TooLong)
    {
        throw ConfigValueError(where + ": line longer than " + std::to_string(kMaxCsvLineLength)
                               + " characters");
    }
    return read == LineRead::Line;
}

} // namespace

LineRead
ReadBoundedLine(std::istream& in, std::string& line, size_t maxLength)
{
    line.clear();
    std::streambuf* buffer = in.rdbuf();
    int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof())
    {
        return LineRead::End;
    }
    while (c != std::char_traits<char>::eof() && c != '\n')
    {
        if (line.size() >= maxLength)
        {
            return LineRead::TooLong;
        }
        line.push_back(static_cast<char>(c));
        c = buffer->sbumpc();
    }
    return LineRead::Line;
}

std::vector<CsvRow>
ReadCsvRows(const std::string& key,
            const std::string& path,
            const std::string& headerFirstField,
            size_t columns)
{
    if (const std::string why = UnreadableFileReason(path); !why.empty())
    {
        throw ConfigValueError(key + ": cannot read " + path + ": " + why);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw ConfigValueError(key + ": cannot open " + path);
    }
    std::vector<CsvRow> rows;
    std::string line;
    bool first = true;
    for (uint64_t lineNo = 1;; ++lineNo)
    {
        CsvRow row;
        row.where = key + " " + path + ":" + std::to_string(lineNo);
        if (!NextCsvLine(in, line, row.where))
        {
            break;
        }
        if (lineNo > kMaxCsvLines)
        {
            throw ConfigValueError(key + " " + path + ": more than 10 million lines");
        }
        line = line.substr(0, line.find('#'));
        // Every comma separates two fields, so "1,0.3," has an empty third one (getline alone
        // would drop a trailing empty field).
        for (size_t start = 0;;)
        {
            const size_t comma = line.find(',', start);
            std::string f = line.substr(start, comma - start);
            f.erase(0, f.find_first_not_of(" \t\r"));
            f.erase(f.find_last_not_of(" \t\r") + 1);
            row.fields.push_back(f);
            if (comma == std::string::npos)
            {
                break;
            }
            start = comma + 1;
        }
        if (row.fields.empty() || (row.fields.size() == 1 && row.fields[0].empty()))
        {
            continue;
        }
        if (first && row.fields[0] == headerFirstField)
        {
            first = false;
            continue;
        }
        first = false;
        if (columns > 0 && row.fields.size() != columns)
        {
            throw ConfigValueError(row.where + ": expected " + std::to_string(columns)
                                   + " comma-separated fields, got "
                                   + std::to_string(row.fields.size()));
        }
        rows.push_back(std::move(row));
    }
    if (in.bad())
    {
        throw ConfigValueError(key + ": error reading " + path);
    }
    return rows;
}

void
ForEachLearnerRow(const std::string& key,
                  const std::string& path,
                  const std::string& label,
                  size_t columns,
                  uint32_t learners,
                  const std::function<void(uint32_t learner, const CsvRow& row)>& row)
{
    std::vector<bool> seen(learners, false);
    for (const CsvRow& r : ReadCsvRows(key, path, label, columns))
    {
        auto learner = static_cast<uint32_t>(ParseIndex(r.where, r.fields[0], UINT32_MAX));
        if (learner >= learners)
        {
            throw ConfigValueError(r.where + ": " + label + " " + r.fields[0] + " does not exist ("
                                   + std::to_string(learners) + " learners)");
        }
        if (seen[learner])
        {
            throw ConfigValueError(r.where + ": " + label + " " + r.fields[0] + " listed twice");
        }
        seen[learner] = true;
        row(learner, r);
    }
    for (uint32_t i = 0; i < learners; ++i)
    {
        if (!seen[i])
        {
            throw ConfigValueError(key + " " + path + " has no line for " + label + " "
                                   + std::to_string(i));
        }
    }
}

std::vector<uint32_t>
ReadNodeAssignment(const std::string& key,
                   const std::string& path,
                   uint32_t learners,
                   const std::function<uint32_t(const CsvRow&)>& target)
{
    std::vector<uint32_t> assigned(learners, 0);
    ForEachLearnerRow(key,
                      path,
                      "node",
                      2,
                      learners,
                      [&](uint32_t node, const CsvRow& row) { assigned[node] = target(row); });
    return assigned;
}

uint64_t
ParseIndex(const std::string& where, const std::string& text, uint64_t max)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    {
        throw ConfigValueError(where + ": expected a whole number, got '" + text + "'");
    }
    // Leading zeros do not count; 19 digits always fit in 64 bits, 20 may not.
    size_t first = std::min(text.find_first_not_of('0'), text.size());
    if (text.size() - first > 19 || std::stoull(text) > max)
    {
        throw ConfigValueError(where + ": " + text + " is out of range (at most "
                               + std::to_string(max) + ")");
    }
    return std::stoull(text);
}

double
ParseNumber(const std::string& where, const std::string& text, double min, double max)
{
    // Decimal notation only: strtod would also take leading blanks, hexadecimal ("0x1p4"),
    // "inf" and "nan".
    if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos)
    {
        throw ConfigValueError(where + ": expected a number, got '" + text + "'");
    }
    errno = 0;
    char* end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size())
    {
        throw ConfigValueError(where + ": expected a number, got '" + text + "'");
    }
    // ERANGE with a tiny result is an underflow, which the range check below judges; a huge
    // result is an overflow.
    if ((errno == ERANGE && std::fabs(value) > 1.0) || !std::isfinite(value))
    {
        throw ConfigValueError(where + ": " + text + " is too large (beyond 1.8e308)");
    }
    if (value < min || value > max)
    {
        std::ostringstream range;
        range << "[" << min << ", " << max << "]";
        throw ConfigValueError(where + ": " + text + " is outside " + range.str());
    }
    return value;
}

} // namespace dlsim
