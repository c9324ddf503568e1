/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The checksums measured as an application calls them: a program outside
 * the library, built against the installed xcodec (bench/installed/
 * CMakeLists.txt makes one linked with the shared library and one with the
 * static one), that runs the checksum part of `xcodec bench`
 * (programs/bench_sums.c) beside ISA-L and DPDK.
 *
 *     xcodec-sums [--json] [--quick] [--rounds N] [--only crc32c|inet] [--max BYTES]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xcodec.h>

#include "bench.h"

#ifndef XC_SUMS_LINK
#  define XC_SUMS_LINK "unknown"
#endif

int main(int argc, char **argv)
{
    struct xc_bench_cfg cfg = {7, 0.05, 1.5, 0, NULL, 0, 0, 0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            cfg.json = 1;
        } else if (strcmp(argv[i], "--quick") == 0) {
            cfg.rounds = 2;
            cfg.round_s = 0.01;
        } else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            cfg.rounds = atoi(argv[++i]);
            if (cfg.rounds < 1) cfg.rounds = 1;
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            cfg.sums_only = argv[++i];
        } else if (strcmp(argv[i], "--max") == 0 && i + 1 < argc) {
            cfg.sums_max = (size_t)strtoull(argv[++i], NULL, 10);
        } else {
            fprintf(stderr, "usage: %s [--json] [--quick] [--rounds N] [--only crc32c|inet] "
                            "[--max BYTES]\n",
                    argv[0]);
            return 2;
        }
    }
    if (cfg.json) {
        printf("{\n  \"link\": \"%s\",\n  \"xcodec\": ", XC_SUMS_LINK);
        xc_json_string(stdout, xc_version_string());
        printf(",\n  \"cpucap\": ");
        xc_json_string(stdout, xc_cpucap_describe());
        printf(",\n  \"crc32c_impl\": ");
        xc_json_string(stdout, xc_impl_name("crc32c"));
        printf(",\n  \"inet_impl\": ");
        xc_json_string(stdout, xc_impl_name("inet"));
        printf(",\n  \"rounds\": %d,\n", cfg.rounds);
    } else {
        printf("xcodec %s (%s library): %s; crc32c %s, inet %s\n", xc_version_string(),
               XC_SUMS_LINK, xc_cpucap_describe(), xc_impl_name("crc32c"), xc_impl_name("inet"));
    }
    int rc = xc_bench_sums(&cfg);
    if (cfg.json) printf("  \"ok\": %s\n}\n", rc == 0 ? "true" : "false");
    return rc == 0 ? 0 : 1;
}
