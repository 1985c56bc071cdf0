/* inputs.c - a cell's input files (inputs.h): the walk of
 * src/native/prepare.c over the attached generators, in its simulator
 * mode (/dev/ and /ramfs/ names exist there), each input made on the
 * simulated disk. */
#include "inputs.h"
#include "runspec.h"
#include "../native/native.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>

bool cell_make_inputs(struct machine *m, const struct cell *c, const struct workload_ops *const *ops,
		      void *const *w, char *err, size_t errlen)
{
	struct nworkload nw[EXP_MAX_WL];
	char copy[EXP_MAX_WL][1024], *argv[EXP_MAX_WL][128];
	for (int i = 0; i < c->nr_wl; i++) {
		snprintf(copy[i], sizeof(copy[i]), "%s", c->wl[i]);
		int argc = cell_split_args(copy[i], argv[i], 127);
		argv[i][argc] = NULL;
		nw[i] = (struct nworkload){ .ops = ops[i], .argc = argc, .argv = argv[i],
					    .seed = runspec_seed(c->mo.seed, i), .cmd = (char *)c->wl[i] };
	}
	struct nplan plan;
	if (!nplan_build(&plan, nw, w, c->nr_wl, true, err, errlen))
		return false;
	bool ok = true;
	for (int i = 0; i < plan.ninputs && ok; i++)
		if (!machine_add_file(m, plan.inputs[i].name, plan.inputs[i].npages)) {
			snprintf(err, errlen, "input %s exists already", plan.inputs[i].name);
			ok = false;
		}
	nplan_free(&plan);
	return ok;
}
