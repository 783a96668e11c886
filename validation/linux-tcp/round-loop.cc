// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * round-loop: dlsim's synchronous round loop on real sockets, one process per host namespace.
 * Like a LearnerApplication it opens one persistent TCP connection to every out-neighbour
 * (congestion control set per socket) and accepts one from every in-neighbour; each round it
 * pauses for the round's compute time, writes one length-prefixed message of the round's size
 * to every out-neighbour, and ends the round when every in-neighbour's message of this round
 * has fully arrived. Prints "node,round,time_s,compute_s" per round, time_s counted from the
 * start instant that all hosts of a case share (CLOCK_REALTIME), set once every connection is up:
 * each host creates SYNC_DIR/ready-ID when its connections are up; the driver, once all are
 * there, writes the instant (seconds since the epoch) to SYNC_DIR/start. Logs to stderr, per
 * round, each out-connection's state at the round's first write (idle time, RTO, window before
 * and after: the kernel restarts an idle window there) and each in-connection's receive window
 * at the round's end; at the end, every connection's retransmissions and the host's HyStart
 * exits.
 *
 *   round-loop ID LISTEN_IP PORT IN_COUNT OUT_LIST SCHEDULE SYNC_DIR TIMEOUT_S CC
 *     OUT_LIST  "ip:port,ip:port,..." or "-" (no out-neighbours)
 *     SCHEDULE  "compute_s:bytes,compute_s:bytes,..." one entry per round; bytes per message
 *     SYNC_DIR  the directory of the start barrier (above)
 *     TIMEOUT_S the whole run's bound: TIMEOUT_S after it began the process fails
 */
#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sstream>
#include <string>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <vector>

namespace
{

std::string g_cc;
int g_id = 0;

[[noreturn]] void
Fail(const std::string& what, bool withErrno = true)
{
    std::fprintf(stderr,
                 "round-loop %d: %s%s%s\n",
                 g_id,
                 what.c_str(),
                 withErrno ? ": " : "",
                 withErrno ? std::strerror(errno) : "");
    std::exit(1);
}

double
Now()
{
    timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

std::vector<std::string>
Split(const std::string& text, char sep)
{
    std::vector<std::string> parts;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, sep))
    {
        parts.push_back(part);
    }
    return parts;
}

void
SetTcpOptions(int fd)
{
    if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, g_cc.c_str(), g_cc.size()) != 0)
    {
        Fail("TCP_CONGESTION " + g_cc);
    }
    // ns-3's TcpSocketBase sends without Nagle's delay (TcpNoDelay is true by default).
    int one = 1;
    if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) != 0)
    {
        Fail("TCP_NODELAY");
    }
}

sockaddr_in
Address(const std::string& ip, int port)
{
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    if (inet_pton(AF_INET, ip.c_str(), &a.sin_addr) != 1)
    {
        Fail("bad address " + ip, false);
    }
    return a;
}

constexpr size_t kHeader = 12; // 8 bytes message length (header included), 4 bytes round

struct Out
{
    int fd = -1;
    bool connected = false;
    sockaddr_in peer{};
    std::vector<uint64_t> queued; ///< message sizes not yet fully written
    uint32_t firstRound = 1;      ///< round of queued.front()
    uint64_t offset = 0;          ///< bytes of queued.front() written
};

struct In
{
    int fd = -1;
    uint8_t header[kHeader];
    uint64_t got = 0;  ///< bytes of the current message read
    uint64_t size = 0; ///< its length, once the header is in
    uint32_t complete = 0;
    bool eof = false;
};

