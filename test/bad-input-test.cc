// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: every kind of bad input, as a table: what the user gives, the exit status expected
 * (2: input that cannot run; 1: a run that could not be carried out), and the words the
 * message must contain (the key, the file, the line, the problem). Nothing may crash, abort or
 * hang.
 */
#include "run-command.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

struct BadInput
{
    std::string name;
    std::string args; ///< {DIR} stands for the test's folder of generated files
    int status;
    std::vector<std::string> words;
};

/// Files the cases refer to: each one broken in one way.
void
WriteFiles(const std::string& dir)
{
    fs::create_directories(dir + "/idx");
    auto write = [&dir](const std::string& name, const std::string& text)
    {
        std::ofstream(dir + "/" + name, std::ios::binary) << text;
    };
    write("edges.txt", "0 1\n1 2\n2 9\n");
    write("links.csv", "u,v,bandwidth,latency\n0,1,10Mbps,5ms\n");
    write("access.csv", "host,up,down,latency\n0,1Mbps,10Mbps,5ms\n1,fast,10Mbps,5ms\n");
    write("matrix.csv", "region,a,b\na,0,10\nb,20,0\n");
    write("regions.csv", "node,region\n0,us-east\n1,atlantis\n");
    write("trace.csv", "time_s,rate\n0,10Mbps\n5,2Mbps\n3,4Mbps\n");
    write("trace.mahimahi", "10\n20\n15\n");
    write("cut.inet", "4 3\n0 0 0\n1 0 0\n2 0 0\n3 0 0\n0 1 1\n");
    write("bad.ini", "nodes = 4\nthis line has no equals sign\n");
    write("twice.ini", "nodes = 4\nnodes = 5\n");
    // An IDX image file whose header claims four million 28x28 images, in 57 bytes.
    std::string idx = std::string("\x00\x00\x08\x03", 4) + std::string("\x00\x3d\x09\x00", 4)
                      + std::string("\x00\x00\x00\x1c", 4) + std::string("\x00\x00\x00\x1c", 4);
    idx += std::string(57 - idx.size(), '\x01');
    for (const char* stem : {"train-images-idx3-ubyte", "t10k-images-idx3-ubyte"})
    {
        write(std::string("idx/") + stem, idx);
    }
    for (const char* stem : {"train-labels-idx1-ubyte", "t10k-labels-idx1-ubyte"})
    {
        write(std::string("idx/") + stem,
              std::string("\x00\x00\x08\x01\x00\x00\x00\x02\x01\x02", 10));
    }
}

std::string
Replace(std::string text, const std::string& from, const std::string& to)
{
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    {
        text.replace(at, from.size(), to);
    }
    return text;
}

