/* exp_registry.c - the experiments of `pagelab reproduce`, in order. */
#include "experiment.h"

extern const struct experiment exp1_pageaging, exp2_dbench, exp3_mtest01, exp4_splitlru,
	exp5_scalability;

const struct experiment *const experiments[] = {
	&exp1_pageaging,
	&exp2_dbench,
	&exp3_mtest01,
	&exp4_splitlru,
	&exp5_scalability,
	NULL,
};
