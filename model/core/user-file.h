// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The one rule for a file a user names (a scenario, a key's file, a recording, a dataset's
 * files): it is read only if it is a regular file. A FIFO or a terminal would block a read
 * forever, a device such as /dev/zero never ends, and a folder is no file.
 */
#ifndef DLSIM_USER_FILE_H
#define DLSIM_USER_FILE_H

#include <string>

namespace dlsim
{

/**
 * \brief Why `path` cannot be read as a user's file, before anything opens it (opening a FIFO
 * for reading waits for a writer).
 * \param path the file
 * \return "" when it is a regular file or does not exist (the caller's open reports a missing
 * file in its own words); else the reason, e.g. "it is a FIFO (a named pipe), not a regular file"
 */
std::string UnreadableFileReason(const std::string& path);

} // namespace dlsim

#endif // DLSIM_USER_FILE_H
