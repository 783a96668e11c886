// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning (learning core, no ns-3 dependencies).
 *
 * Benchmark of ns3::WaveletTransform: forward + inverse multilevel DWT of
 * 1e5 and 1e6 float32 values with sym2, 4 levels, mode "symmetric", next to
 * PyWavelets doing the same work, timed in the same run through
 * /usr/bin/python3 (Debian's python3-pywt). If python or pywt is missing the
 * program says so and prints only our figures.
 *
 * "The same work" for pywt is: wavedec + concatenation into the flat
 * [cA_J, cD_J, ..., cD_1] array (what coeffs_to_array gives for 1-D input),
 * then splitting that array back into bands + waverec + truncation to N.
 * pywt computes in float32 for float32 input; we compute in double.
 *
 * Both sides report the median and minimum over several repetitions after a
 * warm-up, since the machine may be shared with other jobs.
 *
 * Usage: wavelet-benchmark [repetitions]   (default 15)
 */

#include "wavelet-transform.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <sys/wait.h> // WIFEXITED / WEXITSTATUS for pclose()
#include <vector>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

struct Timing
{
    double medianMs = 0.0;
    double minMs = 0.0;
};

Timing
Summarize(std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    Timing t;
    t.minMs = ms.front();
    t.medianMs = ms[ms.size() / 2];
    return t;
}

/// Times our forward + inverse; also returns the round-trip error so that the
/// work cannot be optimized away and a broken build is noticed.
Timing
TimeOurs(size_t n, int reps, double& maxError)
{
    std::mt19937 rng(1);
    std::normal_distribution<float> dist(0.0F, 1.0F);
    std::vector<float> x(n);
    for (auto& v : x)
    {
        v = dist(rng);
    }
    WaveletTransform wt("sym2", 4, n);
    std::vector<float> coeffs(wt.OutputLength());
    std::vector<float> back(n);

    wt.Forward(x.data(), coeffs.data()); // warm-up: page in all buffers
    wt.Inverse(coeffs.data(), back.data());

    std::vector<double> ms;
    for (int r = 0; r < reps; ++r)
    {
        auto t0 = std::chrono::steady_clock::now();
        wt.Forward(x.data(), coeffs.data());
        wt.Inverse(coeffs.data(), back.data());
        auto t1 = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    maxError = 0.0;
    for (size_t i = 0; i < n; ++i)
    {
        maxError = std::max(maxError, static_cast<double>(std::fabs(back[i] - x[i])));
    }
    return Summarize(ms);
}

/**
 * Runs the pywt side in one python process. Returns the timings by N, empty
 * with a reason in @p why if python or pywt is unavailable. The python code
 * must not contain single quotes (it is passed in '...' to /bin/sh).
 */
std::map<size_t, Timing>
TimePywt(const std::vector<size_t>& sizes, int reps, std::string& why)
{
    std::ostringstream sizeList;
    for (size_t n : sizes)
    {
        sizeList << n << ",";
    }
    const std::string code
        = "import sys, time\n"
          "try:\n"
          "    import numpy as np, pywt\n"
          "except Exception as e:\n"
          "    print(\"MISSING\", repr(e)); sys.exit(0)\n"
          "print(\"VERSION\", pywt.__version__)\n"
          "reps = "
          + std::to_string(reps)
          + "\n"
            "for n in ("
          + sizeList.str()
          + "):\n"
            "    x = np.random.default_rng(1).standard_normal(n).astype(np.float32)\n"
            "    def work():\n"
            "        c = pywt.wavedec(x, \"sym2\", mode=\"symmetric\", level=4)\n"
            "        flat = np.concatenate(c)\n"
            "        parts = np.split(flat, np.cumsum([len(a) for a in c])[:-1])\n"
            "        return pywt.waverec(parts, \"sym2\", mode=\"symmetric\")[:n]\n"
            "    work()\n"
            "    ts = []\n"
            "    for r in range(reps):\n"
            "        t0 = time.perf_counter(); y = work(); ts.append(time.perf_counter() - t0)\n"
            "    ts.sort()\n"
            "    print(\"PYWT\", n, 1e3 * ts[len(ts) // 2], 1e3 * ts[0])\n";
    const std::string command = "/usr/bin/python3 -c '" + code + "' 2>&1";

    std::map<size_t, Timing> result;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr)
    {
        why = "could not start /usr/bin/python3";
        return result;
    }
    std::string output;
    std::array<char, 512> buffer{};
    while (fgets(buffer.data(), buffer.size(), pipe) != nullptr)
    {
        output += buffer.data();
    }
    const int status = pclose(pipe);

    std::istringstream lines(output);
    std::string line;
    while (std::getline(lines, line))
    {
        std::istringstream in(line);
        std::string tag;
        in >> tag;
        if (tag == "MISSING")
        {
            why = "pywt/numpy not importable by /usr/bin/python3:" + line.substr(7);
            return {};
        }
        if (tag == "VERSION")
        {
            in >> why; // reused to carry the version on success
        }
        else if (tag == "PYWT")
        {
            size_t n = 0;
            Timing t;
            in >> n >> t.medianMs >> t.minMs;
            if (in)
            {
                result[n] = t;
            }
        }
    }
    if (result.size() != sizes.size())
    {
        const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        std::string excerpt = output.substr(0, 300);
        while (!excerpt.empty() && std::isspace(static_cast<unsigned char>(excerpt.back())))
        {
            excerpt.pop_back();
        }
        why = "python run failed (exit code " + std::to_string(code) + "): " + excerpt;
        return {};
    }
    return result;
}

} // namespace
} // namespace ns3

int
main(int argc, char** argv)
{
    using namespace ns3;
    const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
    const std::vector<size_t> sizes = {100000, 1000000};

    std::printf("WaveletTransform benchmark: sym2, 4 levels, mode symmetric, "
                "forward + inverse, float32 in/out, %d repetitions\n",
                reps);

    std::string why;
    const std::map<size_t, Timing> pywt = TimePywt(sizes, reps, why);
    if (pywt.empty())
    {
        std::printf("PyWavelets not available (%s); printing only our timings\n", why.c_str());
    }
    else
    {
        std::printf("PyWavelets %s via /usr/bin/python3 (wavedec + concatenate, split + "
                    "waverec)\n",
                    why.c_str());
    }

    std::printf("%10s  %22s  %22s  %8s  %s\n",
                "N",
                "ours ms median (min)",
                "pywt ms median (min)",
                "speedup",
                "round-trip max err");
    for (size_t n : sizes)
    {
        double maxError = 0.0;
        const Timing ours = TimeOurs(n, reps, maxError);
        char oursText[64];
        std::snprintf(oursText, sizeof(oursText), "%.3f (%.3f)", ours.medianMs, ours.minMs);
        char pywtText[64] = "n/a";
        char speedText[32] = "n/a";
        auto it = pywt.find(n);
        if (it != pywt.end())
        {
            std::snprintf(
                pywtText, sizeof(pywtText), "%.3f (%.3f)", it->second.medianMs, it->second.minMs);
            std::snprintf(
                speedText, sizeof(speedText), "%.2fx", it->second.medianMs / ours.medianMs);
        }
        std::printf("%10zu  %22s  %22s  %8s  %.3g\n", n, oursText, pywtText, speedText, maxError);
    }
    return 0;
}