/// Writes what the socket takes; true when everything queued is written.
bool
Pump(Out& o)
{
    static std::vector<uint8_t> payload(1 << 20, 0);
    while (!o.queued.empty())
    {
        const uint64_t size = o.queued.front();
        uint8_t header[kHeader];
        std::memcpy(header, &size, 8);
        std::memcpy(header + 8, &o.firstRound, 4);
        // The header and the payload in one write, as a LearnerApplication hands TCP the whole
        // framed message at once: a header written on its own would leave (TCP_NODELAY) as a
        // segment of its own, one more segment per message than dlsim sends.
        iovec parts[2];
        int count = 0;
        if (o.offset < kHeader)
        {
            parts[count++] = {header + o.offset, static_cast<size_t>(kHeader - o.offset)};
        }
        const uint64_t from = std::max<uint64_t>(o.offset, kHeader);
        parts[count++] = {payload.data(), std::min<uint64_t>(payload.size(), size - from)};
        msghdr message{};
        message.msg_iov = parts;
        message.msg_iovlen = count;
        const ssize_t n = sendmsg(o.fd, &message, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0)
        {
            if (errno == EAGAIN || errno == EWOULDBLOCK)
            {
                return false;
            }
            Fail("send");
        }
        o.offset += static_cast<uint64_t>(n);
        if (o.offset == size)
        {
            o.queued.erase(o.queued.begin());
            o.offset = 0;
            ++o.firstRound;
        }
    }
    return true;
}

tcp_info
Info(int fd)
{
    tcp_info info{};
    socklen_t len = sizeof(info);
    getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len);
    return info;
}

/// The driver's log of one round's first write to an out-neighbour: how long the connection
/// was idle against its RTO, and the window before and after (a restart after idle halves it).
void
LogWrite(uint32_t round, size_t out, const tcp_info& before, const tcp_info& after, uint64_t took)
{
    std::fprintf(
        stderr,
        "round-loop %d round %u out %zu: idle %u ms, rto %.0f ms, srtt %.1f ms, cwnd %u -> "
        "%u, ssthresh %u, %u retransmitted so far; the first write took %llu bytes\n",
        g_id,
        round,
        out,
        before.tcpi_last_data_sent,
        before.tcpi_rto / 1e3,
        before.tcpi_rtt / 1e3,
        before.tcpi_snd_cwnd,
        after.tcpi_snd_cwnd,
        after.tcpi_snd_ssthresh,
        before.tcpi_total_retrans,
        static_cast<unsigned long long>(took));
}

/// The driver's log of an in-neighbour's connection at a round's end: the receive window's
/// autotuning (rcv_ssthresh grows with the buffer; every segment that grows it is ACKed at once).
void
LogReceiveWindow(uint32_t round, int fd)
{
    const tcp_info info = Info(fd);
    int buffer = 0;
    socklen_t len = sizeof(buffer);
    getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buffer, &len);
    std::fprintf(stderr,
                 "round-loop %d round %u in: rcv_ssthresh %u, rcv_space %u, rcv_rtt %.1f ms, "
                 "receive buffer %d\n",
                 g_id,
                 round,
                 info.tcpi_rcv_ssthresh,
                 info.tcpi_rcv_space,
                 info.tcpi_rcv_rtt / 1e3,
                 buffer);
}

/// The driver's log of this host's HyStart exits (the namespace's own TcpExt counters): how
/// many times and at which window slow start ended by delay or by ACK train.
void
LogHystart()
{
    FILE* f = std::fopen("/proc/self/net/netstat", "r");
    if (!f)
    {
        return;
    }
    // Pairs of lines: "TcpExt: NAME NAME ..." then "TcpExt: VALUE VALUE ...".
    std::vector<std::string> lines;
    char line[16384];
    while (std::fgets(line, sizeof(line), f))
    {
        line[std::strcspn(line, "\n")] = '\0';
        lines.emplace_back(line);
    }
    std::fclose(f);
    for (size_t row = 0; row + 1 < lines.size(); row += 2)
    {
        const auto names = Split(lines[row], ' ');
        const auto values = Split(lines[row + 1], ' ');
        for (size_t c = 0; c < names.size() && c < values.size(); ++c)
        {
            if (names[c].rfind("TCPHystart", 0) == 0)
            {
                std::fprintf(
                    stderr, "round-loop %d: %s %s\n", g_id, names[c].c_str(), values[c].c_str());
            }
        }
    }
}

