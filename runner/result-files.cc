// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "result-files.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace ns3
{

namespace
{

[[noreturn]] void
Fail(const std::string& path, int error)
{
    throw ResultFileError("cannot write " + path + ": " + std::strerror(error));
}

/// Write all of `data`, retrying short writes; throws with the system's reason.
void
WriteAll(int fd, const std::string& path, const char* data, size_t size)
{
    while (size > 0)
    {
        ssize_t n = ::write(fd, data, size);
        if (n < 0)
        {
            if (errno == EINTR)
            {
                continue;
            }
            Fail(path, errno);
        }
        data += n;
        size -= static_cast<size_t>(n);
    }
}

} // namespace

void
WriteFileAtomically(const std::string& path, const std::string& contents)
{
    const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
    int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
    {
        Fail(path, errno);
    }
    try
    {
        WriteAll(fd, path, contents.data(), contents.size());
        if (::fsync(fd) != 0)
        {
            Fail(path, errno);
        }
    }
    catch (...)
    {
        ::close(fd);
        ::unlink(temporary.c_str());
        throw;
    }
    if (::close(fd) != 0)
    {
        int error = errno;
        ::unlink(temporary.c_str());
        Fail(path, error);
    }
    if (::rename(temporary.c_str(), path.c_str()) != 0)
    {
        int error = errno;
        ::unlink(temporary.c_str());
        Fail(path, error);
    }
}

void
CommitPartialFile(const std::string& path)
{
    const std::string partial = path + ".partial";
    int fd = ::open(partial.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
    {
        Fail(partial, errno);
    }
    // fsync through any descriptor of the file writes what its writer left in the page cache.
    if (::fsync(fd) != 0)
    {
        int error = errno;
        ::close(fd);
        Fail(partial, error);
    }
    ::close(fd);
    if (::rename(partial.c_str(), path.c_str()) != 0)
    {
        Fail(path, errno);
    }
}

std::string
SafeFileName(const std::string& text)
{
    std::string out;
    for (char ch : text)
    {
        bool keep = std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-'
                    || ch == '=' || ch == '+';
        out += keep ? ch : '-';
    }
    return out;
}

std::string
CsvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
    {
        return text;
    }
    std::string quoted = "\"";
    for (char ch : text)
    {
        quoted += ch == '"' ? "\"\"" : std::string(1, ch);
    }
    return quoted + "\"";
}

StreamedFile::StreamedFile(const std::string& path, const std::string& header) : m_path(path)
{
    const std::string partial = path + ".partial";
    // A previous run's complete file of this name would otherwise sit next to this run's
    // partial one and be mistaken for its result.
    ::unlink(path.c_str());
    m_fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (m_fd < 0)
    {
        Fail(partial, errno);
    }
    m_buffer = header + "\n";
}

StreamedFile::~StreamedFile()
{
    if (m_fd >= 0)
    {
        // Not committed (the run failed or was stopped): keep what was computed.
        try
        {
            Flush();
        }
        catch (const ResultFileError&)
        {}
        ::close(m_fd);
    }
}

void
StreamedFile::Append(const std::string& text)
{
    m_buffer += text;
}

void
StreamedFile::Flush()
{
    if (m_fd < 0 || m_buffer.empty())
    {
        return;
    }
    WriteAll(m_fd, m_path + ".partial", m_buffer.data(), m_buffer.size());
    m_buffer.clear();
}

void
StreamedFile::Commit()
{
    Flush();
    int fd = m_fd;
    m_fd = -1;
    if (::close(fd) != 0)
    {
        Fail(m_path + ".partial", errno);
    }
    CommitPartialFile(m_path);
}

} // namespace ns3
