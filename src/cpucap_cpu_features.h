/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The library's x64 feature bits from cpu_features' report: one mapping,
 * for cpucap.c where cpu_features detects the CPU (builds without IFUNC)
 * and for the test that checks cpucap's own CPUID reading against it.
 * Include it after <cpu_features/cpuinfo_x86.h>.
 *
 * What it may call: cpu_features' types (data only).
 */
#ifndef XC_CPUCAP_CPU_FEATURES_H
#define XC_CPUCAP_CPU_FEATURES_H

#include <string.h>

#include "cpucap.h"

static inline unsigned xc_cpu_x64_from_cpu_features(const X86Info *info)
{
    const X86Features *const x = &info->features;
    unsigned f = 0;
    if (!!x->sse4_2 && !!x->ssse3 && !!x->popcnt) f |= XC_CPU_X64_SSE42;
    if ((f & XC_CPU_X64_SSE42) && !!x->pclmulqdq) f |= XC_CPU_X64_PCLMUL;
    /* cpu_features only reports AVX/AVX2/AVX-512 when XCR0 says the OS saves
     * the YMM/ZMM state. */
    if (!!x->avx && !!x->avx2) f |= XC_CPU_X64_AVX2;
    if (!!x->bmi1 && !!x->bmi2) f |= XC_CPU_X64_BMI2;
    if ((f & XC_CPU_X64_AVX2) && !!x->avx512f && !!x->avx512bw && !!x->avx512vl &&
        !!x->avx512dq)
        f |= XC_CPU_X64_AVX512;
    if ((f & XC_CPU_X64_AVX512) && !!x->vpclmulqdq) f |= XC_CPU_X64_VPCLMUL;
    if ((f & XC_CPU_X64_AVX512) && !!x->avx512vnni) f |= XC_CPU_X64_VNNI;
    /* cpu_features' family is the base family plus the extended one. */
    if ((f & XC_CPU_X64_VPCLMUL) && info->family == 0x1A &&
        strcmp(info->vendor, "AuthenticAMD") == 0)
        f |= XC_CPU_X64_ZEN5;
    return f;
}

#endif
