/* One line on stderr that a long run rewrites in place: the case (i of N),
 * the variant (j of M), the time since the run started. Only when stderr is a
 * terminal and the user did not ask for --quiet: a log file gets none of it. */
#ifndef LADDER_PROGRESS_H
#define LADDER_PROGRESS_H

void ladder_progress_enable(int enabled);
void ladder_progress_case(int index, int count, const char *name);
void ladder_progress_variant(int index, int count, const char *name);
/* Erase the line, before anything else is printed to the terminal. */
void ladder_progress_clear(void);

#endif
