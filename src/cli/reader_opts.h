/* reader_opts.h - the trace reader's options (--format, --spec,
 * --no-instructions, --max-request), one group of the option tables
 * (opt.h) for mrc and trace, parsed by trace_reader_option() as the
 * trace workload parses them (src/trace/args.c). */
#ifndef PAGELAB_CLI_READER_OPTS_H
#define PAGELAB_CLI_READER_OPTS_H

#include "opt.h"

/* { .kind = OPT_GROUP, .group = reader_opts, .at = offsetof the
 * command's struct trace_opts } */
extern const struct opt reader_opts[];

#endif
