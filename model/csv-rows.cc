/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "csv-rows.h"

#include "random-variable-spec.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ns3
{

std::vector<CsvRow>
ReadCsvRows(const std::string& key,
            const std::string& path,
            const std::string& headerFirstField,
            size_t columns)
{
    std::ifstream in(path);
    if (!in)
    {
        throw ConfigValueError(key + ": cannot open " + path);
    }
    std::vector<CsvRow> rows;
    std::string line;
    bool first = true;
    for (uint64_t lineNo = 1; std::getline(in, line); ++lineNo)
    {
        if (lineNo > 10000000)
        {
            throw ConfigValueError(key + " " + path + ": more than 10 million lines");
        }
        line = line.substr(0, line.find('#'));
        CsvRow row;
        row.where = key + " " + path + ":" + std::to_string(lineNo);
        std::stringstream ss(line);
        for (std::string f; std::getline(ss, f, ',');)
        {
            f.erase(0, f.find_first_not_of(" \t\r"));
            f.erase(f.find_last_not_of(" \t\r") + 1);
            row.fields.push_back(f);
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

uint64_t
ParseIndex(const std::string& where, const std::string& text, uint64_t max)
{
    if (text.empty() || text.size() > 19
        || text.find_first_not_of("0123456789") != std::string::npos)
    {
        throw ConfigValueError(where + ": expected a whole number, got '" + text + "'");
    }
    uint64_t value = std::stoull(text);
    if (value > max)
    {
        throw ConfigValueError(where + ": " + text + " is out of range (at most "
                               + std::to_string(max) + ")");
    }
    return value;
}

double
ParseNumber(const std::string& where, const std::string& text, double min, double max)
{
    errno = 0;
    char* end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE
        || !std::isfinite(value))
    {
        throw ConfigValueError(where + ": expected a number, got '" + text + "'");
    }
    if (value < min || value > max)
    {
        std::ostringstream range;
        range << "[" << min << ", " << max << "]";
        throw ConfigValueError(where + ": " + text + " is outside " + range.str());
    }
    return value;
}

} // namespace ns3
