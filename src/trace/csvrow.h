/* csvrow.h - what the csv and block formats share: the column spec
 * (libCacheSim's -t "time-col=1, obj-id-col=5, ..." syntax), delimiter and
 * header detection (libCacheSim's rules), splitting a row into fields and
 * reading an op column.  Internal to src/trace/. */
#ifndef PAGELAB_TRACE_CSVROW_H
#define PAGELAB_TRACE_CSVROW_H

#include "format.h"

#define CSV_MAX_FIELDS 64

struct csv_spec {
	int id_col, time_col, size_col, op_col;   /* 1-based, 0 = none */
	char delim;                               /* 0 = detect */
	int has_header;                           /* -1 = detect */
	bool id_is_num;                           /* obj-id-is-num (default true) */
};

/* The csv/block reader's state. */
struct csv_state {
	struct csv_spec sp;
	bool skip_header;
	char *field[CSV_MAX_FIELDS];
	size_t flen[CSV_MAX_FIELDS];
};

/* Parse "key=value, key=value" into sp (keys: obj-id-col, time-col,
 * obj-size-col, op-col, delimiter, has-header, obj-id-is-num; block
 * traces say offset-col for obj-id-col and size-col for obj-size-col). */
bool csv_spec_parse(const char *s, struct csv_spec *sp, char *err, size_t errlen);
/* Set up the state from the spec, the first line of the input (delimiter,
 * header and, from the header's names, columns the spec leaves out). */
bool csv_setup(struct trace_reader *r, struct csv_state *cs, const char *const *id_names,
	       char *err, size_t errlen);
/* The next data row split into fields: 1, 0 at the end, -1 on error. */
int csv_row(struct trace_reader *r, struct csv_state *cs, size_t *nf);
/* Field col (1-based) as a number; reports "missing column" / "bad ..." */
bool csv_num(struct trace_reader *r, struct csv_state *cs, size_t nf, int col, const char *what, uint64_t *v);
/* The time column (if any) into *time and the op column (if any) as a
 * write flag: true, or false after reporting the error. */
bool csv_time_op(struct trace_reader *r, struct csv_state *cs, size_t nf, uint64_t *time, int *write);
/* 1 write, 0 read (r, read, get, w, write, set, put..., SCSI opcodes 28/2a
 * and kin), after reporting an unknown op -1. */
int csv_op(struct trace_reader *r, struct csv_state *cs, size_t nf);

#endif
