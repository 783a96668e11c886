// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The rows of the small CSV files users give (link, access, region, assignment and partition
 * files). Part of the learning core, without ns-3, since partition files are read there.
 */
#ifndef DLSIM_CSV_ROWS_H
#define DLSIM_CSV_ROWS_H

#include <cstdint>
#include <functional>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

namespace dlsim
{

/// A user-given value that cannot be used; the message names the key it came from.
class ConfigValueError : public std::invalid_argument
{
  public:
    using std::invalid_argument::invalid_argument;
};

/// One data row: its fields (trimmed) and where it stands, e.g. "access.file hosts.csv:3".
struct CsvRow
{
    std::vector<std::string> fields; ///< trimmed
    std::string where;               ///< key, file and line, for messages
};

/**
 * Read `path` (given by scenario key `key`): '#' starts a comment, blank lines are skipped, and
 * a first row whose first field is `headerFirstField` is the header. Throws ConfigValueError
 * naming the key and file when the file cannot be read or a row has not `columns` fields
 * (0: any number).
 * \param key the scenario key naming the file, for messages
 * \param path the file
 * \param headerFirstField the first field of a header row
 * \param columns fields per row (0: any number)
 * \return the data rows
 */
std::vector<CsvRow> ReadCsvRows(const std::string& key,
                                const std::string& path,
                                const std::string& headerFirstField,
                                size_t columns);

/// What ReadBoundedLine found.
enum class LineRead
{
    Line,    ///< a line (its end-of-line character removed)
    End,     ///< the end of the input
    TooLong, ///< a line longer than allowed: not a file of this kind, or a hostile one
};

/**
 * Read the next line of `in` into `line`, at most `maxLength` characters, so that a file without
 * line breaks cannot fill memory. The shared reader of every line-based format.
 * \param in the input
 * \param[out] line the line read
 * \param maxLength the longest line accepted
 * \return what was found
 */
LineRead ReadBoundedLine(std::istream& in, std::string& line, size_t maxLength);

/**
 * A file with one row per learner 0..n-1, the learner's index in its first column (headed
 * `label`, "node" or "host"), `columns` fields a row: `row` gets each learner's row once. Errors
 * name the key, file and line (learner out of range, listed twice, missing).
 * \param key the scenario key naming the file, for messages
 * \param path the file
 * \param label the first column's header
 * \param columns fields per row
 * \param learners the number of learners
 * \param row called once per learner
 */
void ForEachLearnerRow(const std::string& key,
                       const std::string& path,
                       const std::string& label,
                       size_t columns,
                       uint32_t learners,
                       const std::function<void(uint32_t learner, const CsvRow& row)>& row);

/**
 * A file "node,TARGET" giving each of learners 0..n-1 exactly one target (a region, a router):
 * `target` turns a row's second field into its index, throwing for an unknown one. Errors
 * name the key, file and line (node out of range, listed twice, missing).
 * \param key the scenario key naming the file, for messages
 * \param path the file
 * \param learners the number of learners
 * \param target a row's target index
 * \return each learner's target
 */
std::vector<uint32_t> ReadNodeAssignment(const std::string& key,
                                         const std::string& path,
                                         uint32_t learners,
                                         const std::function<uint32_t(const CsvRow&)>& target);

/**
 * \param where names the value in messages
 * \param text the value
 * \param max the largest allowed
 * \return a whole number in [0, max]
 * \throws ConfigValueError naming `where` otherwise
 */
uint64_t ParseIndex(const std::string& where, const std::string& text, uint64_t max);

/**
 * \param where names the value in messages
 * \param text the value
 * \param min the smallest allowed
 * \param max the largest allowed
 * \return a finite number in [min, max]
 * \throws ConfigValueError naming `where` otherwise
 */
double ParseNumber(const std::string& where, const std::string& text, double min, double max);

} // namespace dlsim

#endif // DLSIM_CSV_ROWS_H
