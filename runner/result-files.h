// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Result files that are never lost or half-written: every write is checked, whole files appear
 * under their name only once complete, and files written during a run carry a ".partial"
 * suffix until the run has finished.
 */
#ifndef DLSIM_RESULT_FILES_H
#define DLSIM_RESULT_FILES_H

#include <stdexcept>
#include <string>

namespace ns3
{

/// A result file could not be written; the message names the file and the system's reason.
class ResultFileError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/**
 * Write `contents` to `path` so that `path` is either its old self or the whole new contents:
 * written to a temporary name in the same folder, flushed to disk, checked after closing, then
 * renamed into place. Throws ResultFileError (e.g. "cannot write DIR/summary.json: No space
 * left on device").
 */
void WriteFileAtomically(const std::string& path, const std::string& contents);

/**
 * Make PATH.partial, a file written during the run and closed by its writer (a pcap file ns-3
 * wrote), the complete file PATH: flushed to disk, then renamed. Throws ResultFileError.
 */
void CommitPartialFile(const std::string& path);

/// `text` as a file name: characters other than letters, digits and ".-=+" become "-".
std::string SafeFileName(const std::string& text);

/**
 * `text` as one field of a CSV file dlsim writes: as it is, or between double quotes (a quote
 * inside doubled, RFC 4180) when it holds a comma, a quote or a line break.
 */
std::string CsvField(const std::string& text);

/**
 * A file written while the run goes on (rounds.csv, eval.csv, curve.csv): lines are buffered
 * and written to PATH.partial at every Flush (each evaluation), so an interrupted run keeps
 * what it computed, and the name says it is incomplete; Commit flushes to disk and renames it
 * to PATH. Every write is checked and throws ResultFileError.
 */
class StreamedFile
{
  public:
    StreamedFile(const std::string& path, const std::string& header);
    ~StreamedFile();
    StreamedFile(const StreamedFile&) = delete;
    StreamedFile& operator=(const StreamedFile&) = delete;

    /// Append text (buffered until the next Flush).
    void Append(const std::string& text);
    /// Write what is buffered to PATH.partial.
    void Flush();
    /// Flush, sync, close and rename PATH.partial to PATH.
    void Commit();

  private:
    std::string m_path;
    std::string m_buffer;
    int m_fd = -1;
};

} // namespace ns3

#endif // DLSIM_RESULT_FILES_H
