/* test_calprofile.c - pagelab kernel --calibrate's profile: the kernel
 * paths' derived figures (calib_derive.c) from hand-made rounds, and the
 * profile file written with them reads back with each value and its
 * source line (calibrate_profile.c, src/machine/profile_file.c). */
#include "test.h"
#include "../src/native/calibrate.h"
#include "../src/machine/profile_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Round r: drop 100, pageout 1000 + 10 r, zap 50; 4 KiB read 30 000 +
 * r, 1 MiB read 30 000 + r + 255 x 400: unmap_walk 850 + 10 r,
 * io_page 400, io_submit 29 600 + r. */
static void hand_rounds(double ns[NR_CALP][CAL_ROUNDS])
{
	for (int r = 0; r < CAL_ROUNDS; r++) {
		ns[CALP_DROP][r] = 100;
		ns[CALP_PAGEOUT_FILE][r] = 1000 + 10 * r;
		ns[CALP_ZAP][r] = 50;
		ns[CALP_PAGEOUT_ANON][r] = 8000;
		ns[CALP_DIO_4K][r] = 50000;
		ns[CALP_DIO_1M][r] = 150000;
		ns[CALP_AIO_4K][r] = 30000 + r;
		ns[CALP_AIO_1M][r] = 30000 + r + 255 * 400;
	}
}

void test_calprofile_derived_figures(void)
{
	struct cal_fig f[NR_CAL];
	double ns[NR_CALP][CAL_ROUNDS];
	cal_init(f);
	hand_rounds(ns);
	cal_paths_figs(f, ns, CAL_ROUNDS, "");
	CHECK_EQ(f[CAL_UNMAP].rounds, CAL_ROUNDS);
	CHECK(f[CAL_UNMAP].median == 900 && f[CAL_UNMAP].min == 850 && f[CAL_UNMAP].max == 950);
	CHECK(f[CAL_REFWALK].value == 900);
	CHECK(f[CAL_IO_PAGE].median == 400);
	CHECK(f[CAL_IO_SUBMIT].median == 29605 && f[CAL_IO_SUBMIT].min == 29600);
	CHECK(f[CAL_ZAP].value == 50 && f[CAL_ZAP].per_round == CALP_PAGES);
	CHECK(f[CAL_DIO_1M].per_round == CALP_DIO_BIG);
	CHECK_EQ(f[CAL_IO_COMPLETE].rounds, 0);
	CHECK(strstr(f[CAL_IO_COMPLETE].why, "not separable") != NULL);
	/* a difference noise takes below 0 is a median below 0, a value of 0 */
	for (int r = 0; r < CAL_ROUNDS; r++)
		ns[CALP_PAGEOUT_FILE][r] = 120;
	cal_paths_figs(f, ns, CAL_ROUNDS, "");
	CHECK(f[CAL_UNMAP].median == -30 && f[CAL_UNMAP].value == 0);
}

void test_calprofile_unmeasured_paths(void)
{
	struct cal_fig f[NR_CAL];
	double ns[NR_CALP][CAL_ROUNDS] = { { 0 } };
	cal_init(f);
	cal_paths_figs(f, ns, 0, "needs root");
	for (int i = CAL_DROP; i < NR_CAL; i++) {
		CHECK_EQ(f[i].rounds, 0);
		CHECK(!strcmp(f[i].why, "needs root"));
	}
	/* unmap_pte unmeasured: cost.rmap stays the composed rmap's */
	cal_pick_rmap(f);
	CHECK(f[CAL_ZAP].param == NULL);
	CHECK(f[CAL_RMAP].param && !strcmp(f[CAL_RMAP].param, "cost.rmap"));
}

/* Every user-space figure measured as 7 ns (rmap 2 000), the paths from
 * hand_rounds(); written, then read back. */
void test_calprofile_writes_and_reads_new_keys(void)
{
	struct cal_fig f[NR_CAL];
	double ns[NR_CALP][CAL_ROUNDS];
	cal_init(f);
	for (int i = 0; i < CAL_DROP; i++) {
		f[i].rounds = CAL_ROUNDS;
		f[i].median = f[i].min = f[i].max = f[i].value = i == CAL_RMAP ? 2000 : 7;
	}
	hand_rounds(ns);
	cal_paths_figs(f, ns, CAL_ROUNDS, "");
	cal_pick_rmap(f);
	char path[] = "/tmp/pagelab-calprofile.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	FILE *out = fdopen(fd, "w");
	cal_write_profile(f, out);
	fclose(out);
	struct profile p;
	char err[300] = "";
	bool ok = profile_load_file(path, &p, err, sizeof(err));
	CHECK(ok);
	if (!ok)
		fprintf(stderr, "%s\n", err);
	struct { const char *name, *value; } want[] = {
		{ "cost.rmap", "50ns" },           /* unmap_pte's, not the composed 2 000 */
		{ "cost.try_to_unmap", "900ns" },
		{ "cost.folio_referenced", "900ns" },
		{ "cost.io_submit", "29605ns" },
		{ "cost.io_complete", "3us" },     /* modern's: not measured */
		{ "cost.zero_page", "7ns" },
	};
	for (size_t i = 0; ok && i < sizeof(want) / sizeof(want[0]); i++) {
		char v[64] = "";
		CHECK(profile_param_value(&p, want[i].name, v, sizeof(v)));
		if (strcmp(v, want[i].value))
			fprintf(stderr, "%s = %s, want %s\n", want[i].name, v, want[i].value);
		CHECK(!strcmp(v, want[i].value));
	}
	/* each new key under the line saying where it comes from */
	char text[16384];
	FILE *in = fopen(path, "r");
	size_t n = in ? fread(text, 1, sizeof(text) - 1, in) : 0;
	text[n] = 0;
	if (in)
		fclose(in);
	CHECK(strstr(text, "# cost.rmap: bench unmap_pte, median of 11 rounds (50.0..50.0 ns a pte)") != NULL);
	CHECK(strstr(text, "# cost.try_to_unmap: bench unmap_walk, median of 11 rounds (850.0..950.0") != NULL);
	CHECK(strstr(text, "# cost.folio_referenced: bench ref_walk, median of 11 rounds") != NULL);
	CHECK(strstr(text, "# cost.io_submit: bench io_submit, median of 11 rounds") != NULL);
	CHECK(strstr(text, "# cost.io_complete: default, modern's (not measured: not separable") != NULL);
	unlink(path);
}
