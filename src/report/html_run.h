/* html_run.h - `pagelab run --html FILE`: one run as a self-contained page
 * (htmlpage.h): a provenance header (pagelab version, command line, date,
 * the machine and every parameter of it), the time(1) figures of each
 * workload, timelines from the run's vmstat samples on one shared time
 * axis (free memory and swap used, swap in and out, pages scanned, the
 * LRU's sizes, CPU), with a marker where a workload was OOM-killed and
 * where the run stopped at --max-time, the kernel messages and the
 * /proc/vmstat counters. */
#ifndef PAGELAB_HTML_RUN_H
#define PAGELAB_HTML_RUN_H

#include <stdio.h>
#include "report.h"

/* The interval --html's timelines sample at: vmstat's when --vmstat is
 * not given, their own series (opt.timeline_ns) when it is longer. */
#define HTML_VMSTAT_NS 50000000ULL

/* The points a timeline holds at most (the chart's own limit, whose
 * every-n-th drawing gives the same lines), and which samples it takes:
 * one in timeline_stride(nr_samples). */
#define TIMELINE_POINTS 600
uint64_t timeline_stride(uint64_t nr_samples);

/* Drawn from the run's result alone. */
void report_html(const struct run_result *rr, const struct run_info *ri, FILE *out);

#endif
