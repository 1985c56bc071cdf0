/* library.c - libpagelab with policy plugins (tests/cli.d/plugins.sh
 * builds it against build/libpagelab.a): usemem under each policy named
 * on the command line, a built-in name or a plugin's path, in one
 * process.  Prints per policy "POLICY: rc N pswpout N" or "POLICY: error
 * MESSAGE": a plugin that breaks the rules is an error of pagelab_run(),
 * and the program goes on to the next policy. */
#include <pagelab.h>

#include <stdio.h>

/* A machine whose run stopped halfway (the broken plugin) can only be
 * dropped, and the library leaks it by design (src/api/pagelab.c): under
 * make sancheck, LeakSanitizer must not count that. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		pagelab_sim *s = pagelab_new("vmm-2008");
		const char *w[] = { "usemem", "-m", "24" };
		if (!s || pagelab_set(s, "ram", "16M") || pagelab_set(s, "swap", "32M") ||
		    pagelab_set_policy(s, argv[i]) || pagelab_add_workload(s, 3, w)) {
			printf("%s: error %s\n", argv[i], pagelab_error(s));
			pagelab_free(s);
			continue;
		}
		int rc = pagelab_run(s);
		uint64_t out = 0;
		if (rc < 0)
			printf("%s: error %s\n", argv[i], pagelab_error(s));
		else if (pagelab_counter(s, "pswpout", &out) == 0)
			printf("%s: rc %d pswpout %llu\n", argv[i], rc, (unsigned long long)out);
		pagelab_free(s);
	}
	return 0;
}