void
Drain(In& in)
{
    static std::vector<uint8_t> sink(1 << 20);
    for (;;)
    {
        ssize_t n;
        if (in.got < kHeader)
        {
            n = recv(in.fd, in.header + in.got, kHeader - in.got, MSG_DONTWAIT);
        }
        else
        {
            n = recv(in.fd,
                     sink.data(),
                     std::min<uint64_t>(sink.size(), in.size - in.got),
                     MSG_DONTWAIT);
        }
        if (n == 0)
        {
            in.eof = true;
            return;
        }
        if (n < 0)
        {
            if (errno == EAGAIN || errno == EWOULDBLOCK)
            {
                return;
            }
            Fail("recv");
        }
        in.got += static_cast<uint64_t>(n);
        if (in.got == kHeader)
        {
            std::memcpy(&in.size, in.header, 8);
            uint32_t round;
            std::memcpy(&round, in.header + 8, 4);
            if (in.size < kHeader || round != in.complete + 1)
            {
                Fail("malformed message (size " + std::to_string(in.size) + ", round "
                         + std::to_string(round) + ")",
                     false);
            }
        }
        if (in.got >= kHeader && in.got == in.size)
        {
            ++in.complete;
            in.got = 0;
        }
    }
}

} // namespace

int
main(int argc, char** argv)
{
    if (argc != 10)
    {
        std::fprintf(stderr,
                     "usage: round-loop ID LISTEN_IP PORT IN_COUNT OUT_LIST SCHEDULE "
                     "SYNC_DIR TIMEOUT_S CC\n");
        return 2;
    }
    g_id = std::atoi(argv[1]);
    const std::string listenIp = argv[2];
    const int port = std::atoi(argv[3]);
    const int inCount = std::atoi(argv[4]);
    const std::string outList = argv[5];
    std::vector<double> compute;
    std::vector<uint64_t> bytes;
    for (const auto& entry : Split(argv[6], ','))
    {
        auto f = Split(entry, ':');
        if (f.size() != 2)
        {
            Fail("bad schedule entry '" + entry + "'", false);
        }
        compute.push_back(std::stod(f[0]));
        bytes.push_back(std::max<uint64_t>(std::stoull(f[1]), kHeader));
    }
    const std::string syncDir = argv[7];
    const double deadline = Now() + std::stod(argv[8]);
    g_cc = argv[9];
    const auto rounds = static_cast<uint32_t>(compute.size());
    // Other work on the machine should not decide when messages are handed to TCP: a higher
    // priority, though not a real-time one (most of the kernel's TCP work happens in the delay
    // lines' context anyway, and a real-time loop that never slept would freeze the machine).
    if (setpriority(PRIO_PROCESS, 0, -10) != 0)
    {
        std::fprintf(stderr,
                     "round-loop %d: no higher priority (%s): timing may suffer\n",
                     g_id,
                     std::strerror(errno));
    }

    int ep = epoll_create1(0);
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    SetTcpOptions(listener);
    sockaddr_in self = Address(listenIp, port);
    if (bind(listener, reinterpret_cast<sockaddr*>(&self), sizeof(self)) != 0
        || listen(listener, 64) != 0)
    {
        Fail("listen on " + listenIp);
    }

    std::vector<Out> outs;
    if (outList != "-")
    {
        for (const auto& peer : Split(outList, ','))
        {
            auto f = Split(peer, ':');
            if (f.size() != 2)
            {
                Fail("bad out-neighbour '" + peer + "'", false);
            }
            Out o;
            o.peer = Address(f[0], std::atoi(f[1].c_str()));
            outs.push_back(o);
        }
    }
    std::vector<In> ins;

    // Connect (retrying while the peer is not listening yet) and accept.
    size_t connected = 0;
    while (connected < outs.size() || static_cast<int>(ins.size()) < inCount)
    {
        if (Now() > deadline)
        {
            Fail("connections not up within the timeout (" + std::to_string(connected) + " of "
                     + std::to_string(outs.size()) + " out, " + std::to_string(ins.size()) + " of "
                     + std::to_string(inCount) + " in)",
                 false);
        }
        // Non-blocking connects, each followed to its end: an attempt given up while its SYN
        // or SYN-ACK was still on the way could leave the peer an accepted connection nobody
        // writes to. Refused (peer not listening yet): try again.
        for (auto& o : outs)
        {
            if (o.connected)
            {
                continue;
            }
            if (o.fd < 0)
            {
                o.fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
                SetTcpOptions(o.fd);
                if (connect(o.fd, reinterpret_cast<sockaddr*>(&o.peer), sizeof(o.peer)) != 0
                    && errno != EINPROGRESS)
                {
                    close(o.fd);
                    o.fd = -1;
                }
                continue;
            }
            pollfd p{o.fd, POLLOUT, 0};
            if (poll(&p, 1, 0) == 1)
            {
                int error = 0;
                socklen_t len = sizeof(error);
                getsockopt(o.fd, SOL_SOCKET, SO_ERROR, &error, &len);
                if (error == 0)
                {
                    o.connected = true;
                    ++connected;
                }
                else
                {
                    close(o.fd);
                    o.fd = -1;
                }
            }
        }
        fcntl(listener, F_SETFL, O_NONBLOCK);
        for (;;)
        {
            int fd = accept(listener, nullptr, nullptr);
            if (fd < 0)
            {
                break;
            }
            fcntl(fd, F_SETFL, O_NONBLOCK);
            In in;
            in.fd = fd;
            ins.push_back(in);
        }
        usleep(20000);
    }
    for (size_t i = 0; i < ins.size(); ++i)
    {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.u64 = i;
        epoll_ctl(ep, EPOLL_CTL_ADD, ins[i].fd, &ev);
    }
    for (size_t i = 0; i < outs.size(); ++i)
    {
        epoll_event ev{};
        ev.events = 0;
        ev.data.u64 = (1ULL << 32) | i;
        epoll_ctl(ep, EPOLL_CTL_ADD, outs[i].fd, &ev);
    }

    // The start barrier.
    {
        const std::string ready = syncDir + "/ready-" + std::to_string(g_id);
        FILE* f = std::fopen(ready.c_str(), "w");
        if (!f || std::fclose(f) != 0)
        {
            Fail("cannot create " + ready);
        }
    }
    double start = 0;
    for (;;)
    {
        FILE* f = std::fopen((syncDir + "/start").c_str(), "r");
        if (f)
        {
            const bool read = std::fscanf(f, "%lf", &start) == 1;
            std::fclose(f);
            if (!read)
            {
                Fail("unreadable " + syncDir + "/start", false);
            }
            break;
        }
        if (Now() > deadline)
        {
            Fail("no start instant within the timeout", false);
        }
        usleep(5000);
    }
    timespec at{static_cast<time_t>(start),
                static_cast<long>((start - static_cast<time_t>(start)) * 1e9)};
    while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, nullptr) == EINTR)
    {}

    std::vector<uint8_t> writable(outs.size(), 0);
    auto wait = [&](double until)
    {
        // One epoll round, at most until `until`; reads everything that arrived, writes what fits.
        double left = std::max(0.0, until - Now());
        epoll_event events[64];
        int n = epoll_wait(ep, events, 64, static_cast<int>(std::min(left, 3600.0) * 1000) + 1);
        if (n < 0 && errno != EINTR)
        {
            Fail("epoll_wait");
        }
        for (int k = 0; k < n; ++k)
        {
            uint64_t tag = events[k].data.u64;
            if (tag >> 32)
            {
                Out& o = outs[tag & 0xffffffff];
                if (Pump(o))
                {
                    // Nothing left to write: no more EPOLLOUT; a hang-up or error (reported
                    // whatever the mask) would wake this loop for ever, so the socket leaves.
                    epoll_event ev{};
                    ev.data.u64 = tag;
                    const bool gone = events[k].events & (EPOLLHUP | EPOLLERR);
                    epoll_ctl(ep, gone ? EPOLL_CTL_DEL : EPOLL_CTL_MOD, o.fd, &ev);
                }
            }
            else
            {
                Drain(ins[tag]);
                if (ins[tag].eof)
                {
                    epoll_ctl(ep, EPOLL_CTL_DEL, ins[tag].fd, nullptr);
                }
            }
        }
    };
    auto queue = [&](uint32_t round)
    {
        for (size_t i = 0; i < outs.size(); ++i)
        {
            // The window before and after the round's first write, for the driver's log: the
            // write is where the kernel restarts an idle connection's window.
            const tcp_info before = Info(outs[i].fd);
            outs[i].queued.push_back(bytes[round - 1]);
            const bool flushed = Pump(outs[i]);
            LogWrite(
                round, i, before, Info(outs[i].fd), flushed ? bytes[round - 1] : outs[i].offset);
            if (!flushed)
            {
                epoll_event ev{};
                ev.events = EPOLLOUT;
                ev.data.u64 = (1ULL << 32) | i;
                epoll_ctl(ep, EPOLL_CTL_MOD, outs[i].fd, &ev);
            }
        }
    };

    for (uint32_t r = 1; r <= rounds; ++r)
    {
        const double computeEnd = Now() + compute[r - 1];
        while (Now() < computeEnd)
        {
            wait(computeEnd);
        }
        queue(r);
        for (;;)
        {
            bool done = std::all_of(
                ins.begin(), ins.end(), [r](const In& in) { return in.complete >= r; });
            if (done)
            {
                break;
            }
            if (Now() > deadline)
            {
                Fail("round " + std::to_string(r) + " not complete within the timeout", false);
            }
            for (const auto& in : ins)
            {
                if (in.eof && in.complete < r)
                {
                    Fail("an in-neighbour closed its connection before round " + std::to_string(r),
                         false);
                }
            }
            wait(deadline);
        }
        std::printf("%d,%u,%.6f,%.6f\n", g_id, r, Now() - start, compute[r - 1]);
        std::fflush(stdout);
        for (const auto& in : ins)
        {
            LogReceiveWindow(r, in.fd);
        }
    }
    // Finish writing, then wait until every in-neighbour closed: no process leaves while a
    // neighbour still depends on its bytes.
    for (;;)
    {
        bool flushed
            = std::all_of(outs.begin(), outs.end(), [](Out& o) { return o.queued.empty(); });
        if (flushed)
        {
            break;
        }
        if (Now() > deadline)
        {
            Fail("could not finish sending within the timeout", false);
        }
        wait(deadline);
    }
    for (auto& o : outs)
    {
        // What the kernel's TCP went through on this connection, for the driver's log.
        tcp_info info{};
        socklen_t len = sizeof(info);
        if (getsockopt(o.fd, IPPROTO_TCP, TCP_INFO, &info, &len) == 0)
        {
            char peer[INET_ADDRSTRLEN];
            inet_ntop(AF_INET, &o.peer.sin_addr, peer, sizeof(peer));
            std::fprintf(stderr,
                         "round-loop %d -> %s: %u segments retransmitted, cwnd %u, ssthresh %u, "
                         "srtt %.1f ms, rto %.0f ms\n",
                         g_id,
                         peer,
                         info.tcpi_total_retrans,
                         info.tcpi_snd_cwnd,
                         info.tcpi_snd_ssthresh,
                         info.tcpi_rtt / 1e3,
                         info.tcpi_rto / 1e3);
        }
        shutdown(o.fd, SHUT_WR);
        epoll_ctl(ep, EPOLL_CTL_DEL, o.fd, nullptr);
    }
    LogHystart();
    while (!std::all_of(ins.begin(), ins.end(), [](const In& in) { return in.eof; }))
    {
        if (Now() > deadline)
        {
            Fail("in-neighbours did not close within the timeout", false);
        }
        wait(deadline);
    }
    return 0;
}