TEST(BadInput, EveryCaseGetsItsExitStatusAndAMessageNamingTheProblem)
{
    const std::string dir
        = (fs::temp_directory_path() / ("dlsim-bad-" + std::to_string(::getpid()))).string();
    fs::remove_all(dir);
    WriteFiles(dir);
    // A small run, except for the keys a case sets itself (a key may be given only once).
    const std::vector<std::pair<std::string, std::string>> small
        = {{"dataset", "synthetic"},
           {"synthetic.train_samples", "200"},
           {"model", "logistic"},
           {"nodes", "4"},
           {"degree", "2"},
           {"rounds", "1"},
           {"out", "{DIR}/run"}};
    const std::vector<BadInput> cases = {
        // Keys and values.
        {"not a number", "--nodes=abc", 2, {"nodes"}},
        {"too few nodes", "--nodes=1", 2, {"nodes"}},
        {"unknown key", "--bandwith=10Mbps", 2, {"bandwith"}},
        {"bad rate", "--link.bandwidth=fast", 2, {"link.bandwidth", "fast"}},
        {"bad random variable",
         "--link.latency='ns3::UniformRandomVariable[Mn=1]'",
         2,
         {"link.latency"}},
        {"unknown topology", "--topology=torus", 2, {"topology"}},
        {"odd regular graph", "--nodes=7 --degree=3", 2, {"even"}},
        {"directed overlay for D-PSGD", "--topology=directed-ring", 2, {"directed"}},
        {"empty queue", "--link.queue=0p", 2, {"link.queue"}},
        {"queue without unit", "--link.queue=100", 2, {"link.queue"}},
        {"unknown queue discipline", "--link.queue_disc=red", 2, {"link.queue_disc"}},
        {"loss of one", "--link.loss=1", 2, {"link.loss"}},
        {"huge TCP buffer", "--tcp.buffer=2147483648", 2, {"tcp.buffer"}},
        {"tiny segments", "--tcp.segment_size=10", 2, {"tcp.segment_size"}},
        {"segments larger than the MTU", "--tcp.segment_size=9000", 2, {"tcp.segment_size"}},
        {"zero RTO", "--tcp.min_rto=0ms", 2, {"tcp.min_rto"}},
        {"unknown TCP profile", "--tcp.profile=bbr", 2, {"tcp.profile", "bbr"}},
        {"delayed ACK beyond the linux profile's RTO",
         "--tcp.profile=linux --tcp.delayed_ack=300ms",
         2,
         {"tcp.delayed_ack (300ms)", "tcp.min_rto (auto (200ms))"}},
        {"RTO without unit", "--tcp.min_rto=200", 2, {"tcp.min_rto"}},
        {"ns-3 attribute the profile sets",
         "--ns3.ns3::LearnerApplication::TcpProfile=linux",
         2,
         {"tcp.profile"}},
        {"stall timeout without unit", "--run.stall_timeout=soon", 2, {"run.stall_timeout"}},
        {"unknown network", "--network=mesh", 2, {"network"}},
        {"bad uplink", "--network=access --access.up=fast", 2, {"access.up"}},
        {"too many regions", "--network=regions --regions.count=9", 2, {"regions.count"}},
        {"file network without file", "--network=file", 2, {"underlay.file"}},
        {"cross traffic without routers", "--cross.traffic=cbr", 2, {"cross.links"}},
        {"trace on missing links", "--trace.file={DIR}/../nonexistent.csv", 2, {"nonexistent.csv"}},
        {"unknown ns-3 type", "--ns3.ns3::Foo::Bar=1", 2, {"ns3.ns3::Foo::Bar", "no ns-3 type"}},
        {"unknown ns-3 attribute", "--ns3.ns3::TcpSocket::Nope=1", 2, {"has no attribute Nope"}},
        {"bad ns-3 value", "--ns3.ns3::TcpSocket::ConnTimeout=2x", 2, {"ConnTimeout", "2x"}},
        {"ns-3 type of the wrong kind",
         "--ns3.ns3::TcpL4Protocol::SocketType=ns3::Node",
         2,
         {"TcpCongestionOps"}},
        {"ns-3 attribute dlsim sets", "--ns3.ns3::TcpSocketBase::MinRto=1s", 2, {"tcp.min_rto"}},
        // Files.
        {"scenario file missing", "/nonexistent/scenario.ini", 2, {"/nonexistent/scenario.ini"}},
        {"scenario line without =", "{DIR}/bad.ini", 2, {"bad.ini"}},
        {"scenario key twice", "{DIR}/twice.ini", 2, {"twice.ini", "nodes"}},
        {"edge list node out of range",
         "--topology=file --topology.file={DIR}/edges.txt",
         2,
         {"edges.txt"}},
        {"link file without every link",
         "--link.file={DIR}/links.csv",
         2,
         {"links.csv", "has no line for link"}},
        {"access file with a bad rate",
         "--network=access --access.file={DIR}/access.csv",
         2,
         {"access.csv:3", "fast"}},
        {"asymmetric latency matrix",
         "--network=regions --regions.latency={DIR}/matrix.csv",
         2,
         {"matrix.csv", "not symmetric"}},
        {"unknown region",
         "--network=regions --regions.assign=file --regions.file={DIR}/regions.csv",
         2,
         {"regions.csv:3", "atlantis"}},
        {"trace going back in time",
         "--network=access --trace.file={DIR}/trace.csv",
         2,
         {"trace.csv:4"}},
        {"Mahimahi trace going back in time",
         "--network=access --trace.file={DIR}/trace.mahimahi",
         2,
         {"trace.mahimahi:3"}},
        {"router topology cut short",
         "--network=file --underlay.file={DIR}/cut.inet",
         2,
         {"cut.inet", "announces 4 nodes and 3 links"}},
        {"dataset folder missing",
         "--dataset=fashion-mnist --dataset.path=/nonexistent",
         2,
         {"/nonexistent", "dataset-fashion-mnist"}},
        {"IDX header claiming four million images in 57 bytes",
         "--dataset=fashion-mnist --dataset.path={DIR}/idx",
         2,
         {"train-images-idx3-ubyte"}},
        // Folders.
        {"run folder under a file", "--out=/etc/hostname/run", 1, {"Not a directory"}},
    };
    for (const BadInput& c : cases)
    {
        std::string command = std::string(DLSIM_RUN_BINARY) + " " + c.args + " --no-plot";
        for (const auto& [key, value] : small)
        {
            if (c.args.find("--" + key + "=") == std::string::npos)
            {
                command += " --" + key + "=" + value;
            }
        }
        command = Replace(command, "{DIR}", dir);
        std::string output;
        int status = RunCommand("timeout 60 " + command, output);
        EXPECT_EQ(status, c.status) << c.name << ": " << command << "\n" << output;
        EXPECT_NE(output.find("dlsim: error: "), std::string::npos) << c.name << ": " << output;
        for (const auto& word : c.words)
        {
            EXPECT_NE(output.find(word), std::string::npos)
                << c.name << ": no '" << word << "' in: " << output;
        }
    }
    fs::remove_all(dir);
}

} // namespace
} // namespace ns3
