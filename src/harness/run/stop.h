/* Stopping a run cleanly. SIGINT (Ctrl-C) and SIGTERM ask the run to stop at
 * the next variant boundary, so that the results document is rewritten with
 * everything finished and the process exits with 128 + the signal's number
 * (130, 143), as a shell expects. A second signal ends the process at once. */
#ifndef LADDER_STOP_H
#define LADDER_STOP_H

/* Install the handlers for SIGINT and SIGTERM. */
void ladder_stop_on_signals(void);

/* The signal that asked the run to stop, or 0. */
int ladder_stop_signal(void);

/* "SIGINT", "SIGTERM", or NULL when no stop was asked. */
const char *ladder_stop_signal_name(void);

/* The conventional exit code after the signal: 128 + its number. */
int ladder_stop_exit_code(void);

#endif
