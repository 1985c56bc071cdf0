/* cli.h - the subcommands of the pagelab command. */
#ifndef PAGELAB_CLI_H
#define PAGELAB_CLI_H

int cmd_run(int argc, char **argv);
int cmd_policies(int argc, char **argv);
int cmd_workloads(int argc, char **argv);
int cmd_machines(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);
int cmd_kernel(int argc, char **argv);

/* argv[0..argc) joined by spaces (a workload's command line), malloc'd. */
char *cli_join_args(int argc, char **argv);

#endif
