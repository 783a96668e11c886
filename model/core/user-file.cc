// SPDX-License-Identifier: GPL-2.0-only
#include "user-file.h"

#include <filesystem>

namespace dlsim
{

std::string
UnreadableFileReason(const std::string& path)
{
    namespace fs = std::filesystem;
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    switch (status.type())
    {
        case fs::file_type::regular:
        case fs::file_type::not_found:
            return "";
        case fs::file_type::directory:
            return "it is a directory, not a regular file";
        case fs::file_type::fifo:
            return "it is a FIFO (a named pipe), not a regular file: reading it would wait for a "
                   "writer";
        case fs::file_type::character:
        case fs::file_type::block:
            return "it is a device, not a regular file";
        case fs::file_type::socket:
            return "it is a socket, not a regular file";
        default:
            // A symbolic-link loop, a folder that cannot be searched: the system's own words.
            return error ? error.message() : "it is not a regular file";
    }
}

} // namespace dlsim
