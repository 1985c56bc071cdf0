/* exp2_dbench.c - experiment 2: Andrea Arcangeli's "vm rewrite ready [Re:
 * broken VM in 2.4.10-pre9]", 16 Sep 2001 (threads/000_d87e8cfffa6f6fd8.txt,
 * one long line): dbench 40 on his machine, 2.4.10-pre9 (Rik van Riel's
 * aging VM: riel24) against the same kernel with his classzone VM rewrite
 * (aa24); two runs before, four after.
 *
 * The machine: the message names only the host ("athlon", "laser"); pagelab
 * uses the athlon-2001 profile (1 CPU, 512 MB, ATA disk), an assumption.
 * Quick mode: RAM x1/16 and a sixteenth of the clients, one run each (the
 * whole of pagelab reproduce must stay under a minute), so the clients' files
 * (about 25 MB each) keep their ratio to RAM. */
#include "experiment.h"
#include "exp_text.h"
#include "exp_named.h"

#include <string.h>

/* dbench 1.x's figure, 132 MB x clients / seconds: read from its own
 * Throughput line, else computed with the same formula. */
static bool throughput(const struct exp_result *r, const struct exp_metric *mt,
		       const struct run_result *rr, double *v)
{
	(void)r;
	if (mt->wl >= rr->nr_wl || !rr->wl[mt->wl].done)
		return false;
	const struct wl_result *w = &rr->wl[mt->wl];
	if (exp_number_after(w->output, "Throughput", v))
		return true;
	double n;
	if (!exp_cmd_number(w->cmd, "", &n) || w->tf.elapsed <= 0)
		return false;
	*v = 132.0 * n / w->tf.elapsed;
	return true;
}

#define T0 "000_d87e8cfffa6f6fd8.txt"

static const char *const pub_before[] = {
	"Throughput 9.40112 MB/sec (NB.7514 MB/sec 94.0112 MBit/sec)",
	"Throughput 9.56469 MB/sec (NB.9559 MB/sec 95.6469 MBit/sec)",
};
static const char *const pub_after[] = {
	"Throughput 20.353 MB/sec (NB%.4412 MB/sec 203.53 MBit/sec)",
	"Throughput 20.9269 MB/sec (NB&.1586 MB/sec 209.269 MBit/sec)",
	"Throughput 21.0787 MB/sec (NB&.3483 MB/sec 210.787 MBit/sec)",
	"Throughput 21.6167 MB/sec (NB'.0208 MB/sec 216.167 MBit/sec)",
};

static void print(const struct exp_result *r, FILE *out)
{
	const struct experiment *e = r->e;
	char cmd[128];
	exp_expand(r, e->runs[0].wl[0], cmd, sizeof(cmd));
	exp_wrap(out, "", 0, "%s%s%s%s", e->runs[0].title, r->full ? "" : "   (quick mode: ", r->full ? "" : cmd,
		 r->full ? "" : ")");
	fprintf(out, "(the thread's lines as archived; \"NB=\" was mangled by quoted-printable)\n");
	for (int d = 0; d < e->nr_designs; d++) {
		const struct exp_design *ds = &e->designs[d];
		fprintf(out, "%s%*s[%s]\n", ds->label, (int)(28 - strlen(ds->label)), "", ds->policy);
		/* 000_d87e8cfffa6f6fd8.txt:1 */
		const char *const *pub = d == 0 ? pub_before : d == 1 ? pub_after : NULL;
		for (int i = 0; pub && i < (d == 0 ? 2 : 4); i++)
			fprintf(out, "    thread    %s\n", pub[i]);
		const struct run_result *rr = exp_rr(r, d, 0, 0);
		if (!rr->available) {
			exp_print_unavailable(r, d, 0, "    ", out);
			continue;
		}
		for (int k = 0; k < exp_reps(r, 0); k++) {
			const struct run_result *x = exp_rr(r, d, 0, k);
			double v;
			if (x->nr_wl && x->wl[0].output && strstr(x->wl[0].output, "Throughput"))
				exp_print_output(r, d, 0, k, 0, "    ", out);
			else if (throughput(r, &e->metrics[0], x, &v))
				fprintf(out, "    pagelab   Throughput %g MB/sec (132 MB x clients / %.3f s)\n", v, x->wl[0].tf.elapsed);
			else
				fprintf(out, "    pagelab   did not finish\n");
		}
	}
}

/* For the experiment files: the printer and metric functions by name. */
const struct exp_named_printer exp2_printer = { "exp2_dbench", print };
const struct exp_named_metric exp2_metric_fns[] = {
	{ "throughput", throughput },
	{ NULL, NULL },
};
