/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Threads in the xcodec command: what -T0 counts as cores
 * (--auto-threads=physical, the default as in zstd, or logical), and the
 * one function that turns -T# into the library's worker count.
 *
 * Logical cores are what sysconf(_SC_NPROCESSORS_ONLN) reports.  Physical
 * cores are the distinct sets of hardware threads that share a core: Linux
 * lists, for each CPU, the CPUs of its core in
 * /sys/devices/system/cpu/cpuN/topology/core_cpus_list (thread_siblings_list
 * before Linux 5.7, and beside it since), so two CPUs of one core print the
 * same list and the count of different lists is the count of cores.  Where
 * neither file can be read (another system, a container hiding sysfs) the
 * logical count stands in.  XCODEC_TEST_SYSFS_CPU replaces the directory,
 * for tests/cli/run.sh.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Reads the first line of dir/name/topology/file into buf; 0 on success. */
static int read_list(const char *dir, const char *name, const char *file, char *buf, size_t cap)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s/topology/%s", dir, name, file) >= (int)sizeof path)
        return -1;
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int const ok = fgets(buf, (int)cap, f) != NULL;
    fclose(f);
    if (!ok) return -1;
    buf[strcspn(buf, "\n")] = '\0';
    return buf[0] ? 0 : -1;
}

static int is_cpu_dir(const char *name)
{
    if (strncmp(name, "cpu", 3) != 0 || !name[3]) return 0;
    for (const char *p = name + 3; *p; p++)
        if (*p < '0' || *p > '9') return 0;
    return 1;
}

/* The number of physical cores, or 0 when the topology cannot be read. */
static long physical_cores(void)
{
    const char *dir = getenv("XCODEC_TEST_SYSFS_CPU");
    if (!dir || !*dir) dir = "/sys/devices/system/cpu";
    DIR *d = opendir(dir);
    if (!d) return 0;
    char **lists = NULL;
    size_t n = 0, cap = 0;
    long cores = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_cpu_dir(e->d_name)) continue;
        char buf[1024];
        if (read_list(dir, e->d_name, "core_cpus_list", buf, sizeof buf) &&
            read_list(dir, e->d_name, "thread_siblings_list", buf, sizeof buf))
            continue; /* offline, or no topology: not counted */
        size_t i = 0;
        while (i < n && strcmp(lists[i], buf) != 0) i++;
        if (i < n) continue;
        if (n == cap) {
            size_t const c2 = cap ? 2 * cap : 16;
            char **const l2 = (char **)realloc(lists, c2 * sizeof *l2);
            if (!l2) break;
            lists = l2;
            cap = c2;
        }
        if (!(lists[n] = strdup(buf))) break;
        n++;
    }
    closedir(d);
    cores = (long)n;
    for (size_t i = 0; i < n; i++) free(lists[i]);
    free(lists);
    return cores;
}

long xc_cli_count_cores(int logical)
{
    long const online = sysconf(_SC_NPROCESSORS_ONLN);
    long const all = online > 0 ? online : 1;
    if (logical) return all;
    long const cores = physical_cores();
    return cores > 0 ? cores : all;
}

int xc_cli_apply_threads(xc_zstd_cctx *cctx, int threads, int logical)
{
    static int noted;
    int workers = threads;
    if (threads == 0) {
        long const n = xc_cli_count_cores(logical);
        workers = (int)(n > 256 ? 256 : n);
        if (!noted) {
            /* zstd's note, with its words, at its level (-v). */
            if (xc_cli_verbosity >= 3)
                fprintf(stderr, "Note: %d %s core(s) detected \n", workers,
                        logical ? "logical" : "physical");
            noted = 1;
        }
    }
    if (workers <= 1) return 0; /* one thread: the caller's, as --single-thread */
    size_t r = xc_zstd_cctx_set(cctx, XC_ZSTD_C_NB_WORKERS, workers);
    if (!xc_is_error(r)) return 0;
    if (threads == 0) return 0; /* -T0 (zstdmt): as many as there are, here one */
    xc_cli_msg(1, "-T%d: this build of the library compresses in one thread only "
                  "(built with XCODEC_THREADS=OFF); use -T1 or --single-thread",
               threads);
    return -1;
}
